"""Entering many at once with club ratings, late entries with half-point byes, re-entry,
rating edits, cancelled byes and forbidden pairs; default tie-breaks; reopening."""

from __future__ import annotations

from typing import Any

import pytest

from core.errors import ApplicationError
from players.models import Player, Team, TeamMembership
from ratings.models import Rating
from tournaments import selectors, services
from tournaments.models import ByeKind, Outcome, RequestedBye

pytestmark = pytest.mark.django_db


def rate(player: Player, rating: float, family: str = "kazambi") -> None:
    assert player.club is not None
    Rating.objects.create(player=player, club=player.club, family=family, system="glicko2",
                          rating=rating, rd=80, volatility=0.06, peak_rating=rating)


@pytest.fixture
def people(club_a: Any) -> list[Player]:
    names = ["Zoe", "Adam", "Bea", "Carl", "Dora", "Emil"]
    return [Player.objects.create(display_name=name, club=club_a) for name in names]


def swiss(club: Any, organizer: Any, **fields: Any) -> Any:
    return services.tournament_create(actor=organizer, club=club, name="Open", game="kazambi",
                                      format="swiss", rounds_planned=4, **fields)


def test_batch_entry_seeds_by_club_rating_then_name(club_a: Any, organizer: Any,
                                                    people: list[Player]) -> None:
    zoe, adam, bea, carl, dora, emil = people
    rate(carl, 1712.4)
    rate(bea, 1890)
    rate(emil, 1500, family="kugamai")  # another family's rating does not count
    tournament = swiss(club_a, organizer)
    entrants = services.entrants_register(actor=organizer, tournament=tournament,
                                          players=people)
    assert [(e.name, e.rating) for e in entrants] == [
        ("Bea", 1890), ("Carl", 1712), ("Adam", 0), ("Dora", 0), ("Emil", 0), ("Zoe", 0)]
    services.tournament_start(actor=organizer, tournament=tournament)
    seeds = [e.name for e in selectors.entrant_list(tournament)]
    assert seeds == ["Bea", "Carl", "Adam", "Dora", "Emil", "Zoe"]


def test_batch_entry_is_all_or_nothing(club_a: Any, organizer: Any,
                                       people: list[Player]) -> None:
    tournament = swiss(club_a, organizer)
    services.entrant_register(actor=organizer, tournament=tournament, player=people[2])
    with pytest.raises(ApplicationError, match="Bea: Bea is already entered. Nobody"):
        services.entrants_register(actor=organizer, tournament=tournament, players=people)
    assert tournament.entrants.count() == 1


def test_given_rating_wins_and_rating_edits_stop_at_the_start(
        club_a: Any, organizer: Any, people: list[Player]) -> None:
    rate(people[0], 1600)
    tournament = swiss(club_a, organizer)
    entrant = services.entrant_register(actor=organizer, tournament=tournament,
                                        player=people[0], rating=2100)
    assert entrant.rating == 2100
    entrant = services.entrant_rating_update(actor=organizer, entrant=entrant, rating=1999)
    assert entrant.rating == 1999
    with pytest.raises(ApplicationError, match="whole number from 0 to 4000"):
        services.entrant_rating_update(actor=organizer, entrant=entrant, rating=-5)
    services.entrant_register(actor=organizer, tournament=tournament, player=people[1])
    services.tournament_start(actor=organizer, tournament=tournament)
    with pytest.raises(ApplicationError, match="fixed at the start"):
        services.entrant_rating_update(actor=organizer, entrant=entrant, rating=1500)


def test_team_enters_with_its_members_mean(club_a: Any, organizer: Any,
                                           people: list[Player]) -> None:
    team = Team.objects.create(name="North", club=club_a)
    for player in people[:3]:
        TeamMembership.objects.create(team=team, player=player, joined_on="2026-01-01")
    rate(people[0], 1600)
    rate(people[1], 1801)
    tournament = services.tournament_create(actor=organizer, club=club_a, name="Pairs",
                                            game="kazambi-pairs", format="round_robin")
    entrant = services.entrant_register(actor=organizer, tournament=tournament, team=team)
    assert entrant.rating == 1700  # round(3401 / 2): the unrated member is left out


def test_late_entrant_gets_half_point_byes_for_rounds_paired(
        club_a: Any, organizer: Any, people: list[Player]) -> None:
    tournament = swiss(club_a, organizer)
    services.entrants_register(actor=organizer, tournament=tournament, players=people[:4])
    tournament = services.tournament_start(actor=organizer, tournament=tournament)
    first = services.round_pair_next(actor=organizer, tournament=tournament, release=True)
    late = services.entrant_register(actor=organizer, tournament=tournament, player=people[4],
                                     late_byes="half_point")
    assert (late.joined_round, late.seed) == (2, 5)
    bye = first.pairings.get(entrant_a=late)
    assert (bye.board, bye.bye_kind, bye.outcome) == (3, ByeKind.HALF_POINT, Outcome.BYE)
    absent = services.entrant_register(actor=organizer, tournament=tournament,
                                       player=people[5])
    assert not first.pairings.filter(entrant_a=absent).exists()
    with pytest.raises(ApplicationError, match="Unknown choice"):
        services.entrant_register(actor=organizer, tournament=tournament,
                                  player=Player.objects.create(display_name="X", club=club_a),
                                  late_byes="full")


