"""Recording and correcting match results, with stale-write protection and a change log.

This module is the one writer of a pairing's result, and it keeps the invariant "a
pairing's result equals its games": a director types a match score (or a forfeit) per
board, and the board's games follow it:

* no games yet (or games that begin the typed score, while the result is pending): the
  missing games are added, marked ``order_recorded=False`` (the score says who won how
  many, not in which order), in a canonical order the format allows: draws first, then
  the loser's wins interleaved with the winner's, the winner's deciding win last;
* games that disagree with a corrected score are replaced (the new ones keep the time
  the old ones were played), unless one of them carries a game record (then the
  correction is refused: the record is the evidence);
* a forfeit (or a cleared result) that replaces a played score removes its games.

Knockout decision: a knockout match needs a winner. A score the match format calls a
draw (a fixed-length match ending level, or a capped first-to-N) is refused unless the
result also names the winner of the tie-break (``outcome="a_wins"`` or ``"b_wins"``
with the level score): the club's play-off, armageddon game or drawing of lots decides,
and the log records it. A double forfeit is refused in a knockout for the same reason.

A game cannot end drawn in a game whose facts say so (Kazambi): a score with drawn
games is refused for it, wherever it comes from (admin, API, import).

Every check runs before anything is written (:func:`match_result_check` runs them alone,
for the admin's form validation); then one save of a board is one version step and one
log entry.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from core import json_depth
from core.bounds import MAX_MATCH_GAMES
from core.engine_messages import engine_error_message, game_label
from core.errors import ApplicationError, ConflictError
from games.engines import game_facts
from games.series.format import MatchFormat, MatchScore, SeriesError
from games.series.roles import game_roles
from matches.events import GamesChanged, games_changed_send
from matches.models import Game, Termination
from matches.texts import outcome_text, score_text
from players.permissions import Actor, actor_user, ensure_can_manage_club
from tournaments import adapters
from tournaments.history import EventKind, entrant_label, record, result_facts
from tournaments.models import (
    FORFEIT_OUTCOMES,
    PLAYED_OUTCOMES,
    Outcome,
    Pairing,
    ResultChange,
    Round,
    RoundStatus,
    Status,
    Tournament,
)
from tournaments.selectors import match_format_of
from tournaments.services.tournaments import lock_tournament
from tournaments.texts import format_text


@dataclass(frozen=True)
class RecordedResult:
    pairing: Pairing
    #: Set when the change touches a round that later rounds followed.
    warning: str = ""


def result_snapshot(pairing: Pairing) -> dict[str, Any]:
    return {"outcome": pairing.outcome, "wins_a": pairing.wins_a, "wins_b": pairing.wins_b,
            "draws": pairing.draws, "version": pairing.version}


def match_score(winners: list[int | None]) -> MatchScore:
    """The score of games won by side 0 (A), 1 (B) or drawn (None)."""
    score = MatchScore()
    for winner in winners:
        score = score.add(winner)
    return score


def _describe(outcome: str, score: MatchScore) -> str:
    if outcome in PLAYED_OUTCOMES:
        return pgettext("an outcome and its score", "%(outcome)s %(score)s") % {
            "outcome": outcome_text(outcome), "score": score_text(score)}
    return outcome_text(outcome)


def no_draw_message(game: str) -> str:
    return (f"{game_label(game)} has no draws (a game ends when a player cannot move): "
            "enter the games won by each side.")


def checked_result(
    tournament: Tournament, score: MatchScore | None, outcome: str | None,
) -> tuple[str, MatchScore]:
    """The outcome and score to store, after checking them against the match format."""
    match_format = match_format_of(tournament)
    needs_winner = tournament.system.needs_winner
    if outcome is not None and outcome not in Outcome.values or outcome == Outcome.BYE:
        choices = ", ".join(v for v in Outcome.values if v != Outcome.BYE)
        raise ApplicationError(_("Unknown outcome %(outcome)r; choose one of %(choices)s.")
                               % {"outcome": outcome, "choices": choices}, field="outcome")
    if outcome in FORFEIT_OUTCOMES or outcome == Outcome.PENDING:
        if score is not None and score.games:
            raise ApplicationError(
                _("%(outcome)s has no game score: leave it empty.")
                % {"outcome": Outcome(outcome).label},
                field="score",
            )
        if needs_winner and outcome == Outcome.DOUBLE_FORFEIT:
            raise ApplicationError(_("A knockout match needs a winner: a double forfeit "
                                     "cannot advance anyone."), field="outcome")
        return str(outcome), MatchScore()
    if score is None:
        raise ApplicationError(_("Give the match score (games won by each side and drawn), "
                                 "or a forfeit outcome."), field="score")
    if score.draws and not game_facts(tournament.game).draws_possible:
        raise ApplicationError(no_draw_message(tournament.game), field="draws")
    if score.games > MAX_MATCH_GAMES:
        raise ApplicationError(_("A match has at most %(limit)d games, not %(games)d.")
                               % {"limit": MAX_MATCH_GAMES, "games": score.games},
                               field="score")
    try:
        match_format.check_final(score)
        winner = match_format.winner(score)
    except SeriesError as error:
        raise ApplicationError(engine_error_message(error), field="score") from None
    scored = {0: Outcome.A_WINS, 1: Outcome.B_WINS, None: Outcome.DRAW}[winner]
    if outcome is None or outcome == scored:
        if needs_winner and scored == Outcome.DRAW:
            raise ApplicationError(
                _("The match ended level (%(score)s) but a knockout needs a winner: record "
                  "the tie-break winner as the outcome (a_wins or b_wins) with this score.")
                % {"score": score_text(score)},
                field="outcome",
            )
        return str(scored), score
    if needs_winner and scored == Outcome.DRAW and outcome in (Outcome.A_WINS, Outcome.B_WINS):
        return str(outcome), score  # decided by the tie-break
    raise ApplicationError(
        _("The score %(score)s means %(scored)s, not %(outcome)s.") % {
            "score": score_text(score), "scored": outcome_text(scored),
            "outcome": outcome_text(outcome)}, field="outcome",
    )


def correction_warning(tournament: Tournament, pairing: Pairing, new_outcome: str,
                       new_score: MatchScore) -> str:
    """Refuse what a followed round cannot take; the warning for what it can."""
    last_round = int(Round.objects.filter(tournament=tournament).aggregate(n=Max("number"))["n"]
                     or 0)
    if pairing.round.number >= last_round:
        return ""
    if new_outcome == Outcome.PENDING:
        raise ApplicationError(
            _("Round %(round)d is followed by round %(last)d: its results can be corrected "
              "but not cleared.") % {"round": pairing.round.number, "last": last_round},
            field="outcome",
        )
    old_outcome = pairing.outcome
    old_score = MatchScore(pairing.wins_a, pairing.wins_b, pairing.draws)
    if tournament.system.correction == "keep_winner":
        _check_knockout_correction(pairing, new_outcome)
        return ""
    if (new_outcome, new_score) == (old_outcome, old_score):
        return ""
    return _(
        "Round %(round)d is already followed by round %(last)d: board %(board)d changes "
        "from %(old)s to %(new)s. Standings change; the pairings of later rounds stay as "
        "they were made.") % {
            "round": pairing.round.number, "last": last_round, "board": pairing.board,
            "old": _describe(old_outcome, old_score), "new": _describe(new_outcome, new_score)}


def _check_knockout_correction(pairing: Pairing, new_outcome: str) -> None:
    before = adapters.knockout_winner(pairing)
    after = pairing.entrant_a_id if new_outcome in (Outcome.A_WINS, Outcome.A_FORFEIT_WIN) \
        else pairing.entrant_b_id
    if before == after:
        return
    later = Pairing.objects.filter(
        Q(entrant_a_id__in=[pairing.entrant_a_id, pairing.entrant_b_id])
        | Q(entrant_b_id__in=[pairing.entrant_a_id, pairing.entrant_b_id]),
        round__tournament_id=pairing.round.tournament_id,
        round__number__gt=pairing.round.number,
    ).select_related("round").first()
    if later is not None:
        raise ApplicationError(
            _("The winner of board %(board)d already played on in round %(round)d: a "
              "knockout result that changes who went through cannot be corrected "
              "afterwards.") % {"board": pairing.board, "round": later.round.number},
            field="outcome",
        )


def write_result(*, actor: Actor | None, pairing: Pairing, outcome: str, score: MatchScore,
                 warning: str = "", tournament: Tournament | None = None) -> RecordedResult:
    """Store a checked result: one version step, one log entry, one history line, the
    round's status.

    The caller holds the locks and has made the games agree (internal to ``matches``).
    """
    before = result_snapshot(pairing)
    pairing.outcome = outcome
    pairing.wins_a, pairing.wins_b, pairing.draws = score.wins_a, score.wins_b, score.draws
    pairing.version += 1
    pairing.updated_by = actor_user(actor)
    pairing.full_clean(exclude=["round", "entrant_a", "entrant_b", "updated_by"],
                       validate_constraints=False)  # the database checks them
    pairing.save()
    ResultChange.objects.create(
        pairing=pairing, changed_by=pairing.updated_by, before=before,
        after=result_snapshot(pairing), warning=warning,
    )
    round_ = pairing.round
    record_result(actor, tournament or round_.tournament, pairing, before)
    pending = round_.pairings.filter(outcome=Outcome.PENDING).exists()
    new_status = RoundStatus.PAIRED if pending else RoundStatus.FINISHED
    if round_.status != new_status:
        round_.status = new_status
        round_.save(update_fields=["status"])
    return RecordedResult(pairing=pairing, warning=warning)


def board_labels(pairing: Pairing) -> tuple[str, str]:
    """The board's two sides as the history names them (``"3 Anna"``; ``""``: a bye);
    :func:`lock_board` loads them with the board."""
    return entrant_label(pairing.entrant_a), entrant_label(pairing.entrant_b)


def record_result(actor: Actor | None, tournament: Tournament, pairing: Pairing,
                  before: dict[str, Any]) -> None:
    """The history line of a board's new result (from ``before``, a snapshot)."""
    a, b = board_labels(pairing)
    kind = EventKind.RESULT_RECORDED if before["outcome"] == Outcome.PENDING \
        else EventKind.RESULT_CHANGED
    record(tournament, kind, actor=actor, round_number=pairing.round.number,
           board=pairing.board, a=a, b=b,
           before=result_facts(before["outcome"], before["wins_a"], before["wins_b"],
                               before["draws"]),
           after=result_facts(pairing.outcome, pairing.wins_a, pairing.wins_b, pairing.draws))


