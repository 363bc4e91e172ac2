"""A Swiss's first colour and Baku acceleration: settings, pairing, TRF export and import.

The TRF import reads both players' codes of a board (a double forfeit stays one), the byes
entered for the round to pair, forbidden pairs, the first colour and Baku acceleration.
"""

from __future__ import annotations

from typing import Any

import pytest

from core.errors import ApplicationError
from games.series.format import MatchScore
from matches.services.imports import tournament_import_trf
from tournaments import selectors, services
from tournaments.models import ByeKind, ForbiddenPairing, Outcome, RequestedBye
from tournaments.trf import pair_trf

pytestmark = pytest.mark.django_db

NAMES = ["Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf", "Hotel"]


def trf(blocks: dict[int, str], *extra: str, rounds: int = 3) -> str:
    """Eight players (ratings falling with the start rank) and their round blocks."""
    lines = ["012 Imported Open", f"XXR {rounds}", *extra]
    for rank in range(1, 9):
        head = (f"001 {rank:>4} m    {NAMES[rank - 1] + ' X':<33} {2500 - 100 * rank:>4} "
                f"{'':<3} {'':>11} {'':<10}  0.0 {rank:>4}")
        lines.append((head + blocks.get(rank, "")).rstrip())
    return "\n".join(lines) + "\n"


def seeds(round_: Any) -> list[tuple[int, int | None]]:
    return [(p.entrant_a.seed, p.entrant_b.seed if p.entrant_b else None)
            for p in round_.pairings.select_related("entrant_a", "entrant_b").order_by("board")]


def test_baku_needs_a_swiss_and_a_draw_worth_half_a_win(make_tournament: Any) -> None:
    with pytest.raises(ApplicationError, match="only in a Swiss"):
        make_tournament("round_robin", start=False, baku_acceleration=True)
    with pytest.raises(ApplicationError, match="half a win"):
        make_tournament("swiss", start=False, rounds_planned=5, baku_acceleration=True,
                        points_win=3, points_draw=1)
    with pytest.raises(ApplicationError, match="first colour"):
        make_tournament("swiss", start=False, rounds_planned=5, first_colour="green")


def test_black1_gives_the_top_seed_the_second_move_in_round_one(
        make_tournament: Any, organizer: Any) -> None:
    tournament = make_tournament("swiss", entrants=8, rounds_planned=3, first_colour="black")
    round_ = services.round_pair_next(actor=organizer, tournament=tournament, release=True)
    assert seeds(round_) == [(5, 1), (2, 6), (7, 3), (4, 8)]


def test_a_first_colour_by_lot_is_drawn_once_and_kept(make_tournament: Any,
                                                      organizer: Any) -> None:
    tournament = make_tournament("swiss", entrants=8, rounds_planned=3, first_colour="lot")
    round_ = services.round_pair_next(actor=organizer, tournament=tournament, release=True)
    tournament.refresh_from_db()
    assert tournament.first_colour in ("white", "black")
    top_first = seeds(round_)[0][0] == 1
    assert top_first == (tournament.first_colour == "white")
    assert f"XXC {tournament.first_colour}1" in selectors.tournament_trf(tournament)


def test_the_export_carries_the_settings_and_pairs_as_the_service_does(
        make_tournament: Any, play_round: Any, organizer: Any) -> None:
    tournament = make_tournament("swiss", entrants=8, rounds_planned=5, first_colour="black",
                                 baku_acceleration=True)
    entrants = {e.seed: e for e in tournament.entrants.all()}
    services.forbid_pairing(actor=organizer, tournament=tournament, entrant_a=entrants[1],
                            entrant_b=entrants[3])
    play_round(tournament, lambda p: MatchScore(0, 0, 1) if p.board == 2 else MatchScore(1, 0, 0))
    text = selectors.tournament_trf(tournament)
    assert {"XXC black1", "192 FIDE_DUTCH_2025_BAKU", "XXP 1 3"} <= set(text.splitlines())
    from_file = pair_trf(text)
    round_ = services.round_pair_next(actor=organizer, tournament=tournament, release=True)
    assert [(a, b or 0) for a, b in seeds(round_)] == from_file


def test_the_import_reads_both_codes_the_next_round_byes_and_the_settings(
        club_a: Any, organizer: Any) -> None:
    text = trf({
        1: "     5 b 1", 5: "     1 w 0",
        2: "     6 w -", 6: "     2 b +",  # the first mover lost by forfeit
        3: "     7 - -  0000 - H", 7: "     3 - -",  # a double forfeit, both absent
        4: "     8 w =  0000 - Z", 8: "     4 b =",
    }, "XXC black1", "192 FIDE_DUTCH_2025_BAKU", "XXP 1 2")
    tournament = tournament_import_trf(actor=organizer, club=club_a, text=text,
                                       game="kugamai")
    assert (tournament.first_colour, tournament.baku_acceleration) == ("black", True)
    outcomes = {pair: outcome for pair, outcome in zip(
        seeds(tournament.rounds.get()),
        tournament.rounds.get().pairings.order_by("board").values_list("outcome", flat=True),
        strict=True)}
    assert outcomes == {(5, 1): Outcome.B_WINS, (2, 6): Outcome.B_FORFEIT_WIN,
                        (3, 7): Outcome.DOUBLE_FORFEIT, (4, 8): Outcome.DRAW}
    byes = {(b.entrant.seed, b.round_number, b.kind) for b in
            RequestedBye.objects.filter(entrant__tournament=tournament).select_related("entrant")}
    assert byes == {(3, 2, ByeKind.HALF_POINT), (4, 2, ByeKind.ZERO)}
    forbidden = ForbiddenPairing.objects.get(tournament=tournament)
    assert {forbidden.entrant_low.seed, forbidden.entrant_high.seed} == {1, 2}
    points = {row["seed"]: row["points"] for row in selectors.standings(tournament)["rows"]}
    assert (points[3], points[7], points[6]) == (0, 0, 1)
    round_ = services.round_pair_next(actor=organizer, tournament=tournament, release=True)
    assert [(a, b) for a, b in seeds(round_) if b is not None] == pair_trf(text)


def test_the_import_refuses_codes_that_do_not_fit_together(club_a: Any,
                                                           organizer: Any) -> None:
    text = trf({1: "     5 w 1", 5: "     1 b 1"})
    with pytest.raises(ApplicationError, match="do not fit together"):
        tournament_import_trf(actor=organizer, club=club_a, text=text, game="kugamai")


def test_the_admin_form_sets_them_and_shows_a_refusal_by_its_field(
        club_a: Any, organizer: Any) -> None:
    from django.test import Client

    from tests.integration.tournaments.test_admin_pages import settings_post
    from tournaments.models import Tournament

    client = Client()
    client.force_login(organizer)
    page = client.post("/admin/tournaments/tournament/add/", settings_post(
        club_a, game="kugamai", points_win="3", points_draw="1", baku_acceleration="on"))
    assert "needs a loss worth 0 and a draw worth half a win" in page.content.decode()
    client.post("/admin/tournaments/tournament/add/", settings_post(
        club_a, game="kugamai", first_colour="black", baku_acceleration="on"))
    tournament = Tournament.objects.get()
    assert (tournament.first_colour, tournament.baku_acceleration) == ("black", True)
    dashboard = client.get(f"/admin/tournaments/tournament/{tournament.pk}/dashboard/")
    assert "Top seed moves second; Baku acceleration" in dashboard.content.decode()
