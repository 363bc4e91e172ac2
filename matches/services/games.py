"""Recording, deleting and renumbering the games of a match, by organizers at the board
or by bot workers: with ``matches.services.results``, the only writers of Game rows.

A game is added to a pairing's match: the service checks the match format (no game after
the match is decided), the roles of that game (first move or low doubles alternate), the
game's facts (no drawn game where the rules have no draw) and the game record when one is
given (replayed by the engine; its result is the game's). When the match is decided, the
pairing's result is written with it (logged, the round closed). Deleting a game renumbers
the later ones and brings the pairing's result back in line with the games left.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.bounds import MAX_CLOCK_SECONDS, MAX_MATCH_GAMES
from core.engine_messages import engine_error_message
from core.errors import ApplicationError, ConflictError
from games.engines import EngineError, game_facts, get_engine
from games.series import MatchScore, SeriesError, check_record, game_roles
from matches.events import GamesChanged, games_changed_send
from matches.models import Game, Termination
from matches.services.results import (
    RecordedResult,
    board_labels,
    check_board,
    checked_result,
    correction_warning,
    ensure_released,
    lock_board,
    match_score,
    no_draw_message,
    write_result,
)
from matches.texts import outcome_text, score_text
from players.permissions import Actor, actor_user
from tournaments.history import EventKind, record
from tournaments.models import PLAYED_OUTCOMES, Outcome, Pairing, Tournament
from tournaments.selectors import match_format_of

RESULTS = {"a": 0, "b": 1, "draw": None}


class DuplicateGameError(ApplicationError):
    """The game was recorded already (a task delivered twice)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, field="number", code="duplicate")


@dataclass(frozen=True)
class RecordedGame:
    game: Game
    score: MatchScore
    match_decided: bool
    warning: str = ""


@transaction.atomic
def game_record(
    *,
    actor: Actor | None,
    pairing: Pairing,
    result: str | None = None,
    record: dict[str, Any] | None = None,
    termination: str = Termination.NORMAL,
    clock_left: list[float] | None = None,
    played_at: dt.datetime | None = None,
    deal_seed: int | None = None,
    expected_version: int | None = None,
    number: int | None = None,
    forfeit_reason: str = "",
) -> RecordedGame:
    """Add the next game of ``pairing``'s match.

    ``result`` is ``"a"``, ``"b"`` or ``"draw"``; with a ``record`` it may be left out (the
    record's result is taken) and must agree if given. ``expected_version`` is the pairing
    version the organizer saw (stale writes are refused). ``number``, when given (a bot
    worker), must be the next game's: a game already recorded raises
    :class:`DuplicateGameError`. ``forfeit_reason`` says why a forfeited game was lost (a
    bot's fault).
    """
    tournament, pairing = lock_board(actor, pairing)
    if expected_version is not None and pairing.version != expected_version:
        raise ConflictError(
            _("Round %(round)d, board %(board)d changed since you loaded it (version "
              "%(expected)d, now %(version)d): reload and try again.") % {
                "round": pairing.round.number, "board": pairing.board,
                "expected": expected_version, "version": pairing.version}
        )
    ensure_released(pairing)
    if pairing.entrant_b_id is None:
        raise ApplicationError(_("A bye has no games."), field="pairing")
    games = list(pairing.games.order_by("number"))
    next_number = games[-1].number + 1 if games else 1
    if number is not None and number < next_number:
        raise DuplicateGameError(_("Game %(number)d of this match is already recorded.")
                                 % {"number": number})
    fmt = match_format_of(tournament)
    if pairing.outcome != Outcome.PENDING:
        raise ApplicationError(
            _("Round %(round)d, board %(board)d already has its result (%(outcome)s): "
              "correct the match result instead.") % {
                "round": pairing.round.number, "board": pairing.board,
                "outcome": outcome_text(pairing.outcome)},
            field="pairing",
        )
    if termination not in Termination.values:
        raise ApplicationError(
            _("Unknown termination %(termination)r; choose one of %(choices)s.")
            % {"termination": termination, "choices": ", ".join(Termination.values)},
            field="termination",
        )
    if forfeit_reason and termination == Termination.NORMAL:
        raise ApplicationError(_("A game played to the end has no forfeit reason."),
                               field="forfeit_reason")
    if number is not None and number != next_number:
        raise ApplicationError(
            _("Game %(number)d cannot be recorded before game %(next)d.")
            % {"number": number, "next": next_number}, field="number"
        )
    score = match_score([game.winner_side for game in games])
    try:
        fmt.check_next_game(score)
    except SeriesError as error:
        raise ApplicationError(engine_error_message(error), field="result") from None
    if next_number > MAX_MATCH_GAMES:
        raise ApplicationError(_("A match has at most %(limit)d games.")
                               % {"limit": MAX_MATCH_GAMES}, field="result")
    clock_left = clock_left_clean(tournament, clock_left)
    roles = game_roles(tournament.game, next_number - 1, duplicate=fmt.duplicate)
    winner_side, detail, moves = _winner(tournament, roles.first_side, result, record,
                                         next_number)
    game = Game(
        pairing=pairing, number=next_number, game=tournament.game,
        options=tournament.game_options, first_side=roles.first_side, deal_seed=deal_seed,
        record=record, winner_side=winner_side, termination=termination, score_detail=detail,
        move_count=moves, clock_left=clock_left, played_at=played_at or timezone.now(),
        recorded_by=actor_user(actor), forfeit_reason=forfeit_reason,
    )
    # inputs are checked above; the database enforces the constraints on insert
    game.full_clean(exclude=["pairing", "recorded_by"], validate_constraints=False)
    game.save()
    pairing.version += 1
    pairing.save(update_fields=["version", "updated_at"])
    _record_game(actor, tournament, pairing, game, EventKind.GAME_ADDED)
    score = score.add(winner_side)
    decided = fmt.is_decided(score)
    warning = ""
    if decided:
        if tournament.system.needs_winner and fmt.winner(score) is None:
            warning = _("The match ended level (%(score)s); a knockout needs a winner: "
                        "record the tie-break winner on the pairing's result.") % {
                "score": score_text(score)}
        else:
            outcome, score = checked_result(tournament, score, None)
            warning = correction_warning(tournament, pairing, outcome, score)
            write_result(actor=actor, pairing=pairing, outcome=outcome, score=score,
                         warning=warning, tournament=tournament)
    games_changed_send(GamesChanged(tournament_id=tournament.pk, pairing_id=pairing.pk,
                                    added=(game.pk,)))
    return RecordedGame(game=game, score=score, match_decided=decided, warning=warning)


