"""Lineups: every refusal, late lineups accepted by a manager, board and match forfeits."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from core.errors import ApplicationError
from leagues import services
from leagues.models import LeagueEvent, Lineup, MatchBoard, TeamMatch
from leagues.selectors import match_result

pytestmark = pytest.mark.django_db


def _round_one(world: Any) -> Any:
    return TeamMatch.objects.filter(division=world.division, round_number=1).order_by(
        "pk").select_related("home__team", "away__team").first()


def _refused(text: str, **kwargs: Any) -> None:
    with pytest.raises(ApplicationError) as caught:
        services.lineup_submit(**kwargs)
    assert text in caught.value.message, caught.value.message
    assert not Lineup.objects.filter(match=kwargs["match"], team=kwargs["team"]).exists()


def test_late_lineup_refused_for_a_captain_and_accepted_for_a_manager(
        make_league: Any, organizer: Any) -> None:
    world = make_league(teams=2, boards=2)
    match = _round_one(world)
    start = timezone.now() + datetime.timedelta(days=2)
    services.match_schedule(actor=organizer, match=match, starts_at=start, venue="Hall")
    match.refresh_from_db()
    assert match.lineup_deadline == start - datetime.timedelta(hours=24)
    link, _token = services.captain_link_issue(actor=organizer, season_team=match.home)
    late = match.lineup_deadline + datetime.timedelta(minutes=1)
    players = world.players[match.home_id][:2]
    _refused("deadline passed", link=link, match=match, team=match.home, boards=players,
             now=late)
    lineup = services.lineup_submit(actor=organizer, match=match, team=match.home,
                                    boards=players, now=late)
    assert lineup.late and lineup.accepted_by == organizer
    assert LeagueEvent.objects.filter(kind="late_lineup_accepted").count() == 1
    on_time = services.lineup_submit(link=link, match=match, team=match.home,
                                     boards=players, now=match.lineup_deadline)
    assert not on_time.late and on_time.submitted_by_name == link.player.display_name


def test_order_rule_fixed(make_league: Any, organizer: Any) -> None:
    world = make_league(teams=2, boards=3, roster=4)
    match = _round_one(world)
    p = world.players[match.home_id]
    _refused(f"{p[1].display_name} may not sit above {p[0].display_name}", actor=organizer,
             match=match, team=match.home, boards=[p[1], p[0], p[2]])
    _refused(f"{p[3].display_name} may not sit above {p[2].display_name}", actor=organizer,
             match=match, team=match.home, boards=[p[0], p[3], p[2]])
    # a reserve after the regulars, a board left empty: accepted
    services.lineup_submit(actor=organizer, match=match, team=match.home,
                           boards=[p[0], None, p[3]])


def test_order_rule_rating(make_league: Any, organizer: Any) -> None:
    from tournaments import rating_source

    world = make_league(teams=2, boards=2, roster=3, lineup_rule="rating",
                        rating_tolerance=50)
    match = _round_one(world)
    p = world.players[match.home_id]
    ratings = {p[0].pk: 1500, p[1].pk: 1540, p[2].pk: 1600}
    original = rating_source.entry_ratings
    try:
        import leagues.services.lineups as lineups

        lineups.entry_ratings = lambda club, game, ids: {  # type: ignore[assignment]
            i: ratings[i] for i in ids if i in ratings}
        _refused(f"{p[0].display_name} (1500) may not sit above {p[2].display_name} (1600)",
                 actor=organizer, match=match, team=match.home, boards=[p[0], p[2]])
        services.lineup_submit(actor=organizer, match=match, team=match.home,
                               boards=[p[0], p[1]])  # 40 within the tolerance of 50
    finally:
        lineups.entry_ratings = original  # type: ignore[assignment]


def test_roster_availability_other_team_twice(make_league: Any, organizer: Any) -> None:
    from tests.worlds import people

    world = make_league(teams=2, boards=2, roster=3)
    match = _round_one(world)
    home, away = world.players[match.home_id], world.players[match.away_id]
    stranger = people(world.league.host, ["Stranger"])[0]
    _refused("not on the roster", actor=organizer, match=match, team=match.home,
             boards=[home[0], stranger])
    _refused(f"plays for {match.away.team.name}", actor=organizer, match=match,
             team=match.home, boards=[home[0], away[1]])
    _refused("named twice", actor=organizer, match=match, team=match.home,
             boards=[home[0], home[0]])
    services.availability_set(actor=organizer, season_team=match.home, player=home[1],
                              round_number=1, available=False)
    _refused("unavailable for round 1", actor=organizer, match=match, team=match.home,
             boards=[home[0], home[1]])
    _refused("A lineup has 2 boards", actor=organizer, match=match, team=match.home,
             boards=[home[0], home[2], None])


def test_no_change_after_pairing_and_captain_of_other_team(
        make_league: Any, organizer: Any, lineups_in: Any) -> None:
    world = make_league(teams=2, boards=2)
    match = _round_one(world)
    link, _token = services.captain_link_issue(actor=organizer, season_team=match.away)
    with pytest.raises(ApplicationError, match="does not manage"):
        services.lineup_submit(link=link, match=match, team=match.home,
                               boards=world.players[match.home_id][:2])
    lineups_in(world, match)
    with pytest.raises(ApplicationError, match="paired"):
        services.lineup_submit(actor=organizer, match=match, team=match.home,
                               boards=world.players[match.home_id][:2])


def test_board_left_empty_is_a_board_forfeit(make_league: Any, organizer: Any,
                                             record_boards: Any) -> None:
    world = make_league(teams=2, boards=2)
    match = _round_one(world)
    home, away = world.players[match.home_id], world.players[match.away_id]
    services.lineup_submit(actor=organizer, match=match, team=match.home, boards=[home[0]])
    services.lineup_submit(actor=organizer, match=match, team=match.away, boards=away[:2])
    empty = MatchBoard.objects.get(match=match, board=2)
    assert empty.empty == "home" and empty.pairing is None
    record_boards(match, {1: "d"})
    view = match_result(match)
    assert view.complete
    assert (view.home_points, view.away_points) == (0.5, 1.5)
    assert (view.home_match_points, view.away_match_points) == (0, 2)
    assert view.boards[1].away_points == 1 and view.boards[1].empty == "home"


def test_whole_match_forfeits(make_league: Any, organizer: Any, club_b: Any) -> None:
    world = make_league(teams=4, boards=2)
    first, second = TeamMatch.objects.filter(division=world.division, round_number=1)
    first = services.match_forfeit(actor=organizer, match=first, side="away")
    view = match_result(first)
    assert view.complete and view.forfeit == "away"
    assert (view.home_points, view.away_points) == (2, 0)
    with pytest.raises(ApplicationError):
        services.match_forfeit(actor=organizer, match=first, side="home")
    with pytest.raises(ApplicationError):
        services.match_forfeit(actor=organizer, match=second, side="nobody")
    with pytest.raises(PermissionDenied):
        services.match_forfeit(actor=club_b.organizers.get(), match=second, side="home")
    # a missing lineup at the deadline: the manager pairs, the absent team forfeits
    start = timezone.now() - datetime.timedelta(hours=1)
    services.match_schedule(actor=organizer, match=second, starts_at=start,
                            lineup_deadline=start - datetime.timedelta(hours=1))
    services.lineup_submit(actor=organizer, match=second, team=second.home,
                           boards=world.players[second.home_id][:2])
    assert services.match_boards_pair(actor=organizer, match=second) == []
    second.refresh_from_db()
    assert second.forfeit == "away"


def test_captain_brings_in_a_reserve_who_plays(make_league: Any, organizer: Any,
                                               club_b: Any) -> None:
    from tests.worlds import people

    world = make_league(teams=2, boards=2, roster=2)
    match = _round_one(world)
    link, _token = services.captain_link_issue(actor=organizer, season_team=match.home)
    home = world.players[match.home_id]
    newcomer = people(world.league.host, ["Newcomer"])[0]
    outsider = people(club_b, ["Outsider"])[0]
    with pytest.raises(ApplicationError, match="players of"):
        services.reserve_add(link=link, season_team=match.home, player=outsider)
    with pytest.raises(ApplicationError, match="plays for"):
        services.reserve_add(link=link, season_team=match.home,
                             player=world.players[match.away_id][0])
    entry = services.reserve_add(link=link, season_team=match.home, player=newcomer)
    assert entry.reserve and entry.order == 3
    services.availability_set(link=link, season_team=match.home, player=home[1],
                              round_number=1, available=False)
    services.lineup_submit(link=link, match=match, team=match.home, boards=[home[0], newcomer])
    services.lineup_submit(actor=organizer, match=match, team=match.away,
                           boards=world.players[match.away_id])
    board: Any = MatchBoard.objects.get(match=match, board=2)
    assert board.pairing.entrant_b.player == newcomer  # board 2: the away team moves first
    assert LeagueEvent.objects.filter(kind="reserve_added").exists()
