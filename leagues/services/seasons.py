"""Seasons: start (board tournaments, first rounds), rounds, finish, the next season."""

from __future__ import annotations

import datetime

from leagues.models import Division, Season, TeamMatch
from players.permissions import Actor


def season_start(*, actor: Actor, season: Season) -> Season:
    """Start a season: each division's board tournament is made and started; round robins
    schedule every team match at once, Swiss and knockout divisions their round 1."""
    raise NotImplementedError


def division_pair_next(*, actor: Actor, division: Division) -> list[TeamMatch]:
    """Pair a Swiss or knockout division's next round (refused while a match is open)."""
    raise NotImplementedError


def season_finish(*, actor: Actor, season: Season) -> Season:
    """Finish a season: final ranks from the season tables, promotion and relegation."""
    raise NotImplementedError


def season_next(*, actor: Actor, season: Season, name: str,
                starts_on: datetime.date | None = None,
                ends_on: datetime.date | None = None) -> Season:
    """The next season of a finished one: divisions copied, teams moved up and down by
    their movement; rosters are not copied."""
    raise NotImplementedError
