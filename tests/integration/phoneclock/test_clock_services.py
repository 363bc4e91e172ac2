"""The phone clock's services: a board's clock opened by its director or a player's link,
taps stored idempotently and replayed into per-move times, a flag that pre-fills the
result, the director's confirmation through the one result writer, and refusals (another
club, other boards' links, bad input, huge numbers, NUL bytes, 100k taps)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied

from core.errors import ApplicationError, ConflictError
from phoneclock import selectors, services
from phoneclock.models import MAX_TAPS_PER_SESSION, ClockSession, ClockTap
from playerlinks.services import link_issue
from tournaments import services as tournament_services
from tournaments.models import Outcome, Pairing
from tournaments.services.rounds import round_clock_update

pytestmark = pytest.mark.django_db

S = 1000


@pytest.fixture
def board(make_event: Any, organizer: Any) -> Any:
    event = make_event("round_robin", entrants=4, clock="1+2")
    round_ = event.rounds.get(number=1) if event.rounds.exists() else \
        tournament_services.round_pair_next(actor=organizer, tournament=event, release=True)
    return Pairing.objects.filter(round=round_, entrant_b__isnull=False).order_by("board")[0]


def taps_for(moves: list[float], start_at: int = 1_700_000_000_000) -> list[dict[str, Any]]:
    """A start (seat 0's clock runs), then moves of the given seconds, seats in turn."""
    taps = [{"seq": 1, "seat": 0, "kind": "start", "at": start_at}]
    at = start_at
    for index, seconds in enumerate(moves):
        at += int(seconds * S)
        taps.append({"seq": index + 2, "seat": index % 2, "kind": "move", "at": at})
    return taps


def test_taps_become_move_times_and_a_resend_never_doubles(board: Any, organizer: Any) -> None:
    session = services.session_open(actor=organizer, pairing=board, game_number=1)
    assert (session.setting, session.odds) == ("1+2", "")
    assert services.session_open(actor=organizer, pairing=board, game_number=1) == session
    taps = taps_for([10, 5, 20])
    services.taps_record(actor=organizer, session=session, taps=taps[:3])
    services.taps_record(actor=organizer, session=session, taps=taps)  # resend after offline
    session.refresh_from_db()
    assert ClockTap.objects.filter(session=session).count() == 4
    assert session.record == [
        {"side": 0, "move": 1, "used_ms": 10 * S, "left_ms": 52 * S},
        {"side": 1, "move": 1, "used_ms": 5 * S, "left_ms": 57 * S},
        {"side": 0, "move": 2, "used_ms": 20 * S, "left_ms": 34 * S},
    ]
    changed = dict(taps[1], at=taps[1]["at"] + 1)
    with pytest.raises(ConflictError, match="already stored"):
        services.taps_record(actor=organizer, session=session, taps=[changed])


def test_a_gap_waits_for_the_missing_tap(board: Any, organizer: Any) -> None:
    session = services.session_open(actor=organizer, pairing=board, game_number=1)
    taps = taps_for([10, 5])
    services.taps_record(actor=organizer, session=session, taps=[taps[0], taps[2]])
    session.refresh_from_db()
    assert session.record == []
    services.taps_record(actor=organizer, session=session, taps=[taps[1]])
    session.refresh_from_db()
    assert [entry["used_ms"] for entry in session.record] == [10 * S, 5 * S]


def test_a_flag_prefills_and_the_director_confirms_through_the_one_writer(
        board: Any, organizer: Any) -> None:
    link_a, _token = link_issue(actor=organizer, entrant=board.entrant_a)
    session = services.session_open(actor=None, link=link_a, pairing=board, game_number=1)
    taps = taps_for([10, 5])
    # seat 0 now runs with 52 s: its flag falls 52 s later, claimed at that moment
    taps.append({"seq": 4, "seat": 0, "kind": "flag", "at": taps[-1]["at"] + 52 * S})
    services.taps_record(actor=None, link=link_a, session=session, taps=taps)
    session.refresh_from_db()
    assert (session.finish, session.winner_side) == ("flag", 1)
    board.refresh_from_db()
    assert board.outcome == Outcome.PENDING
    services.session_agree(link=link_a, session=session)
    services.session_result_confirm(actor=organizer, session=session)
    board.refresh_from_db()
    assert (board.outcome, board.wins_a, board.wins_b) == (Outcome.B_WINS, 0, 1)
    with pytest.raises(ApplicationError, match="already confirmed"):
        services.session_result_confirm(actor=organizer, session=session)
    with pytest.raises(ApplicationError, match="confirmed"):
        services.taps_record(actor=organizer, session=session,
                             taps=[{"seq": 5, "seat": 1, "kind": "move", "at": 2**40}])


def test_both_players_agreeing_records_the_clocks_result(board: Any, organizer: Any) -> None:
    link_a, _token = link_issue(actor=organizer, entrant=board.entrant_a)
    link_b, _token = link_issue(actor=organizer, entrant=board.entrant_b)
    session = services.session_open(actor=None, link=link_a, pairing=board, game_number=1)
    taps = taps_for([10, 5])
    taps.append({"seq": 4, "seat": 0, "kind": "flag", "at": taps[-1]["at"] + 52 * S})
    services.taps_record(actor=None, link=link_a, session=session, taps=taps)
    services.session_agree(link=link_a, session=session)
    board.refresh_from_db()
    assert board.outcome == Outcome.PENDING  # one side is not enough
    services.session_agree(link=link_b, session=session)
    board.refresh_from_db()
    session.refresh_from_db()
    assert (board.outcome, board.wins_b) == (Outcome.B_WINS, 1)
    assert session.confirmed_at is not None and session.confirmed_by is None


def test_an_early_flag_is_refused_and_nothing_is_written(board: Any, organizer: Any) -> None:
    session = services.session_open(actor=organizer, pairing=board, game_number=1)
    taps = taps_for([10]) + [{"seq": 3, "seat": 1, "kind": "flag",
                              "at": 1_700_000_000_000 + 20 * S}]
    with pytest.raises(ApplicationError, match="Tap 3"):
        services.taps_record(actor=organizer, session=session, taps=taps)
    assert not ClockTap.objects.filter(session=session).exists()


def test_other_clubs_and_other_boards_are_refused(board: Any, organizer: Any, club_b: Any) -> None:
    stranger = club_b.organizers.get()
    with pytest.raises(PermissionDenied):
        services.session_open(actor=stranger, pairing=board, game_number=1)
    session = services.session_open(actor=organizer, pairing=board, game_number=1)
    with pytest.raises(PermissionDenied):
        services.taps_record(actor=stranger, session=session, taps=taps_for([1]))
    other = board.round.pairings.exclude(pk=board.pk).filter(entrant_b__isnull=False).first()
    outsider, _token = link_issue(actor=organizer, entrant=other.entrant_a)
    with pytest.raises(ApplicationError, match="not for this board"):
        services.taps_record(actor=None, link=outsider, session=session, taps=taps_for([1]))
    with pytest.raises(PermissionDenied):
        services.session_result_confirm(actor=stranger, session=session)
    assert not ClockTap.objects.exists()


@pytest.mark.parametrize(("taps", "field"), [
    ([{"seq": 1, "seat": 0, "kind": "start", "at": 10**30}], "taps[0].at"),
    ([{"seq": 10**12, "seat": 0, "kind": "start", "at": 1}], "taps[0].seq"),
    ([{"seq": 1, "seat": 2, "kind": "start", "at": 1}], "taps[0].seat"),
    ([{"seq": 1, "seat": 0, "kind": "start\x00", "at": 1}], "taps[0].kind"),
    ([{"seq": 1, "seat": 0, "kind": "add_time", "at": 1, "amount": 10**15}], "taps[0].amount"),
    ([{"seq": True, "seat": 0, "kind": "start", "at": 1}], "taps[0].seq"),
    (["\x00"], "taps[0]"),
    ("not a list", "taps"),
    ([{"seq": 1, "seat": 0, "kind": "start", "at": 1}] * 100_000, "taps"),
])
def test_bad_input_is_refused_naming_the_field(board: Any, organizer: Any, taps: Any,
                                               field: str) -> None:
    session = services.session_open(actor=organizer, pairing=board, game_number=1)
    with pytest.raises(ApplicationError) as caught:
        services.taps_record(actor=organizer, session=session, taps=taps)
    assert caught.value.field == field
    assert not ClockTap.objects.exists()


def test_a_session_keeps_at_most_its_cap(board: Any, organizer: Any) -> None:
    session = services.session_open(actor=organizer, pairing=board, game_number=1)
    taps = taps_for([0.01] * (MAX_TAPS_PER_SESSION - 1))
    for begin in range(0, len(taps), 500):
        services.taps_record(actor=organizer, session=session, taps=taps[begin:begin + 500])
    assert ClockTap.objects.filter(session=session).count() == MAX_TAPS_PER_SESSION
    one_more = {"seq": MAX_TAPS_PER_SESSION + 1, "seat": 1, "kind": "move", "at": 2**41}
    with pytest.raises(ApplicationError, match="seq"):
        services.taps_record(actor=organizer, session=session, taps=[one_more])
    assert ClockTap.objects.filter(session=session).count() == MAX_TAPS_PER_SESSION


def test_game_numbers_and_byes(board: Any, organizer: Any) -> None:
    for game in (0, 2, 10**9, True):
        with pytest.raises(ApplicationError, match="game number"):
            services.session_open(actor=organizer, pairing=board, game_number=game)
    assert selectors.next_game_number(board) == 1
    assert ClockSession.objects.count() == 0


def test_events_take_periods_odds_and_per_game_settings(make_event: Any, organizer: Any) -> None:
    event = make_event("round_robin", entrants=4, clock="40/90+30,30+30")
    assert event.clock == "40/90+30, 30+30"
    round_ = tournament_services.round_pair_next(actor=organizer, tournament=event, release=True)
    round_clock_update(actor=organizer, round_=round_, clock="5|3",
                                           time_slot_minutes=None)
    pairing = Pairing.objects.filter(round=round_, entrant_b__isnull=False)[0]
    session = services.session_open(actor=organizer, pairing=pairing, game_number=1)
    assert (session.setting, session.odds) == ("5", "3")
    with pytest.raises(ApplicationError, match="clock"):
        make_event("round_robin", entrants=4, clock="5|3|1")


def test_the_clock_never_overwrites_a_result_the_director_entered(board: Any,
                                                                  organizer: Any) -> None:
    from games.series.format import MatchScore
    from matches.services.results import match_result_record

    link_a, _token = link_issue(actor=organizer, entrant=board.entrant_a)
    link_b, _token = link_issue(actor=organizer, entrant=board.entrant_b)
    session = services.session_open(actor=None, link=link_a, pairing=board, game_number=1)
    taps = taps_for([10, 5])
    taps.append({"seq": 4, "seat": 0, "kind": "flag", "at": taps[-1]["at"] + 52 * S})
    services.taps_record(actor=None, link=link_a, session=session, taps=taps)
    board.refresh_from_db()
    match_result_record(actor=organizer, pairing=board, expected_version=board.version,
                        score=MatchScore(1, 0))  # the director typed the other way
    services.session_agree(link=link_a, session=session)
    services.session_agree(link=link_b, session=session)
    board.refresh_from_db()
    assert (board.outcome, board.wins_a, board.wins_b) == (Outcome.A_WINS, 1, 0)


def finished_by_flag(session: Any, link: Any, moves: list[float]) -> None:
    """Play ``moves`` and let the running side's flag fall (1+2: 60 s and 2 s a move)."""
    taps = taps_for(moves)
    session.refresh_from_db()
    services.taps_record(actor=None, link=link, session=session, taps=taps)
    session.refresh_from_db()
    running = len(moves) % 2
    left = session.record[-2]["left_ms"] if len(moves) > 1 else 60 * S
    taps.append({"seq": len(taps) + 1, "seat": running, "kind": "flag",
                 "at": taps[-1]["at"] + left})
    services.taps_record(actor=None, link=link, session=session, taps=taps)


def test_the_confirmed_game_keeps_each_moves_time_used_and_left(board: Any,
                                                                organizer: Any) -> None:
    from matches.models import Game

    link_a, _token = link_issue(actor=organizer, entrant=board.entrant_a)
    session = services.session_open(actor=None, link=link_a, pairing=board, game_number=1)
    finished_by_flag(session, link_a, [10, 5])
    services.session_result_confirm(actor=organizer, session=session)
    game = Game.objects.get(pairing=board)
    assert (game.number, game.winner_side, game.termination) == (1, 1, "time_forfeit")
    assert game.move_times == [[10.0, 52.0], [5.0, 57.0]]
    assert game.clock_left == [0.0, 57.0]
    assert game.order_recorded and game.record is None  # times only


def test_a_match_is_recorded_in_the_order_the_clock_played_it(make_event: Any,
                                                              organizer: Any) -> None:
    from matches.models import Game

    event = make_event("round_robin", entrants=4, clock="1+2", match_format="bo3")
    round_ = event.rounds.filter(number=1).first() or tournament_services.round_pair_next(
        actor=organizer, tournament=event, release=True)
    pairing = Pairing.objects.filter(round=round_, entrant_b__isnull=False).order_by("board")[0]
    link_a, _token = link_issue(actor=organizer, entrant=pairing.entrant_a)
    sessions = [services.session_open(actor=None, link=link_a, pairing=pairing, game_number=n)
                for n in (1, 2, 3)]
    finished_by_flag(sessions[0], link_a, [3])  # B's flag: A wins game 1
    finished_by_flag(sessions[1], link_a, [3, 4])  # A's flag: B wins game 2
    finished_by_flag(sessions[2], link_a, [3, 4, 5])  # B's flag: A wins game 3
    with pytest.raises(ApplicationError, match="games 1 to 1"):
        services.session_result_confirm(actor=organizer, session=sessions[1])
    for session in sessions:
        services.session_result_confirm(actor=organizer, session=session)
    games = list(Game.objects.filter(pairing=pairing).order_by("number"))
    assert [game.winner_side for game in games] == [0, 1, 0]  # not the canonical B, A, A
    assert [len(game.move_times or []) for game in games] == [1, 2, 3]
    pairing.refresh_from_db()
    assert (pairing.outcome, pairing.wins_a, pairing.wins_b) == (Outcome.A_WINS, 2, 1)


def test_times_attach_to_a_game_already_entered_only_when_its_moves_match(
        board: Any, organizer: Any) -> None:
    from django.utils import timezone

    from matches.models import Game
    from matches.services.times import game_times_attach

    game = Game.objects.create(pairing=board, number=1, game="kugamai", first_side=0,
                               record={"moves": ["x"] * 3}, move_count=3, winner_side=0,
                               played_at=timezone.now())
    link_a, _token = link_issue(actor=organizer, entrant=board.entrant_a)
    session = services.session_open(actor=None, link=link_a, pairing=board, game_number=1)
    finished_by_flag(session, link_a, [10, 5])
    with pytest.raises(ApplicationError, match="record has 3 moves but the clock measured 2"):
        services.session_result_confirm(actor=organizer, session=session)
    session.refresh_from_db()
    game.refresh_from_db()
    assert session.confirmed_at is None and game.move_times is None
    game_times_attach(actor=organizer, game=game, move_times=[[1, 59], [2, 58], [3.5, 57]])
    game.refresh_from_db()
    assert game.move_times == [[1.0, 59.0], [2.0, 58.0], [3.5, 57.0]]
    assert game.winner_side == 0  # the result stays


@pytest.mark.parametrize("times", [
    "nope", [[1]], [[1, -1]], [[float("nan"), 1]], [[True, 1]], [[1, 10**9]],
    [[1, 1]] * 2001,
])
def test_bad_move_times_are_refused_and_nothing_changes(board: Any, organizer: Any,
                                                        times: Any, club_b: Any) -> None:
    from django.utils import timezone

    from matches.models import Game
    from matches.services.times import game_times_attach

    game = Game.objects.create(pairing=board, number=1, game="kugamai", first_side=0,
                               winner_side=0, played_at=timezone.now())
    with pytest.raises(ApplicationError) as caught:
        game_times_attach(actor=organizer, game=game, move_times=times)
    assert caught.value.field == "move_times"
    with pytest.raises(PermissionDenied):
        game_times_attach(actor=club_b.organizers.get(), game=game, move_times=[[1, 2]])
    game.refresh_from_db()
    assert game.move_times is None


def test_a_draw_agreed_at_the_board_is_confirmed_like_a_flag(board: Any,
                                                             organizer: Any) -> None:
    from matches.models import Game

    link_a, _token = link_issue(actor=organizer, entrant=board.entrant_a)
    link_b, _token = link_issue(actor=organizer, entrant=board.entrant_b)
    session = services.session_open(actor=None, link=link_a, pairing=board, game_number=1)
    taps = taps_for([10, 5])
    taps.append({"seq": 4, "seat": 0, "kind": "draw", "at": taps[-1]["at"] + 3 * S})
    services.taps_record(actor=None, link=link_a, session=session, taps=taps)
    session.refresh_from_db()
    assert (session.finish, session.winner_side) == ("draw", None)
    assert selectors.session_state(session)["finish"] == "draw"
    services.session_agree(link=link_a, session=session)
    services.session_agree(link=link_b, session=session)
    board.refresh_from_db()
    assert (board.outcome, board.draws) == (Outcome.DRAW, 1)
    game = Game.objects.get(pairing=board)
    assert game.winner_side is None and game.move_times == [[10.0, 52.0], [5.0, 57.0]]
    assert game.clock_left == [49.0, 57.0]


def test_a_game_without_draws_refuses_a_draw_on_the_clock(make_event: Any,
                                                          organizer: Any) -> None:
    event = make_event("round_robin", entrants=4, game="kazambi", clock="1+2")
    round_ = event.rounds.filter(number=1).first() or tournament_services.round_pair_next(
        actor=organizer, tournament=event, release=True)
    pairing = Pairing.objects.filter(round=round_, entrant_b__isnull=False)[0]
    session = services.session_open(actor=organizer, pairing=pairing, game_number=1)
    taps = taps_for([10]) + [{"seq": 3, "seat": 1, "kind": "draw", "at": 1_700_000_020_000}]
    with pytest.raises(ApplicationError, match="no draws") as caught:
        services.taps_record(actor=organizer, session=session, taps=taps)
    assert caught.value.field == "taps[2].kind"
    assert not ClockTap.objects.filter(session=session).exists()
