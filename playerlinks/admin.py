"""The director's side of private links and check-in, on the tournament admin: the links
page (issue the missing ones in one click, revoke or re-issue one, its QR code), the
printable sheet of link cards, and the check-in page (open, close, who is missing, check
someone in, undo). This subclass replaces the tournament's registration, so that arrows
keep pointing down (as matches/admin_tournaments.py does)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from core.errors import ApplicationError
from matches.admin_tournaments import TournamentRunAdmin
from playerlinks import checkins, selectors, services
from playerlinks.lookup import link_token
from playerlinks.models import CheckIn, CheckInWindow, EntrantLink
from players.permissions import can_manage_club
from tournaments.admin import run_service
from tournaments.models import Tournament

#: The longest check-in window the form offers to plan (minutes).
MAX_WINDOW_MINUTES = 24 * 60


class TournamentPlayersAdmin(TournamentRunAdmin):
    def links(self, tournament: Tournament) -> dict[str, str]:
        return {
            **super().links(tournament),
            "player_links": reverse("admin:tournaments_tournament_player_links",
                                    args=[tournament.pk]),
            "link_cards": reverse("admin:tournaments_tournament_link_cards",
                                  args=[tournament.pk]),
            "check_in": reverse("admin:tournaments_tournament_check_in", args=[tournament.pk]),
            "kiosk": reverse("playerlinks:kiosk", args=[tournament.pk]),
        }

    def get_urls(self) -> list[Any]:
        wrap = self.admin_site.admin_view
        return [
            path("<int:object_id>/links/", wrap(self.player_links_view),
                 name="tournaments_tournament_player_links"),
            path("<int:object_id>/links/cards/", wrap(self.link_cards_view),
                 name="tournaments_tournament_link_cards"),
            path("<int:object_id>/links/<int:link_id>/qr.svg", wrap(self.link_qr_view),
                 name="tournaments_tournament_link_qr"),
            path("<int:object_id>/check-in/", wrap(self.check_in_view),
                 name="tournaments_tournament_check_in"),
            *super().get_urls(),
        ]

    def _managed(self, request: HttpRequest, object_id: int) -> Tournament:
        tournament = self._tournament(request, object_id)
        if not can_manage_club(request.user, tournament.club):
            raise PermissionDenied  # links are the organizers' only
        return tournament

    def _link(self, tournament: Tournament, link_id: Any) -> EntrantLink:
        return get_object_or_404(EntrantLink.objects.select_related("entrant__tournament"),
                                 pk=_number(link_id), entrant__tournament=tournament)

    def _base_url(self, request: HttpRequest) -> str:
        return request.build_absolute_uri("/").rstrip("/")

    # -- links ---------------------------------------------------------------------------

    def player_links_view(self, request: HttpRequest, object_id: int) -> HttpResponse:
        tournament = self._managed(request, object_id)
        fresh = None
        if request.method == "POST":
            action = request.POST.get("action", "")
            if action == "issue_missing":
                made: list[int] = []
                if run_service(self, request, lambda: made.append(services.links_issue_missing(
                        actor=request.user, tournament=tournament)), ""):
                    self.message_user(request, ngettext(
                        "%(count)d link issued.", "%(count)d links issued.", made[0])
                        % {"count": made[0]}, messages.SUCCESS)
                return redirect(request.path)
            if action in ("revoke", "reissue"):
                link = self._link(tournament, request.POST.get("link"))
                if action == "revoke":
                    run_service(self, request, lambda: services.link_revoke(
                        actor=request.user, link=link), gettext(
                        "The link of %(name)s is revoked: it stopped working.")
                        % {"name": link.player.display_name})
                    return redirect(request.path)
                try:
                    new, token = services.link_reissue(actor=request.user, link=link)
                except (ApplicationError, PermissionDenied) as error:
                    self.message_user(request, str(error), messages.ERROR)
                    return redirect(request.path)
                url = selectors.link_url(token, self._base_url(request))
                fresh = {"link": new, "url": url, "qr": selectors.qr_svg(url)}
                # The page answers the POST itself: the new address is shown once, never
                # kept in a message cookie.
        rows = [(link, selectors.link_url(link_token(link), self._base_url(request)))
                for link in selectors.live_links(tournament)]
        missing = sum(len(services.link_holders(entrant))
                      for entrant in tournament.entrants.select_related("player", "team"))
        response = self._page(request, tournament, gettext("Private links"),
                              "playerlinks/admin/links.html", {
                                  "rows": rows, "fresh": fresh,
                                  "missing": max(0, missing - len(rows))})
        # Its forms post back here (a no-referrer page would send "Origin: null"); the
        # links it shows open with rel="noreferrer".
        response["Cache-Control"] = "private, no-store"
        return response

    def link_cards_view(self, request: HttpRequest, object_id: int) -> HttpResponse:
        """A printable sheet: a card per live link (name, starting number, URL, QR)."""
        tournament = self._managed(request, object_id)
        cards = selectors.link_cards(tournament, self._base_url(request))
        response = TemplateResponse(request, "playerlinks/admin/cards.html", {
            "tournament": tournament, "cards": cards})
        response["Referrer-Policy"] = "no-referrer"
        response["Cache-Control"] = "private, no-store"
        return response

    def link_qr_view(self, request: HttpRequest, object_id: int, link_id: int) -> HttpResponse:
        tournament = self._managed(request, object_id)
        link = self._link(tournament, link_id)
        if not link.is_live:
            raise PermissionDenied
        url = selectors.link_url(link_token(link), self._base_url(request))
        response = HttpResponse(selectors.qr_svg(url, scale=8, sized=True),
                                content_type="image/svg+xml")
        response["Referrer-Policy"] = "no-referrer"
        response["Cache-Control"] = "private, no-store"
        return response

    # -- check-in ------------------------------------------------------------------------

    def check_in_view(self, request: HttpRequest, object_id: int) -> HttpResponse:
        tournament = self._managed(request, object_id)
        if request.method == "POST":
            self._check_in_action(request, tournament, request.POST.get("action", ""))
            return redirect(request.path)
        board = selectors.check_in_board(tournament)
        return self._page(request, tournament, gettext("Check-in"),
                          "playerlinks/admin/check_in.html", {
                              "board": board, "settings": selectors.settings_of(tournament),
                              "next_round": selectors.next_round_number(tournament),
                              "windows": CheckInWindow.objects.filter(tournament=tournament),
                          })

    def _check_in_action(self, request: HttpRequest, tournament: Tournament,
                         action: str) -> None:
        user = request.user
        if action == "settings":
            every = request.POST.get("check_in_every_round") == "on"
            run_service(self, request, lambda: checkins.link_settings_update(
                actor=user, tournament=tournament, check_in_every_round=every),
                gettext("Saved."))
        elif action == "open":
            minutes_text = (request.POST.get("minutes") or "").strip()
            try:
                minutes = int(minutes_text) if minutes_text else None
            except ValueError:
                minutes = -1
            if minutes is not None and not 1 <= minutes <= MAX_WINDOW_MINUTES:
                self.message_user(request, gettext(
                    "Minutes until closing: a whole number from 1 to %(max)d.")
                    % {"max": MAX_WINDOW_MINUTES}, messages.ERROR)
                return
            closes = timezone.now() + timedelta(minutes=minutes) if minutes else None
            run_service(self, request, lambda: checkins.check_in_window_open(
                actor=user, tournament=tournament, closes_at=closes),
                gettext("Check-in is open."))
        elif action == "close":
            window = selectors.open_window(tournament)
            if window is None:
                self.message_user(request, gettext("Check-in is not open."), messages.ERROR)
                return
            absent: list[Any] = []
            if run_service(self, request, lambda: absent.extend(checkins.check_in_window_close(
                    actor=user, window=window)), ""):
                self.message_user(request, ngettext(
                    "Check-in is closed: %(count)d entrant is absent for round %(round)d.",
                    "Check-in is closed: %(count)d entrants are absent for round %(round)d.",
                    len(absent)) % {"count": len(absent), "round": window.round_number},
                    messages.SUCCESS)
        elif action == "check_in":
            entrant = get_object_or_404(tournament.entrants.select_related("player", "team"),
                                        pk=_number(request.POST.get("entrant")))
            run_service(self, request, lambda: checkins.check_in_by_director(
                actor=user, entrant=entrant), gettext("%(name)s is checked in.")
                % {"name": entrant.name})
        elif action == "undo":
            check_in = get_object_or_404(
                CheckIn.objects.select_related("entrant__tournament"),
                pk=_number(request.POST.get("check_in")), entrant__tournament=tournament)
            run_service(self, request, lambda: checkins.check_in_undo(
                actor=user, check_in=check_in), gettext("The check-in is taken back."))
        else:
            self.message_user(request, gettext("Unknown action."), messages.ERROR)


def _number(text: Any) -> int:
    """An id from a form (0, which finds nothing, for anything else: a word, a NUL byte,
    a number too large for the database)."""
    value = str(text or "")
    if not value.isdigit() or not value.isascii() or len(value) > 18:
        return 0
    return int(value)


admin.site.unregister(Tournament)
admin.site.register(Tournament, TournamentPlayersAdmin)
