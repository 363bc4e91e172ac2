"""Thin views: the opt-out link, the calendar feeds, the embeds and the venue screen."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.csp import CSP
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.views.decorators.http import require_GET, require_http_methods

from core.errors import ApplicationError
from notices import ics, selectors, services
from players.models import Player
from tournaments import cache as tournament_cache
from tournaments.etags import etag_matches
from tournaments.models import Status, Tournament


def _tournament(club: str, slug: str) -> Tournament:
    tournament = selectors.public_tournament(club, slug)
    if tournament is None:
        raise Http404("No such tournament.")
    return tournament


# -- opt-out -----------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def opt_out(request: HttpRequest, token: str) -> HttpResponse:
    """The link in every e-mail: a button (POST, CSRF-checked) that stops the e-mails;
    no login, the signed token names the player."""
    player = services.player_from_opt_out_token(token)
    if player is None:
        return render(request, "notices/opt_out.html", {"invalid": True}, status=404)
    done = False
    if request.method == "POST":
        try:
            services.preference_opt_out(token=token, opted_out=request.POST.get("resume") != "1")
        except ApplicationError:
            return render(request, "notices/opt_out.html", {"invalid": True}, status=404)
        done = True
    pref = getattr(player, "notice_preference", None)
    return render(request, "notices/opt_out.html", {
        "player": player, "done": done, "opted_out": bool(pref and pref.opted_out)})


# -- calendars ---------------------------------------------------------------------------------


def _calendar(name: str, events: list[ics.CalendarEvent], filename: str) -> HttpResponse:
    body = ics.calendar(name, events, stamp=timezone.now())
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def tournament_calendar(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    tournament = _tournament(club, slug)
    return _calendar(tournament.name, selectors.tournament_events(tournament),
                     f"{tournament.slug}.ics")


@require_GET
def team_calendar(request: HttpRequest, club: str, slug: str, team: int) -> HttpResponse:
    tournament = _tournament(club, slug)
    events = selectors.team_events(tournament, team)
    if events is None:
        raise Http404("No such team in this tournament.")
    return _calendar(tournament.name, events, f"{tournament.slug}-team-{team}.ics")


@require_GET
def player_calendar(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=pk)
    return _calendar(player.display_name, selectors.player_events(player),
                     f"player-{player.pk}.ics")


# -- parts polled by the screen and the embeds --------------------------------------------------


def _part_body(request: HttpRequest, tournament: Tournament, kind: str, template: str,
               context: Any) -> SafeString:
    """A part's HTML, rendered once per tournament version and language for every viewer
    (a hall's screens and a club site's visitors all read the same body)."""
    body = tournament_cache.cached(
        tournament, f"notices-{get_language()}-{kind}-body",
        lambda: render_to_string(template, context(), request=request))
    return mark_safe(body)  # noqa: S308  # our own template's output


def _part(request: HttpRequest, tournament: Tournament, kind: str, template: str,
          context: Any) -> HttpResponse:
    """A part rendered for the tournament's current version: 304 while unchanged."""
    etag = tournament_cache.etag(tournament, f"notices-{get_language()}-{kind}")
    if etag_matches(request.headers.get("If-None-Match"), etag):
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = HttpResponse(_part_body(request, tournament, kind, template, context))
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def screen(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    """The hall's TV: full screen, cycling the pairings by name, the standings and the
    latest results; its part is polled."""
    tournament = _tournament(club, slug)
    return render(request, "notices/screen.html", {
        "tournament": tournament,
        "part": _part_body(request, tournament, "screen", "notices/_screen_part.html",
                           lambda: selectors.screen_context(tournament)),
        "part_url": reverse("notices:screen-part", args=[club, slug]),
        "running": tournament.status == Status.RUNNING})


@require_GET
def screen_part(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    tournament = _tournament(club, slug)
    return _part(request, tournament, "screen", "notices/_screen_part.html",
                 lambda: selectors.screen_context(tournament))


def _framed_by(response: HttpResponse, origins: list[str]) -> HttpResponse:
    """The club's origins may frame this answer (CSP frame-ancestors); none: nobody."""
    policy = dict(settings.SECURE_CSP)
    policy["frame-ancestors"] = list(origins) if origins else [CSP.NONE]
    response._csp_config = policy  # type: ignore[attr-defined]  # read by the CSP middleware
    if origins:
        response.xframe_options_exempt = True  # type: ignore[attr-defined]
    return response


def _embed_kind(kind: str) -> str:
    if kind not in selectors.EMBED_KINDS:
        raise Http404("No such embed.")
    return kind


@require_GET
def embed(request: HttpRequest, club: str, slug: str, kind: str) -> HttpResponse:
    """Standings, pairings or a bracket for a club's own site: no site header, no admin
    link; it follows the results like the public pages."""
    tournament = _tournament(club, slug)
    kind = _embed_kind(kind)
    response = render(request, "notices/embed.html", {
        "tournament": tournament,
        "part": _part_body(request, tournament, f"embed-{kind}", "notices/_embed_part.html",
                           lambda: selectors.embed_context(tournament, kind)),
        "part_url": reverse("notices:embed-part", args=[club, slug, kind]),
        "running": tournament.status == Status.RUNNING})
    response["Cache-Control"] = "no-cache"
    return _framed_by(response, selectors.embed_origins(tournament))


@require_GET
def embed_part(request: HttpRequest, club: str, slug: str, kind: str) -> HttpResponse:
    tournament = _tournament(club, slug)
    kind = _embed_kind(kind)
    response = _part(request, tournament, f"embed-{kind}", "notices/_embed_part.html",
                     lambda: selectors.embed_context(tournament, kind))
    return _framed_by(response, selectors.embed_origins(tournament))
