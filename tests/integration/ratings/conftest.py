"""Fixtures for rating tests: games recorded straight into the tables, then rated."""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Callable
from typing import Any

import pytest

from matches.models import Game
from players.models import Club, Player, Team
from tournaments.models import Entrant, EntrantKind, Pairing, Round, Tournament

START = dt.datetime(2026, 3, 1, 18, 0, tzinfo=dt.UTC)


class GameMaker:
    """Records games on minimal tournaments (one per club, game and rated flag)."""

    def __init__(self, default_club: Club) -> None:
        self.default_club = default_club
        self.tournaments: dict[tuple[int, str, bool], Tournament] = {}
        self.boards = itertools.count(1)

    def tournament(self, club: Club, game: str, rated: bool) -> Tournament:
        key = (club.pk, game, rated)
        if key not in self.tournaments:
            kind = EntrantKind.TEAMS if game.endswith("pairs") else EntrantKind.PLAYERS
            tournament = Tournament.objects.create(
                club=club, name=f"{game} {len(self.tournaments) + 1}",
                slug=f"t{len(self.tournaments) + 1}", game=game, format="swiss",
                entrant_kind=kind, rated=rated, status="running",
            )
            self.tournaments[key] = tournament
        return self.tournaments[key]

    def __call__(
        self, a: Player | Team, b: Player | Team, winner: int | None, *,
        day: int = 0, game: str = "kugamai", club: Club | None = None, rated: bool = True,
        record: dict[str, Any] | None = None, termination: str = "normal", round: int = 1,
    ) -> Game:
        """A game on a new board of ``round`` (rounds are created in number order, as
        pairing makes them, so round 2 is played after round 1)."""
        tournament = self.tournament(club or self.default_club, game, rated)
        for number in range(1, round + 1):
            Round.objects.get_or_create(tournament=tournament, number=number)
        entrants = [self._entrant(tournament, side) for side in (a, b)]
        pairing = Pairing.objects.create(
            round=tournament.rounds.get(number=round), board=next(self.boards),
            entrant_a=entrants[0], entrant_b=entrants[1],
        )
        return Game.objects.create(
            pairing=pairing, number=1, game=game, first_side=0, winner_side=winner,
            played_at=START + dt.timedelta(days=day), record=record, termination=termination,
        )

    @staticmethod
    def _entrant(tournament: Tournament, who: Player | Team) -> Entrant:
        if isinstance(who, Team):
            entrant, _ = Entrant.objects.get_or_create(tournament=tournament, team=who)
        else:
            entrant, _ = Entrant.objects.get_or_create(tournament=tournament, player=who)
        return entrant


@pytest.fixture
def record_game(club_a: Club) -> GameMaker:
    return GameMaker(club_a)


@pytest.fixture
def players(club_a: Club) -> Callable[..., list[Player]]:
    def make(count: int, club: Club | None = None, **fields: Any) -> list[Player]:
        start = Player.objects.count()
        return [
            Player.objects.create(
                display_name=f"P{start + index + 1}", club=club or club_a, **fields
            )
            for index in range(count)
        ]

    return make
