from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from ratings import services
from ratings.models import Rating, RatingChange

pytestmark = pytest.mark.django_db


def test_command_rebuilds_one_pool(record_game: Any, players: Any, club_b: Any) -> None:
    ann, ben = players(2)
    services.rating_apply_game(record_game(ann, ben, 0, game="kazambi"))
    services.rating_apply_game(record_game(ann, ben, 0, game="kugamai", club=club_b))
    kazambi_before = list(Rating.objects.filter(family="kazambi").values_list("rating"))
    RatingChange.objects.filter(family="kazambi").delete()
    out = StringIO()
    call_command("recompute_ratings", "--club", "alpha", "--game", "anti-kazambi",
                 "--no-progress", stdout=out)
    assert "Recomputed 1 pool, 1 game in" in out.getvalue()
    assert list(Rating.objects.filter(family="kazambi").values_list("rating")) == kazambi_before
    assert RatingChange.objects.filter(family="kazambi").count() == 2


def test_command_rejects_unknown_names(db: Any) -> None:
    with pytest.raises(CommandError, match="Unknown game 'chess'"):
        call_command("recompute_ratings", "--game", "chess", "--no-progress")
    with pytest.raises(CommandError, match="No club"):
        call_command("recompute_ratings", "--club", "nowhere", "--no-progress")


def test_command_shows_a_progress_bar(record_game: Any, players: Any) -> None:
    ann, ben = players(2)
    record_game(ann, ben, 0)
    out, err = StringIO(), StringIO()
    call_command("recompute_ratings", stdout=out, stderr=err)
    assert "1/1" in err.getvalue() and "game" in err.getvalue()
    assert Rating.objects.count() == 2
