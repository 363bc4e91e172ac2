"""The phone clock's pages: the clock of a board (for the director, or from a player's
private link), the follow page for a second phone, the taps endpoint (JSON, CSRF), the
state the follow page polls, and the service worker (served under /clock/ with a header
that lets each clock page register it for its own path only)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_POST

from config.login_guard import client_address
from core.errors import ApplicationError, ConflictError
from games.engines import game_facts
from phoneclock import selectors, services
from phoneclock.models import MAX_TAPS_PER_REQUEST, ClockSession
from playerlinks.guard import LinkGuessing, guarded_link
from playerlinks.models import EntrantLink
from tournaments.models import Pairing

SERVICE_WORKER = Path(__file__).resolve().parent / "static" / "phoneclock" / "clock-sw.js"
#: A taps request is small: 500 taps of ~80 bytes.
MAX_BODY = MAX_TAPS_PER_REQUEST * 200


def _error(error: Exception) -> JsonResponse:
    if isinstance(error, ApplicationError):
        status = 409 if isinstance(error, ConflictError) else 400
        return JsonResponse({"detail": error.message, **error.as_dict()}, status=status)
    return JsonResponse({"detail": str(error) or _("You may not use this clock.")}, status=403)


def _lookup(request: HttpRequest, token: str) -> tuple[EntrantLink | None, int, str]:
    """The live link of ``token`` (misses counted against the address, as on every /p/
    page), or None with the status and the reason: 404 unknown, 429 the address paused."""
    try:
        link = guarded_link(client_address(request), token)
    except LinkGuessing:
        return None, 429, _("Too many unknown links from your address: wait a few minutes.")
    if link is None:
        return None, 404, _("This private link is unknown or was revoked.")
    return link, 200, ""


def _names(pairing: Pairing) -> tuple[str, str]:
    return str(pairing.entrant_a), str(pairing.entrant_b)


def _page(request: HttpRequest, session: ClockSession, *, base: str, side: int | None,
          follow: bool = False) -> HttpResponse:
    pairing = session.pairing
    name_a, name_b = _names(pairing)
    data = {
        "state": selectors.session_state(session), "names": [name_a, name_b],
        "base": base, "follow": follow, "side": side,
        "stateUrl": reverse("phoneclock:follow-state", args=[session.follow_token]),
        "sw": "" if follow else reverse("phoneclock:sw"),
        "assets": [static("phoneclock/clock.js"), static("phoneclock/clock.css"),
                   static("pages/js/language.js")],
        "csrf": get_token(request),
        "texts": {
            "moves": _("{n} moves"), "offline": _("Offline: {n} taps kept on this phone"),
            "sending": _("Sending {n} taps…"), "saved": _("Every tap is saved."),
            "refused": _("The server refused a tap: {problem}"),
            "resynced": _("The server refused a tap: {problem} This phone now shows the clock "
                          "as stored; {n} taps made here after it were dropped."),
            "following": _("Following this clock live."),
            "flagged": _("{loser} lost on time: {winner} wins. Result pre-filled, to be "
                         "confirmed."),
            "resigned": _("{loser} resigned: {winner} wins. Result pre-filled, to be confirmed."),
            "drawn": _("Draw agreed at the board. Result pre-filled, to be confirmed."),
            "confirmDraw": _("Did both players agree to a draw?"),
            "otherPhone": _("This clock runs on another phone: this phone follows it."),
            "confirmTakeOver": _("Take the clock over on this phone? The other phone will only "
                                 "follow it."),
            "confirmResign": _("Does {name} resign?"), "agreed": _("Agreed"),
        },
    }
    context = {
        "draws": game_facts(pairing.round.tournament.game).draws_possible,
        "clock_data": data, "session": session, "pairing": pairing,
        "tournament": pairing.round.tournament,
        "name_a": name_a, "name_b": name_b, "side": side, "follow": follow,
        "follow_url": request.build_absolute_uri(
            reverse("phoneclock:follow", args=[session.follow_token])),
    }
    response = render(request, "phoneclock/clock.html", context)
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
@ensure_csrf_cookie
def board_clock(request: HttpRequest, pairing_id: int, game: int) -> HttpResponse:
    """The director's clock of game ``game`` on a board."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    pairing = get_object_or_404(Pairing.objects.select_related("round__tournament__club"),
                                pk=pairing_id)
    try:
        session = services.session_open(actor=request.user, pairing=pairing, game_number=game)
    except ApplicationError as error:
        return render(request, "phoneclock/refused.html", {"message": error.message},
                      status=400)
    return _page(request, session, base=request.path, side=None)


