"""Prize lists through the models, the services and the selector, against cases worked
out by hand (the arithmetic is in the comments). A four-player round robin is played
through the results service; the tie-break order of tied players is the standings'."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction

from core.errors import ApplicationError
from tests.integration.prizes.events import LADDER, THREE_WAY, cash
from tournaments import services
from tournaments.history import EventKind
from tournaments.models import Prize, PrizeGroup, Tournament, TournamentEvent
from tournaments.prize_lists import prize_list, prize_list_csv
from tournaments.services.prizes import (
    PrizeSpec,
    prize_group_create,
    prize_group_delete,
    prize_group_move,
    prize_group_update,
    prize_settings_update,
)

D = Decimal
pytestmark = pytest.mark.django_db


def received(result: Any, group: int = 0) -> list[tuple[int, str, Decimal, str]]:
    return [(line.place, line.name, line.cash, line.item) for line in result.groups[group].lines]


def tied_order(result: Any) -> list[str]:
    """B, C and D in the standings' tie-break order (places 2 to 4)."""
    return [line.name for line in result.groups[0].lines[1:4]]


def test_a_three_way_tie_shared_by_hort(play_event: Any, organizer: Any) -> None:
    tournament = play_event(THREE_WAY)
    tournament = prize_settings_update(
        actor=organizer, tournament=tournament, prize_ties="hort",
                          currency="EUR")
    prize_group_create(actor=organizer, tournament=tournament, name="Overall",
                       prizes=cash(1000, 500, 300, 200))
    result = prize_list(tournament)
    # Pool of places 2-4: 500 + 300 + 200 = 1000; half (500) shared: 166.666... each;
    # half by tie-break order: 250, 150, 100. So 416.66, 316.66, 266.66; 0.02 left over.
    first, second, third = tied_order(result)
    assert received(result) == [(1, "A", D("1000.00"), ""), (2, first, D("416.66"), ""),
                                (3, second, D("316.66"), ""), (4, third, D("266.66"), "")]
    assert sorted((first, second, third)) == ["B", "C", "D"]
    (share,) = result.groups[0].shares
    assert share.places == (2, 4) and share.pool == D(1000) and share.remainder == D("0.02")
    assert set(result.groups[0].lines[1].shared_with) == {second, third}
    assert result.final and result.currency == "EUR"
    assert result.total_cash == D("1999.98")


def test_the_same_tie_split_and_by_tiebreak(play_event: Any, organizer: Any) -> None:
    tournament = play_event(THREE_WAY)
    prize_group_create(actor=organizer, tournament=tournament, name="Overall",
                       prizes=cash(1000, 500, 300, 200))
    tournament = prize_settings_update(
        actor=organizer, tournament=tournament, prize_ties="split")
    # 1000 / 3 = 333.33 each, 0.01 left over.
    result = prize_list(tournament)
    assert [line.cash for line in result.groups[0].lines] == [
        D(1000), D("333.33"), D("333.33"), D("333.33")]
    assert result.groups[0].shares[0].remainder == D("0.01")
    tournament = prize_settings_update(
        actor=organizer, tournament=tournament, prize_ties="tiebreak")
    result = prize_list(tournament)
    assert [line.cash for line in result.groups[0].lines] == [D(1000), D(500), D(300), D(200)]
    assert result.groups[0].shares == ()


def test_a_promotion_from_a_rating_band_to_third_overall(play_event: Any,
                                                        organizer: Any) -> None:
    # A 3, B 2, C 1, D 0; ratings A 2000, B 1900, C 1700, D 1600.
    tournament = play_event(LADDER, ratings={"C": 1700, "D": 1600})
    tournament = prize_settings_update(
        actor=organizer, tournament=tournament, prize_ties="tiebreak")
    prize_group_create(actor=organizer, tournament=tournament, name="Overall",
                       prizes=cash(500, 400, 300))
    prize_group_create(actor=organizer, tournament=tournament, name="Under 1800",
                       kind="rating_band", rating_max=1799, prizes=cash(200, 100))
    result = prize_list(tournament)
    # C leads the band (200) but ranks third overall (300): C takes 3rd overall, the
    # band's first prize goes down to D, and its second place finds nobody.
    assert received(result, 0) == [(1, "A", D(500), ""), (2, "B", D(400), ""),
                                   (3, "C", D(300), "")]
    assert received(result, 1) == [(1, "D", D(200), ""), (2, "", D(0), "")]
    assert result.groups[1].kind_label == "rating up to 1799"


