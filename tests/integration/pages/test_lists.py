"""The hall's lists on the public pages: pairings by name, the starting list, standings
after any round (tie-breaks on the games up to it), player cards and the wall chart; a
draft round shown nowhere; a constant number of queries."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.series.format import MatchScore
from players.models import Club
from tests.worlds import people, tournament_of
from tournaments import services
from tournaments.models import Round, Tournament
from tournaments.selectors import standings

pytestmark = pytest.mark.django_db

NAMES = ["Zoe Young", "Anna Kowalska", "Milan Horak", "Ёлка Петрова", "Émile Blanc"]


@pytest.fixture(autouse=True)
def empty_cache() -> None:
    cache.clear()


def release(tournament: Tournament) -> None:
    """Publish every paired round (the draw release's service sets this field)."""
    Round.objects.filter(tournament=tournament, released_at__isnull=True).update(
        released_at=timezone.now())


def _get(client: Client, t: Tournament, path: str, status: int = 200) -> str:
    answer = client.get(f"/tournaments/{t.club.slug}/{t.slug}/{path}")
    assert answer.status_code == status, (path, answer.status_code)
    return answer.content.decode()


def _table(page: str, table_id: str) -> str:
    start = page.index(f'id="{table_id}"')
    return page[start:page.index("</table>", start)]


def _rows(table: str) -> list[str]:
    return re.findall(r"<tr[^>]*>(.*?)</tr>", table, re.S)[1:]


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


@pytest.fixture
def swiss(club_a: Club, organizer: Any) -> Tournament:
    return tournament_of(organizer, club_a, people(club_a, NAMES), name="Hall open",
                         format="swiss", rounds_planned=4, start=True,
                         tiebreaks=["buchholz", "sonneborn_berger"])


def test_pairings_by_name_list_everyone_with_board_opponent_and_first_move(
        client: Client, swiss: Tournament, play_round: Any) -> None:
    round_ = play_round(swiss, lambda p: MatchScore(0, 0, 1))
    release(swiss)
    rows = [_text(row) for row in _rows(_table(_get(client, swiss, "lists/rounds/1/by-name/"),
                                               "by-name"))]
    names = [row.split(" (")[0] for row in rows]
    assert names == ["Anna Kowalska", "Émile Blanc", "Milan Horak", "Zoe Young",
                     "Ёлка Петрова"]  # accents aside
    for pairing in round_.pairings.select_related("entrant_a__player", "entrant_b__player"):
        first = next(r for r in rows if r.startswith(pairing.entrant_a.name))
        if pairing.entrant_b is None:
            assert f"({pairing.entrant_a.seed}) {pairing.board} " in first + " "
            assert "bye" in first.lower()
            continue
        second = next(r for r in rows if r.startswith(pairing.entrant_b.name))
        assert first.endswith(f"{pairing.board} {pairing.entrant_b.name} "
                              f"({pairing.entrant_b.seed}) moves first yes")
        assert second.endswith(f"{pairing.board} {pairing.entrant_a.name} "
                               f"({pairing.entrant_a.seed}) no")


def test_a_withdrawn_entrant_is_listed_as_not_paired(
        client: Client, swiss: Tournament, play_round: Any, organizer: Any) -> None:
    gone = swiss.entrants.select_related("player").get(player__display_name="Milan Horak")
    services.entrant_withdraw(actor=organizer, entrant=gone, from_round=1)
    play_round(swiss)
    release(swiss)
    rows = [_text(row) for row in _rows(_table(_get(client, swiss, "lists/rounds/1/by-name/"),
                                               "by-name"))]
    assert any(row.startswith("Milan Horak") and row.endswith("not paired this round")
               for row in rows)


def test_a_draft_round_is_shown_on_no_list(
        client: Client, swiss: Tournament, play_round: Any, organizer: Any) -> None:
    play_round(swiss)
    release(swiss)
    draft = services.round_pair_next(actor=organizer, tournament=swiss, release=False)
    assert draft.released_at is None
    _get(client, swiss, "lists/rounds/2/by-name/", status=404)
    chart = _table(_get(client, swiss, "lists/wall-chart/"), "wall-chart")
    assert re.findall(r'<th scope="col" class="num">(\d+)</th>', chart) == ["1"]
    entrant = draft.pairings.exclude(entrant_b=None).first()
    assert entrant is not None
    card = _get(client, swiss, f"entrants/{entrant.entrant_a_id}/")
    assert len(_rows(_table(card, "player-card"))) == 1
    assert "lists/rounds/2/" not in _get(client, swiss, "lists/")
    release(swiss)  # a new version of the tournament: no page kept from before
    _get(client, swiss, "lists/rounds/2/by-name/")
    card = _get(client, swiss, f"entrants/{entrant.entrant_a_id}/")
    assert len(_rows(_table(card, "player-card"))) == 2


def test_starting_list_by_number_with_rating_and_club(
        client: Client, swiss: Tournament, club_a: Club) -> None:
    rows = [_text(row) for row in _rows(_table(_get(client, swiss, "lists/"),
                                               "starting-list"))]
    entrants = list(swiss.entrants.select_related("player").order_by("seed"))
    assert rows == [f"{e.seed} {e.name} {e.rating} {club_a.name}" for e in entrants]


def test_category_fields_show_when_the_player_has_them() -> None:
    from players.models import Player
    from tournaments.lists import category_values

    player = Player(display_name="Anna")
    assert category_values(player) == {}
    player.title = "GM"  # type: ignore[attr-defined]  # the category helper adds the field
    player.birth_year = 1990  # type: ignore[attr-defined]
    assert category_values(player) == {"birth_year": 1990, "title": "GM"}


def test_standings_after_each_round_are_the_standings_of_that_moment(
        client: Client, swiss: Tournament, play_round: Any) -> None:
    """Each round's standings are kept as the tournament showed them then; later, the page
    for "after round N" shows the same ranks, points and tie-breaks."""
    results = [MatchScore(1, 0), MatchScore(0, 1), MatchScore(0, 0, 1)]
    then = {}
    for number in range(1, 4):
        play_round(swiss, lambda p, n=number: results[(p.board + n) % 3])
        then[number] = standings(swiss)
    release(swiss)
    for number in range(1, 4):
        table = _table(_get(client, swiss, f"lists/standings/{number}/"), "standings-after")
        shown = [_text(row) for row in _rows(table)]
        expected = [" ".join([str(row["rank"]), str(row["seed"]), row["name"],
                              *(_points(v) for v in [row["points"],
                                                     *row["tiebreaks"].values()])])
                    for row in then[number]["rows"]]
        assert shown == expected, number
    assert "Standings after round 3" in _get(client, swiss, "lists/standings/")
    _get(client, swiss, "lists/standings/4/", status=404)
    _get(client, swiss, "lists/standings/0/", status=404)


def _points(value: float) -> str:
    text = f"{value:g}".replace(".5", "½")
    return "½" if text == "0½" else text


def test_player_card_round_by_round_with_running_score_and_performance(
        client: Client, swiss: Tournament, play_round: Any) -> None:
    play_round(swiss)  # the first side of each board wins
    play_round(swiss, lambda p: MatchScore(0, 0, 1))
    release(swiss)
    from tournaments.lists import player_card

    entrant = swiss.entrants.order_by("seed").first()
    assert entrant is not None
    card = player_card(swiss, entrant.pk, public=True)
    assert card is not None
    page = _get(client, swiss, f"entrants/{entrant.pk}/")
    rows = [_text(row) for row in _rows(_table(page, "player-card"))]
    running = 0.0
    for row, item in zip(rows, card["rounds"], strict=True):
        running += item["points"]
        opponent = item["opponent"]
        if opponent is not None:
            assert f"{opponent['name']} ({opponent['seed']}) {opponent['rating']}" in row
        assert row.endswith(f"{item['result']} {_points(running)}")
    rated = [item for item in card["rounds"] if item["kind"] == "played"]
    if rated:
        assert card["performance"] is not None
        assert str(card["performance"]) in page
    assert entrant.name in page


def test_wall_chart_rows_by_starting_number_with_cells(
        client: Client, swiss: Tournament, play_round: Any) -> None:
    round_ = play_round(swiss)
    release(swiss)
    chart = _table(_get(client, swiss, "lists/wall-chart/"), "wall-chart")
    rows = [_text(row) for row in _rows(chart)]
    entrants = list(swiss.entrants.order_by("seed"))
    assert [int(row.split()[0]) for row in rows] == [e.seed for e in entrants]
    for pairing in round_.pairings.select_related("entrant_a", "entrant_b"):
        row_a = rows[[e.pk for e in entrants].index(pairing.entrant_a_id)]
        if pairing.entrant_b is None:
            assert " B " in f" {row_a} "
            continue
        row_b = rows[[e.pk for e in entrants].index(pairing.entrant_b_id)]
        assert f" {pairing.entrant_b.seed}f 1 " in f" {row_a} "
        assert f" {pairing.entrant_a.seed}s 0 " in f" {row_b} "


def test_team_event_lists_members_by_name(client: Client, club_a: Club,
                                          organizer: Any, play_round: Any) -> None:
    import datetime as dt

    from players import services as player_services

    members = people(club_a, ["Wanda", "Xavier", "Yara", "Adam"])
    event = services.tournament_create(actor=organizer, club=club_a, name="Pairs night",
                                       game="kazambi-pairs", format="round_robin")
    for index in range(2):
        team = player_services.team_create(actor=organizer, name=f"Team {index}", club=club_a,
                                           members=members[2 * index: 2 * index + 2],
                                           joined_on=dt.date(2020, 1, 1))
        services.entrant_register(actor=organizer, tournament=event, team=team)
    services.tournament_start(actor=organizer, tournament=event)
    play_round(event)
    release(event)
    rows = [_text(row) for row in _rows(_table(_get(client, event, "lists/rounds/1/by-name/"),
                                               "by-name"))]
    assert [row.split(" ")[0] for row in rows] == [
        "Adam", "Team", "Team", "Wanda", "Xavier", "Yara"]
    assert any(row.startswith("Adam (2) Team 1 1 Team 0") for row in rows)


def _sized(club: Club, organizer: Any, size: int, name: str) -> Tournament:
    t = tournament_of(organizer, club, people(club, [f"{name} {i}" for i in range(size)]),
                      name=name, format="swiss", rounds_planned=3, start=True)
    for number in range(3):
        round_ = services.round_pair_next(actor=organizer, tournament=t)
        if number == 2:
            break
        from matches.services import result_record

        for board in round_.pairings.filter(outcome="pending"):
            result_record(actor=organizer, pairing=board, score=MatchScore(1, 0),
                          expected_version=board.version)
    release(t)
    return t


def test_list_pages_answer_in_a_constant_number_of_queries(
        client: Client, club_a: Club, organizer: Any) -> None:
    small = _sized(club_a, organizer, 4, "Small")
    large = _sized(club_a, organizer, 11, "Large")

    def counts(t: Tournament) -> list[int]:
        entrant = t.entrants.order_by("seed").first()
        assert entrant is not None
        found = []
        for path in ["lists/", "lists/rounds/3/by-name/", "lists/standings/2/",
                     "lists/wall-chart/", f"entrants/{entrant.pk}/"]:
            cache.clear()
            with CaptureQueriesContext(connection) as captured:
                _get(client, t, path)
            found.append(len(captured))
        return found

    assert counts(small) == counts(large)


def test_list_pages_are_kept_per_version_and_answer_304(
        client: Client, swiss: Tournament, play_round: Any) -> None:
    play_round(swiss)
    release(swiss)
    first = client.get(f"/tournaments/{swiss.club.slug}/{swiss.slug}/lists/wall-chart/")
    assert first.status_code == 200 and first["ETag"]
    again = client.get(f"/tournaments/{swiss.club.slug}/{swiss.slug}/lists/wall-chart/",
                       HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304


def test_lists_tab_is_on_the_tournament_pages(client: Client, swiss: Tournament) -> None:
    page = _get(client, swiss, "")
    assert f'href="/tournaments/{swiss.club.slug}/{swiss.slug}/lists/"' in page


def test_names_on_the_standings_and_boards_open_the_card(
        client: Client, swiss: Tournament, play_round: Any) -> None:
    round_ = play_round(swiss)
    release(swiss)
    base = f"/tournaments/{swiss.club.slug}/{swiss.slug}/"
    overview = _get(client, swiss, "")
    boards = _get(client, swiss, f"rounds/{round_.number}/")
    for entrant in swiss.entrants.all():
        assert f'href="{base}entrants/{entrant.pk}/"' in overview
        assert f'href="{base}entrants/{entrant.pk}/"' in boards


@pytest.mark.parametrize(("format", "entrants"), [("knockout", 6), ("round_robin", 5)])
def test_every_format_has_its_lists(client: Client, make_tournament: Any, play_round: Any,
                                    format: str, entrants: int) -> None:
    """A knockout has the starting list, the pairings by name and the cards (its standings
    are the bracket); a round robin with a rest round has them all."""
    event = make_tournament(format, entrants=entrants)
    play_round(event)
    release(event)
    entrant = event.entrants.order_by("seed").first()
    _get(client, event, "lists/")
    _get(client, event, "lists/rounds/1/by-name/")
    card = _get(client, event, f"entrants/{entrant.pk}/")
    assert len(_rows(_table(card, "player-card"))) == 1
    status = 404 if format == "knockout" else 200
    _get(client, event, "lists/wall-chart/", status=status)
    _get(client, event, "lists/standings/1/", status=status)