# -- the board's games follow its result ---------------------------------------------------


@dataclass(frozen=True)
class BoardEntry:
    """One board of a round-page save: the version the director saw and what they typed."""

    pairing_id: int
    version: int
    score: MatchScore | None = None
    outcome: str | None = None


@dataclass(frozen=True)
class BoardError:
    board: int
    field: str | None
    message: str
    code: str = "invalid"


class RoundResultsError(ApplicationError):
    """Some boards of a round-page save were refused; nothing of the save was kept."""

    def __init__(self, errors: list[BoardError]) -> None:
        self.errors = errors
        boards = ", ".join(str(error.board) for error in errors)
        first = errors[0]
        super().__init__(
            ngettext("Nothing was saved: board %(boards)s has errors (board %(board)d: "
                     "%(problem)s)",
                     "Nothing was saved: boards %(boards)s have errors (board %(board)d: "
                     "%(problem)s)", len(errors))
            % {"boards": boards, "board": first.board, "problem": first.message},
            field=first.field,
            code="stale" if all(e.code == "stale" for e in errors) else "invalid",
        )


def last_change(pairing: Pairing) -> tuple[str, Any]:
    """Who changed the board last and when: its latest log entry or recorded game."""
    moments: list[tuple[Any, Any]] = []
    change = ResultChange.objects.filter(pairing=pairing).select_related("changed_by").first()
    if change is not None:
        moments.append((change.changed_at, change.changed_by))
    game = (Game.objects.filter(pairing=pairing).select_related("recorded_by")
            .order_by("-created_at", "-id").first())
    if game is not None:
        moments.append((game.created_at, game.recorded_by))
    if not moments:
        moments.append((pairing.updated_at, pairing.updated_by))
    when, user = max(moments, key=lambda moment: moment[0])
    return (user.get_username() if user is not None else _("someone")), when


