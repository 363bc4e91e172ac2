"""The league manager's "Captain links" page, per season (one division at a time if asked):
each team's captain and live link (copyable), when it was last used, and the buttons that
issue, re-issue or revoke it through leagues.services. Reached from the season's change
page, from the season list's action, or at ``/admin/leagues/season/<id>/captain-links/``.

It completes whatever admin leagues/admin.py registers for seasons (a subclass replaces
that registration, as playerlinks/admin.py does for tournaments).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.options import ActionLocation
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import gettext, gettext_lazy

from core.errors import ApplicationError
from leagues import captain_selectors as selectors
from leagues.models import Season, SeasonTeam
from leagues.permissions import can_manage_league
from leagues.services import captain_link_issue, captain_link_revoke


def _number(text: Any) -> int:
    """An id from a form (0, which finds nothing, for anything else)."""
    value = str(text or "")
    if not value.isdigit() or not value.isascii() or len(value) > 18:
        return 0
    return int(value)


def captain_links_url(season: Season) -> str:
    return reverse("admin:leagues_season_captain_links", args=[season.pk])


class CaptainLinksMixin:
    """The captain links page and action, mixed into the season admin."""

    admin_site: admin.AdminSite

    def get_urls(self) -> list[Any]:
        wrap = self.admin_site.admin_view
        return [
            path("<int:object_id>/captain-links/", wrap(self.captain_links_view),
                 name="leagues_season_captain_links"),
            *super().get_urls(),  # type: ignore[misc]
        ]

    def get_actions(self, request: HttpRequest,
                    action_location: ActionLocation = ActionLocation.CHANGE_LIST
                    ) -> dict[str, Any]:
        actions: dict[str, Any] = super().get_actions(  # type: ignore[misc]
            request, action_location)
        if action_location == ActionLocation.CHANGE_LIST and (
                action := self.get_action(open_captain_links)) is not None:  # type: ignore[attr-defined]
            actions[action.name] = action
        return actions

    def change_view(self, request: HttpRequest, object_id: str, form_url: str = "",
                    extra_context: dict[str, Any] | None = None) -> HttpResponse:
        extra = {**(extra_context or {}),
                 "captain_links_url": reverse("admin:leagues_season_captain_links",
                                              args=[_number(object_id)])}
        return super().change_view(  # type: ignore[misc,no-any-return]
            request, object_id, form_url, extra_context=extra)

    def captain_links_view(self, request: HttpRequest, object_id: int) -> HttpResponse:
        season = get_object_or_404(Season.objects.select_related("league"), pk=object_id)
        if not can_manage_league(request.user, season.league):
            raise PermissionDenied
        division_id = _number(request.GET.get("division"))
        fresh = None
        if request.method == "POST":
            fresh = self._captain_link_action(request, season)
            if fresh is None:
                return redirect(request.get_full_path())
        base = request.build_absolute_uri("/").rstrip("/")
        board = selectors.captain_links_board(season, base, division=division_id or None)
        response = TemplateResponse(request, "leagues/admin/captain_links.html", {
            **self.admin_site.each_context(request), "opts": Season._meta,
            "title": gettext("Captain links: %(season)s") % {"season": season},
            "season": season, "board": board, "fresh": fresh, "division_id": division_id,
            "divisions": season.divisions.all(),
        })
        # The links it shows open with rel="noreferrer"; nothing of it is kept anywhere.
        response["Cache-Control"] = "private, no-store"
        return response

    def _captain_link_action(self, request: HttpRequest,
                             season: Season) -> dict[str, Any] | None:
        """Issue, re-issue or revoke one team's link; a new link is returned to be shown
        once on the page that answers the POST (never kept in a message cookie)."""
        action = request.POST.get("action", "")
        team = get_object_or_404(SeasonTeam.objects.select_related("team", "captain"),
                                 pk=_number(request.POST.get("season_team")), season=season)
        try:
            if action in ("issue", "reissue"):
                link, token = captain_link_issue(actor=request.user, season_team=team)
                base = request.build_absolute_uri("/").rstrip("/")
                return {"team": team, "link": link,
                        "url": base + selectors.link_path(token)}
            if action == "revoke":
                live = selectors.live_captain_link(team)
                if live is None:
                    raise ApplicationError(gettext("This team has no live link."),
                                           field="season_team")
                captain_link_revoke(actor=request.user, link=live)
                self.message_user(  # type: ignore[attr-defined]
                    request, gettext("The link of %(team)s is revoked: it stopped working.")
                    % {"team": team}, messages.SUCCESS)
                return None
            raise ApplicationError(gettext("Unknown action."), field="action")
        except (ApplicationError, PermissionDenied) as error:
            self.message_user(request, str(error), messages.ERROR)  # type: ignore[attr-defined]
            return None


@admin.action(description=gettext_lazy("Captain links"))
def open_captain_links(modeladmin: admin.ModelAdmin[Season], request: HttpRequest,
                       queryset: QuerySet[Season]) -> HttpResponse | None:
    """The season list's action: the captain links page of the one season selected."""
    seasons = list(queryset[:2])
    if len(seasons) != 1:
        modeladmin.message_user(request, gettext("Choose one season."), messages.WARNING)
        return None
    return HttpResponseRedirect(captain_links_url(seasons[0]))


def _install() -> None:
    site = admin.site
    base: type[admin.ModelAdmin[Any]] = (type(site.get_model_admin(Season))
                                          if site.is_registered(Season) else admin.ModelAdmin)

    class SeasonCaptainLinksAdmin(CaptainLinksMixin, base):  # type: ignore[valid-type,misc]
        pass

    if site.is_registered(Season):
        site.unregister(Season)
    site.register(Season, SeasonCaptainLinksAdmin)


_install()
