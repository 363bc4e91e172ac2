"""The public prize list of a finished tournament and its CSV (``tournaments.prize_lists``),
each rendered once per tournament version and language and sent as a 304 to a browser
that has it. Before the tournament is finished (or without prizes) there is no such page:
the organizers preview it in the admin."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_GET

from pages import selectors
from pages.http import versioned_page
from tournaments.models import Status, Tournament
from tournaments.prize_lists import PrizeListResult, prize_list, prize_list_csv


def _finished(club: str, slug: str) -> Tournament:
    tournament = get_object_or_404(
        Tournament.objects.select_related("club").filter(status=Status.FINISHED),
        club__slug=club, slug=slug)
    return tournament


def _result(tournament: Tournament) -> PrizeListResult:
    result = prize_list(tournament)
    if not result.final or not result.groups:
        raise Http404("No prize list for this tournament.")
    return result


@require_GET
def prize_page(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    state = selectors.page_state(club, slug)
    if state is None:
        raise Http404("No such tournament.")

    def page() -> str:
        tournament = _finished(club, slug)
        result = _result(tournament)
        links = selectors.round_links(tournament)
        return render_to_string("pages/prizes.html", {
            "tournament": tournament, "tab": selectors.PRIZES, "nav": "tournaments",
            "tabs": selectors.tournament_tabs(tournament, links),
            "game_label": selectors.game_name(tournament.game), "prize_list": result,
            "title": gettext("Prizes"), "next_path": request.path})

    response = versioned_page(request, state.state, f"{get_language()}-prizes", page)
    if settings.CSRF_COOKIE_NAME not in request.COOKIES:
        get_token(request)  # the language switch of this shared page reads the cookie
    return response


@require_GET
def prize_csv(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    tournament = _finished(club, slug)
    text = prize_list_csv(tournament, _result(tournament))
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-prizes.csv"'
    return response