def stale_message(pairing: Pairing, expected_version: int) -> str:
    """"Board 3 was changed since you loaded it, by bob at 14:02: reload the page ..."."""
    who, when = last_change(pairing)
    return _(
        "Board %(board)d was changed since you loaded it, by %(who)s at %(time)s: reload "
        "the page (version %(expected)d, now %(version)d).") % {
            "board": pairing.board, "who": who, "time": f"{timezone.localtime(when):%H:%M}",
            "expected": expected_version, "version": pairing.version}


#: The board's two sides with their names, loaded with a locked board (for the history).
BOARD_SIDES = ("entrant_a__player", "entrant_a__team", "entrant_b__player", "entrant_b__team")


def lock_board(actor: Actor | None, pairing: Pairing) -> tuple[Tournament, Pairing]:
    """The permission check, then the tournament row and the pairing row, locked."""
    tournament = pairing.round.tournament
    ensure_can_manage_club(actor, tournament.club)
    tournament = lock_tournament(tournament)
    pairing = (
        Pairing.objects.select_for_update(of=("self",))
        .select_related("round", *BOARD_SIDES).get(pk=pairing.pk)
    )
    return tournament, pairing


def ensure_released(pairing: Pairing) -> None:
    """A draft round's boards take no games or results: its pairings may still change,
    and players have not seen them."""
    if not pairing.round.is_released:
        raise ApplicationError(
            _("Round %(round)d is a draft: release its pairings before entering results.")
            % {"round": pairing.round.number}, field="round")


