"""Reads for private links: the cards and QR codes to print, a link's own page ("my page"),
a signed-in player's links, and the check-in board the director watches."""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import segno
from django.db.models import Max, Q, QuerySet
from django.urls import reverse
from django.utils.translation import gettext

from core.engine_messages import translated
from games.series.format import SeriesError
from games.series.roles import game_roles
from playerlinks.lookup import link_token
from playerlinks.models import CheckIn, CheckInWindow, EntrantLink, LinkSettings
from tournaments import cache as tournament_cache
from tournaments.models import Entrant, Outcome, Pairing, Round, Tournament
from tournaments.selectors import round_clock, stored_match_format

#: Error correction of the printed codes: "m" survives a crease or a smudge (15 %).
QR_ERROR = "m"


def qr_svg(text: str, *, scale: int = 4, sized: bool = False) -> str:
    """``text`` as an SVG QR code, with its quiet zone (no XML declaration: it goes inline
    in HTML). It has a viewBox and no size, so CSS sizes it, unless ``sized`` (a file of
    its own)."""
    out = io.BytesIO()
    segno.make(text, error=QR_ERROR, micro=False).save(
        out, kind="svg", xmldecl=False, scale=scale, border=4, svgclass="qr",
        lineclass=None, title=None, omitsize=not sized)
    return out.getvalue().decode("utf-8")


def settings_of(tournament: Tournament) -> LinkSettings:
    """The tournament's settings row (unsaved defaults when it has none)."""
    found = LinkSettings.objects.filter(tournament=tournament).first()
    return found or LinkSettings(tournament=tournament)


def last_paired(tournament: Tournament) -> int:
    return int(Round.objects.filter(tournament=tournament).aggregate(n=Max("number"))["n"] or 0)


def next_round_number(tournament: Tournament) -> int:
    """The round a window opened now would be for: the next one to pair."""
    return last_paired(tournament) + 1


def open_window(tournament: Tournament) -> CheckInWindow | None:
    """The tournament's open check-in window, if any."""
    return (CheckInWindow.objects.filter(tournament=tournament, closed_at__isnull=True)
            .order_by("round_number").first())


def link_path(token: str) -> str:
    return reverse("playerlinks:my-page", args=[token])


def link_url(token: str, base_url: str = "") -> str:
    """The link's address: ``base_url`` (scheme and host, ``https://club.example``) and
    its path."""
    return base_url.rstrip("/") + link_path(token)


@dataclass(frozen=True)
class LinkCard:
    """One printed card: who holds the link, their entry, where it leads, its QR code."""

    link: EntrantLink
    entrant: Entrant
    holder_name: str
    starting_number: int | None
    url: str
    qr_svg: str


def live_links(tournament: Tournament) -> QuerySet[EntrantLink]:
    return (EntrantLink.objects.live().filter(entrant__tournament=tournament)
            .select_related("entrant__player", "entrant__team", "entrant__tournament", "player")
            .order_by("entrant__seed", "entrant_id", "player__display_name", "id"))


def link_cards(tournament: Tournament, base_url: str = "") -> list[LinkCard]:
    """A card per live link of ``tournament``, in starting-number order (the print pack and
    the admin's card sheet print them)."""
    cards = []
    for link in live_links(tournament):
        url = link_url(link_token(link), base_url)
        cards.append(LinkCard(link=link, entrant=link.entrant,
                              holder_name=link.player.display_name,
                              starting_number=link.entrant.seed, url=url, qr_svg=qr_svg(url)))
    return cards


def user_links(user: Any) -> QuerySet[EntrantLink]:
    """The live links of the players ``user`` is (Player.user), newest tournaments first."""
    if user is None or not getattr(user, "is_authenticated", False):
        return EntrantLink.objects.none()
    return (EntrantLink.objects.live().filter(player__user=user)
            .select_related("entrant__tournament__club", "entrant__player", "entrant__team",
                            "player")
            .order_by("-entrant__tournament__created_at", "entrant_id"))


