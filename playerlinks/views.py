"""The link's own page (``/p/<token>/``: "my page"), its live part and check-in; a signed-in
player's links (``/me/links/``); the venue's check-in kiosk.

Every answer about a link carries ``Referrer-Policy: no-referrer`` (the token never leaves
in a Referer), ``Cache-Control: private, no-store`` and ``X-Robots-Tag: noindex``. A token
that finds no live link counts against the client address (playerlinks/guard.py).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.shortcuts import get_object_or_404, redirect
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST
from django.views.i18n import set_language

from config.login_guard import client_address
from core.errors import ApplicationError
from playerlinks import checkins, guard, selectors, services
from playerlinks.lookup import link_token
from playerlinks.models import EntrantLink
from players.permissions import can_manage_club
from tournaments import cache as tournament_cache
from tournaments.etags import etag_matches
from tournaments.models import Tournament

#: Seconds between a phone's polls of its page (it asks with its ETag: mostly 304s).
POLL_SECONDS = 15


def private(response: HttpResponse, *, referrer: bool = False) -> HttpResponse:
    """The headers of every answer about a private link (``referrer``: a page whose own
    address holds no token, such as the kiosk, keeps the site's referrer policy)."""
    if not referrer:
        response["Referrer-Policy"] = "no-referrer"
    response["Cache-Control"] = "private, no-store"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def _csrf_checked(request: HttpRequest) -> HttpResponse | None:
    """Django's CSRF check for a form on a page with ``Referrer-Policy: no-referrer``.

    Such a page's browser sends ``Origin: null`` and no Referer with its POSTs, which
    Django's Origin (and, over HTTPS, Referer) checks refuse. The CSRF token in the form
    and the cookie is still checked in full: an opaque origin is taken as this site's,
    nothing else changes. (A forged POST also needs the link's secret path.)"""
    if request.META.get("HTTP_ORIGIN") == "null":
        request.META["HTTP_ORIGIN"] = f"{request.scheme}://{request.get_host()}"
    return CsrfViewMiddleware(_csrf_target).process_view(request, _csrf_target, (), {})


def _csrf_target(request: HttpRequest) -> HttpResponse:
    """What the CSRF check is made for (never called: the check answers or passes)."""
    return HttpResponse()


def guessing_refused(request: HttpRequest) -> HttpResponse:
    """The 429 of an address paused for guessing private links (players' and captains')."""
    message = ngettext(
        "Too many unknown links from your address: try again in %(minutes)d minute.",
        "Too many unknown links from your address: try again in %(minutes)d minutes.",
        max(1, guard.window() // 60)) % {"minutes": max(1, guard.window() // 60)}
    response = HttpResponse(render_to_string("playerlinks/refused.html", {
        "message": message, "status": 429}, request=request), status=429)
    response["Retry-After"] = str(guard.window())
    return private(response)


def _not_found(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(render_to_string("playerlinks/refused.html", {
        "message": _("This link does not work: it may have been replaced by a new one. Ask "
                     "the tournament director for your link."),
        "status": 404}, request=request), status=404)
    return private(response)


def resolve(request: HttpRequest, token: str) -> EntrantLink | HttpResponse:
    """The live link of ``token``, or the answer that refuses it (429 while the address is
    paused, else 404, counted)."""
    try:
        link = guard.guarded_link(client_address(request), token)
    except guard.LinkGuessing:
        return guessing_refused(request)
    return link if link is not None else _not_found(request)


def not_a_link(request: HttpRequest, rest: str) -> HttpResponse:
    """A path under /p/ that no link view takes: refused like an unknown token."""
    address = client_address(request)
    if guard.is_limited(address):
        return guessing_refused(request)
    guard.record_failure(address)
    return _not_found(request)


type LinkView = Callable[..., HttpResponse]


def with_link(view: LinkView) -> Callable[..., HttpResponse]:
    @wraps(view)
    def wrapped(request: HttpRequest, token: str, *args: Any, **kwargs: Any) -> HttpResponse:
        found = resolve(request, token)
        if isinstance(found, HttpResponse):
            return found
        return private(view(request, found, token, *args, **kwargs))

    return wrapped


def _context(request: HttpRequest, link: EntrantLink, token: str) -> dict[str, Any]:
    page = selectors.my_page(link)
    here = selectors.link_path(token)
    return {"page": page, "here": here, "report_url": here + "report/",
            "clock_url": here + "clock/",
            "live_url": here + "live/", "check_in_url": here + "check-in/",
            "next_path": here, "language_action": here + "language/",
            "poll_seconds": POLL_SECONDS}


def _etag(link: EntrantLink) -> str:
    kind = f"mypage:{link.pk}:{translation.get_language()}:{selectors.my_page_state(link)}"
    return tournament_cache.etag(link.entrant.tournament, kind)


@require_GET
@with_link
def my_page(request: HttpRequest, link: EntrantLink, token: str) -> HttpResponse:
    services.link_touch(link=link)
    context = _context(request, link, token)
    context["etag"] = _etag(link)
    return TemplateResponse(request, "playerlinks/my_page.html", context)


@require_GET
@with_link
def my_page_live(request: HttpRequest, link: EntrantLink, token: str) -> HttpResponse:
    """The live part of my page, for its poll: 304 while nothing changed."""
    etag = _etag(link)
    if etag_matches(request.headers.get("If-None-Match"), etag):
        response = HttpResponse(status=304)
    else:
        response = HttpResponse(render_to_string(
            "playerlinks/_my_page_live.html", _context(request, link, token), request=request))
    response["ETag"] = etag
    return response


@csrf_exempt  # checked below, tolerating the opaque origin of a no-referrer page
@require_POST
@with_link
def my_check_in(request: HttpRequest, link: EntrantLink, token: str) -> HttpResponse:
    """The holder checks in (a form with its CSRF token); back to the page."""
    if (refused := _csrf_checked(request)) is not None:
        return refused
    try:
        checkins.check_in_by_link(link=link)
    except ApplicationError as error:
        context = _context(request, link, token)
        context["error"] = error.message
        return TemplateResponse(request, "playerlinks/my_page.html", context, status=400)
    return redirect(selectors.link_path(token))


@csrf_exempt  # checked below, as for check-in
@require_POST
@with_link
def my_language(request: HttpRequest, link: EntrantLink, token: str) -> HttpResponse:
    """The language switch of my page: Django's set_language, after the CSRF check."""
    if (refused := _csrf_checked(request)) is not None:
        return refused
    post = request.POST.copy()
    post["next"] = selectors.link_path(token)
    request.POST = post  # type: ignore[assignment]
    return set_language(request)


@login_required
@require_GET
def my_links(request: HttpRequest) -> HttpResponse:
    """A signed-in player's live links (each of their Player rows' links)."""
    links = [(link, selectors.link_path(link_token(link)))
             for link in selectors.user_links(request.user)]
    return private(TemplateResponse(request, "playerlinks/my_links.html", {"links": links}))


# -- kiosk ---------------------------------------------------------------------------------


def _kiosk_tournament(request: HttpRequest, tournament_id: int) -> Tournament:
    tournament = get_object_or_404(Tournament.objects.select_related("club"), pk=tournament_id)
    if not can_manage_club(request.user, tournament.club):
        raise PermissionDenied
    return tournament


@login_required
def kiosk(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The venue tablet's page: scan a link's QR code (camera) or type a starting number.
    A POST checks in (JSON answer for the page's script; the form works without it)."""
    tournament = _kiosk_tournament(request, tournament_id)
    if request.method == "POST":
        return private(_kiosk_check_in(request, tournament), referrer=True)
    if request.method != "GET":
        raise Http404
    window = selectors.open_window(tournament)
    return private(TemplateResponse(request, "playerlinks/kiosk.html", {
        "tournament": tournament, "window": window, "result": None}), referrer=True)


def _kiosk_check_in(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    address = client_address(request)
    wants_json = "application/json" in request.headers.get("Accept", "")
    status, result = 200, {}
    if guard.is_limited(address):
        response = _kiosk_answer(request, tournament, wants_json, 429, {
            "ok": False, "error": _("Too many unknown codes: wait a few minutes.")})
        response["Retry-After"] = str(guard.window())
        return response
    code = str(request.POST.get("code", ""))
    try:
        done = checkins.check_in_by_kiosk(actor=request.user, tournament=tournament, code=code)
    except ApplicationError as error:
        if error.field == "code":
            guard.record_failure(address)
        status, result = 400, {"ok": False, "error": error.message}
    else:
        result = {"ok": True, "name": done.entrant.name, "seed": done.entrant.seed,
                  "round": done.round_number,
                  "message": _("%(name)s is checked in for round %(round)d.") % {
                      "name": done.entrant.name, "round": done.round_number}}
    return _kiosk_answer(request, tournament, wants_json, status, result)


def _kiosk_answer(request: HttpRequest, tournament: Tournament, wants_json: bool, status: int,
                  result: dict[str, Any]) -> HttpResponse:
    if wants_json:
        return JsonResponse(result, status=status)
    return TemplateResponse(request, "playerlinks/kiosk.html", {
        "tournament": tournament, "window": selectors.open_window(tournament),
        "result": result}, status=status)
