"""Attacks and bounds: other clubs' objects, huge numbers, NUL bytes; captain link tokens;
the tournaments floor's guards for board tournaments."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied

from core.errors import ApplicationError
from leagues import services
from leagues.links import captain_link_from_token
from leagues.models import League, TeamMatch
from leagues.permissions import can_manage_league
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


def test_other_clubs_organizers_are_refused(make_league: Any, club_b: Any,
                                            organizer: Any) -> None:
    world = make_league(teams=2, boards=1, roster=1)
    bob = club_b.organizers.get()
    assert not can_manage_league(bob, world.league)
    match: Any = TeamMatch.objects.filter(division=world.division).first()
    calls = [
        lambda: services.season_create(actor=bob, league=world.league, name="Mine"),
        lambda: services.season_finish(actor=bob, season=world.season),
        lambda: services.match_forfeit(actor=bob, match=match, side="home"),
        lambda: services.lineup_submit(actor=bob, match=match, team=match.home,
                                       boards=world.players[match.home_id]),
        lambda: services.captain_link_issue(actor=bob, season_team=match.home),
        lambda: services.league_create(actor=bob, host=world.league.host, name="Taken",
                                       slug="taken", game="kugamai"),
    ]
    for call in calls:
        with pytest.raises(PermissionDenied):
            call()
    # a managing club's organizer manages the league (not the host's other tournaments)
    world.league.clubs.add(club_b)
    assert can_manage_league(bob, world.league)
    services.match_forfeit(actor=bob, match=match, side="home")


@pytest.mark.parametrize(("field", "value"), [
    ("boards", 10**20), ("boards", 0), ("boards", True), ("rating_tolerance", 10**6),
    ("lineup_deadline_hours", -1), ("match_points", (10**9, 1, 0)), ("match_points", (1, 2, 0)),
    ("lineup_rule", "alphabetical"), ("name", "Bad\x00name"), ("slug", "Not a slug"),
    ("tiebreaks", ["coin_toss"]), ("game", "chess"),
])
def test_league_bad_input_changes_nothing(club_a: Any, organizer: Any, field: str,
                                          value: Any) -> None:
    fields = {"name": "Good", "slug": "good", "game": "kugamai", field: value}
    with pytest.raises(ApplicationError) as caught:
        services.league_create(actor=organizer, host=club_a, **fields)
    assert caught.value.field in (field, "name")
    assert not League.objects.exists()


def test_season_and_division_bounds(make_league: Any, organizer: Any) -> None:
    world = make_league(start=False, teams=0)
    for kwargs in ({"name": "x" * 81}, {"name": "Nul\x00"}, {"name": "First"},
                   {"name": "D", "system": "swiss"}, {"name": "D", "rounds_planned": 10**9},
                   {"name": "D", "level": -1}):
        kwargs.setdefault("system", "team_round_robin")
        with pytest.raises(ApplicationError):
            services.division_create(actor=organizer, season=world.season, **kwargs)
    with pytest.raises(ApplicationError):
        services.season_create(actor=organizer, league=world.league, name="\x00")
    with pytest.raises(ApplicationError, match="Add a division|two teams"):
        services.season_start(actor=organizer, season=world.season)


def test_huge_round_and_nul_venue(make_league: Any, organizer: Any) -> None:
    import datetime

    from django.utils import timezone

    world = make_league(teams=2, boards=1, roster=1)
    match: Any = TeamMatch.objects.filter(division=world.division).first()
    with pytest.raises(ApplicationError):
        services.availability_set(actor=organizer, season_team=match.home,
                                  player=world.players[match.home_id][0],
                                  round_number=10**12, available=False)
    with pytest.raises(ApplicationError):
        services.match_schedule(actor=organizer, match=match, venue="Hall\x00",
                                starts_at=timezone.now() + datetime.timedelta(days=1))
    with pytest.raises(ApplicationError):
        services.match_schedule(actor=organizer, match=match,
                                starts_at=datetime.datetime(2030, 1, 1))  # naive


def test_captain_link_tokens(make_league: Any, organizer: Any) -> None:
    world = make_league(teams=2, boards=1, roster=1)
    team = world.teams[0]
    link, token = services.captain_link_issue(actor=organizer, season_team=team)
    assert captain_link_from_token(token) == link
    for bad in ("", "x" * 32, token[:-1], token + "\x00", None):
        assert captain_link_from_token(bad) is None  # type: ignore[arg-type]
    again, new_token = services.captain_link_issue(actor=organizer, season_team=team)
    assert captain_link_from_token(token) is None  # the old link was revoked
    assert captain_link_from_token(new_token) == again
    services.captain_link_revoke(actor=organizer, link=again)
    assert captain_link_from_token(new_token) is None


def test_board_tournaments_are_made_and_paired_by_the_league(make_league: Any, club_a: Any,
                                                             organizer: Any) -> None:
    with pytest.raises(ApplicationError, match="league"):
        tournament_services.tournament_create(actor=organizer, club=club_a, name="T",
                                              game="kugamai", format="team_swiss")
    world = make_league(teams=2, boards=1, roster=1)
    with pytest.raises(ApplicationError, match="pair it from the league"):
        tournament_services.round_pair_next(actor=organizer,
                                            tournament=world.division.tournament)
