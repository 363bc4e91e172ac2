"""Reads for the report page and the director's queue: claims worded for people."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q
from django.utils.translation import gettext as _

from games.engines import game_facts
from games.series.format import MatchScore
from matches.texts import score_text
from playerlinks.models import EntrantLink
from reporting import board
from reporting.board import Claim, Kind, State
from reporting.models import ReportingSettings, ResultReport
from tournaments.models import Outcome, Pairing, Round, Tournament
from tournaments.selectors import match_format_of
from tournaments.texts import format_text


def claim_of(report: ResultReport) -> Claim:
    return Claim(report.kind, report.outcome, report.wins_a, report.wins_b, report.draws)


def latest_reports(pairings: list[Pairing], *, holders: bool = True
                   ) -> dict[int, tuple[ResultReport | None, ResultReport | None]]:
    """Each board's latest report of side A and of side B (one query; ``holders``: with
    the links' holders)."""
    found: dict[int, list[ResultReport | None]] = {p.pk: [None, None] for p in pairings}
    sides = {p.pk: (p.entrant_a_id, p.entrant_b_id) for p in pairings}
    reports = (ResultReport.objects.filter(pairing_id__in=list(found))
               .order_by("pairing_id", "entrant_id", "-id")
               .distinct("pairing_id", "entrant_id"))
    if holders:
        reports = reports.select_related("link__player")
    for report in reports:
        a_id, b_id = sides[report.pairing_id]
        if report.entrant_id == a_id:
            found[report.pairing_id][0] = report
        elif report.entrant_id == b_id:
            found[report.pairing_id][1] = report
    return {pk: (pair[0], pair[1]) for pk, pair in found.items()}


def state_of(latest: tuple[ResultReport | None, ResultReport | None]) -> State:
    a, b = latest
    return board.board_state(claim_of(a) if a else None, claim_of(b) if b else None)


def settings_of(tournament: Tournament) -> ReportingSettings:
    """The tournament's reporting settings (the defaults when it has no row)."""
    found = ReportingSettings.objects.filter(tournament=tournament).first()
    return found or ReportingSettings(tournament=tournament)


def open_issues(tournament: Tournament | int) -> list[Pairing]:
    """Boards still waiting for a result whose claims disagree or claim a no-show (one
    query when no pending board has reports, as at most pairings)."""
    tournament_id = tournament if isinstance(tournament, int) else tournament.pk
    pending = list(Pairing.objects.filter(
        round__tournament_id=tournament_id, outcome=Outcome.PENDING, reports__isnull=False,
    ).distinct().select_related("round").order_by("round__number", "board"))
    if not pending:
        return []
    latest = latest_reports(pending, holders=False)
    return [p for p in pending if state_of(latest[p.pk]) in board.OPEN_ISSUES]


def current_pairing(link: EntrantLink) -> Pairing | None:
    """The board the link's entrant plays in the latest released round (None: none yet)."""
    entrant_id = link.entrant_id
    return (Pairing.objects.filter(Q(entrant_a_id=entrant_id) | Q(entrant_b_id=entrant_id),
                                   round__released_at__isnull=False)
            .select_related("round__tournament", "entrant_a__player", "entrant_a__team",
                            "entrant_b__player", "entrant_b__team")
            .order_by("-round__number").first())


#: At most this many game rows on the page (longer matches report their score).
MAX_GAME_ROWS = 15


def names_of(pairing: Pairing) -> tuple[str, str]:
    return (pairing.entrant_a.name,
            pairing.entrant_b.name if pairing.entrant_b is not None else "")


def result_text(outcome: str, wins_a: int, wins_b: int, draws: int,
                names: tuple[str, str]) -> str:
    """``Anna wins 2–1``, ``Draw 1–1``, ``Boris wins by forfeit``, ``Pending``."""
    a, b = names
    score = score_text(MatchScore(wins_a, wins_b, draws), dash="–")
    if outcome == Outcome.A_WINS:
        return _("%(name)s wins %(score)s") % {"name": a, "score": score}
    if outcome == Outcome.B_WINS:
        return _("%(name)s wins %(score)s") % {"name": b, "score": score}
    if outcome == Outcome.DRAW:
        return _("Drawn %(score)s") % {"score": score}
    if outcome == Outcome.A_FORFEIT_WIN:
        return _("%(name)s wins by forfeit") % {"name": a}
    if outcome == Outcome.B_FORFEIT_WIN:
        return _("%(name)s wins by forfeit") % {"name": b}
    if outcome == Outcome.DOUBLE_FORFEIT:
        return _("Double forfeit")
    return _("Pending")


def scored_outcome(report: ResultReport) -> str:
    """The outcome the claim's score means by itself (a knockout tie-break aside)."""
    if report.wins_a == report.wins_b:
        return Outcome.DRAW
    return Outcome.A_WINS if report.wins_a > report.wins_b else Outcome.B_WINS