GAME_RESULTS = ("a", "b", "draw")


def clock_left_clean(tournament: Tournament, clock_left: Any) -> list[float] | None:
    """Seconds left on each seat's clock: at most one finite number per seat, from 0 to
    :data:`MAX_CLOCK_SECONDS` (None or an empty list: not recorded)."""
    if clock_left is None or (isinstance(clock_left, list | tuple) and not clock_left):
        return None
    seats = get_engine(tournament.game).seat_count(**tournament.game_options)
    if not isinstance(clock_left, list | tuple) or len(clock_left) > seats:
        raise ApplicationError(
            ngettext("clock_left lists the seconds left on each seat's clock: at most "
                     "%(seats)d number.",
                     "clock_left lists the seconds left on each seat's clock: at most "
                     "%(seats)d numbers.", seats) % {"seats": seats}, field="clock_left")
    cleaned = []
    for value in clock_left:
        if isinstance(value, bool) or not isinstance(value, int | float) \
                or not 0 <= value <= MAX_CLOCK_SECONDS:
            raise ApplicationError(
                _("clock_left: %(value)r is not a number of seconds from 0 to %(limit)d.")
                % {"value": value, "limit": MAX_CLOCK_SECONDS}, field="clock_left")
        cleaned.append(float(value))
    return cleaned


@transaction.atomic
def game_entry_record(
    *, actor: Actor | None, pairing: Pairing, expected_version: int, result: str | None = None,
    termination: str = "normal", record: dict[str, Any] | None = None,
    clock_left: list[float] | None = None,
) -> RecordedGame:
    """Add the next game of a board's match as a director enters it: a result (a, b, draw),
    a forfeit or a time forfeit (a or b wins), or a game record whose replay gives the
    result."""
    tournament, locked = lock_board(actor, pairing)
    check_board(tournament, locked, expected_version)
    if result is not None and result not in GAME_RESULTS:
        raise ApplicationError(_("Result must be a, b or draw, not %(result)r.")
                               % {"result": result}, field="result")
    if termination not in Termination.values:
        raise ApplicationError(
            _("Unknown termination %(termination)r; choose one of %(choices)s.")
            % {"termination": termination, "choices": ", ".join(Termination.values)},
            field="termination")
    if termination in (Termination.FORFEIT, Termination.TIME_FORFEIT):
        if result not in ("a", "b"):
            raise ApplicationError(
                _("%(termination)s needs a winner: a or b.")
                % {"termination": Termination(termination).label}, field="result")
        if record is not None:
            raise ApplicationError(
                _("A forfeited game is not replayed: leave its record out."), field="record")
    if record is None and result is None:
        raise ApplicationError(_("Give the game's result (a, b or draw) or its record."),
                               field="result")
    return game_record(actor=actor, pairing=locked, result=result, record=record,
                       termination=termination, clock_left=clock_left,
                       expected_version=locked.version)