def test_a_tie_at_the_cut_off(play_event: Any, organizer: Any) -> None:
    # A 3; B, C, D 1 each, tied for 2nd with a single prize left (500).
    tournament = play_event(THREE_WAY)
    prize_group_create(actor=organizer, tournament=tournament, name="Overall",
                       prizes=cash(1000, 500))
    tournament = prize_settings_update(
        actor=organizer, tournament=tournament, prize_ties="tiebreak")
    result = prize_list(tournament)
    group = result.groups[0]
    first, second, third = [row["name"] for row in _standings(tournament)[1:4]]
    assert received(result) == [(1, "A", D(1000), ""), (2, first, D(500), "")]
    assert group.tied_at_cut == (second, third)
    # Split: the three share the 500 of place 2 (places 3 and 4 bring nothing).
    tournament = prize_settings_update(
        actor=organizer, tournament=tournament, prize_ties="split")
    result = prize_list(tournament)
    assert [(line.place, line.cash) for line in result.groups[0].lines] == [
        (1, D(1000)), (2, D("166.66")), (3, D("166.66")), (4, D("166.66"))]
    assert [line.prize_cash for line in result.groups[0].lines] == [D(1000), D(500), None, None]
    assert result.groups[0].shares[0].remainder == D("0.02")
    assert result.groups[0].tied_at_cut == (second, third)
    csv = prize_list_csv(tournament, result)
    assert f"Overall,overall,,,,{second},,,,,,,tied at cut-off" in csv


def _standings(tournament: Tournament) -> list[dict[str, Any]]:
    from tournaments import cache

    return list(cache.standings(tournament)["rows"])


def test_non_cash_prizes_and_items_never_split(play_event: Any, organizer: Any) -> None:
    tournament = play_event(THREE_WAY)
    tournament = prize_settings_update(
        actor=organizer, tournament=tournament, prize_ties="split")
    prize_group_create(actor=organizer, tournament=tournament, name="Overall", prizes=[
        PrizeSpec(cash=100, item="Trophy"), PrizeSpec(cash=60, item="Clock"),
        PrizeSpec(item="Book", value=Decimal(30))])
    prize_group_create(actor=organizer, tournament=tournament, name="Juniors",
                       kind="juniors", born_in_or_after=2010,
                       prizes=[PrizeSpec(item="Medal", value=Decimal(10))])
    from players.models import Player
    Player.objects.filter(display_name="D").update(birth_year=2012)
    result = prize_list(tournament)
    lines = result.groups[0].lines
    # Places 2-3: pool 60 (the book has no cash), 30 each; the clock and the book go to
    # the tied players in tie-break order; the third tied player (place 4, past the last
    # prize) shares the cash if not D, who holds the juniors' medal.
    assert (lines[0].name, lines[0].cash, lines[0].item) == ("A", D(100), "Trophy")
    assert lines[1].item == "Clock" and lines[2].item == "Book"
    assert result.groups[1].lines[0].name == "D" and result.groups[1].lines[0].item == "Medal"
    tied = [line for line in lines[1:] if line.name]
    assert "D" not in {line.name for line in tied}
    assert {line.cash for line in tied} == {D(30)}


def test_provisional_before_the_end_and_final_after(play_event: Any, organizer: Any) -> None:
    tournament = play_event(LADDER, finish=False)
    prize_group_create(actor=organizer, tournament=tournament, name="Overall",
                       prizes=cash(100))
    assert not prize_list(tournament).final
    tournament = services.tournament_finish(actor=organizer, tournament=tournament)
    assert prize_list(tournament).final
    assert "provisional" not in prize_list_csv(tournament)


def test_groups_validated_refused_with_nothing_written(play_event: Any, organizer: Any,
                                                     club_b: Any) -> None:
    tournament = play_event(LADDER, finish=False)
    before = TournamentEvent.objects.count()

    def refused(field: str, **kwargs: Any) -> None:
        kwargs.setdefault("name", "Overall")
        with pytest.raises(ApplicationError) as error:
            prize_group_create(actor=organizer, tournament=tournament, **kwargs)
        assert error.value.field == field, error.value.message

    refused("prizes", prizes=cash(100, 200))  # a later place worth more
    refused("prizes", prizes=[PrizeSpec(cash=-5)])
    refused("prizes", prizes=[PrizeSpec(cash="1e400")])
    refused("prizes", prizes=[PrizeSpec(cash="10.001")])
    refused("prizes", prizes=[PrizeSpec(cash="NaN")])
    refused("prizes", prizes=[PrizeSpec()])  # neither cash nor item
    refused("prizes", prizes=[PrizeSpec(item="Cup\x00")])
    refused("prizes", prizes=cash(*([1] * 100_000)))
    refused("name", name="")
    refused("name", name="Over\x00all")
    refused("kind", kind="wizards")
    refused("rating_min", kind="rating_band")
    refused("rating_max", kind="rating_band", rating_min=1800, rating_max=1600)
    refused("rating_min", kind="rating_band", rating_min=10**12)
    refused("born_in_or_after", kind="juniors")
    refused("club", kind="club")
    refused("federation", kind="federation", federation="K3N")
    refused("title", kind="title", title="XYZ")
    refused("color", color="red")
    assert PrizeGroup.objects.count() == 0 and TournamentEvent.objects.count() == before
    prize_group_create(actor=organizer, tournament=tournament, name="Overall", prizes=cash(1))
    refused("name", name="OVERALL")
    with pytest.raises(PermissionDenied):
        prize_group_create(actor=club_b.organizers.get(), tournament=tournament,
                           name="Theirs", prizes=cash(5))
    with pytest.raises(ApplicationError):
        prize_settings_update(actor=organizer, tournament=tournament, prize_ties="lottery")
    with pytest.raises(ApplicationError):
        prize_settings_update(actor=organizer, tournament=tournament, currency="euro")
    with pytest.raises(ApplicationError):
        prize_settings_update(actor=organizer, tournament=tournament, entry_fee=-1)


