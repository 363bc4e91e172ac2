"""A league world built through the services: a host club (club A, its organizer), teams
of players with rosters, a season with one division."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from games.series.format import MatchScore


@dataclass
class World:
    league: Any
    season: Any
    division: Any
    teams: list[Any] = field(default_factory=list)
    players: dict[int, list[Any]] = field(default_factory=dict)


@pytest.fixture
def make_league(club_a: Any, organizer: Any) -> Callable[..., World]:
    from leagues import services
    from players.models import Team
    from tests.worlds import people

    def make(teams: int = 4, boards: int = 2, roster: int = 3,
             system: str = "team_double_round_robin", start: bool = True,
             rounds_planned: int | None = None, slug: str = "league",
             **league_fields: Any) -> World:
        league = services.league_create(actor=organizer, host=club_a, name="City League",
                                        slug=slug, game="kugamai", boards=boards,
                                        **league_fields)
        season = services.season_create(actor=organizer, league=league, name="2026")
        division = services.division_create(actor=organizer, season=season, name="First",
                                            system=system, rounds_planned=rounds_planned)
        world = World(league, season, division)
        for index in range(teams):
            team = Team.objects.create(name=f"Team {index + 1}", club=club_a)
            players = people(club_a, [f"T{index + 1} P{n + 1}" for n in range(roster)])
            entry = services.team_enter(actor=organizer, division=division, team=team,
                                        captain=players[0])
            services.roster_set(actor=organizer, season_team=entry, players=players[:boards],
                                reserves=players[boards:])
            world.teams.append(entry)
            world.players[entry.pk] = players
        if start:
            services.season_start(actor=organizer, season=season)
            world.division.refresh_from_db()
        return world

    return make


@pytest.fixture
def lineups_in(organizer: Any) -> Callable[..., Any]:
    """Both teams' regulars in roster order (the boards are paired by the second)."""
    from leagues import services

    def submit(world: World, match: Any) -> None:
        boards = world.league.boards
        for team in (match.home, match.away):
            services.lineup_submit(actor=organizer, match=match, team=team,
                                   boards=world.players[team.pk][:boards])

    return submit


@pytest.fixture
def record_boards(organizer: Any) -> Callable[..., Any]:
    """Record each paired board of ``match``: ``results`` by board, "a"/"b"/"d" (the
    first mover wins, the second, a draw), or a pairing outcome value."""
    from matches import services as match_services

    scores = {"a": MatchScore(1, 0, 0), "b": MatchScore(0, 1, 0), "d": MatchScore(0, 0, 1)}

    def record(match: Any, results: dict[int, str]) -> None:
        for board in match.boards.select_related("pairing"):
            if board.pairing is None or board.board not in results:
                continue
            choice = results[board.board]
            pairing = board.pairing
            if choice in scores:
                match_services.result_record(actor=organizer, pairing=pairing,
                                             score=scores[choice],
                                             expected_version=pairing.version)
            else:
                match_services.result_record(actor=organizer, pairing=pairing, outcome=choice,
                                             expected_version=pairing.version)

    return record