def claim_text(report: ResultReport, names: tuple[str, str]) -> str:
    if report.kind == Kind.NO_SHOW:
        absent = names[1] if report.outcome == Outcome.A_FORFEIT_WIN else names[0]
        return _("%(name)s did not show") % {"name": absent}
    text = result_text(report.outcome, report.wins_a, report.wins_b, report.draws, names)
    if report.kind == Kind.GAMES and report.winners:
        letters = {"a": names[0], "b": names[1], "draw": _("draw")}
        games = ", ".join(letters.get(w, "?") for w in report.winners)
        return _("%(result)s (games: %(games)s)") % {"result": text, "games": games}
    return text


def state_label(state: State) -> str:
    return {
        State.NONE: _("No reports yet"),
        State.ONE_SIDE: _("One side reported"),
        State.AGREED: _("Both agree"),
        State.CONFLICT: _("Conflict"),
        State.NO_SHOW: _("No-show claim"),
    }[state]


@dataclass
class BoardReports:
    pairing: Pairing
    state: State
    claim_a: ResultReport | None
    claim_b: ResultReport | None
    names: tuple[str, str]
    texts: tuple[str, str] = ("", "")

    @property
    def state_label(self) -> str:
        return state_label(self.state)

    @property
    def sides(self) -> list[tuple[ResultReport | None, str, str]]:
        return [(self.claim_a, self.texts[0], f"A: {self.names[0]}"),
                (self.claim_b, self.texts[1], f"B: {self.names[1]}")]

    @property
    def is_issue(self) -> bool:
        return self.state in board.OPEN_ISSUES and self.pairing.outcome == Outcome.PENDING

    @property
    def is_agreed(self) -> bool:
        return self.state == State.AGREED and self.pairing.outcome == Outcome.PENDING


def boards_of(pairings: list[Pairing]) -> list[BoardReports]:
    """Each board with its latest claims and state (pairings loaded with their sides)."""
    latest = latest_reports(pairings)
    found = []
    for pairing in pairings:
        a, b = latest[pairing.pk]
        names = names_of(pairing)
        found.append(BoardReports(
            pairing, state_of((a, b)), a, b, names,
            (claim_text(a, names) if a else "", claim_text(b, names) if b else "")))
    return found


def round_has_reports(round_: Round) -> bool:
    return ResultReport.objects.filter(pairing__round=round_).exists()


def round_boards(round_: Round) -> list[BoardReports]:
    pairings = list(round_.pairings.filter(entrant_b__isnull=False).select_related(
        "round", "entrant_a__player", "entrant_a__team", "entrant_b__player",
        "entrant_b__team").order_by("board"))
    return boards_of(pairings)


def conflict_queue(tournament_ids: list[int] | None = None) -> list[BoardReports]:
    """Boards waiting for the director: claims in conflict or a no-show claim."""
    pending = Pairing.objects.filter(outcome=Outcome.PENDING, reports__isnull=False)
    if tournament_ids is not None:
        pending = pending.filter(round__tournament_id__in=tournament_ids)
    pairings = list(pending.distinct().select_related(
        "round__tournament", "entrant_a__player", "entrant_a__team", "entrant_b__player",
        "entrant_b__team").order_by("round__tournament_id", "round__number", "board"))
    return [b for b in boards_of(pairings) if b.is_issue]


@dataclass
class ReportPage:
    link: EntrantLink
    enabled: bool
    pairing: Pairing | None = None
    side: int = 0
    names: tuple[str, str] = ("", "")
    state: State = State.NONE
    mine: ResultReport | None = None
    theirs: ResultReport | None = None
    mine_text: str = ""
    theirs_text: str = ""
    recorded_text: str = ""
    format_text: str = ""
    draws_possible: bool = True
    needs_winner: bool = False
    game_rows: list[int] = field(default_factory=list)

    @property
    def is_open(self) -> bool:
        return (self.pairing is not None and self.pairing.outcome == Outcome.PENDING
                and self.pairing.entrant_b_id is not None and self.enabled)

    @property
    def state_label(self) -> str:
        return state_label(self.state)


def report_page(link: EntrantLink) -> ReportPage:
    tournament = link.entrant.tournament
    page = ReportPage(link=link, enabled=settings_of(tournament).enabled)
    pairing = current_pairing(link)
    if pairing is None:
        return page
    page.pairing = pairing
    page.side = 0 if pairing.entrant_a_id == link.entrant_id else 1
    page.names = names_of(pairing)
    match_format = match_format_of(tournament)
    page.format_text = format_text(match_format)
    page.draws_possible = game_facts(tournament.game).draws_possible
    page.needs_winner = (tournament.system.needs_winner
                         and match_format.can_end_level(page.draws_possible))
    page.game_rows = list(range(1, min(match_format.max_games_needed() or MAX_GAME_ROWS,
                                       MAX_GAME_ROWS) + 1))
    if pairing.entrant_b_id is None:
        return page
    latest = latest_reports([pairing], holders=False)[pairing.pk]
    page.state = state_of(latest)
    page.mine, page.theirs = latest[page.side], latest[1 - page.side]
    if page.mine is not None:
        page.mine_text = claim_text(page.mine, page.names)
        if page.theirs is not None:  # the opponent's claim shows once both reported
            page.theirs_text = claim_text(page.theirs, page.names)
    if pairing.outcome != Outcome.PENDING:
        page.recorded_text = result_text(pairing.outcome, pairing.wins_a, pairing.wins_b,
                                         pairing.draws, page.names)
    return page
