"""The hall's lists in the admin: printable pages of ``tournaments.lists`` read as the
organizers see them (draft rounds included), linked from the dashboard and the round page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.translation import gettext, pgettext

from players.permissions import can_manage_club
from tournaments import lists
from tournaments.models import Tournament
from tournaments.standings import get_tiebreak


def urls(model_admin: Any) -> list[URLPattern]:
    """The list pages under a tournament's admin URL."""
    wrap = model_admin.admin_site.admin_view

    def page(build: Callable[..., tuple[str, str, dict[str, Any] | None]]) -> Any:
        def view(request: HttpRequest, object_id: int, **kwargs: Any) -> HttpResponse:
            tournament = get_object_or_404(Tournament.objects.select_related("club"),
                                           pk=object_id)
            if not model_admin.has_view_permission(request, tournament):
                raise PermissionDenied
            template, title, context = build(request, tournament, **kwargs)
            if context is None:
                raise Http404("No such list of this tournament.")
            back = reverse("admin:tournaments_tournament_dashboard", args=[tournament.pk])
            return TemplateResponse(request, template, {
                "tournament": tournament, "title": title, "back_url": back,
                "list_urls": list_urls(tournament), **context})
        return wrap(view)

    return [
        path("<int:object_id>/lists/starting/", page(_starting),
             name="tournaments_tournament_starting_list"),
        path("<int:object_id>/lists/rounds/<int:number>/by-name/", page(_by_name),
             name="tournaments_tournament_by_name"),
        path("<int:object_id>/lists/standings/", page(_standings),
             name="tournaments_tournament_standings_after"),
        path("<int:object_id>/lists/wall-chart/", page(_wall_chart),
             name="tournaments_tournament_wall_chart"),
    ]


def list_urls(tournament: Tournament) -> dict[str, str]:
    args = [tournament.pk]
    return {"starting": reverse("admin:tournaments_tournament_starting_list", args=args),
            "standings": reverse("admin:tournaments_tournament_standings_after", args=args),
            "wall_chart": reverse("admin:tournaments_tournament_wall_chart", args=args)}


def by_name_url(tournament_id: int, number: int) -> str:
    return reverse("admin:tournaments_tournament_by_name", args=[tournament_id, number])


def _outsider(request: HttpRequest, tournament: Tournament) -> bool:
    """Organizers of other clubs read the lists as the public does: no draft rounds."""
    return not can_manage_club(request.user, tournament.club)


def _starting(request: HttpRequest, tournament: Tournament
              ) -> tuple[str, str, dict[str, Any] | None]:
    return ("tournaments/lists/starting.html", gettext("Starting list"),
            {"starting": lists.starting_list(tournament)})


def _by_name(request: HttpRequest, tournament: Tournament, number: int
             ) -> tuple[str, str, dict[str, Any] | None]:
    listing = lists.alphabetical_pairings(tournament, number, public=_outsider(request, tournament))
    return ("tournaments/lists/by_name.html",
            gettext("Round %(number)s by name") % {"number": number},
            None if listing is None else {"listing": listing})


def _standings(request: HttpRequest, tournament: Tournament
               ) -> tuple[str, str, dict[str, Any] | None]:
    after = request.GET.get("after", "")
    if after and not after.isdecimal():  # "²" is a digit that int() refuses
        raise Http404("No such round.")
    table = lists.standings_after(tournament, int(after) if after else None,
                                  public=_outsider(request, tournament))
    if table is None:
        return "", "", None
    return ("tournaments/lists/standings_after.html",
            gettext("Standings after round %(number)s") % {"number": table["after_round"]},
            {"table": table, "headers": [_abbreviation(key) for key in table["tiebreaks"]]})


def _wall_chart(request: HttpRequest, tournament: Tournament
                ) -> tuple[str, str, dict[str, Any] | None]:
    chart = lists.wall_chart(tournament, public=_outsider(request, tournament))
    return ("tournaments/lists/wall_chart.html", gettext("Wall chart"),
            None if chart is None else {
                "chart": chart, "orientation": "landscape",
                "letters": {"first": pgettext("moved first, one letter", "f"),
                            "second": pgettext("moved second, one letter", "s")}})


def _abbreviation(key: str) -> str:
    try:
        return gettext(get_tiebreak(key).abbreviation)
    except ValueError:
        return key
