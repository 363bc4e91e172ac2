"""A team captain's private pages: ``/league/captain/<token>/``.

The page shows the team's season and its matches with date, venue, lineup deadline and
countdown; a lineup form (board order) for each open match; the availability grid
(players × rounds); and the form that brings a club player in as a reserve. Every form
works without JavaScript, and every write is a service's (leagues.services), which refuses
with its reason: the page shows it next to the form and nothing changes.

The token is the only key. It is resolved like ``/p/<token>/``: a miss counts against the
client address (playerlinks.guard, the same counter), a paused address is refused before
any lookup, and the path is masked in every log line. Every answer carries
``Referrer-Policy: no-referrer``, ``Cache-Control: private, no-store`` and ``noindex``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST
from django.views.i18n import set_language

from config.login_guard import client_address
from core.errors import ApplicationError
from leagues import captain_selectors as selectors
from leagues.links import captain_link_from_token
from leagues.models import CaptainLink
from leagues.services import (
    availability_set,
    captain_link_touch,
    lineup_submit,
    reserve_add,
)
from leagues.services.lineups import BoardChoice
from playerlinks import guard
from playerlinks.views import guessing_refused, private
from players.models import Player

# -- the link ------------------------------------------------------------------------------


def _not_found(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(render_to_string("playerlinks/refused.html", {
        "message": _("This captain's link does not work: it may have been replaced by a new "
                     "one. Ask the league manager for your link."),
        "status": 404}, request=request), status=404)
    return private(response)


def _not_this_team(request: HttpRequest) -> HttpResponse:
    return HttpResponse(render_to_string("playerlinks/refused.html", {
        "message": _("This match is not your team's."), "status": 404}, request=request),
        status=404)


def _resolve(request: HttpRequest, token: str) -> CaptainLink | HttpResponse:
    """The live captain's link of ``token``, or the answer that refuses it (429 while the
    address is paused, else 404, counted)."""
    address = client_address(request)
    if guard.is_limited(address):
        return guessing_refused(request)
    link = captain_link_from_token(token)
    if link is None:
        guard.record_failure(address)
        return _not_found(request)
    return link


def not_a_link(request: HttpRequest, rest: str) -> HttpResponse:
    """A path under /league/captain/ that no view takes: refused like an unknown token."""
    address = client_address(request)
    if guard.is_limited(address):
        return guessing_refused(request)
    guard.record_failure(address)
    return _not_found(request)


def _csrf_checked(request: HttpRequest) -> HttpResponse | None:
    """Django's full CSRF check (token in the form and the cookie), taking the opaque
    ``Origin: null`` that browsers send from a ``no-referrer`` page as this site's."""
    if request.META.get("HTTP_ORIGIN") == "null":
        request.META["HTTP_ORIGIN"] = f"{request.scheme}://{request.get_host()}"
    return CsrfViewMiddleware(_csrf_target).process_view(request, _csrf_target, (), {})


def _csrf_target(request: HttpRequest) -> HttpResponse:
    return HttpResponse()


type CaptainView = Callable[..., HttpResponse]


def with_captain_link(view: CaptainView) -> Callable[..., HttpResponse]:
    """Resolve the token (guarded); POSTs pass the CSRF check first."""

    @csrf_exempt  # checked below, tolerating the opaque origin of a no-referrer page
    @wraps(view)
    def wrapped(request: HttpRequest, token: str, *args: Any, **kwargs: Any) -> HttpResponse:
        found = _resolve(request, token)
        if isinstance(found, HttpResponse):
            return found
        if request.method == "POST" and (refused := _csrf_checked(request)) is not None:
            return private(refused)
        captain_link_touch(link=found)
        return private(view(request, found, token, *args, **kwargs))

    return wrapped


# -- the page ------------------------------------------------------------------------------


def _context(request: HttpRequest, link: CaptainLink, token: str) -> dict[str, Any]:
    page = selectors.captain_page(link, now=timezone.now())
    here = selectors.link_path(token)
    return {
        "page": page, "here": here, "next_path": here, "language_action": here + "language/",
        "availability_url": here + "availability/", "reserve_url": here + "reserves/",
        "candidates": selectors.reserve_candidates(page.season_team),
        "errors": {}, "sent": request.GET.get("sent", ""),
    }


def _render(request: HttpRequest, context: dict[str, Any], status: int = 200) -> HttpResponse:
    return TemplateResponse(request, "leagues/captain/page.html", context, status=status)


@require_GET
@with_captain_link
def captain_page(request: HttpRequest, link: CaptainLink, token: str) -> HttpResponse:
    return _render(request, _context(request, link, token))


def _number(text: str) -> int | None:
    text = text.strip()
    if not text:
        return None
    if not text.isdigit() or not text.isascii() or len(text) > 18:
        raise ValueError(text)
    return int(text)


