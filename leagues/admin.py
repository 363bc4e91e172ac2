"""Admin for leagues: organizers of a league's host or managing clubs see and run their
leagues only. Every form and button calls a service; refusals show as messages."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.errors import ApplicationError
from leagues import admin_forms, selectors, services
from leagues.models import Division, League, Season, SeasonStatus, SeasonTeam, Side, TeamMatch
from leagues.permissions import can_manage_league, managed_leagues
from players import permissions
from players.admin import ClubScopedAdmin, ServiceForm

SEASON_COLUMNS = ["number", "name", "status", "starts_on", "ends_on"]
DIVISION_COLUMNS = ["name", "level", "system", "rounds_planned", "promote", "relegate"]
TEAM_COLUMNS = ["team", "captain", "seed", "final_rank", "movement"]


def _run(admin_: admin.ModelAdmin, request: HttpRequest, call: Callable[[], Any],
         done: str) -> None:
    try:
        call()
    except (ApplicationError, PermissionDenied) as error:
        admin_.message_user(request, getattr(error, "message", str(error)), messages.ERROR)
        return
    admin_.message_user(request, done, messages.SUCCESS)


class LeagueScopedAdmin(ClubScopedAdmin):
    """Objects of the leagues the user manages; others' ids are not found."""

    league_path = "season__league"

    def league_of(self, obj: Any) -> League:
        for part in self.league_path.split("__"):
            obj = getattr(obj, part)
        return obj  # type: ignore[no-any-return]

    def club_of(self, obj: Any) -> Any:
        return self.league_of(obj).host

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        found = super().get_queryset(request)
        if getattr(request.user, "is_superuser", False):
            return found
        return found.filter(**{f"{self.league_path}__in": managed_leagues(request.user)})

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is None:
            return permissions.is_organizer(request.user)
        return can_manage_league(request.user, self.league_of(obj))

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        model = db_field.related_model
        if not getattr(request.user, "is_superuser", False):
            leagues = managed_leagues(request.user)
            if model is League:
                kwargs["queryset"] = leagues
            elif model is Season:
                kwargs["queryset"] = Season.objects.filter(league__in=leagues)
            elif model is Division:
                kwargs["queryset"] = Division.objects.filter(season__league__in=leagues)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class LeagueForm(ServiceForm):
    class Meta:
        model = League
        fields = ["name", "slug", "host", "clubs", "game", "boards", "lineup_rule",
                  "rating_tolerance", "lineup_deadline_hours", "rated"]

    def save_through_service(self) -> Any:
        data = self.cleaned_data
        return services.league_create(
            actor=self.actor, host=data["host"], name=data["name"], slug=data["slug"],
            game=data["game"], boards=data["boards"], lineup_rule=data["lineup_rule"],
            rating_tolerance=data["rating_tolerance"],
            lineup_deadline_hours=data["lineup_deadline_hours"], rated=data["rated"],
            clubs=list(data.get("clubs") or []))


