"""A league of four clubs, each with one team of four regulars and one reserve, built
through the league services (the pages' and the walk-through's world)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

CLUBS = ("North", "East", "South", "West")


@dataclass
class LeagueWorld:
    organizer: Any
    clubs: list[Any]
    league: Any
    season: Any
    division: Any
    teams: list[Any]  # SeasonTeam, in club order
    players: dict[str, list[Any]] = field(default_factory=dict)  # club name: regulars + reserve


def build_league(organizer: Any, *, slug: str = "four-clubs", boards: int = 4,
                 system: str = "team_double_round_robin", promote: int = 1,
                 relegate: int = 1) -> LeagueWorld:
    """Four clubs organized by ``organizer``, one Kugamai best-of-3 league hosted by the
    first, a season in planning with one division of the four teams (rosters declared)."""
    from leagues import services
    from players.models import Club, Player
    from players.services import team_create

    clubs = []
    for name in CLUBS:
        club = Club.objects.create(name=f"{name} Club", slug=f"{slug}-{name.lower()}")
        club.organizers.add(organizer)
        clubs.append(club)
    league = services.league_create(
        actor=organizer, host=clubs[0], name="Four Clubs League", slug=slug, game="kugamai",
        match_format={"kind": "best_of", "games": 3}, boards=boards, clubs=clubs[1:],
        tiebreaks=["board_points", "team_sonneborn_berger", "direct_encounter"])
    season = services.season_create(actor=organizer, league=league, name="2027")
    division = services.division_create(actor=organizer, season=season, name="Premier",
                                        system=system, promote=promote, relegate=relegate)
    world = LeagueWorld(organizer, clubs, league, season, division, [])
    for index, club in enumerate(clubs):
        name = CLUBS[index]
        players = [Player.objects.create(display_name=f"{name} {board}", club=club)
                   for board in range(1, boards + 2)]
        team = team_create(actor=organizer, name=f"{name} Team", club=club, members=players)
        entry = services.team_enter(actor=organizer, division=division, team=team,
                                    captain=players[0], seed=index + 1)
        services.roster_set(actor=organizer, season_team=entry, players=players[:boards],
                            reserves=players[boards:])
        world.teams.append(entry)
        world.players[name] = players
    return world

