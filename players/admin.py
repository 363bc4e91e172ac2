"""Admin for clubs, players and teams, and the admin bases every app builds on.

Every form here validates through the same service the API calls: ``clean()`` runs the
service on the form's values inside a savepoint that is rolled back (so the checks are the
save's own, errors land next to their fields, and nothing is written), and ``save_model``
runs it for real. A save the service still refuses (someone changed the object in the
meantime) shows the error alone: nothing is saved, logged or reported as changed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.widgets import FilteredSelectMultiple
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import models, transaction
from django.db.models import Count, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.errors import ApplicationError
from core.ids import is_id
from core.json_depth import DepthCheckedJSONField
from players import permissions, services
from players.api.serializers import organizer_name
from players.models import Club, Player, Team, TeamMembership
from players.selectors import folded_name, installed_bots, players_named_alike, team_list


class ServiceRefused(Exception):  # noqa: N818 - a refusal, shown to the organizer
    """A service refused a save that the form had checked: nothing was saved."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _message(error: Exception) -> str:
    if isinstance(error, ApplicationError):
        return error.message
    if isinstance(error, ValidationError):
        return " ".join(error.messages)
    return str(error)


def saving(call: Callable[[], Any]) -> Any:
    """Run a service for a save; its refusal becomes :class:`ServiceRefused`."""
    try:
        return call()
    except (ApplicationError, ValidationError, PermissionDenied) as error:
        raise ServiceRefused(_message(error)) from None


class _Undo(Exception):  # noqa: N818 - control flow of dry_run only
    pass


def dry_run(call: Callable[[], Any]) -> None:
    """Run a service and undo everything it wrote (its after-commit work too): its checks,
    exactly as the save will run them."""
    try:
        with transaction.atomic():
            call()
            raise _Undo
    except _Undo:
        pass


def add_service_error(form: forms.BaseForm, error: Exception) -> None:
    """Put a service's error on the form: next to its field when the form has it."""
    if isinstance(error, ValidationError) and hasattr(error, "error_dict"):
        for key, errors in error.error_dict.items():
            form.add_error(key if key in form.fields else None, errors)
        return
    field = getattr(error, "field", None)
    name = field.split(".")[0] if field else None
    form.add_error(name if name in form.fields else None, _message(error))


class ServiceForm(forms.ModelForm):
    """A model form whose ``clean()`` runs :meth:`save_through_service` in :func:`dry_run`.

    ``actor`` is the signed-in user (set by :class:`ClubScopedAdmin`); subclasses write
    :meth:`save_through_service` (call the service, return the saved object)."""

    actor: Any = None

    def save_through_service(self) -> Any:
        raise NotImplementedError

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not self.errors:
            try:
                dry_run(self.save_through_service)
            except (ApplicationError, ValidationError, PermissionDenied) as error:
                add_service_error(self, error)
        return data

    def value(self, name: str, default: Any = None) -> Any:
        """A cleaned value, or ``default`` for a field the form does not show."""
        return self.cleaned_data.get(name, default) if name in self.fields else default


def return_path(request: HttpRequest) -> str | None:
    """The ``next`` parameter when it is a path on this site (never another host, a
    scheme-relative ``//`` address or a backslash trick), else None."""
    target = request.GET.get("next") or ""
    if not target.startswith("/") or target.startswith(("//", "/\\")):
        return None
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                           require_https=request.is_secure()):
        return None
    return target


class IdAdmin(admin.ModelAdmin):
    """The admin base of the project's bases: an object's id in a URL is ASCII digits
    (``core/ids.py``), so ``/admin/players/player/٣/change/`` names no object."""

    def get_object(self, request: HttpRequest, object_id: str,
                   from_field: str | None = None) -> Any:
        if from_field is None and not is_id(str(object_id)):
            return None
        return super().get_object(request, object_id, from_field)


class ClubScopedAdmin(IdAdmin):
    """Organizers see everything but change only their own clubs' objects.

    With a :class:`ServiceForm`, saves go through the form's service; a refusal at save
    time (:class:`ServiceRefused`) shows its message and nothing else. JSON fields refuse
    deep nesting before they parse it (``core.json_depth``)."""

    formfield_overrides = {models.JSONField: {"form_class": DepthCheckedJSONField}}

    def club_of(self, obj: Any) -> Club | None:
        return obj.club

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is None:
            return permissions.is_organizer(request.user) or super().has_change_permission(request)
        return permissions.can_manage_club(request.user, self.club_of(obj))

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(getattr(request.user, "is_superuser", False))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return permissions.is_organizer(request.user)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return permissions.is_organizer(request.user) or super().has_view_permission(request, obj)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return permissions.is_organizer(request.user) or super().has_module_permission(request)

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "club" and not getattr(request.user, "is_superuser", False):
            kwargs["queryset"] = permissions.managed_clubs(request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False,
                 **kwargs: Any) -> Any:
        form = super().get_form(request, obj, change=change, **kwargs)
        if issubclass(form, ServiceForm):
            form = type(form.__name__, (form,), {"actor": request.user})
        return form

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        if not isinstance(form, ServiceForm):
            super().save_model(request, obj, form, change)
            return
        saved = saving(form.save_through_service)
        obj.pk = saved.pk
        obj.refresh_from_db()

    def save_related(self, request: HttpRequest, form: Any, formsets: Any,
                     change: bool) -> None:
        if not isinstance(form, ServiceForm):  # the service wrote the relations already
            super().save_related(request, form, formsets, change)

    def changeform_view(self, request: HttpRequest, object_id: str | None = None,
                        form_url: str = "", extra_context: Any = None) -> HttpResponse:
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except ServiceRefused as refused:  # the atomic view rolled everything back
            self.message_user(request, _("Nothing was saved: %(reason)s")
                              % {"reason": refused.message}, messages.ERROR)
            return HttpResponseRedirect(request.get_full_path())


