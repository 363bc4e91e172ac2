"""Players' result reports: submitting from a private link, confirming, resolving conflicts.

Every result still goes through ``matches.services.results`` (the one writer): a claim is
checked with :func:`match_result_check` before it is stored, and recorded with
:func:`match_result_record` when the director confirms it (or, if the tournament says so,
as soon as both sides agree: then the history names "player reports" as the actor).
A director's own entry (admin, API) simply closes the board: the claims stay stored and
show as overridden.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.bounds import MAX_MATCH_GAMES
from core.errors import ApplicationError
from games.engines import game_facts
from games.series.format import MatchScore
from matches.services.results import (
    BoardEntry,
    RecordedResult,
    match_result_check,
    match_result_record,
    no_draw_message,
    round_results_record,
)
from matches.texts import score_text
from playerlinks.models import EntrantLink
from players.permissions import Actor, SystemActor, ensure_can_manage_club
from reporting import board
from reporting import events as report_events
from reporting.board import Kind, State
from reporting.models import ReportingSettings, ResultReport
from reporting.selectors import latest_reports, open_issues, settings_of, state_of
from tournaments import events
from tournaments.models import Outcome, Pairing, Round, Tournament
from tournaments.selectors import match_format_of
from tournaments.services.tournaments import lock_tournament
from tournaments.texts import format_text


class PlayerReports(SystemActor):
    """The actor of results recorded because both players reported the same (the
    tournament's "record agreed results automatically")."""

    username = "player reports"

    def __str__(self) -> str:
        return "player reports"


PLAYER_REPORTS = PlayerReports()


def refuse_pairing_with_open_issues(event: events.PairingAsked) -> None:
    """The ``pairing_asked`` listener: no round is paired while a conflict is open."""
    issues = open_issues(event.tournament_id)
    if issues:
        boards = ", ".join(f"{p.round.number}.{p.board}" for p in issues[:10])
        raise ApplicationError(
            ngettext("Round %(next)d cannot be paired: the players' reports of board "
                     "%(boards)s are in conflict; settle it in the conflict queue first.",
                     "Round %(next)d cannot be paired: the players' reports of boards "
                     "%(boards)s are in conflict; settle them in the conflict queue first.",
                     len(issues)) % {"next": event.round_number, "boards": boards},
            field="round")


# -- submitting ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Submitted:
    report: ResultReport
    state: State
    recorded: RecordedResult | None = None


def _clean_count(value: Any, field: str) -> int:
    if isinstance(value, bool):
        raise ApplicationError(_("Enter a whole number of games."), field=field)
    if isinstance(value, str):
        value = value.strip()
        if not value:
            return 0
        if not value.isdecimal() or len(value) > 4:
            raise ApplicationError(_("Enter a whole number of games (0 to %(limit)d).")
                                   % {"limit": MAX_MATCH_GAMES}, field=field)
        value = int(value)
    if not isinstance(value, int) or not 0 <= value <= MAX_MATCH_GAMES:
        raise ApplicationError(_("Enter a whole number of games (0 to %(limit)d).")
                               % {"limit": MAX_MATCH_GAMES}, field=field)
    return value


def _clean_winners(tournament: Tournament, pairing: Pairing, values: Any) -> list[int | None]:
    if not isinstance(values, (list, tuple)):
        raise ApplicationError(_("List the games' winners in order."), field="games")
    values = [v for v in values if v not in ("", None)]  # games not played
    if not values:
        raise ApplicationError(_("Enter the winner of each game played, in order."),
                               field="games")
    match_format = match_format_of(tournament)
    limit = min(match_format.max_games_needed() or MAX_MATCH_GAMES, MAX_MATCH_GAMES)
    if len(values) > limit:
        raise ApplicationError(_("A match of %(format)s has at most %(limit)d games, not "
                                 "%(games)d.") % {"format": format_text(match_format),
                                                  "limit": limit, "games": len(values)},
                               field="games")
    winners = board.parse_winners([str(v) for v in values])
    if winners is None:
        raise ApplicationError(_("Each game's winner is a, b or draw."), field="games")
    if None in winners and not game_facts(tournament.game).draws_possible:
        raise ApplicationError(no_draw_message(tournament.game), field="games")
    score = MatchScore()
    for number, winner in enumerate(winners[:-1], start=1):
        score = score.add(winner)
        if match_format.is_decided(score):
            raise ApplicationError(
                _("The match (%(format)s) was decided at %(score)s after game %(number)d: "
                  "later games cannot follow.") % {
                    "format": format_text(match_format), "score": score_text(score),
                    "number": number}, field="games")
    return winners


def _claim(tournament: Tournament, pairing: Pairing, side: int, kind: Any, data: dict[str, Any]
           ) -> tuple[str, MatchScore | None, str | None, list[str]]:
    """(kind, score, outcome to check, winners) of a submission, checked for its shape."""
    if kind == Kind.NO_SHOW:
        return Kind.NO_SHOW, None, board.no_show_outcome(side), []
    if kind == Kind.GAMES:
        winners = _clean_winners(tournament, pairing, data.get("games"))
        wins_a, wins_b, draws = board.games_score(winners)
        codes = [{0: "a", 1: "b", None: "draw"}[w] for w in winners]
        return Kind.GAMES, MatchScore(wins_a, wins_b, draws), None, codes
    if kind == Kind.SCORE:
        score = MatchScore(_clean_count(data.get("wins_a", 0), "wins_a"),
                           _clean_count(data.get("wins_b", 0), "wins_b"),
                           _clean_count(data.get("draws", 0), "draws"))
        if not score.games:
            raise ApplicationError(_("Enter the games each side won."), field="wins_a")
        outcome = data.get("outcome") or None
        if outcome not in (None, Outcome.A_WINS, Outcome.B_WINS):
            raise ApplicationError(_("The tie-break winner is a_wins or b_wins."),
                                   field="outcome")
        return Kind.SCORE, score, outcome, []
    raise ApplicationError(_("Choose what you report: the match score, the games, or that "
                             "your opponent did not show."), field="kind")


def _ensure_open(link: EntrantLink, pairing: Pairing) -> int:
    """The side (0, 1) of the link's entrant on ``pairing``, which takes reports now."""
    if not link.is_live:
        raise ApplicationError(_("This link was revoked: ask the director for a new one."),
                               field="link")
    if link.entrant_id not in (pairing.entrant_a_id, pairing.entrant_b_id):
        raise ApplicationError(_("This link reports only its own board."), field="pairing")
    if pairing.round.released_at is None:
        raise ApplicationError(_("Round %(round)d is not published yet.")
                               % {"round": pairing.round.number}, field="round")
    if pairing.entrant_b_id is None:
        raise ApplicationError(_("A bye has no result to report."), field="pairing")
    if pairing.outcome != Outcome.PENDING:
        raise ApplicationError(_("The result of this board is already recorded: talk to the "
                                 "director to change it."), field="pairing")
    return 0 if link.entrant_id == pairing.entrant_a_id else 1


@transaction.atomic
def report_submit(*, link: EntrantLink, pairing: Pairing, kind: Any,
                  data: dict[str, Any] | None = None, address: str | None = None) -> Submitted:
    """Store a player's claim about their board (``link``: resolved from its token).

    ``kind`` is ``score`` (``data``: wins_a, wins_b, draws; in a knockout optionally the
    tie-break ``outcome``), ``games`` (``data["games"]``: a, b or draw per game, in order)
    or ``no_show``. The claim is checked as the director's entry would be; a refused one
    stores nothing."""
    data = data or {}
    tournament = lock_tournament(pairing.round.tournament)
    link = EntrantLink.objects.select_for_update(of=("self",)).get(pk=link.pk)
    pairing = (Pairing.objects.select_for_update(of=("self",)).select_related("round")
               .get(pk=pairing.pk))
    pairing.round.tournament = tournament
    if not settings_of(tournament).enabled:
        raise ApplicationError(_("Players do not report results in this tournament."),
                               field="tournament")
    side = _ensure_open(link, pairing)
    kind, score, outcome, winners = _claim(tournament, pairing, side, kind, data)
    try:
        match_result_check(pairing=pairing, expected_version=pairing.version, score=score,
                           outcome=outcome)
    except ApplicationError as error:
        field = error.field if error.field not in ("score", "draws") else (
            "games" if kind == Kind.GAMES else error.field)
        raise ApplicationError(error.message, field=field, code=error.code) from None
    claimed = outcome or _scored_outcome(score)
    final = score or MatchScore()
    report = ResultReport(
        pairing=pairing, link=link, entrant_id=link.entrant_id, address=address or None,
        kind=kind, outcome=claimed, wins_a=final.wins_a, wins_b=final.wins_b,
        draws=final.draws, winners=winners)
    report.full_clean(exclude=["pairing", "link", "entrant"])
    report.save()
    EntrantLink.objects.filter(pk=link.pk).update(last_used_at=timezone.now())
    state = state_of(latest_reports([pairing])[pairing.pk])
    if state == State.ONE_SIDE:
        opponent = pairing.entrant_b_id if side == 0 else pairing.entrant_a_id
        if opponent is not None:
            report_events.claim_awaits_opponent.send(report_events.ClaimAwaitsOpponent(
                pairing.pk, opponent, claimed, final.wins_a, final.wins_b, final.draws))
    recorded = None
    if state == State.AGREED and settings_of(tournament).auto_confirm:
        try:
            with transaction.atomic():
                recorded = match_result_record(
                    actor=PLAYER_REPORTS, pairing=pairing, expected_version=pairing.version,
                    score=final, outcome=claimed)
        except ApplicationError:
            recorded = None  # left agreed: the director confirms it
    return Submitted(report, state, recorded)


def _scored_outcome(score: MatchScore | None) -> str:
    assert score is not None
    if score.wins_a == score.wins_b:
        return Outcome.DRAW
    return Outcome.A_WINS if score.wins_a > score.wins_b else Outcome.B_WINS


# -- the director --------------------------------------------------------------------------


def _entry(pairing: Pairing, report: ResultReport) -> BoardEntry:
    if report.kind == Kind.NO_SHOW:
        return BoardEntry(pairing.pk, pairing.version, None, report.outcome)
    return BoardEntry(pairing.pk, pairing.version,
                      MatchScore(report.wins_a, report.wins_b, report.draws), report.outcome)


def _ensure_pending(pairing: Pairing) -> None:
    if pairing.outcome != Outcome.PENDING:
        raise ApplicationError(_("Board %(board)d already has its result.")
                               % {"board": pairing.board}, field="pairing")


@transaction.atomic
def report_confirm(*, actor: Actor, pairing: Pairing) -> RecordedResult:
    """Record the result both sides of ``pairing`` agree on."""
    ensure_can_manage_club(actor, pairing.round.tournament.club)
    pairing = Pairing.objects.select_related("round__tournament").get(pk=pairing.pk)
    latest = latest_reports([pairing])[pairing.pk]
    _ensure_pending(pairing)
    if state_of(latest) != State.AGREED:
        raise ApplicationError(_("The players of board %(board)d do not agree: resolve it "
                                 "instead.") % {"board": pairing.board}, field="pairing")
    report = latest[0]
    assert report is not None
    entry = _entry(pairing, report)
    return match_result_record(actor=actor, pairing=pairing, expected_version=entry.version,
                               score=entry.score, outcome=entry.outcome)


@transaction.atomic
def reports_confirm_agreed(*, actor: Actor, round_: Round) -> int:
    """Record every board of ``round_`` whose two sides agree (all or none); how many."""
    ensure_can_manage_club(actor, round_.tournament.club)
    pairings = list(Pairing.objects.filter(round=round_, outcome=Outcome.PENDING)
                    .select_related("round__tournament"))
    latest = latest_reports(pairings)
    entries = []
    for pairing in pairings:
        if state_of(latest[pairing.pk]) == State.AGREED:
            report = latest[pairing.pk][0]
            assert report is not None
            entries.append(_entry(pairing, report))
    if entries:
        round_results_record(actor=actor, round_=round_, entries=entries)
    return len(entries)


@transaction.atomic
def report_resolve(*, actor: Actor, pairing: Pairing, report: ResultReport | None = None,
                   score: MatchScore | None = None, outcome: str | None = None
                   ) -> RecordedResult:
    """Settle a board: the director picks one side's latest claim (a no-show claim becomes
    the forfeit it claims), or enters the result; either way through the one writer."""
    ensure_can_manage_club(actor, pairing.round.tournament.club)
    pairing = Pairing.objects.select_related("round__tournament").get(pk=pairing.pk)
    _ensure_pending(pairing)  # a board recorded since the queue was read stays as it is
    if report is not None:
        latest = latest_reports([pairing])[pairing.pk]
        if report.pk not in {r.pk for r in latest if r is not None}:
            raise ApplicationError(_("Pick a side's latest claim about this board."),
                                   field="report")
        entry = _entry(pairing, report)
        score, outcome = entry.score, entry.outcome
    return match_result_record(actor=actor, pairing=pairing, expected_version=pairing.version,
                               score=score, outcome=outcome)


@transaction.atomic
def reporting_settings_set(*, actor: Actor, tournament: Tournament, enabled: bool,
                           auto_confirm: bool) -> ReportingSettings:
    ensure_can_manage_club(actor, tournament.club)
    found, _created = ReportingSettings.objects.update_or_create(
        tournament=tournament, defaults={"enabled": enabled, "auto_confirm": auto_confirm})
    return found
