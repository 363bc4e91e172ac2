"""An illegal move in a game record is refused in the language the client asks for
(``Accept-Language``), naming the move number, the move and the rule; English stays as it
was, and field names and codes do not change."""

from __future__ import annotations

from typing import Any

import pytest

from matches.models import Game
from tests.integration.otb.conftest import boards
from tests.integration.otb.test_match_entry import played_record

pytestmark = pytest.mark.django_db


def _refused(paired: Any, organizer: Any, as_user: Any, language: str) -> tuple[Any, Any]:
    pairing = boards(paired(match_format="fixed4"))[0]
    bad = played_record(0)
    bad["moves"][2] = "0-0"  # the opening tile, laid again on move 3
    answer = as_user(organizer).post(f"/api/pairings/{pairing.pk}/games/",
                                     {"version": 1, "record": bad}, format="json",
                                     HTTP_ACCEPT_LANGUAGE=language)
    return pairing, answer


def test_an_illegal_move_is_refused_in_russian(paired: Any, organizer: Any,
                                               as_user: Any) -> None:
    pairing, answer = _refused(paired, organizer, as_user, "ru")
    assert answer.status_code == 400
    message = answer.json()["errors"]["record"][0]
    assert "ход 3, 0-0: камня 0-0 нет в руке места" in message, message
    assert message.endswith("(он уже на столе)"), message
    assert not Game.objects.filter(pairing=pairing).exists()


def test_the_same_refusal_in_english_is_unchanged(paired: Any, organizer: Any,
                                                  as_user: Any) -> None:
    _, answer = _refused(paired, organizer, as_user, "en-GB")
    assert answer.status_code == 400
    message = answer.json()["errors"]["record"][0]
    assert message.startswith("Game 1 record: move 3, 0-0: tile 0-0 is not in seat "), message
    assert message.endswith("'s hand (it is on the table)"), message