def _posted_boards(request: HttpRequest, boards: int,
                   pairs: bool) -> list[tuple[int | None, int | None]]:
    """The board order as posted: (player id, partner id) per board; ValueError names the
    field whose value is not an id."""
    chosen = []
    for board in range(1, boards + 1):
        ids: list[int | None] = []
        for name in (f"board_{board}", f"partner_{board}") if pairs else (f"board_{board}",):
            try:
                ids.append(_number(str(request.POST.get(name, ""))))
            except ValueError:
                raise ValueError(name) from None
        chosen.append((ids[0], ids[1] if pairs else None))
    return chosen


def _lineup(chosen: list[tuple[int | None, int | None]], pairs: bool,
            players: dict[int, Player]) -> list[BoardChoice]:
    boards: list[BoardChoice] = []
    for first, second in chosen:
        player = players[first] if first is not None else None
        if pairs:
            boards.append((player, players[second] if second is not None else None)
                          if player is not None else None)
        else:
            boards.append(player)
    return boards


@require_POST
@with_captain_link
def lineup_post(request: HttpRequest, link: CaptainLink, token: str,
                match_id: int) -> HttpResponse:
    """Submit the lineup of one of the team's matches; refused with the service's reason
    (and nothing changed), or back to the page."""
    context = _context(request, link, token)
    page: selectors.CaptainPage = context["page"]
    item = page.match(match_id)
    if item is None:  # not this team's match: no more than an unknown page
        return _not_this_team(request)
    errors: dict[str, str] = {}
    chosen: list[tuple[int | None, int | None]] = []
    try:
        chosen = _posted_boards(request, page.league.boards, page.pairs)
    except ValueError as error:
        errors[str(error)] = _("Choose a player from the list.")
    if not errors:
        wanted = {pk for pair in chosen for pk in pair if pk is not None}
        players = Player.objects.in_bulk(list(wanted))
        unknown = [pk for pk in wanted if pk not in players]
        if unknown:
            errors["boards"] = _("Choose a player from the list.")
        else:
            try:
                lineup_submit(link=link, match=item.match, team=page.season_team,
                              boards=_lineup(chosen, page.pairs, players))
            except ApplicationError as error:
                errors[error.field or "boards"] = error.message
            else:
                return redirect(f"{selectors.link_path(token)}?sent=lineup#match-{match_id}")
    for view, values in zip(item.boards, chosen, strict=False):
        view.chosen = values  # the form shows what was posted, with the reason
    for field, message in errors.items():
        board = next((view for view in item.boards
                      if field in (f"board_{view.board}", f"partner_{view.board}")), None)
        if board is not None:
            board.error = message
        else:
            item.error = message
    return _render(request, context, status=400)


@require_POST
@with_captain_link
def availability_post(request: HttpRequest, link: CaptainLink, token: str) -> HttpResponse:
    """The availability grid: a ticked box is an available player for that round. Only the
    cells that change are written, all or none."""
    context = _context(request, link, token)
    page: selectors.CaptainPage = context["page"]
    changes = [(row.entry.player, cell.round_number, not cell.available)
               for row in page.grid for cell in row.cells
               if cell.editable and (f"avail_{row.entry.player.pk}_{cell.round_number}"
                                     in request.POST) != cell.available]
    try:
        with transaction.atomic():
            for player, round_number, available in changes:
                availability_set(link=link, season_team=page.season_team, player=player,
                                 round_number=round_number, available=available)
    except ApplicationError as error:
        context.update(errors={"availability": error.message})
        return _render(request, context, status=400)
    return redirect(f"{selectors.link_path(token)}?sent=availability#availability")


@require_POST
@with_captain_link
def reserve_post(request: HttpRequest, link: CaptainLink, token: str) -> HttpResponse:
    """Bring a player of the team's club in as a reserve."""
    context = _context(request, link, token)
    page: selectors.CaptainPage = context["page"]
    try:
        player_id = _number(str(request.POST.get("player", "")))
    except ValueError:
        player_id = None
    player = next((p for p in context["candidates"] if p.pk == player_id), None)
    try:
        if player is None:
            raise ApplicationError(_("Choose a player of your club from the list."),
                                   field="player")
        reserve_add(link=link, season_team=page.season_team, player=player)
    except ApplicationError as error:
        context.update(errors={"reserve": error.message})
        return _render(request, context, status=400)
    return redirect(f"{selectors.link_path(token)}?sent=reserve#reserves")


@require_POST
@with_captain_link
def captain_language(request: HttpRequest, link: CaptainLink, token: str) -> HttpResponse:
    """The page's language switch: Django's set_language, after the CSRF check."""
    post = request.POST.copy()
    post["next"] = selectors.link_path(token)
    request.POST = post  # type: ignore[assignment]
    return set_language(request)
