"""Fixtures for tournament tests: players and tournaments in any state (the organizer is
club A's, from tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.series.format import MatchScore


@pytest.fixture
def make_players(club_a: Any) -> Callable[..., list[Any]]:
    from players.models import Player
    from tests.worlds import people

    def make(count: int, club: Any = None) -> list[Any]:
        club = club or club_a
        start = Player.objects.count()
        return people(club, (f"Player {start + i + 1}" for i in range(count)))

    return make


@pytest.fixture
def make_tournament(club_a: Any, organizer: Any, make_players: Any) -> Callable[..., Any]:
    """A tournament with ``entrants`` players entered (rating descending), started if asked
    (tests/worlds.py)."""
    from tests.worlds import tournament_of

    def make(format: str = "round_robin", entrants: int = 4, start: bool = True,
             game: str = "kugamai", club: Any = None, actor: Any = None, **fields: Any) -> Any:
        club = club or club_a
        return tournament_of(actor or organizer, club, make_players(entrants, club),
                             name=f"{format} cup", game=game, format=format, start=start,
                             **fields)

    return make


@pytest.fixture
def play_round(organizer: Any) -> Callable[..., Any]:
    """Pair the next round and give every board a result chosen by ``decide(pairing)``."""
    from matches import services as match_services
    from tournaments import services

    def default(pairing: Any) -> MatchScore:
        return MatchScore(1, 0, 0)

    def play(tournament: Any, decide: Callable[[Any], Any] = default) -> Any:
        round_ = services.round_pair_next(actor=organizer, tournament=tournament, release=True)
        for pairing in round_.pairings.filter(outcome="pending"):
            choice = decide(pairing)
            if isinstance(choice, str):
                match_services.result_record(actor=organizer, pairing=pairing, outcome=choice,
                                       expected_version=pairing.version)
            else:
                match_services.result_record(actor=organizer, pairing=pairing, score=choice,
                                       expected_version=pairing.version)
        return round_

    return play