# -- my page ----------------------------------------------------------------------------


@dataclass(frozen=True)
class NextPairing:
    round: Round
    board: int
    opponent: str | None  # None: a bye
    opponent_seed: int | None
    bye: str
    #: "first move" or "low doubles" (the role the game names) and who holds it in game 1
    first_role: str
    first_name: str
    i_hold_first: bool
    colour: str  # "A" or "B": my side on the board's slip
    clock: str
    clock_words: str
    starts_at: datetime | None
    result: str  # "" while open
    result_open: bool


@dataclass(frozen=True)
class PastResult:
    round_number: int
    opponent: str | None
    outcome: str  # win, draw, loss, forfeit_win, forfeit_loss, double_forfeit, bye, pending
    label: str
    score: str


@dataclass
class MyPage:
    link: EntrantLink
    tournament: Tournament
    entrant: Entrant
    next: NextPairing | None
    results: list[PastResult] = field(default_factory=list)
    rank: int | None = None
    points: float | None = None
    entrants: int = 0
    check_in_window: CheckInWindow | None = None
    checked_in: bool = False


def _clock_words(clock: str) -> str:
    from games.clocks.errors import ClockError
    from games.clocks.setting import parse_setting

    if not clock:
        return gettext("no clock set")
    try:
        return translated(parse_setting(clock).description())
    except ClockError:
        return gettext("unreadable clock setting")


def _mine(pairing: Pairing, entrant: Entrant) -> tuple[bool, Entrant | None]:
    """Whether ``entrant`` is side A of ``pairing``, and its opponent."""
    if pairing.entrant_a_id == entrant.pk:
        return True, pairing.entrant_b
    return False, pairing.entrant_a


_OUTCOME_FOR_A: dict[str, str] = {
    Outcome.A_WINS: "win", Outcome.B_WINS: "loss", Outcome.DRAW: "draw",
    Outcome.A_FORFEIT_WIN: "forfeit_win", Outcome.B_FORFEIT_WIN: "forfeit_loss",
    Outcome.DOUBLE_FORFEIT: "double_forfeit", Outcome.BYE: "bye", Outcome.PENDING: "pending",
}
_SWAP = {"win": "loss", "loss": "win", "forfeit_win": "forfeit_loss",
         "forfeit_loss": "forfeit_win"}


def outcome_label(outcome: str) -> str:
    return {
        "win": gettext("won"), "loss": gettext("lost"), "draw": gettext("drawn"),
        "forfeit_win": gettext("won by forfeit"), "forfeit_loss": gettext("lost by forfeit"),
        "double_forfeit": gettext("double forfeit"), "bye": gettext("bye"),
        "pending": gettext("not played yet"),
    }.get(outcome, outcome)


def _next_pairing(pairing: Pairing, entrant: Entrant) -> NextPairing:
    tournament = entrant.tournament
    is_a, opponent = _mine(pairing, entrant)
    try:
        duplicate = stored_match_format(tournament).duplicate
    except SeriesError:
        duplicate = False
    roles = game_roles(tournament.game, 0, duplicate=duplicate)
    first_is_a = roles.first_side == 0 or pairing.entrant_b_id is None
    first = pairing.entrant_a if first_is_a else pairing.entrant_b
    clock = round_clock(pairing.round)
    return NextPairing(
        round=pairing.round, board=pairing.board,
        opponent=opponent.name if opponent is not None else None,
        opponent_seed=opponent.seed if opponent is not None else None,
        bye=pairing.get_bye_kind_display() if pairing.entrant_b_id is None else "",
        first_role=translated(roles.role_label), first_name=first.name if first else "",
        i_hold_first=first is not None and first.pk == entrant.pk,
        colour="A" if is_a else "B", clock=clock, clock_words=_clock_words(clock),
        starts_at=pairing.round.starts_at,
        result="" if pairing.outcome == Outcome.PENDING else pairing.get_outcome_display(),
        result_open=pairing.outcome == Outcome.PENDING and pairing.entrant_b_id is not None,
    )