class ReadOnlyAdmin(IdAdmin):
    """Organizers and staff look; nobody edits by hand (derived data, logs): the one
    read-only admin base of the project."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return permissions.is_organizer(request.user) or super().has_view_permission(request, obj)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return permissions.is_organizer(request.user) or super().has_module_permission(request)


# -- clubs -----------------------------------------------------------------------------------


class ClubForm(ServiceForm):
    class Meta:
        model = Club
        fields = ["name", "slug", "organizers", "open_entries"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "slug" in self.fields:
            self.fields["slug"].required = False  # made from the name when left empty

    def save_through_service(self) -> Club:
        organizers = self.value("organizers")
        organizers = None if organizers is None else list(organizers)
        if self.instance.pk is None:
            return services.club_create(
                actor=self.actor, name=self.cleaned_data["name"], organizers=organizers,
                open_entries=self.cleaned_data["open_entries"], slug=self.value("slug"))
        return services.club_update(
            actor=self.actor, club=Club.objects.get(pk=self.instance.pk),
            name=self.cleaned_data["name"], organizers=organizers,
            open_entries=self.cleaned_data["open_entries"])


@admin.register(Club)
class ClubAdmin(ClubScopedAdmin):
    """Organizers rename their club and open its entries; site administrators also choose
    its organizers (the list of accounts is theirs to see). Rating settings change on the
    ratings app's page, which rebuilds the club's ratings."""

    form = ClubForm
    list_display = ["name", "slug", "player_count", "open_entries", "created_at"]
    search_fields = ["name", "slug"]
    filter_horizontal = ["organizers"]

    def club_of(self, obj: Club) -> Club:
        return obj

    def has_add_permission(self, request: HttpRequest) -> bool:
        return bool(getattr(request.user, "is_superuser", False))

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if getattr(request.user, "is_superuser", False):
            return ["name", "slug", "organizers", "open_entries", "rating_settings"]
        return ["name", "slug", "organizer_names", "open_entries", "rating_settings"]

    def get_prepopulated_fields(self, request: HttpRequest, obj: Any = None) -> dict[str, Any]:
        return {"slug": ("name",)} if obj is None else {}

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        # a new club's slug may be chosen (or is made from its name); it stays after that
        return ["organizer_names", "rating_settings", *(["slug"] if obj is not None else [])]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Club]:
        return super().get_queryset(request).annotate(n_players=Count("players"))

    @admin.display(description=_("players"), ordering="n_players")
    def player_count(self, obj: Any) -> int:
        return int(obj.n_players)

    @admin.display(description=_("organizers"))
    def organizer_names(self, obj: Club) -> str:
        return ", ".join(organizer_name(user) for user in obj.organizers.all())


# -- players ---------------------------------------------------------------------------------


class PlayerForm(ServiceForm):
    """Offers the bots installed in this host's bots directory; the players services check
    (and save) the rest."""

    installed_bot = forms.ChoiceField(
        required=False,
        label=_("installed bot"),
        help_text=_("For the kind 'Installed program': a bot installed in the bots directory "
                    "(BOTS_DIR) of this web host; every worker needs the same bots directory."),
    )

    same_person_confirmed = forms.BooleanField(
        required=False, label=_("Another person of the same name"),
        help_text=_("Tick when the club already has a player of this name and this is "
                    "someone else."))

    class Meta:
        model = Player
        fields = ["display_name", "club", "user", "is_bot", "bot_kind", "bot_settings",
                  "installed_bot", "fide_id", "birth_year", "sex", "federation", "title"]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        name, club = data.get("display_name"), data.get("club", self.instance.club)
        renamed = self.instance.pk is None or (
            folded_name(name or "") != folded_name(self.instance.display_name)
            or club != self.instance.club)
        if name and renamed and not data.get("is_bot") \
                and not data.get("same_person_confirmed"):
            alike = players_named_alike(club, name, exclude=self.instance.pk)
            if alike:
                self.add_error("display_name", gettext(
                    "%(club)s already has %(names)s: is this the same person? Use that "
                    "player (or merge the two later), or tick \"Another person of the same "
                    "name\" to save.") % {
                        "club": club, "names": ", ".join(
                            f"{p.display_name} (#{p.pk})" for p in alike)})
        return data

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "---------")] + [
            (bot.name, gettext("%(bot)s by %(author)s (plays %(games)s)")
             % {"bot": bot.name, "author": bot.author, "games": ", ".join(bot.games)})
            for bot in installed_bots()
        ]
        current = self.instance.installed_bot if self.instance.pk else ""
        if current and current not in {name for name, _ in choices}:
            choices.append((current, gettext("%(bot)s (not installed here)") % {"bot": current}))
        field = self.fields["installed_bot"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = choices

    def save_through_service(self) -> Player:
        values = {name: self.cleaned_data[name] for name in self.Meta.fields
                  if name in self.fields and name in self.cleaned_data
                  and name != "same_person_confirmed"}
        if self.instance.pk is None:
            return services.player_create(actor=self.actor,
                                          display_name=values.pop("display_name"),
                                          club=values.pop("club", None), **values)
        return services.player_update(actor=self.actor,
                                      player=Player.objects.get(pk=self.instance.pk), **values)


@admin.register(Player)
class PlayerAdmin(ClubScopedAdmin):
    """Players and bots; only site administrators link a player to a user account."""

    form = PlayerForm
    list_display = ["display_name", "club", "is_bot", "bot_kind", "installed_bot", "user",
                    "created_at"]
    list_filter = ["is_bot", "bot_kind", "club", "sex", "title"]
    search_fields = ["display_name", "club__name", "fide_id", "federation"]
    list_select_related = ["club", "user"]

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = ["display_name", "club", "is_bot", "bot_kind", "bot_settings",
                  "installed_bot", "fide_id", "birth_year", "sex", "federation", "title",
                  "same_person_confirmed"]
        if getattr(request.user, "is_superuser", False):
            return [*fields[:2], "user", *fields[2:]]
        return fields

    def get_autocomplete_fields(self, request: HttpRequest) -> list[str]:
        return ["user"] if getattr(request.user, "is_superuser", False) else []

    def response_add(self, request: HttpRequest, obj: Player,
                     post_url_continue: str | None = None) -> HttpResponse:
        """Back to the page that asked for the new player (``?next=``, a path of this
        site only), unless the organizer chose to add another or continue editing."""
        response = super().response_add(request, obj, post_url_continue)
        back = return_path(request)
        if back and not {"_addanother", "_continue", "_popup"} & set(request.POST):
            return HttpResponseRedirect(back)
        return response

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        field = super().formfield_for_foreignkey(db_field, request, **kwargs)
        if db_field.name == "club" and not getattr(request.user, "is_superuser", False):
            field.required = True
        return field


# -- teams -----------------------------------------------------------------------------------


class MembershipInline(admin.TabularInline):
    """The team's membership history, read-only: members join and leave through the
    team's form (and the services)."""

    model = TeamMembership
    fields = ["player", "joined_on", "left_on"]
    readonly_fields = ["player", "joined_on", "left_on"]
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class TeamForm(ServiceForm):
    members = forms.ModelMultipleChoiceField(
        queryset=Player.objects.select_related("club"), required=False,
        widget=FilteredSelectMultiple(_("members"), is_stacked=False), label=_("members"),
        help_text=_("The team's current members; a player removed leaves today."))

    class Meta:
        model = Team
        fields = ["name", "club"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None:
            self.fields["members"].initial = list(
                Player.objects.filter(memberships__team=self.instance,
                                      memberships__left_on__isnull=True))

    def save_through_service(self) -> Team:
        members = list(self.cleaned_data.get("members") or [])
        if self.instance.pk is None:
            return services.team_create(actor=self.actor, name=self.cleaned_data["name"],
                                        club=self.cleaned_data["club"], members=members)
        team = team_list().get(pk=self.instance.pk)
        if self.cleaned_data.get("club") not in (None, team.club):
            raise ApplicationError(gettext("A team stays in its club."), field="club")
        team = services.team_update(actor=self.actor, team=team, name=self.cleaned_data["name"])
        current = {m.player_id: m.player for m in team.memberships.all() if m.left_on is None}
        wanted = {player.pk: player for player in members}
        for pk in current.keys() - wanted.keys():
            services.team_remove_member(actor=self.actor, team=team, player=current[pk])
        for pk in [pk for pk in wanted if pk not in current]:
            services.team_add_member(actor=self.actor, team=team, player=wanted[pk])
        return team


@admin.register(Team)
class TeamAdmin(ClubScopedAdmin):
    form = TeamForm
    list_display = ["name", "club", "member_names", "created_at"]
    list_filter = ["club"]
    search_fields = ["name", "club__name", "players__display_name"]
    list_select_related = ["club"]
    inlines = [MembershipInline]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return ["club"] if obj is not None else []

    def get_queryset(self, request: HttpRequest) -> QuerySet[Team]:
        return super().get_queryset(request).prefetch_related("memberships__player")

    @admin.display(description=_("current members"))
    def member_names(self, obj: Team) -> str:
        names = [m.player.display_name for m in obj.memberships.all() if m.left_on is None]
        return ", ".join(names)
