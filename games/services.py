"""Recording the games of a match, by organizers at the board or by bot workers.

A game is added to a pairing's match: the service checks the match format (no game after
the match is decided), the roles of that game (first move or low doubles alternate), and
the game record when one is given (replayed by the engine; its result is the game's).
When the match is decided, the pairing's result is recorded through the tournaments
service, which logs it and closes the round.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from config.errors import ApplicationError, ConflictError
from games.engines import EngineError
from games.models import Game, Termination
from games.series import MatchFormat, MatchScore, SeriesError, check_record, game_roles
from players.permissions import ensure_can_manage_club
from players.rating_services import rating_apply_game
from tournaments.cache import tournament_changed
from tournaments.models import Outcome, Pairing, Tournament
from tournaments.services.results import result_record
from tournaments.services.tournaments import lock_tournament

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


def match_format_of(tournament: Tournament) -> MatchFormat:
    return MatchFormat.from_dict(tournament.match_format or {})


def match_score(games: list[Game]) -> MatchScore:
    score = MatchScore()
    for game in games:
        score = score.add(game.winner_side)
    return score


@transaction.atomic
def game_record(
    *,
    actor: Any,
    pairing: Pairing,
    result: str | None = None,
    record: dict[str, Any] | None = None,
    termination: str = Termination.NORMAL,
    clock_left: list[float] | None = None,
    played_at: dt.datetime | None = None,
    deal_seed: int | None = None,
    expected_version: int | None = None,
    number: int | None = None,
) -> RecordedGame:
    """Add the next game of ``pairing``'s match.

    ``result`` is ``"a"``, ``"b"`` or ``"draw"``; with a ``record`` it may be left out (the
    record's result is taken) and must agree if given. ``expected_version`` is the pairing
    version the organizer saw (stale writes are refused).
    """
    tournament = pairing.round.tournament
    ensure_can_manage_club(actor, tournament.club)
    tournament = lock_tournament(tournament)
    pairing = Pairing.objects.select_for_update(of=("self",)).select_related("round").get(
        pk=pairing.pk
    )
    if expected_version is not None and pairing.version != expected_version:
        raise ConflictError(
            f"Round {pairing.round.number}, board {pairing.board} changed since you loaded it "
            f"(version {expected_version}, now {pairing.version}): reload and try again."
        )
    if pairing.entrant_b_id is None:
        raise ApplicationError("A bye has no games.", field="pairing")
    games = list(pairing.games.order_by("number"))
    if number is not None and number <= len(games):
        raise DuplicateGameError(f"Game {number} of this match is already recorded.")
    fmt = match_format_of(tournament)
    if pairing.outcome != Outcome.PENDING:
        raise ApplicationError(
            f"Round {pairing.round.number}, board {pairing.board} already has its result "
            f"({Outcome(pairing.outcome).label.lower()}): correct the match result instead.",
            field="pairing",
        )
    if termination not in Termination.values:
        raise ApplicationError(
            f"Unknown termination {termination!r}; choose one of "
            f"{', '.join(Termination.values)}.", field="termination",
        )
    if number is not None and number != len(games) + 1:
        raise ApplicationError(
            f"Game {number} cannot be recorded before game {len(games) + 1}.", field="number"
        )
    score = match_score(games)
    try:
        fmt.check_next_game(score)
    except SeriesError as error:
        raise ApplicationError(str(error), field="result") from None
    number = len(games) + 1
    roles = game_roles(tournament.game, number - 1, duplicate=fmt.duplicate)
    winner_side, detail, moves = _winner(tournament, roles.first_side, result, record, number)
    game = Game(
        pairing=pairing, number=number, game=tournament.game, options=tournament.game_options,
        first_side=roles.first_side, deal_seed=deal_seed, record=record,
        winner_side=winner_side, termination=termination, score_detail=detail,
        move_count=moves, clock_left=clock_left, played_at=played_at or timezone.now(),
        recorded_by=actor if getattr(actor, "pk", None) else None,
    )
    # inputs are checked above; the database enforces the constraints on insert
    game.full_clean(exclude=["pairing", "recorded_by"], validate_constraints=False)
    game.save()
    pairing.version += 1
    pairing.save(update_fields=["version", "updated_at"])
    tournament_changed(tournament.pk)
    score = score.add(winner_side)
    decided = fmt.is_decided(score)
    warning = ""
    if decided:
        if tournament.is_knockout and fmt.winner(score) is None:
            warning = (f"The match ended level ({score}); a knockout needs a winner: record "
                       "the tie-break winner on the pairing's result.")
        else:
            recorded = result_record(actor=actor, pairing=pairing, score=score,
                                     expected_version=pairing.version)
            warning = recorded.warning
    if tournament.rated:
        _rate(game)
    return RecordedGame(game=game, score=score, match_decided=decided, warning=warning)


def _winner(
    tournament: Tournament, first_side: int, result: str | None,
    record: dict[str, Any] | None, number: int,
) -> tuple[int | None, dict[str, Any] | None, int | None]:
    if result is not None and result not in RESULTS:
        raise ApplicationError(f"Result must be a, b or draw, not {result!r}.", field="result")
    if record is None:
        if result is None:
            raise ApplicationError("Give the game's result (a, b or draw) or its record.",
                                   field="result")
        return RESULTS[result], None, None
    try:
        checked = check_record(tournament.game, tournament.game_options, record,
                               first_side=first_side)
    except EngineError as error:
        raise ApplicationError(f"Game {number} record: {error}", field="record") from None
    if result is not None and RESULTS[result] != checked.winner_side:
        raise ApplicationError(
            f"Game {number}: the record's result is {_name(checked.winner_side)}, "
            f"not {_name(RESULTS[result])}.", field="result",
        )
    return checked.winner_side, checked.score_detail, checked.move_count


def _name(side: int | None) -> str:
    return {0: "a win for A", 1: "a win for B", None: "a draw"}[side]


def _rate(game: Game) -> None:
    rating_apply_game(game)
