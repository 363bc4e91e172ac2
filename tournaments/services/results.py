"""Recording and correcting match results, with stale-write protection and a change log.

Knockout decision: a knockout match needs a winner. A score the match format calls a
draw (a fixed-length match ending level, or a capped first-to-N) is refused unless the
result also names the winner of the tie-break (``outcome="a_wins"`` or ``"b_wins"``
with the level score): the club's play-off, armageddon game or drawing of lots decides,
and the log records it. A double forfeit is refused in a knockout for the same reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Max, Q

from config.errors import ApplicationError, ConflictError
from games.series.format import MatchFormat, MatchScore, SeriesError
from players.permissions import ensure_can_manage_club
from tournaments import adapters
from tournaments.models import (
    FORFEIT_OUTCOMES,
    PLAYED_OUTCOMES,
    Outcome,
    Pairing,
    ResultChange,
    Round,
    RoundStatus,
    Status,
)
from tournaments.services.tournaments import lock_tournament


@dataclass(frozen=True)
class RecordedResult:
    pairing: Pairing
    #: Set when the change touches a round that later rounds followed.
    warning: str = ""


def result_snapshot(pairing: Pairing) -> dict[str, Any]:
    return {"outcome": pairing.outcome, "wins_a": pairing.wins_a, "wins_b": pairing.wins_b,
            "draws": pairing.draws, "version": pairing.version}


def _describe(outcome: str, score: MatchScore) -> str:
    if outcome in PLAYED_OUTCOMES:
        return f"{Outcome(outcome).label.lower()} {score}"
    return Outcome(outcome).label.lower()


def _resolve(
    pairing: Pairing, match_format: MatchFormat, knockout: bool,
    score: MatchScore | None, outcome: str | None,
) -> tuple[str, MatchScore]:
    """The outcome and score to store, after checking them against the match format."""
    if outcome is not None and outcome not in Outcome.values or outcome == Outcome.BYE:
        choices = ", ".join(v for v in Outcome.values if v != Outcome.BYE)
        raise ApplicationError(f"Unknown outcome {outcome!r}; choose one of {choices}.",
                               field="outcome")
    if outcome in FORFEIT_OUTCOMES or outcome == Outcome.PENDING:
        if score is not None and score.games:
            raise ApplicationError(
                f"A {Outcome(outcome).label.lower()} has no game score: leave it empty.",
                field="score",
            )
        if knockout and outcome == Outcome.DOUBLE_FORFEIT:
            raise ApplicationError("A knockout match needs a winner: a double forfeit cannot "
                                   "advance anyone.", field="outcome")
        return str(outcome), MatchScore()
    if score is None:
        raise ApplicationError("Give the match score (games won by each side and drawn), or "
                               "a forfeit outcome.", field="score")
    try:
        match_format.check_final(score)
        winner = match_format.winner(score)
    except SeriesError as error:
        raise ApplicationError(str(error), field="score") from None
    scored = {0: Outcome.A_WINS, 1: Outcome.B_WINS, None: Outcome.DRAW}[winner]
    if outcome is None or outcome == scored:
        if knockout and scored == Outcome.DRAW:
            raise ApplicationError(
                f"The match ended level ({score}) but a knockout needs a winner: record the "
                "tie-break winner as the outcome (a_wins or b_wins) with this score.",
                field="outcome",
            )
        return str(scored), score
    if knockout and scored == Outcome.DRAW and outcome in (Outcome.A_WINS, Outcome.B_WINS):
        return str(outcome), score  # decided by the tie-break
    raise ApplicationError(
        f"The score {score} means {Outcome(scored).label.lower()}, not "
        f"{Outcome(outcome).label.lower()}.", field="outcome",
    )


@transaction.atomic
def result_record(
    *, actor: Any, pairing: Pairing, expected_version: int,
    score: MatchScore | None = None, outcome: str | None = None,
) -> RecordedResult:
    """Record (or correct) the result of ``pairing``.

    ``expected_version`` is the version the organizer saw: if someone changed the result
    since, :class:`ConflictError` tells them to reload. Correcting an earlier round is
    allowed in round robins and Swiss tournaments, with a warning naming what changes.
    """
    tournament = pairing.round.tournament
    ensure_can_manage_club(actor, tournament.club)
    tournament = lock_tournament(tournament)
    pairing = (
        Pairing.objects.select_for_update(of=("self",)).select_related("round")
        .get(pk=pairing.pk)
    )
    if tournament.status != Status.RUNNING:
        raise ApplicationError(
            f"Results are recorded while the tournament runs; it is {tournament.status}.",
            field="status",
        )
    if pairing.version != expected_version:
        raise ConflictError(
            f"Round {pairing.round.number}, board {pairing.board} changed since you loaded it "
            f"(version {expected_version}, now {pairing.version}): reload and try again."
        )
    if pairing.entrant_b_id is None:
        raise ApplicationError("A bye has no result to record.", field="outcome")
    match_format = MatchFormat.from_dict(tournament.match_format or {})
    new_outcome, new_score = _resolve(pairing, match_format, tournament.is_knockout,
                                      score, outcome)
    old_outcome = pairing.outcome
    old_score = MatchScore(pairing.wins_a, pairing.wins_b, pairing.draws)
    last_round = int(Round.objects.filter(tournament=tournament).aggregate(n=Max("number"))["n"])
    warning = ""
    if pairing.round.number < last_round:
        if new_outcome == Outcome.PENDING:
            raise ApplicationError(
                f"Round {pairing.round.number} is followed by round {last_round}: its results "
                "can be corrected but not cleared.", field="outcome",
            )
        if tournament.is_knockout:
            _check_knockout_correction(pairing, new_outcome, old_outcome)
        elif (new_outcome, new_score) != (old_outcome, old_score):
            warning = (
                f"Round {pairing.round.number} is already followed by round {last_round}: "
                f"board {pairing.board} changes from {_describe(old_outcome, old_score)} to "
                f"{_describe(new_outcome, new_score)}. Standings change; the pairings of "
                "later rounds stay as they were made."
            )
    before = result_snapshot(pairing)
    pairing.outcome = new_outcome
    pairing.wins_a, pairing.wins_b, pairing.draws = (
        new_score.wins_a, new_score.wins_b, new_score.draws)
    pairing.version += 1
    pairing.updated_by = actor if getattr(actor, "pk", None) else None
    pairing.full_clean(exclude=["round", "entrant_a", "entrant_b", "updated_by"])
    pairing.save()
    ResultChange.objects.create(
        pairing=pairing, changed_by=pairing.updated_by, before=before,
        after=result_snapshot(pairing), warning=warning,
    )
    round_ = pairing.round
    pending = round_.pairings.filter(outcome=Outcome.PENDING).exists()
    new_status = RoundStatus.PAIRED if pending else RoundStatus.FINISHED
    if round_.status != new_status:
        round_.status = new_status
        round_.save(update_fields=["status"])
    return RecordedResult(pairing=pairing, warning=warning)


def _check_knockout_correction(pairing: Pairing, new_outcome: str, old_outcome: str) -> None:
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
            f"The winner of board {pairing.board} already played on in round "
            f"{later.round.number}: a knockout result that changes who went through cannot "
            "be corrected afterwards.", field="outcome",
        )