def check_board(tournament: Tournament, pairing: Pairing, expected_version: int) -> None:
    """The board takes a result now: the version the writer saw, a released round, no bye,
    a running event."""
    if pairing.version != expected_version:
        raise ConflictError(stale_message(pairing, expected_version))
    ensure_released(pairing)
    if pairing.entrant_b_id is None:
        raise ApplicationError(_("Board %(board)d is a bye: it has no games or result.")
                               % {"board": pairing.board}, field="outcome")
    if tournament.status != Status.RUNNING:
        raise ApplicationError(
            _("Results are recorded while the tournament runs; it is %(status)s.")
            % {"status": str(tournament.get_status_display()).lower()},
            field="status",
        )


def canonical_game_order(score: MatchScore, winner: int | None = None) -> list[int | None]:
    """Winners (0 = A, 1 = B, None = draw) of the games of ``score`` in the canonical order:
    draws, then the loser's wins interleaved with the winner's, the winner's deciding win
    last. A level score alternates A and B after the draws. ``winner`` names the match
    winner when ``score`` is only the rest of a match (the games still to add)."""
    order: list[int | None] = [None] * score.draws
    if winner is None:
        if score.wins_a == score.wins_b:
            return order + [0, 1] * score.wins_a
        winner = 0 if score.wins_a > score.wins_b else 1
    wins, losses = (score.wins_a, score.wins_b) if winner == 0 else (score.wins_b, score.wins_a)
    if wins == 0:
        return order + [1 - winner] * losses
    pairs = min(losses, wins - 1)
    order += [1 - winner, winner] * pairs + [1 - winner] * (losses - pairs)
    return order + [winner] * (wins - pairs)


def _within(part: MatchScore, whole: MatchScore) -> bool:
    return (part.wins_a <= whole.wins_a and part.wins_b <= whole.wins_b
            and part.draws <= whole.draws)


def _check_order(pairing: Pairing, match_format: MatchFormat, winners: list[int | None]) -> None:
    """The match must not be decided before its last game."""
    score = MatchScore()
    for number, winner in enumerate(winners[:-1], start=1):
        score = score.add(winner)
        if match_format.is_decided(score):
            raise ApplicationError(
                _("Board %(board)d: the games already entered and this score cannot both "
                  "hold: the match (%(format)s) would be decided at %(score)s after game "
                  "%(number)d.") % {
                    "board": pairing.board, "format": format_text(match_format),
                    "score": score_text(score), "number": number}, field="score",
            )