@transaction.atomic
def game_delete(*, actor: Actor | None, game: Game) -> RecordedResult | None:
    """Delete a game (a wrong record, a game entered twice), renumber the later games of
    its match, and bring the pairing's result back in line with the games left.

    A decided match whose games no longer decide it goes back to pending, which a round
    followed by later rounds refuses (correct its match result instead). Returns the
    rewritten result, if the result changed.
    """
    tournament, pairing = lock_board(actor, game.pairing)
    games = list(pairing.games.order_by("number"))
    if game.pk not in {g.pk for g in games}:
        raise ApplicationError(_("Game %(number)d is not a game of this board.")
                               % {"number": game.number}, field="game")
    left = [g for g in games if g.pk != game.pk]
    new: tuple[str, MatchScore] | None = None
    if pairing.outcome in PLAYED_OUTCOMES:
        new = _result_after(tournament, pairing, match_score([g.winner_side for g in left]))
    warning = ""
    if new is not None:
        warning = correction_warning(tournament, pairing, *new)
    Game.objects.filter(pk=game.pk).delete()
    renumbered = 0
    for number, later in enumerate(left, start=1):
        if later.number != number:
            later.number = number
            later.save(update_fields=["number"])
            renumbered += 1
    deleted = next(g for g in games if g.pk == game.pk)
    _record_game(actor, tournament, pairing, deleted, EventKind.GAME_DELETED,
                 renumbered=renumbered)
    recorded = None
    if new is not None:
        recorded = write_result(actor=actor, pairing=pairing, outcome=new[0], score=new[1],
                                warning=warning, tournament=tournament)
    else:
        pairing.version += 1
        pairing.save(update_fields=["version", "updated_at"])
    games_changed_send(GamesChanged(tournament_id=tournament.pk, pairing_id=pairing.pk,
                                    corrected=True))
    return recorded


def _record_game(actor: Actor | None, tournament: Tournament, pairing: Pairing, game: Game,
                 kind: str, **facts: Any) -> None:
    a, b = board_labels(pairing)
    winner = {0: "a", 1: "b"}.get(game.winner_side) if game.winner_side is not None else None
    record(tournament, kind, actor=actor, round_number=pairing.round.number,
           board=pairing.board, number=game.number, winner=winner,
           termination=game.termination, a=a, b=b, **facts)


def _result_after(tournament: Tournament, pairing: Pairing,
                  score: MatchScore) -> tuple[str, MatchScore]:
    """The result the games left give: their decided result, or pending."""
    fmt = match_format_of(tournament)
    if not fmt.is_decided(score):
        return str(Outcome.PENDING), MatchScore()
    keep = pairing.outcome if tournament.system.needs_winner else None  # a tie-break stays
    try:
        return checked_result(tournament, score, keep)
    except ApplicationError:
        return checked_result(tournament, score, None)


def _winner(
    tournament: Tournament, first_side: int, result: str | None,
    record: dict[str, Any] | None, number: int,
) -> tuple[int | None, dict[str, Any] | None, int | None]:
    if result is not None and result not in RESULTS:
        raise ApplicationError(_("Result must be a, b or draw, not %(result)r.")
                               % {"result": result}, field="result")
    if record is None:
        if result is None:
            raise ApplicationError(_("Give the game's result (a, b or draw) or its record."),
                                   field="result")
        if result == "draw" and not game_facts(tournament.game).draws_possible:
            raise ApplicationError(no_draw_message(tournament.game), field="result")
        return RESULTS[result], None, None
    try:
        checked = check_record(tournament.game, tournament.game_options, record,
                               first_side=first_side)
    except EngineError as error:
        raise ApplicationError(_("Game %(number)d record: %(problem)s")
                               % {"number": number, "problem": engine_error_message(error)},
                               field="record") from None
    if result is not None and RESULTS[result] != checked.winner_side:
        raise ApplicationError(
            _("Game %(number)d: the record's result is %(recorded)s, not %(given)s.") % {
                "number": number, "recorded": _name(checked.winner_side),
                "given": _name(RESULTS[result])}, field="result",
        )
    return checked.winner_side, checked.score_detail, checked.move_count


def _name(side: int | None) -> str:
    return {0: _("a win for A"), 1: _("a win for B"), None: _("a draw")}[side]
