"""What the tournament page says: opponents by starting number (tied players told apart),
the points each side had when a round began, who went through a level knockout match and
why, and a team event's members."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils.html import escape

from games.series.format import MatchScore
from matches import services as match_services
from tournaments import services
from tournaments.models import Tournament
from tournaments.selectors import standings

pytestmark = pytest.mark.django_db

#: A row of the round-by-round table: rank, starting number, name, then the cells, each
#: starting with the opponent's number.
RBR_ROW = re.compile(r'<tr><td>(\d+|–)</td><td>(\d+)</td><th scope="row">([^<]+)</th>(.*?)</tr>')
RBR_CELL = re.compile(r"<td>(\d+)<i>[fs]</i> <b>")


@pytest.fixture(autouse=True)
def empty_cache() -> None:
    cache.clear()


def _page(client: Client, t: Tournament, tab: str = "") -> str:
    answer = client.get(f"/tournaments/{t.club.slug}/{t.slug}/{tab}")
    assert answer.status_code == 200
    return answer.content.decode()


def _round_by_round(page: str) -> str:
    start = page.index('<table class="round-by-round"')
    return page[start:page.index("</table>", start)]


def test_tied_players_are_told_apart_in_the_round_by_round_table(
        client: Client, make_tournament: Callable[..., Any], play_round: Any) -> None:
    """Two losers share a rank; the winners' rows name them by their different starting
    numbers (by rank, both cells would read "3")."""
    swiss = make_tournament("swiss", entrants=4, rounds_planned=3, tiebreaks=[])
    round_ = play_round(swiss)  # the first side of each board wins
    table = standings(swiss)
    losers = [row for row in table["rows"] if row["points"] == 0]
    assert len(losers) == 2 and losers[0]["rank"] == losers[1]["rank"]  # tied
    opponent_of = {}
    for pairing in round_.pairings.select_related("entrant_a", "entrant_b"):
        opponent_of[pairing.entrant_a.seed] = pairing.entrant_b.seed
        opponent_of[pairing.entrant_b.seed] = pairing.entrant_a.seed
    rows = RBR_ROW.findall(_round_by_round(_page(client, swiss, "table/")))
    assert len(rows) == 4
    shown = {int(seed): int(RBR_CELL.findall(cells)[0]) for _rank, seed, _name, cells in rows}
    assert shown == opponent_of
    winners = {int(seed) for rank, seed, _n, _c in rows if rank == str(table["rows"][0]["rank"])}
    against_losers = {shown[seed] for seed in winners}
    assert against_losers == {row["seed"] for row in losers}  # two numbers: told apart


def test_standings_show_the_starting_number(client: Client,
                                            make_tournament: Callable[..., Any],
                                            play_round: Any) -> None:
    event = make_tournament("round_robin", entrants=4)
    play_round(event)
    page = _page(client, event)
    assert '<abbr title="Starting number">No.</abbr>' in page
    for row in standings(event)["rows"]:
        assert re.search(rf'<td>{row["seed"]}</td><th scope="row">'
                         rf'(<a [^>]+>)?{re.escape(row["name"])}', page)


def test_pairings_show_number_and_points_when_the_round_began(
        client: Client, make_tournament: Callable[..., Any], play_round: Any) -> None:
    swiss = make_tournament("swiss", entrants=4, rounds_planned=3, tiebreaks=[])
    play_round(swiss)
    services.round_pair_next(actor=swiss.club.organizers.get(), tournament=swiss, release=True)
    round_two = _page(client, swiss, "rounds/2/")
    facts = re.findall(r'<small class="side-facts">\((\d+), (\d)\)</small>', round_two)
    points = {int(seed): int(score) for seed, score in facts}
    table = standings(swiss)
    assert points == {row["seed"]: int(row["points"]) for row in table["rows"]}
    round_one = _page(client, swiss, "rounds/1/")
    assert set(re.findall(r'<small class="side-facts">\(\d+, (\d)\)</small>',
                          round_one)) == {"0"}


def test_knockout_tiebreak_says_who_went_through_and_why(
        client: Client, make_tournament: Callable[..., Any], organizer: Any) -> None:
    cup = make_tournament("knockout", entrants=4, match_format={"kind": "fixed", "games": 2})
    round_ = services.round_pair_next(actor=organizer, tournament=cup, release=True)
    pairings = list(round_.pairings.exclude(entrant_b=None).select_related(
        "entrant_a__player", "entrant_b__player").order_by("board"))
    level = pairings[0]
    assert level.entrant_b is not None
    match_services.match_result_record(actor=organizer, pairing=level, score=MatchScore(1, 1, 0),
                                 outcome="b_wins", expected_version=level.version)
    match_services.match_result_record(actor=organizer, pairing=pairings[1],
                                 score=MatchScore(2, 0, 0),
                                 expected_version=pairings[1].version)
    page = _page(client, cup)
    note = (f"{level.entrant_b.name} went through after 1–1, on the tie-break the club's "
            "rules provide (play-off, armageddon or lot).")
    assert page.count(escape(note)) == 2  # under the bracket and in the round's table
    assert "Level matches decided by a tie-break (marked *)" in page
    assert re.search(r'class="slot won score"[^>]*>1\*</text>', page)  # the winner's star


def test_team_event_lists_members_during_the_event(
        client: Client, club_a: Any, organizer: Any) -> None:
    """Current members are listed; one who left the team before the event is not."""
    import datetime as dt

    from players import services as player_services
    from players.models import Player

    people = [Player.objects.create(display_name=f"Member {i}", club=club_a) for i in range(5)]
    event = services.tournament_create(actor=organizer, club=club_a, name="Pairs night",
                                       game="kazambi-pairs", format="round_robin")
    teams = []
    for index in range(2):
        team = player_services.team_create(actor=organizer, name=f"Team {index}", club=club_a,
                                           members=people[2 * index: 2 * index + 2],
                                           joined_on=dt.date(2020, 1, 1))
        services.entrant_register(actor=organizer, tournament=event, team=team)
        teams.append(team)
    player_services.team_add_member(actor=organizer, team=teams[0], player=people[4],
                                    joined_on=dt.date(2019, 1, 1))
    player_services.team_remove_member(actor=organizer, team=teams[0], player=people[4],
                                       left_on=dt.date(2019, 6, 1))
    services.tournament_start(actor=organizer, tournament=event)
    section = _page(client, event)
    section = section[section.index('id="teams-heading"'):]
    for person in people[:4]:
        assert person.display_name in section
    assert people[4].display_name not in section


def test_printed_pairing_sheet_has_points_when_the_round_began(
        make_tournament: Callable[..., Any], play_round: Any, organizer: Any) -> None:
    from matches.selectors import points_text, round_sheet

    swiss = make_tournament("swiss", entrants=5, rounds_planned=3, tiebreaks=[])
    play_round(swiss)
    round_two = services.round_pair_next(actor=organizer, tournament=swiss, release=True)
    table = {row["name"]: row["points"] for row in standings(swiss)["rows"]}
    sheet = round_sheet(round_two)
    for board in sheet.boards:
        assert board.points_a == points_text(table[board.entrant_a])
        if board.entrant_b:
            assert board.points_b == points_text(table[board.entrant_b])
    assert {board.points_a for board in sheet.boards} <= {"0", "1"}
    assert points_text(1.5) == "1½" and points_text(0.5) == "½" and points_text(2.0) == "2"
