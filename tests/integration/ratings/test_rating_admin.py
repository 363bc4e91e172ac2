from __future__ import annotations

from typing import Any

import pytest

from ratings import services

pytestmark = pytest.mark.django_db


def test_admin_lists_ratings_and_changes_read_only(
    client: Any, admin_user: Any, record_game: Any, players: Any
) -> None:
    ann, ben = players(2)
    services.rating_apply_game(record_game(ann, ben, 0))
    client.force_login(admin_user)
    for model in ("rating", "ratingchange"):
        listing = client.get(f"/admin/ratings/{model}/", {"q": "P1"})
        assert listing.status_code == 200
        assert "P1" in listing.content.decode()
        assert client.get(f"/admin/ratings/{model}/add/").status_code == 403
    filtered = client.get(
        "/admin/ratings/rating/", {"family": "kugamai", "is_provisional__exact": "1"}
    )
    assert filtered.status_code == 200
