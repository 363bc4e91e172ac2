"""Reads of the phone clock: a session's state for the phones, a board's current game,
the sessions of a round, and the measured advice (games.clocks.measured) for a round."""

from __future__ import annotations

import json
from typing import Any

from django.db.models import Q

from core.engine_messages import translated
from games.clocks.control import controls_for, game_control_text
from games.clocks.errors import ClockError
from games.clocks.measured import (
    MAX_BOARDS,
    MIN_MEASURED_GAMES,
    MeasuredAdvice,
    RecordedGame,
    measured_advice,
)
from matches.clock_services import AdviceQuestion
from phoneclock.models import ClockSession, TapKind
from tournaments.models import Pairing, Round
from tournaments.selectors import match_format_of, round_clock

#: The latest measured games that count for advice (bench/bench_clock.py: the advice
#: over 2000 games of 80 moves takes about 0.3 s; 500 keep the round page quick).
MAX_MEASURED = 500


def session_state(session: ClockSession) -> dict[str, Any]:
    """What a phone needs to show the clock: the controls, the stored taps, the finish."""
    taps = [{"seq": tap.sequence, "seat": tap.seat, "kind": tap.kind, "at": tap.at_ms,
             "amount": tap.amount_ms, "used": tap.used_ms, "left": tap.left_ms}
            for tap in session.taps.order_by("sequence")]
    return {"session": session.pk, "setting": session.setting, "odds": session.odds,
            "controls": controls_json(session), "taps": taps,
            "finish": session.finish, "winner_side": session.winner_side,
            "confirmed": session.confirmed_at is not None,
            "agreed": [session.agreed_a, session.agreed_b]}


def controls_json(session: ClockSession) -> list[list[dict[str, Any]]]:
    """Each side's periods for the page's clock: moves (None: the rest), base and bonus in
    ms, the bonus kind."""
    try:
        controls = controls_for(session.setting, session.odds)
    except ClockError:
        return []
    return [[{"moves": period.moves, "base": period.setting.base_seconds * 1000,
              "kind": str(period.setting.kind), "bonus": period.setting.bonus_seconds * 1000}
             for period in control.periods] for control in controls]


def current_pairing(entrant_id: int) -> Pairing | None:
    """The entrant's board in the latest released round."""
    return (Pairing.objects.filter(round__released_at__isnull=False)
            .filter(Q(entrant_a_id=entrant_id) | Q(entrant_b_id=entrant_id))
            .select_related("round__tournament__club", "entrant_a__player", "entrant_a__team",
                            "entrant_b__player", "entrant_b__team")
            .order_by("-round__number").first())


def next_game_number(pairing: Pairing) -> int:
    """The first game of the board whose clock has not finished."""
    finished = set(ClockSession.objects.filter(pairing=pairing).exclude(finish="")
                   .values_list("game_number", flat=True))
    most = match_format_of(pairing.round.tournament).max_games_needed() or 1
    return next((n for n in range(1, most + 1) if n not in finished), most)


def round_boards(round_: Round) -> list[Pairing]:
    """The round's boards with games (byes left out)."""
    return list(round_.pairings.filter(entrant_b__isnull=False).order_by("board"))


def recorded_games(game: str, options: dict[str, Any]) -> list[RecordedGame]:
    """Finished games measured on the phone clock for ``game`` with ``options``."""
    sessions = (ClockSession.objects.exclude(finish="")
                .filter(pairing__round__tournament__game=game,
                        pairing__round__tournament__game_options=options)
                .order_by("-finished_at")[:MAX_MEASURED])
    found = []
    for session in sessions.only("setting", "odds", "record", "finish", "winner_side"):
        try:
            controls = controls_for(session.setting, session.odds)
        except ClockError:
            continue
        durations = tuple(entry["used_ms"] / 1000 for entry in session.record
                          if not entry.get("flag"))
        flagged = 1 - session.winner_side if session.finish == "flag" and \
            session.winner_side is not None else None
        if durations:
            found.append(RecordedGame(durations, controls, flagged))
    return found