@dataclass
class _GamesPlan:
    """What happens to a board's games: keep the first ``keep``, add ``add`` (winners)."""

    games: list[Game]
    keep: int
    add: list[int | None] = field(default_factory=list)
    played_at: dt.datetime | None = None

    @property
    def removed(self) -> list[Game]:
        return self.games[self.keep:]


def _plan_games(tournament: Tournament, pairing: Pairing, outcome: str,
                score: MatchScore) -> _GamesPlan:
    """How the board's games must change to agree with the result (checks only)."""
    games = list(Game.objects.filter(pairing=pairing).order_by("number"))
    played = match_score([game.winner_side for game in games])
    plan = _GamesPlan(games, keep=len(games))
    if outcome in PLAYED_OUTCOMES:
        if played == score:
            return plan
        if pairing.outcome == Outcome.PENDING and _within(played, score):
            missing = MatchScore(score.wins_a - played.wins_a, score.wins_b - played.wins_b,
                                 score.draws - played.draws)
            winner = None if score.wins_a == score.wins_b else int(score.wins_b > score.wins_a)
            plan.add = canonical_game_order(missing, winner)
        else:
            _refuse_recorded(pairing, games, played, _("the result %(result)s")
                             % {"result": _describe(outcome, score)})
            plan.keep, plan.add = 0, canonical_game_order(score)
            # the replacement games were played when the replaced ones were
            plan.played_at = min((game.played_at for game in games), default=None)
        _check_order(pairing, match_format_of(tournament),
                     [g.winner_side for g in games[:plan.keep]] + plan.add)
    elif pairing.outcome in PLAYED_OUTCOMES and games:
        _refuse_recorded(pairing, games, played, outcome_text(outcome))
        plan.keep = 0
    return plan


def _refuse_recorded(pairing: Pairing, games: list[Game], played: MatchScore,
                     instead: str) -> None:
    recorded = [game.number for game in games if game.record is not None]
    if recorded:
        numbers = ", ".join(str(number) for number in recorded)
        raise ApplicationError(
            ngettext("Board %(board)d: the game record of game %(numbers)s gives %(played)s, "
                     "so the board cannot change to %(instead)s: enter games that agree with "
                     "the records, or have an administrator delete those games first.",
                     "Board %(board)d: the game records of games %(numbers)s give %(played)s, "
                     "so the board cannot change to %(instead)s: enter games that agree with "
                     "the records, or have an administrator delete those games first.",
                     len(recorded)) % {
                "board": pairing.board, "numbers": numbers, "played": score_text(played),
                "instead": instead},
            field="score",
        )


def _apply_games(actor: Actor | None, tournament: Tournament, pairing: Pairing,
                 plan: _GamesPlan) -> list[Game]:
    for game in plan.removed:
        game.delete()
    match_format = match_format_of(tournament)
    created = []
    played_at = plan.played_at or timezone.now()
    # a match of one game has no order to lose: that game is game 1
    single = plan.keep + len(plan.add) == 1
    for number, winner in enumerate(plan.add, start=plan.keep + 1):
        roles = game_roles(tournament.game, number - 1, duplicate=match_format.duplicate)
        game = Game(
            pairing=pairing, number=number, game=tournament.game,
            options=tournament.game_options, first_side=roles.first_side, winner_side=winner,
            termination=Termination.NORMAL, played_at=played_at, order_recorded=single,
            recorded_by=actor_user(actor),
        )
        game.full_clean(exclude=["pairing", "recorded_by"])
        game.save()
        created.append(game)
    return created


@dataclass(frozen=True)
class _Plan:
    outcome: str
    score: MatchScore
    warning: str
    games: _GamesPlan


def _plan(tournament: Tournament, pairing: Pairing, expected_version: int,
          score: MatchScore | None, outcome: str | None) -> _Plan:
    """Every check of a board's result, in the order a director reads the errors."""
    check_board(tournament, pairing, expected_version)
    new_outcome, new_score = checked_result(tournament, score, outcome)
    warning = correction_warning(tournament, pairing, new_outcome, new_score)
    return _Plan(new_outcome, new_score, warning,
                 _plan_games(tournament, pairing, new_outcome, new_score))


