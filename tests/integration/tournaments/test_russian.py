"""The apps in Russian: plural forms of game counts, and a service's refusal through the API
in the language of Accept-Language (field names and codes stay as they are)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.utils import translation

from games.series.format import MatchScore
from matches.texts import score_text
from players.counts import games_count
from tournaments.standings.tiebreaks import REGISTRY
from tournaments.texts import tiebreak_name

COUNTS = (1, 2, 5, 21, 22)


@pytest.fixture(autouse=True)
def _default_language_after() -> Iterator[None]:
    """A request with Accept-Language leaves its language active in the thread (the
    middleware does not switch back): later tests run in the default language again."""
    with translation.override(settings.LANGUAGE_CODE):
        yield


def test_game_counts_take_the_russian_plural_forms() -> None:
    with translation.override("ru"):
        assert [games_count(n) for n in COUNTS] == [
            "1 партия", "2 партии", "5 партий", "21 партия", "22 партии"]
        assert [score_text(MatchScore(3, 2, n)) for n in COUNTS] == [
            "3-2 (1 ничья)", "3-2 (2 ничьи)", "3-2 (5 ничьих)", "3-2 (21 ничья)",
            "3-2 (22 ничьи)"]
    with translation.override("en-gb"):
        assert [games_count(n) for n in (1, 2, 21)] == ["1 game", "2 games", "21 games"]
        assert score_text(MatchScore(3, 2, 1)) == "3-2 (1 drawn)"


def test_tiebreak_names_in_russian_keep_the_fide_abbreviations() -> None:
    with translation.override("ru"):
        names = {cls.abbreviation: tiebreak_name(cls) for cls in REGISTRY.values()}
    assert names["BH"] == "Бухгольц" and names["BH-C1"] == "Бухгольц с отсечением 1"
    assert names["SB"] == "Зоннеборн-Бергер" and names["DE"] == "Личная встреча"
    assert names["WIN"] == "Число побед"


@pytest.mark.django_db
def test_a_service_refusal_follows_accept_language(as_user: Any, organizer: Any,
                                                   make_tournament: Any) -> None:
    tournament = make_tournament("round_robin", entrants=4)
    client = as_user(organizer)
    url = f"/api/tournaments/{tournament.pk}/pair-next-round/"
    assert client.post(url).status_code == 201
    russian = client.post(url, HTTP_ACCEPT_LANGUAGE="ru")
    english = client.post(url, HTTP_ACCEPT_LANGUAGE="en")
    assert russian.status_code == english.status_code == 400
    body = russian.json()
    assert body["detail"] == ("В 1‑м туре не хватает 2 результатов (доски 1, 2): внесите их "
                              "до жеребьёвки 2‑го тура.")
    assert set(body) == set(english.json()) == {"detail", "code", "errors"}
    assert body["code"] == english.json()["code"] == "invalid"
    assert list(body["errors"]) == list(english.json()["errors"]) == ["round"]
    assert english.json()["detail"].startswith("Round 1 still has 2 missing results")


@pytest.mark.django_db
def test_a_result_refused_in_russian_names_the_board(as_user: Any, organizer: Any,
                                                     make_tournament: Any) -> None:
    tournament = make_tournament("round_robin", entrants=4, match_format="bo3")
    client = as_user(organizer)
    paired = client.post(f"/api/tournaments/{tournament.pk}/pair-next-round/").json()
    board = paired["pairings"][0]
    refused = client.post(f"/api/pairings/{board['id']}/result/",
                          {"version": 1, "wins_a": 2, "wins_b": 1, "outcome": "b_wins"},
                          format="json", HTTP_ACCEPT_LANGUAGE="ru")
    assert refused.status_code == 400
    assert refused.json()["errors"] == {"outcome": [refused.json()["detail"]]}
    assert refused.json()["detail"] == "Счёт 2-1 означает «победа A», а не «победа B»."