def measured_for(*, game: str, options: dict[str, Any], clock: str, boards: int = 1,
                 games_per_match: int = 1, games: list[RecordedGame] | None = None,
                 ) -> tuple[MeasuredAdvice | None, int]:
    """Measured advice for the clock text ``clock`` (its first game's setting) and the
    number of measured games (``games``, else read); None: too few of them, or a clock
    that cannot be read."""
    if games is None:
        games = recorded_games(game, options)
    try:
        proposal = controls_for(*game_control_text(clock, 1))
    except ClockError:
        return None, len(games)
    advice = measured_advice(games, proposal, boards=max(1, min(boards, MAX_BOARDS)),
                             games_per_match=max(1, games_per_match),
                             label=translated_label(game, options))
    return advice, len(games)


def round_measured_advice(round_: Round, boards: int | None = None) -> tuple[
        MeasuredAdvice | None, int, str]:
    """Measured advice for the round's clock: (advice or None, measured games, proposal
    text). None: too few measured games (or no clock set): today's advice stands."""
    tournament = round_.tournament
    text = round_clock(round_)
    if not text:
        return None, len(recorded_games(tournament.game, tournament.game_options or {})), ""
    if boards is None:
        boards = round_.pairings.filter(entrant_b__isnull=False).count()
    advice, measured = measured_for(
        game=tournament.game, options=tournament.game_options or {}, clock=text,
        boards=boards, games_per_match=match_format_of(tournament).max_games_needed() or 1)
    return advice, measured, text


def measured_advice_dict(round_: Round) -> dict[str, Any]:
    """The round's measured advice for the clock-advice API (``fallback``: too few
    measured games, today's estimate stands)."""
    advice, measured, text = round_measured_advice(round_)
    return advice_dict(advice, measured, text)


def question_advice_dict(question: AdviceQuestion) -> dict[str, Any]:
    """Measured advice for a clock setting judged outside a round (the game-agnostic
    clock-advice API, the tournament's settings page)."""
    key = "recorded_games " + json.dumps([question.game, question.options], sort_keys=True)
    games = question.memo.get(key)
    if games is None:
        games = question.memo[key] = recorded_games(question.game, question.options)
    advice, measured = measured_for(game=question.game, options=question.options,
                                    clock=question.clock, boards=question.boards,
                                    games_per_match=question.games_per_match, games=games)
    return advice_dict(advice, measured, question.clock)


def advice_dict(advice: MeasuredAdvice | None, measured: int, text: str) -> dict[str, Any]:
    if advice is None:
        return {"fallback": True, "games_measured": measured, "setting": text,
                "minimum": MIN_MEASURED_GAMES}
    return {
        "fallback": False, "games_measured": advice.games_measured, "setting": text,
        "lost_on_time": advice.lost_on_time,
        "lost_on_time_share": round(advice.lost_on_time_share, 4),
        "move_seconds": {"median": advice.move_seconds.median, "p90": advice.move_seconds.p90},
        "game_minutes": {"median": round(advice.game_minutes.median, 2),
                         "p90": round(advice.game_minutes.p90, 2)},
        "round_minutes": {"median": round(advice.round_median_minutes, 2),
                          "p90": round(advice.round_p90_minutes, 2)},
        "boards": advice.boards, "reasons": reasons(advice),
    }


def translated_label(game: str, options: dict[str, Any]) -> str:
    size = [f"{key} {value}" for key, value in sorted(options.items())
            if key in ("rows", "cols", "size", "board")]
    return ", ".join([game, *size])


def reasons(advice: MeasuredAdvice) -> list[str]:
    return [translated(reason) for reason in advice.reason_messages]


__all__ = ["TapKind", "advice_dict", "current_pairing", "measured_for", "next_game_number",
           "question_advice_dict", "reasons", "recorded_games", "round_boards",
           "round_measured_advice", "session_state"]