@require_GET
@ensure_csrf_cookie
def link_clock(request: HttpRequest, token: str) -> HttpResponse:
    """A player's clock, from the private link: the board of the latest released round."""
    link, status, reason = _lookup(request, token)
    if link is None:
        return render(request, "phoneclock/refused.html", {"message": reason}, status=status)
    pairing = selectors.current_pairing(link.entrant_id)
    if pairing is None or pairing.entrant_b_id is None:
        return render(request, "phoneclock/refused.html",
                      {"message": _("You have no board with a game in a released round.")},
                      status=404)
    try:
        game = int(request.GET.get("game") or selectors.next_game_number(pairing))
    except ValueError:
        game = 0
    try:
        session = services.session_open(actor=None, link=link, pairing=pairing,
                                        game_number=game)
    except ApplicationError as error:
        return render(request, "phoneclock/refused.html", {"message": error.message},
                      status=400)
    return _page(request, session, base=request.path, side=services.link_side(link, pairing))


def _read_body(request: HttpRequest) -> Any:
    if len(request.body) > MAX_BODY:
        raise ApplicationError(_("The request is too large."), field="taps")
    try:
        return json.loads(request.body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise ApplicationError(_("Send JSON: {\"session\": id, \"taps\": [...]}."),
                               field="taps") from None


def _taps(request: HttpRequest, *, link: EntrantLink | None) -> JsonResponse:
    try:
        body = _read_body(request)
        if not isinstance(body, dict) or not isinstance(body.get("session"), int):
            raise ApplicationError(_("Name the clock session."), field="session")
        session = ClockSession.objects.filter(pk=body["session"]).first()
        if session is None:
            raise ApplicationError(_("Unknown clock session."), field="session")
        session = services.taps_record(actor=request.user, link=link, session=session,
                                       taps=body.get("taps") or [],
                                       phone=body.get("phone", ""),
                                       take_over=body.get("take_over", False))
    except (ApplicationError, PermissionDenied) as error:
        return _error(error)
    return JsonResponse(selectors.session_state(session))


@require_POST
def board_taps(request: HttpRequest, pairing_id: int, game: int) -> JsonResponse:
    if not request.user.is_authenticated:
        return JsonResponse({"detail": _("Log in to use this clock.")}, status=403)
    return _taps(request, link=None)


@require_POST
def link_taps(request: HttpRequest, token: str) -> JsonResponse:
    link, status, reason = _lookup(request, token)
    if link is None:
        return JsonResponse({"detail": reason}, status=status)
    return _taps(request, link=link)


@require_POST
def link_agree(request: HttpRequest, token: str) -> JsonResponse:
    link, status, reason = _lookup(request, token)
    if link is None:
        return JsonResponse({"detail": reason}, status=status)
    try:
        body = _read_body(request)
        number = body.get("session") if isinstance(body, dict) else None
        session = ClockSession.objects.filter(pk=number).first() \
            if isinstance(number, int) and not isinstance(number, bool) else None
        if session is None:
            raise ApplicationError(_("Unknown clock session."), field="session")
        session = services.session_agree(link=link, session=session)
    except (ApplicationError, PermissionDenied) as error:
        return _error(error)
    return JsonResponse(selectors.session_state(session))


@require_GET
def follow(request: HttpRequest, token: str) -> HttpResponse:
    session = get_object_or_404(ClockSession.objects.select_related(
        "pairing__round__tournament", "pairing__entrant_a__player", "pairing__entrant_a__team",
        "pairing__entrant_b__player", "pairing__entrant_b__team"), follow_token=token)
    return _page(request, session, base=request.path, side=None, follow=True)


@require_GET
@never_cache
def follow_state(request: HttpRequest, token: str) -> JsonResponse:
    session = get_object_or_404(ClockSession, follow_token=token)
    return JsonResponse(selectors.session_state(session))


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(SERVICE_WORKER.read_text(), content_type="text/javascript")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response
