"""Check-in: the window before a round, checking in (by link, kiosk or director), undoing it,
and closing the window, which makes everyone not checked in absent for the round.

Absence follows the tournament's rule: a Swiss gives each absent entrant a zero-point
requested bye for the round (``tournaments.services.bye_request(kind="zero")``), so the
pairing leaves them out; a round robin or a knockout has no requested byes, so closing only
records who is missing and the director decides (a forfeit through the results). Either way
the tournament's history gets one line naming them.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.errors import ApplicationError
from playerlinks import events
from playerlinks.lookup import link_from_token
from playerlinks.models import CheckIn, CheckInMethod, CheckInWindow, EntrantLink, LinkSettings
from playerlinks.selectors import last_paired, next_round_number, open_window, settings_of
from players.permissions import SYSTEM, Actor, actor_user, ensure_can_manage_club
from tournaments import services as tournament_services
from tournaments.history import record
from tournaments.models import Entrant, RequestedBye, Status, Tournament
from tournaments.services.tournaments import lock_tournament

log = logging.getLogger(__name__)

#: History line kinds (worded by playerlinks.history_lines).
CHECK_IN_OPENED = "check_in_opened"
CHECK_IN_CLOSED = "check_in_closed"

#: Largest starting number the kiosk looks up (anything longer is refused unread).
MAX_SEED_DIGITS = 6


@transaction.atomic
def link_settings_update(*, actor: Actor, tournament: Tournament,
                         check_in_every_round: bool) -> LinkSettings:
    ensure_can_manage_club(actor, tournament.club)
    if not isinstance(check_in_every_round, bool):
        raise ApplicationError(_("Choose yes or no."), field="check_in_every_round")
    found, _created = LinkSettings.objects.update_or_create(
        tournament=tournament, defaults={"check_in_every_round": check_in_every_round})
    return found


def _check_round(tournament: Tournament, round_number: int) -> None:
    if isinstance(round_number, bool) or not isinstance(round_number, int):
        raise ApplicationError(_("A round number is a whole number."), field="round_number")
    if tournament.status == Status.FINISHED:
        raise ApplicationError(_("The tournament is finished."), field="status")
    paired = last_paired(tournament)
    if round_number <= paired:
        raise ApplicationError(
            _("Round %(round)d is already paired: check-in is for a round not yet paired "
              "(the next is round %(next)d).") % {"round": round_number, "next": paired + 1},
            field="round_number")
    if round_number > paired + 1:
        raise ApplicationError(
            _("Check-in opens for the next round to pair, round %(next)d.")
            % {"next": paired + 1}, field="round_number")
    if tournament.rounds_planned and round_number > tournament.rounds_planned:
        raise ApplicationError(
            ngettext("The tournament has %(count)d round.", "The tournament has %(count)d rounds.",
                     tournament.rounds_planned) % {"count": tournament.rounds_planned},
            field="round_number")
    if round_number > 1 and not settings_of(tournament).check_in_every_round:
        raise ApplicationError(
            _("Players check in only before round 1: turn on “check in before every round” "
              "for later rounds."), field="round_number")


@transaction.atomic
def check_in_window_open(*, actor: Actor, tournament: Tournament,
                         round_number: int | None = None,
                         closes_at: datetime | None = None) -> CheckInWindow:
    """Open check-in for ``round_number`` (default: the next round to pair)."""
    ensure_can_manage_club(actor, tournament.club)
    tournament = lock_tournament(tournament)
    number = next_round_number(tournament) if round_number is None else round_number
    _check_round(tournament, number)
    now = timezone.now()
    if closes_at is not None and closes_at < now:
        raise ApplicationError(_("The planned closing time is in the past."), field="closes_at")
    if CheckInWindow.objects.filter(tournament=tournament, round_number=number).exists():
        raise ApplicationError(_("Check-in for round %(round)d was already opened.")
                               % {"round": number}, field="round_number")
    window = CheckInWindow.objects.create(
        tournament=tournament, round_number=number, opens_at=now, closes_at=closes_at,
        opened_by=actor_user(actor))
    record(tournament, CHECK_IN_OPENED, actor=actor, round_number=number)
    events.check_in_opened.send(events.CheckInOpened(tournament.pk, number))
    return window


def _missing(tournament: Tournament, round_number: int) -> list[Entrant]:
    checked = set(CheckIn.objects.filter(entrant__tournament=tournament,
                                         round_number=round_number)
                  .values_list("entrant_id", flat=True))
    entrants = tournament.entrants.select_related("player", "team", "tournament").order_by(
        "seed", "id")
    return [entrant for entrant in entrants
            if entrant.plays_in(round_number) and entrant.pk not in checked]


@transaction.atomic
def check_in_window_close(*, actor: Actor, window: CheckInWindow) -> list[Entrant]:
    """Close check-in: those not checked in are absent for the round (see the module).
    Returns them."""
    tournament = window.tournament
    ensure_can_manage_club(actor, tournament.club)
    tournament = lock_tournament(tournament)
    window = CheckInWindow.objects.select_for_update().get(pk=window.pk)
    if window.closed_at is not None:
        raise ApplicationError(_("Check-in for round %(round)d is already closed.")
                               % {"round": window.round_number}, field="window")
    if last_paired(tournament) >= window.round_number:
        raise ApplicationError(
            _("Round %(round)d is already paired: unpair it to close its check-in.")
            % {"round": window.round_number}, field="window")
    absent = _missing(tournament, window.round_number)
    byes = tournament.system.requested_byes
    if byes:
        asked = set(RequestedBye.objects.filter(
            entrant__tournament=tournament, round_number=window.round_number)
            .values_list("entrant_id", flat=True))
        for entrant in absent:
            if entrant.pk not in asked:  # a bye already asked for stays as it is
                tournament_services.bye_request(actor=actor, entrant=entrant,
                                                round_number=window.round_number, kind="zero")
    window.closed_at = timezone.now()
    window.save(update_fields=["closed_at"])
    record(tournament, CHECK_IN_CLOSED, actor=actor, round_number=window.round_number,
           names=[entrant.name for entrant in absent], byes=byes)
    return absent


def check_in_windows_close_due(*, now: datetime | None = None) -> list[CheckInWindow]:
    """Close every open window whose planned closing time has passed, as the director's
    Close would (those not checked in become absent); one that cannot close (its round
    already paired) stays open for the director. Returns the windows closed."""
    now = now or timezone.now()
    closed = []
    due = CheckInWindow.objects.filter(closed_at__isnull=True, closes_at__lte=now)
    for window in due.select_related("tournament__club"):
        try:
            check_in_window_close(actor=SYSTEM, window=window)
        except ApplicationError:
            log.info("check-in window %s is due but cannot close", window.pk, exc_info=True)
            continue
        closed.append(window)
    return closed


def _window_for(tournament: Tournament, *, players_self: bool = False) -> CheckInWindow:
    """The open window; for players checking themselves in (link, kiosk), not past its
    planned closing time (the director may still check someone in until it closes)."""
    window = open_window(tournament)
    if window is None:
        raise ApplicationError(_("Check-in is not open."), field="window")
    if players_self and window.closes_at is not None and window.closes_at <= timezone.now():
        raise ApplicationError(
            _("Check-in closed at %(time)s: ask the tournament director.")
            % {"time": timezone.localtime(window.closes_at).strftime("%H:%M")}, field="window")
    return window


def _check_in(entrant: Entrant, window: CheckInWindow, method: str, *, by: Actor | None = None,
              link: EntrantLink | None = None) -> CheckIn:
    if not entrant.plays_in(window.round_number):
        raise ApplicationError(_("%(entrant)s does not play in round %(round)d.")
                               % {"entrant": entrant.name, "round": window.round_number},
                               field="entrant")
    found = CheckIn.objects.filter(entrant=entrant, round_number=window.round_number).first()
    if found is not None:
        return found  # checking in twice is harmless: the first one stays
    try:
        with transaction.atomic():
            return CheckIn.objects.create(entrant=entrant, round_number=window.round_number,
                                          method=method, by=actor_user(by), link=link)
    except IntegrityError:  # the same entrant at the same moment from two phones
        return CheckIn.objects.get(entrant=entrant, round_number=window.round_number)


@dataclass(frozen=True)
class CheckedIn:
    check_in: CheckIn
    entrant: Entrant
    round_number: int


@transaction.atomic
def check_in_by_link(*, link: EntrantLink) -> CheckedIn:
    """The holder of a live ``link`` checks its entrant in for the open window."""
    live = EntrantLink.objects.live().filter(pk=link.pk).select_related(
        "entrant__tournament", "entrant__player", "entrant__team").first()
    if live is None:
        raise ApplicationError(_("This link no longer works."), field="link")
    window = _window_for(live.entrant.tournament, players_self=True)
    done = _check_in(live.entrant, window, CheckInMethod.LINK, link=live)
    return CheckedIn(done, live.entrant, window.round_number)


def _kiosk_entrant(tournament: Tournament, code: str) -> tuple[Entrant, EntrantLink | None]:
    """The entrant a kiosk code names: a link's token (or its whole URL), or a starting
    number."""
    text = (code or "").strip()
    if "\x00" in text or len(text) > 300:
        raise ApplicationError(_("Scan a player's link or type a starting number."),
                               field="code")
    if text.isdigit() and text.isascii():
        if len(text) > MAX_SEED_DIGITS:
            raise ApplicationError(_("No entrant has starting number %(seed)s.")
                                   % {"seed": text[:MAX_SEED_DIGITS] + "…"}, field="code")
        entrant = (tournament.entrants.select_related("player", "team", "tournament")
                   .filter(seed=int(text)).first())
        if entrant is None:
            raise ApplicationError(_("No entrant has starting number %(seed)s.")
                                   % {"seed": text}, field="code")
        return entrant, None
    token = token_in(text)
    link = link_from_token(token) if token else None
    if link is None or link.entrant.tournament_id != tournament.pk:
        raise ApplicationError(_("This code is not a live link of this tournament."),
                               field="code")
    return link.entrant, link


def token_in(text: str) -> str:
    """The token in a scanned text: the text itself, or the last part of a ``/p/<token>/``
    URL."""
    text = text.strip()
    if "/p/" in text:
        text = text.rsplit("/p/", 1)[1].split("/", 1)[0].split("?", 1)[0]
    return text


@transaction.atomic
def check_in_by_kiosk(*, actor: Actor, tournament: Tournament, code: str) -> CheckedIn:
    """The venue's kiosk (an organizer signed in) checks in the entrant of ``code``."""
    ensure_can_manage_club(actor, tournament.club)
    window = _window_for(tournament, players_self=True)
    entrant, link = _kiosk_entrant(tournament, code)
    done = _check_in(entrant, window, CheckInMethod.KIOSK, by=actor, link=link)
    return CheckedIn(done, entrant, window.round_number)


@transaction.atomic
def check_in_by_director(*, actor: Actor, entrant: Entrant) -> CheckedIn:
    tournament = entrant.tournament
    ensure_can_manage_club(actor, tournament.club)
    window = _window_for(tournament)
    done = _check_in(entrant, window, CheckInMethod.DIRECTOR, by=actor)
    return CheckedIn(done, entrant, window.round_number)


@transaction.atomic
def check_in_undo(*, actor: Actor, check_in: CheckIn) -> None:
    """Take back a check-in while its window is open."""
    tournament = check_in.entrant.tournament
    ensure_can_manage_club(actor, tournament.club)
    open_ = CheckInWindow.objects.filter(tournament=tournament,
                                         round_number=check_in.round_number,
                                         closed_at__isnull=True).exists()
    if not open_:
        raise ApplicationError(_("Check-in for round %(round)d is closed: the check-in stays.")
                               % {"round": check_in.round_number}, field="check_in")
    CheckIn.objects.filter(pk=check_in.pk).delete()