def my_page(link: EntrantLink) -> MyPage:
    """What the holder of ``link`` sees: released rounds only (drafts never)."""
    entrant = link.entrant
    tournament = entrant.tournament
    pairings = list(
        Pairing.objects.released()
        .filter(round__tournament=tournament)
        .filter(Q(entrant_a=entrant) | Q(entrant_b=entrant))
        .select_related("round__tournament", "entrant_a__player", "entrant_a__team",
                        "entrant_b__player", "entrant_b__team")
        .order_by("round__number"))
    page = MyPage(link=link, tournament=tournament, entrant=entrant, next=None)
    for pairing in pairings:
        is_a, opponent = _mine(pairing, entrant)
        outcome = _OUTCOME_FOR_A.get(pairing.outcome, "pending")
        if not is_a:
            outcome = _SWAP.get(outcome, outcome)
        wins = (pairing.wins_a, pairing.wins_b) if is_a else (pairing.wins_b, pairing.wins_a)
        score = f"{wins[0]}-{wins[1]}" if pairing.outcome in (
            Outcome.A_WINS, Outcome.B_WINS, Outcome.DRAW) and any(wins) else ""
        page.results.append(PastResult(
            round_number=pairing.round.number,
            opponent=opponent.name if opponent is not None else None,
            outcome=outcome, label=outcome_label(outcome), score=score))
    if pairings:
        latest = pairings[-1]
        if latest.outcome == Outcome.PENDING:
            page.next = _next_pairing(latest, entrant)
    table = tournament_cache.standings(tournament)  # one computation per version, not per phone
    rows = table.get("rows", [])
    page.entrants = len(rows)
    mine = next((row for row in rows if row.get("entrant") == entrant.pk), None)
    if mine is not None:
        page.rank = mine.get("rank")
        points = mine.get("points")
        page.points = float(points) if points is not None else None
    window = open_window(tournament)
    page.check_in_window = window
    if window is not None:
        page.checked_in = CheckIn.objects.filter(
            entrant=entrant, round_number=window.round_number).exists()
    return page


def my_page_state(link: EntrantLink) -> str:
    """What besides the tournament's version my page depends on: the open check-in and
    whether I am checked in (a check-in does not bump the tournament's version)."""
    window = open_window(link.entrant.tournament)
    if window is None:
        return "none"
    checked = CheckIn.objects.filter(entrant_id=link.entrant_id,
                                     round_number=window.round_number).exists()
    return f"w{window.pk}-{int(checked)}"


# -- the director's check-in board --------------------------------------------------------


@dataclass(frozen=True)
class CheckInBoard:
    window: CheckInWindow | None
    round_number: int
    checked_in: list[tuple[Entrant, CheckIn]]
    missing: list[Entrant]

    @property
    def counts(self) -> tuple[int, int]:
        return len(self.checked_in), len(self.missing)


def check_in_board(tournament: Tournament, round_number: int | None = None) -> CheckInBoard:
    """Who is checked in and who is missing for ``round_number`` (default: the open
    window's round, else the latest window's, else the next round)."""
    windows = CheckInWindow.objects.filter(tournament=tournament)
    window = None
    if round_number is None:
        window = (windows.filter(closed_at__isnull=True).order_by("round_number").first()
                  or windows.order_by("-round_number").first())
        number = window.round_number if window else next_round_number(tournament)
    else:
        number = round_number
        window = windows.filter(round_number=number).first()
    done = {c.entrant_id: c for c in CheckIn.objects.filter(
        entrant__tournament=tournament, round_number=number).select_related("by")}
    entrants = tournament.entrants.select_related("player", "team").order_by("seed", "id")
    checked, missing = [], []
    for entrant in entrants:
        if not entrant.plays_in(number):
            continue
        if entrant.pk in done:
            checked.append((entrant, done[entrant.pk]))
        else:
            missing.append(entrant)
    return CheckInBoard(window, number, checked, missing)
