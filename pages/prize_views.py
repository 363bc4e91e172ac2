"""The public prize list of a finished tournament (a page of its "Lists" tab) and its CSV
(``tournaments.prize_lists``). Before the tournament is finished, or without prizes, there
is no such page: the organizers preview the list in the admin."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_GET

from pages import lists
from pages.list_views import _list_page
from tournaments.models import Status, Tournament
from tournaments.prize_lists import prize_list, prize_list_csv


@require_GET
def prize_page(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    """Rendered once per tournament version and language (a 304 to a browser that has it)."""
    return _list_page(request, club, slug, lists.PRIZES, "pages/lists/prizes.html",
                      lists.prizes_page)


@require_GET
def prize_csv(request: HttpRequest, club: str, slug: str) -> HttpResponse:
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
