"""The public list pages of a tournament (``pages.lists``): each rendered once per
tournament version and language, sent as a 304 to a browser that has it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from pages import lists, selectors
from pages.http import versioned_page
from tournaments.models import Status, Tournament
from tournaments.prize_lists import prize_list, prize_list_csv


def _list_page(request: HttpRequest, club: str, slug: str, kind: str, template: str,
               build: Callable[[Tournament], dict[str, Any] | None]) -> HttpResponse:
    state = selectors.page_state(club, slug)
    if state is None:
        raise Http404("No such tournament.")
    tournament = None

    def page() -> str:
        nonlocal tournament
        tournament = get_object_or_404(
            Tournament.objects.select_related("club").exclude(status=Status.DRAFT),
            club__slug=club, slug=slug)
        context = build(tournament)
        if context is None:
            raise Http404("No such list of this tournament.")
        return render_to_string(template, {**context, "next_path": request.path})

    response = versioned_page(request, state.state, f"{get_language()}-list-{kind}", page)
    if settings.CSRF_COOKIE_NAME not in request.COOKIES:
        get_token(request)  # the language switch of this shared page reads the cookie
    return response


@require_GET
def starting_list(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    return _list_page(request, club, slug, lists.STARTING, "pages/lists/starting.html",
                      lists.starting_page)


@require_GET
def by_name(request: HttpRequest, club: str, slug: str, number: int) -> HttpResponse:
    return _list_page(request, club, slug, f"{lists.BY_NAME}-{number}",
                      "pages/lists/by_name.html", lambda t: lists.by_name_page(t, number))


@require_GET
def standings_after(request: HttpRequest, club: str, slug: str,
                    number: int | None = None) -> HttpResponse:
    after = "last" if number is None else number
    return _list_page(request, club, slug, f"{lists.STANDINGS_AFTER}-{after}",
                      "pages/lists/standings_after.html",
                      lambda t: lists.standings_after_page(t, number))


@require_GET
def wall_chart(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    return _list_page(request, club, slug, lists.WALL_CHART, "pages/lists/wall_chart.html",
                      lists.wall_chart_page)


@require_GET
def player_card(request: HttpRequest, club: str, slug: str, entrant: int) -> HttpResponse:
    return _list_page(request, club, slug, f"{lists.CARD}-{entrant}",
                      "pages/lists/card.html", lambda t: lists.card_page(t, entrant))


@require_GET
def prizes(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    """The prize list of a finished tournament (none before, or without prizes: the
    organizers preview it in the admin)."""
    return _list_page(request, club, slug, lists.PRIZES, "pages/lists/prizes.html",
                      lists.prizes_page)


@require_GET
def prizes_csv(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    """The prize list as CSV (``tournaments.prize_lists.prize_list_csv``), once final."""
    tournament = get_object_or_404(
        Tournament.objects.select_related("club").filter(status=Status.FINISHED),
        club__slug=club, slug=slug)
    result = prize_list(tournament)
    if not result.final or not result.groups:
        raise Http404("No prize list for this tournament.")
    response = HttpResponse(prize_list_csv(tournament, result),
                            content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-prizes.csv"'
    return response