@transaction.atomic
def match_result_record(
    *, actor: Actor | None, pairing: Pairing, expected_version: int,
    score: MatchScore | None = None, outcome: str | None = None,
) -> RecordedResult:
    """Record (or correct) a board's match result, with the games it implies.

    ``expected_version`` is the version the organizer saw: if someone changed the board
    since, :class:`ConflictError` names who and when. Correcting an earlier round is
    allowed in round robins and Swiss tournaments, with a warning naming what changes.
    """
    tournament, pairing = lock_board(actor, pairing)
    plan = _plan(tournament, pairing, expected_version, score, outcome)
    created = _apply_games(actor, tournament, pairing, plan.games)
    recorded = write_result(actor=actor, pairing=pairing, outcome=plan.outcome,
                            score=plan.score, warning=plan.warning, tournament=tournament)
    games_changed_send(GamesChanged(
        tournament_id=tournament.pk, pairing_id=pairing.pk,
        added=tuple(game.pk for game in created), corrected=bool(plan.games.removed),
    ))
    return recorded


#: The one entry point for a board's result (the name the tests and scripts know).
result_record = match_result_record


def match_result_check(
    *, pairing: Pairing, expected_version: int, score: MatchScore | None = None,
    outcome: str | None = None,
) -> None:
    """The checks of :func:`match_result_record` alone: nothing is locked or written."""
    _plan(pairing.round.tournament, pairing, expected_version, score, outcome)


def _round_boards(round_: Round, entries: list[BoardEntry]) -> tuple[
        list[tuple[BoardEntry, Pairing]], list[BoardError]]:
    pairings = {
        pairing.pk: pairing
        for pairing in Pairing.objects.filter(round=round_).select_related("round__tournament")
    }
    found, errors = [], []
    for entry in sorted(entries, key=lambda e: pairings[e.pairing_id].board
                        if e.pairing_id in pairings else 0):
        pairing = pairings.get(entry.pairing_id)
        if pairing is None:
            errors.append(BoardError(0, None, _("Pairing %(pairing)d is not in round "
                                                "%(round)d.") % {
                "pairing": entry.pairing_id, "round": round_.number}))
        else:
            found.append((entry, pairing))
    return found, errors


def round_results_check(*, round_: Round, entries: list[BoardEntry]) -> list[BoardError]:
    """Every board's errors for a round-page save, without writing anything."""
    found, errors = _round_boards(round_, entries)
    for entry, pairing in found:
        try:
            match_result_check(pairing=pairing, expected_version=entry.version,
                               score=entry.score, outcome=entry.outcome)
        except ApplicationError as error:
            errors.append(BoardError(pairing.board, error.field, error.message, error.code))
    return errors


@transaction.atomic
def round_results_record(
    *, actor: Actor | None, round_: Round, entries: list[BoardEntry]
) -> list[RecordedResult]:
    """Save several boards of a round at once: all of them, or (if any board is refused)
    none, with every board's error in :class:`RoundResultsError`."""
    found, errors = _round_boards(round_, entries)
    recorded: list[RecordedResult] = []
    for entry, pairing in found:
        try:
            with transaction.atomic():
                recorded.append(match_result_record(
                    actor=actor, pairing=pairing, expected_version=entry.version,
                    score=entry.score, outcome=entry.outcome))
        except ApplicationError as error:
            errors.append(BoardError(pairing.board, error.field, error.message, error.code))
    if errors:
        raise RoundResultsError(errors)
    return recorded


def parse_game_record(text: str | bytes | None) -> dict[str, Any] | None:
    """A pasted or uploaded game record (JSON, docs/rules/records.md), or None when empty."""
    if text is None:
        return None
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ApplicationError(_("The game record file is not UTF-8 text."),
                                   field="record") from None
    if not text.strip():
        return None
    try:
        record = json_depth.loads(text)
    except json.JSONDecodeError as error:
        raise ApplicationError(
            _("The game record is not valid JSON: %(problem)s at line %(line)d, column "
              "%(column)d.") % {"problem": error.msg, "line": error.lineno,
                                "column": error.colno}, field="record") from None
    if not isinstance(record, dict):
        raise ApplicationError(_("The game record must be a JSON object "
                                 "(docs/rules/records.md)."), field="record")
    return record