def test_database_constraints_back_the_rules(play_event: Any, organizer: Any) -> None:
    tournament = play_event(LADDER, finish=False)
    group = prize_group_create(actor=organizer, tournament=tournament, name="Overall",
                               prizes=cash(10))
    for fields in ({"place": 1, "cash": 5}, {"place": 2, "cash": -1},
                   {"place": 0, "cash": 1}, {"place": 3, "cash": 0, "item": ""}):
        with pytest.raises(IntegrityError), transaction.atomic():
            Prize.objects.create(group=group, **fields)
    with pytest.raises(IntegrityError), transaction.atomic():
        PrizeGroup.objects.create(tournament=tournament, name="Band", order=5,
                                  kind="rating_band")
    with pytest.raises(IntegrityError), transaction.atomic():
        Tournament.objects.filter(pk=tournament.pk).update(currency="eur")


def test_update_move_delete_and_history(play_event: Any, organizer: Any) -> None:
    tournament = play_event(LADDER, finish=False)
    overall = prize_group_create(actor=organizer, tournament=tournament, name="Overall",
                                 prizes=cash(100))
    band = prize_group_create(actor=organizer, tournament=tournament, name="U1800",
                              kind="rating_band", rating_max=1799, prizes=cash(50))
    version = Tournament.objects.get(pk=tournament.pk).version
    prize_group_update(actor=organizer, group=band, prizes=cash(60, 40), rating_min=1000)
    assert Tournament.objects.get(pk=tournament.pk).version > version  # the pages refresh
    band.refresh_from_db()
    assert (band.rating_min, band.rating_max) == (1000, 1799)
    assert list(band.prizes.values_list("cash", flat=True)) == [D(60), D(40)]
    prize_group_move(actor=organizer, group=band, up=True)
    assert [g.name for g in tournament.prize_groups.order_by("order")] == ["U1800", "Overall"]
    prize_group_delete(actor=organizer, group=band)
    overall.refresh_from_db()
    assert overall.order == 1
    lines = TournamentEvent.objects.filter(tournament=tournament,
                                           kind=EventKind.PRIZES_CHANGED).count()
    assert lines == 5


def test_the_list_reads_in_a_fixed_number_of_queries(play_event: Any, organizer: Any) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    tournament = play_event(LADDER)
    prize_group_create(actor=organizer, tournament=tournament, name="Overall",
                       prizes=cash(500, 400, 300))
    tournament.refresh_from_db()
    prize_list(tournament)  # the standings are cached under the version from now on
    with CaptureQueriesContext(connection) as one:
        prize_list(tournament)
    for index in range(4):
        prize_group_create(actor=organizer, tournament=tournament, name=f"Club {index}",
                           kind="club", club=tournament.club, prizes=cash(50, 20))
    tournament.refresh_from_db()
    prize_list(tournament)
    with CaptureQueriesContext(connection) as five:
        prize_list(tournament)
    assert len(one) == len(five) <= 3


def test_a_knockout_shares_by_the_places_of_its_bracket(make_event: Any,
                                                         organizer: Any) -> None:
    from games.series.format import MatchScore
    from matches import services as match_services
    from tournaments.selectors import rounds_remaining

    tournament = make_event(format="knockout", entrants=4)
    while rounds_remaining(tournament):
        round_ = services.round_pair_next(actor=organizer, tournament=tournament, release=True)
        for pairing in round_.pairings.filter(outcome="pending"):
            match_services.result_record(actor=organizer, pairing=pairing,
                                         score=MatchScore(1, 0, 0),
                                         expected_version=pairing.version)
        tournament.refresh_from_db()
    tournament = services.tournament_finish(actor=organizer, tournament=tournament)
    prize_group_create(actor=organizer, tournament=tournament, name="Overall",
                       prizes=cash(300, 200, 100))
    tournament.refresh_from_db()
    lines = prize_list(tournament).groups[0].lines
    # Places 1, 2, then the two semi-final losers share 3rd: 100 / 2 = 50 each.
    assert [(line.place, line.cash) for line in lines] == [
        (1, D(300)), (2, D(200)), (3, D(50)), (4, D(50))]
    assert lines[2].rank == lines[3].rank == 3