def test_withdraw_reenter_bye_cancel_and_forbidden_pairs(
        club_a: Any, organizer: Any, people: list[Player]) -> None:
    tournament = swiss(club_a, organizer)
    a, b, c, d = services.entrants_register(actor=organizer, tournament=tournament,
                                            players=people[:4])
    tournament = services.tournament_start(actor=organizer, tournament=tournament)
    services.entrant_withdraw(actor=organizer, entrant=a)
    a.refresh_from_db()
    assert a.withdrawn_from_round == 1
    services.entrant_reenter(actor=organizer, entrant=a)
    a.refresh_from_db()
    assert a.withdrawn_from_round is None
    with pytest.raises(ApplicationError, match="has not withdrawn"):
        services.entrant_reenter(actor=organizer, entrant=a)
    bye = services.bye_request(actor=organizer, entrant=b, round_number=2, kind="zero")
    services.bye_cancel(actor=organizer, bye=bye)
    assert not RequestedBye.objects.exists()
    forbidden = services.forbid_pairing(actor=organizer, tournament=tournament, entrant_a=c,
                                        entrant_b=d)
    services.forbidden_pairing_remove(actor=organizer, forbidden=forbidden)
    assert not tournament.forbidden_pairings.exists()
    with pytest.raises(ApplicationError, match="withdraw instead"):
        services.entrant_remove(actor=organizer, entrant=d)


def test_new_tournaments_get_fide_tiebreaks_unless_they_name_theirs(
        club_a: Any, organizer: Any) -> None:
    assert swiss(club_a, organizer).tiebreaks[:2] == ["buchholz_cut1", "buchholz"]
    robin = services.tournament_create(actor=organizer, club=club_a, name="RR", game="kugamai",
                                       format="round_robin")
    assert robin.tiebreaks == ["direct_encounter", "wins", "sonneborn_berger", "koya"]
    assert swiss(club_a, organizer, tiebreaks=[]).tiebreaks == []
    knockout = services.tournament_create(actor=organizer, club=club_a, name="KO",
                                          game="kugamai", format="knockout")
    assert knockout.tiebreaks == []


def test_reopen_needs_a_finished_tournament_and_a_reason(make_event: Any,
                                                         organizer: Any) -> None:
    tournament = make_event("round_robin", entrants=2, match_format="single")
    round_ = services.round_pair_next(actor=organizer, tournament=tournament, release=True)
    from games.series.format import MatchScore
    from matches.services.results import match_result_record

    pairing = round_.pairings.get()
    match_result_record(actor=organizer, pairing=pairing, expected_version=1,
                        score=MatchScore(1, 0))
    with pytest.raises(ApplicationError, match="Only a finished tournament"):
        services.tournament_reopen(actor=organizer, tournament=tournament, reason="typo")
    services.tournament_finish(actor=organizer, tournament=tournament)
    with pytest.raises(ApplicationError, match="Say why"):
        services.tournament_reopen(actor=organizer, tournament=tournament, reason=" ")
    tournament = services.tournament_reopen(actor=organizer, tournament=tournament,
                                            reason="board 1 was reversed")
    assert tournament.status == "running"
    pairing.refresh_from_db()
    match_result_record(actor=organizer, pairing=pairing, expected_version=pairing.version,
                        score=MatchScore(0, 1))
    services.tournament_finish(actor=organizer, tournament=tournament)


def test_ratings_at_entry_change_all_or_none(club_a: Any, organizer: Any,
                                            people: list[Player]) -> None:
    tournament = swiss(club_a, organizer)
    first, second = (services.entrant_register(actor=organizer, tournament=tournament,
                                               player=player, rating=1500)
                     for player in people[:2])
    with pytest.raises(ApplicationError, match="whole number from 0 to 4000"):
        services.entrant_ratings_update(actor=organizer, tournament=tournament,
                                        ratings={first.pk: 1800, second.pk: 99999})
    other = swiss(club_a, organizer)
    stranger = services.entrant_register(actor=organizer, tournament=other, player=people[2])
    with pytest.raises(ApplicationError, match="Choose an entrant of this tournament"):
        services.entrant_ratings_update(actor=organizer, tournament=tournament,
                                        ratings={first.pk: 1800, stranger.pk: 1700})
    assert [e.rating for e in selectors.entrant_list(tournament)] == [1500, 1500]
    services.entrant_ratings_update(actor=organizer, tournament=tournament,
                                    ratings={first.pk: 1800, second.pk: 1900})
    assert sorted(e.rating for e in selectors.entrant_list(tournament)) == [1800, 1900]
