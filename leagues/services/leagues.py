"""Leagues, seasons, divisions, teams entered and their rosters."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from leagues.models import Division, League, RosterEntry, Season, SeasonTeam
from players.models import Club, Player, Team
from players.permissions import Actor


def league_create(*, actor: Actor, host: Club, name: str, slug: str, game: str,
                  game_options: dict[str, Any] | None = None,
                  match_format: dict[str, Any] | None = None, boards: int = 4,
                  lineup_rule: str = "fixed", rating_tolerance: int = 0,
                  lineup_deadline_hours: int = 24, clubs: Sequence[Club] = (),
                  rated: bool = True, tiebreaks: Sequence[str] | None = None,
                  match_points: tuple[int, int, int] = (2, 1, 0)) -> League:
    """A new league hosted by ``host`` (the actor organizes it), managed also by the
    organizers of ``clubs``; its board games are played in ``game`` with ``match_format``
    on every board."""
    raise NotImplementedError


def season_create(*, actor: Actor, league: League, name: str,
                  starts_on: datetime.date | None = None,
                  ends_on: datetime.date | None = None) -> Season:
    """The league's next season (numbered after the last), in planning."""
    raise NotImplementedError


def division_create(*, actor: Actor, season: Season, name: str, level: int = 1, system: str,
                    rounds_planned: int | None = None, promote: int = 0,
                    relegate: int = 0) -> Division:
    """A division of a season in planning, paired by the team ``system``."""
    raise NotImplementedError


def team_enter(*, actor: Actor, division: Division, team: Team, captain: Player | None = None,
               seed: int | None = None) -> SeasonTeam:
    """Enter a club's team in a division of a season in planning (once per season)."""
    raise NotImplementedError


def roster_set(*, actor: Actor, season_team: SeasonTeam, players: Sequence[Player],
               reserves: Sequence[Player] = ()) -> list[RosterEntry]:
    """Declare a team's roster: ``players`` in board order, then ``reserves``; replaces the
    roster before the season starts (after it, reserves are added by :func:`reserve_add`)."""
    raise NotImplementedError
