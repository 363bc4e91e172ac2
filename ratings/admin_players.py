"""The player admin, completed from the ratings floor: deleting a player (organizers
delete their club's unplayed players; a refusal says why in words) and merging two copies
of one person, and entering a player added from a tournament's entrants page there.
``players.admin.PlayerAdmin`` holds the rest; this subclass replaces its
registration, so that arrows keep pointing down."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.errors import ApplicationError
from core.ids import is_id
from players import permissions
from players.admin import PlayerAdmin
from players.models import Player
from ratings.player_services import (
    player_delete,
    player_delete_problem,
    player_merge,
    player_usage,
)
from tournaments.models import Tournament
from tournaments.services import entrants_register


class PlayerRecordAdmin(PlayerAdmin):
    actions = ["merge_two"]

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if getattr(request.user, "is_superuser", False):
            return True
        if obj is None:  # organizers delete one player at a time, from its page
            return False
        return permissions.can_manage_club(request.user, obj.club)

    def response_add(self, request: HttpRequest, obj: Player,
                     post_url_continue: str | None = None) -> HttpResponse:
        """A player added from a tournament's entrants page (``?enter_in=``) is entered
        there too, through the entrants service; the page then shows it (``next``)."""
        tournament_id = request.GET.get("enter_in") or ""
        if is_id(tournament_id) and not {"_addanother", "_continue", "_popup"} & set(
                request.POST):
            tournament = Tournament.objects.filter(pk=int(tournament_id)).first()
            if tournament is not None:
                try:
                    entrants_register(actor=request.user, tournament=tournament,
                                      players=[obj])
                except (ApplicationError, PermissionDenied) as error:
                    self.message_user(request, gettext(
                        "%(player)s was added but not entered in %(tournament)s: %(reason)s")
                        % {"player": obj, "tournament": tournament, "reason": error},
                        messages.ERROR)
                else:
                    self.message_user(request, gettext("%(player)s entered in %(tournament)s.")
                                      % {"player": obj, "tournament": tournament},
                                      messages.SUCCESS)
        return super().response_add(request, obj, post_url_continue)

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> Any:
        """Only the players themselves go (their ratings with them); what holds a player
        is a refusal in words, not a list of objects the user may not delete."""
        players = list(objs)
        problems = [problem for player in players
                    if (problem := player_delete_problem(player)) is not None]
        if problems:
            return [], {}, set(), problems
        return ([str(player) for player in players],
                {str(Player._meta.verbose_name_plural): len(players)}, set(), [])

    def delete_view(self, request: HttpRequest, object_id: str,
                    extra_context: Any = None) -> HttpResponse:
        player = self.get_object(request, object_id)
        allowed = player is not None and self.has_delete_permission(request, player)
        problem = player_delete_problem(player) if allowed and player is not None else None
        if problem is not None:
            self.message_user(request, gettext("%(player)s was not deleted: %(reason)s")
                              % {"player": player, "reason": problem}, messages.ERROR)
            return redirect("admin:players_player_change", player.pk)
        return super().delete_view(request, object_id, extra_context)

    def delete_model(self, request: HttpRequest, obj: Player) -> None:
        player_delete(actor=request.user, player=obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Player]) -> None:
        for player in queryset.order_by("pk"):
            player_delete(actor=request.user, player=player)

    @admin.action(description=_("Merge two selected players (one person entered twice)"))
    def merge_two(self, request: HttpRequest, queryset: QuerySet[Player]) -> Any:
        chosen = list(queryset.order_by("pk").values_list("pk", flat=True)[:3])
        if len(chosen) != 2:
            self.message_user(request, gettext("Select exactly two players to merge."),
                              messages.ERROR)
            return None
        return HttpResponseRedirect(
            reverse("admin:players_player_merge") + f"?a={chosen[0]}&b={chosen[1]}")

    def get_urls(self) -> list[Any]:
        return [path("merge/", self.admin_site.admin_view(self.merge_view),
                     name="players_player_merge"), *super().get_urls()]

    def merge_view(self, request: HttpRequest) -> HttpResponse:
        """Two players side by side (what each played, where each is entered); the
        organizer chooses the one to keep, and the merge runs through the service."""
        ids = [request.POST.get(key) or request.GET.get(key) or "" for key in ("a", "b")]
        if not all(is_id(pk) for pk in ids):
            return redirect("admin:players_player_changelist")
        players = list(Player.objects.select_related("club").filter(pk__in=ids).order_by("pk"))
        if len(players) != 2:
            return redirect("admin:players_player_changelist")
        if not all(permissions.can_manage_club(request.user, p.club) for p in players):
            raise PermissionDenied
        if request.method == "POST":
            keep_id = request.POST.get("keep")
            keep = next((p for p in players if str(p.pk) == keep_id), None)
            if keep is None:
                self.message_user(request, gettext("Choose the player to keep."),
                                  messages.ERROR)
            else:
                remove = next(p for p in players if p is not keep)
                removed_name = str(remove)
                try:
                    player_merge(actor=request.user, keep=keep, remove=remove)
                except ApplicationError as error:
                    self.message_user(request, gettext("Not merged: %(reason)s")
                                      % {"reason": error.message}, messages.ERROR)
                else:
                    self.log_change(request, keep, gettext("Merged %(player)s into this "
                                                           "player") % {"player": removed_name})
                    self.message_user(request, gettext(
                        "%(removed)s was merged into %(kept)s: the entries, games and team "
                        "memberships are now theirs, and the ratings were rebuilt.")
                        % {"removed": removed_name, "kept": keep}, messages.SUCCESS)
                    return redirect("admin:players_player_change", keep.pk)
        return TemplateResponse(request, "ratings/admin/player_merge.html", {
            **self.admin_site.each_context(request), "opts": self.model._meta,
            "title": gettext("Merge two players"),
            "rows": [(player, player_usage(player)) for player in players],
        })


admin.site.unregister(Player)
admin.site.register(Player, PlayerRecordAdmin)