class SeasonInline(admin.TabularInline):
    model = Season
    fields = tuple(SEASON_COLUMNS)
    readonly_fields = SEASON_COLUMNS
    extra = 0
    show_change_link = True
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(League)
class LeagueAdmin(LeagueScopedAdmin):
    form = LeagueForm
    league_path = "pk"
    list_display = ["name", "host", "game", "boards", "lineup_rule"]
    inlines = [SeasonInline]

    def league_of(self, obj: Any) -> League:
        return obj  # type: ignore[no-any-return]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        found = admin.ModelAdmin.get_queryset(self, request)
        if getattr(request.user, "is_superuser", False):
            return found
        return found.filter(pk__in=managed_leagues(request.user))

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return LeagueForm.Meta.fields if obj is not None else []

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "host" and not getattr(request.user, "is_superuser", False):
            kwargs["queryset"] = permissions.managed_clubs(request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class SeasonForm(ServiceForm):
    class Meta:
        model = Season
        fields = ["league", "name", "starts_on", "ends_on"]

    def save_through_service(self) -> Any:
        data = self.cleaned_data
        return services.season_create(actor=self.actor, league=data["league"],
                                      name=data["name"], starts_on=data.get("starts_on"),
                                      ends_on=data.get("ends_on"))


class DivisionInline(admin.TabularInline):
    model = Division
    fields = tuple(DIVISION_COLUMNS)
    readonly_fields = DIVISION_COLUMNS
    extra = 0
    show_change_link = True
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Season)
class SeasonAdmin(LeagueScopedAdmin):
    form = SeasonForm
    league_path = "league"
    list_display = ["__str__", "number", "status", "starts_on", "ends_on"]
    list_filter = ["status"]
    inlines = [DivisionInline]
    actions = ["start_seasons", "finish_seasons", "next_seasons"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return [*SeasonForm.Meta.fields, "number", "status"] if obj is not None else []

    @admin.action(description=_("Start the season (board tournaments, first rounds)"))
    def start_seasons(self, request: HttpRequest, queryset: QuerySet[Season]) -> None:
        for season in queryset:
            _run(self, request, partial(services.season_start, actor=request.user,
                                        season=season),
                 gettext("%(season)s started.") % {"season": season})

    @admin.action(description=_("Finish the season (final ranks, promotion, relegation)"))
    def finish_seasons(self, request: HttpRequest, queryset: QuerySet[Season]) -> None:
        for season in queryset:
            _run(self, request, partial(services.season_finish, actor=request.user,
                                        season=season),
                 gettext("%(season)s finished.") % {"season": season})

    @admin.action(description=_("Make the next season (teams moved up and down)"))
    def next_seasons(self, request: HttpRequest, queryset: QuerySet[Season]) -> None:
        for season in queryset:
            name = gettext("Season %(number)d") % {"number": season.number + 1}
            _run(self, request, partial(services.season_next, actor=request.user,
                                        season=season, name=name),
                gettext("%(name)s made.") % {"name": name})


class DivisionForm(ServiceForm):
    class Meta:
        model = Division
        fields = ["season", "name", "level", "system", "rounds_planned", "promote", "relegate"]

    def save_through_service(self) -> Any:
        data = self.cleaned_data
        return services.division_create(
            actor=self.actor, season=data["season"], name=data["name"], level=data["level"],
            system=data["system"], rounds_planned=data.get("rounds_planned"),
            promote=data["promote"], relegate=data["relegate"])


class SeasonTeamInline(admin.TabularInline):
    model = SeasonTeam
    fields = tuple(TEAM_COLUMNS)
    readonly_fields = TEAM_COLUMNS
    extra = 0
    show_change_link = True
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Division)
class DivisionAdmin(LeagueScopedAdmin):
    form = DivisionForm
    list_display = ["__str__", "level", "system"]
    inlines = [SeasonTeamInline]
    actions = ["pair_next_round"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is None:
            return []
        return [*list(DivisionForm.Meta.fields), "board_tournament", "season_table"]

    @admin.display(description=_("board tournament"))
    def board_tournament(self, obj: Division) -> str:
        if obj.tournament_id is None:
            return "-"
        return format_html('<a href="{}">{}</a>', reverse(
            "admin:tournaments_tournament_change", args=[obj.tournament_id]), obj.tournament)

    @admin.display(description=_("season table"))
    def season_table(self, obj: Division) -> str:
        rows = selectors.season_table(obj)
        return format_html(
            "<table><tr><th>#</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr>{}</table>",
            gettext("team"), gettext("played"), gettext("match points"),
            gettext("board points"),
            format_html_join("", "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
                             "</tr>", ((r.rank, r.team, r.played, r.match_points,
                                        r.board_points) for r in rows)))

    @admin.action(description=_("Pair the next round (Swiss, knockout)"))
    def pair_next_round(self, request: HttpRequest, queryset: QuerySet[Division]) -> None:
        for division in queryset:
            _run(self, request, partial(services.division_pair_next, actor=request.user,
                                        division=division),
                gettext("%(division)s: next round paired.") % {"division": division})


class SeasonTeamForm(ServiceForm):
    class Meta:
        model = SeasonTeam
        fields = ["division", "team", "captain", "seed"]

    def save_through_service(self) -> Any:
        data = self.cleaned_data
        return services.team_enter(actor=self.actor, division=data["division"],
                                   team=data["team"], captain=data.get("captain"),
                                   seed=data.get("seed"))


@admin.register(SeasonTeam)
class SeasonTeamAdmin(LeagueScopedAdmin):
    form = SeasonTeamForm
    list_display = ["__str__", "division", "captain", "final_rank", "movement"]
    actions = ["issue_captain_links"]
    raw_id_fields = ["team", "captain"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is None:
            return []
        return [*SeasonTeamForm.Meta.fields, "roster"]

    def get_urls(self) -> list[Any]:
        return [path("<int:object_id>/roster/", self.admin_site.admin_view(
            partial(admin_forms.roster_view, self)), name="leagues_seasonteam_roster"),
            *super().get_urls()]

    @admin.display(description=_("roster"))
    def roster(self, obj: SeasonTeam) -> str:
        return format_html('{} <a class="button" href="{}">{}</a>', format_html_join(
            ", ", "{}. {}{}", ((e.order, e.player, " (R)" if e.reserve else "")
                               for e in obj.roster.select_related("player"))),
            reverse("admin:leagues_seasonteam_roster", args=[obj.pk]),
            gettext("Edit the roster") if obj.season.status == SeasonStatus.PLANNING
            else gettext("Add a reserve"))

    @admin.action(description=_("Captain links (issue, re-issue, revoke)"))
    def issue_captain_links(self, request: HttpRequest,
                            queryset: QuerySet[SeasonTeam]) -> HttpResponse | None:
        """To the season's Captain links page, which shows a new token once on the page that
        answers (a token never goes into a message, which the messages cookie would keep)."""
        seasons = set(queryset.values_list("season_id", flat=True))
        if len(seasons) != 1:
            self.message_user(request, gettext("Choose teams of one season."),
                              messages.WARNING)
            return None
        return HttpResponseRedirect(reverse("admin:leagues_season_captain_links",
                                            args=[seasons.pop()]))


class TeamMatchForm(ServiceForm):
    class Meta:
        model = TeamMatch
        fields = ["starts_at", "venue", "lineup_deadline"]

    def save_through_service(self) -> Any:
        data = self.cleaned_data
        return services.match_schedule(actor=self.actor, match=self.instance,
                                       starts_at=data["starts_at"], venue=data.get("venue", ""),
                                       lineup_deadline=data.get("lineup_deadline"))


@admin.register(TeamMatch)
class TeamMatchAdmin(LeagueScopedAdmin):
    form = TeamMatchForm
    league_path = "division__season__league"
    list_display = ["__str__", "division", "starts_at", "venue", "forfeit"]
    list_filter = ["round_number"]
    readonly_fields = ["division", "round_number", "leg", "home", "away", "forfeit",
                       "boards_played", "lineups"]
    actions = ["pair_boards", "forfeit_home", "forfeit_away", "forfeit_both"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def get_urls(self) -> list[Any]:
        return [path("<int:object_id>/lineup/", self.admin_site.admin_view(
            partial(admin_forms.late_lineup_view, self)), name="leagues_teammatch_lineup"),
            *super().get_urls()]

    @admin.display(description=_("lineups"))
    def lineups(self, obj: TeamMatch) -> str:
        done = format_html_join(", ", "{}{}", (
            (lineup.team, format_html(" ({})", gettext("late")) if lineup.late else "")
            for lineup in obj.lineups.select_related("team__team")))
        if obj.away is None or obj.boards.exists():
            return done
        return format_html('{} <a class="button" href="{}">{}</a>', done,
                           reverse("admin:leagues_teammatch_lineup", args=[obj.pk]),
                           gettext("Enter a lineup"))

    @admin.display(description=_("boards"))
    def boards_played(self, obj: TeamMatch) -> str:
        if not obj.boards.exists():  # a lineup stays unseen until both are in, here too
            return "-"
        view = selectors.match_result(obj)
        return format_html_join("", "<div>{}. {} - {} {}</div>", (
            (board.board, board.home_player or "-", board.away_player or "-",
             format_html('<a href="{}">{}</a>', reverse("admin:tournaments_pairing_change",
                                                        args=[board.pairing.pk]),
                         board.pairing.get_outcome_display())
             if board.pairing is not None else board.empty)
            for board in view.boards))

    def _forfeit(self, request: HttpRequest, queryset: QuerySet[TeamMatch], side: str) -> None:
        for match in queryset:
            _run(self, request, partial(services.match_forfeit, actor=request.user,
                                        match=match, side=side),
                gettext("%(match)s: forfeited.") % {"match": match})

    @admin.action(description=_("Pair the boards (a missing lineup after the deadline "
                                "forfeits the match)"))
    def pair_boards(self, request: HttpRequest, queryset: QuerySet[TeamMatch]) -> None:
        for match in queryset:
            _run(self, request, partial(services.match_boards_pair, actor=request.user,
                                        match=match),
                gettext("%(match)s: boards paired.") % {"match": match})

    @admin.action(description=_("Whole-match forfeit by the home team"))
    def forfeit_home(self, request: HttpRequest, queryset: QuerySet[TeamMatch]) -> None:
        self._forfeit(request, queryset, Side.HOME)

    @admin.action(description=_("Whole-match forfeit by the away team"))
    def forfeit_away(self, request: HttpRequest, queryset: QuerySet[TeamMatch]) -> None:
        self._forfeit(request, queryset, Side.AWAY)

    @admin.action(description=_("Whole-match forfeit by both teams"))
    def forfeit_both(self, request: HttpRequest, queryset: QuerySet[TeamMatch]) -> None:
        self._forfeit(request, queryset, Side.BOTH)



from leagues import admin_captains  # noqa: E402,F401  (the captain links page; keep last)
