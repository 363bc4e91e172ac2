"""Admin for tournament directors: a tournament's settings (proper fields, no JSON), its
dashboard (status, rounds, the one next step, links) and its entrants page (many at once
from the club's players or an uploaded list, late entries, withdrawals, byes, forbidden
pairs). Every write goes through the services; rounds, boards and games are in
``matches.admin``, which also adds the TRF import and the clock advice (a floor above)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.functional import Promise
from django.utils.html import format_html
from django.utils.text import format_lazy
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from core.errors import ApplicationError
from games.engines import ENGINE_NAMES, game_facts, get_engine
from games.i18n import N_
from players.admin import ClubScopedAdmin
from players.models import Player, Team
from players.permissions import can_manage_club
from tournaments import admin_lists, admin_pairing_jobs, admin_prizes, history, selectors, services
from tournaments.csv_cells import csv_text
from tournaments.dashboard import tournament_overview
from tournaments.entry_lists import COLUMNS as ENTRY_COLUMNS
from tournaments.entry_lists import (
    EntryListError,
    read_entry_list,
    read_pasted_names,
    read_upload,
)
from tournaments.models import (
    REQUESTABLE_BYES,
    Entrant,
    EntrantKind,
    ForbiddenPairing,
    RequestedBye,
    Status,
    Tournament,
)
from tournaments.prize_lists import fee_sheet, fee_totals
from tournaments.services.entrants import (
    LATE_BYES,
    entry_list_match,
    registration_candidates,
)
from tournaments.services.pairing_jobs import pairing_job_request, pairs_in_background
from tournaments.services.tournaments import (
    EDITABLE_FIELDS,
    default_tiebreaks,
    individual_formats,
    validate_tournament,
)
from tournaments.standings import REGISTRY
from tournaments.systems import SYSTEMS
from tournaments.texts import (
    core_error_message,
    format_text,
    game_label,
    game_options_text,
    tiebreak_name,
)

TIEBREAK_SLOTS = 6  # the form's tiebreak_1 .. tiebreak_6
#: Game options shown as fields: option name -> form field.
OPTION_FIELDS = {"rows": "board_rows", "cols": "board_cols", "deck": "deck",
                 "team_size": "team_size"}
#: The model's fields on the form (the others are assembled from the form's own fields).
MODEL_FIELDS = ["club", "name", "game", "format", "rounds_planned", "rated", "clock",
                "points_win", "points_draw", "points_loss", "points_bye", "third_place_match",
                "grand_final_reset", "first_colour", "baku_acceleration", "starts_on", "ends_on",
                "chief_arbiter", "release_pairings_at_once"]
MATCH_KINDS = {"single": _("Single game"), "best_of": _("Best of N"),
               "first_to": _("First to N wins"), "fixed": _("N games (fixed)")}


def run_service(admin_: admin.ModelAdmin, request: HttpRequest, call: Callable[[], Any],
                done: str) -> bool:
    """Call a service; report its user error (or refusal) as an admin message."""
    try:
        call()
    except (ApplicationError, PermissionDenied) as error:
        admin_.message_user(request, str(error), messages.ERROR)
        return False
    if done:
        admin_.message_user(request, done, messages.SUCCESS)
    return True


def _options_of(game: str) -> list[str]:
    """The form fields of ``game``'s options."""
    return [OPTION_FIELDS[key] for key in get_engine(game).default_options if key in OPTION_FIELDS]


def _tiebreak_choices() -> list[tuple[str, str]]:
    return [("", "---------")] + [
        (key, f"{cls.abbreviation}: {tiebreak_name(cls)}") for key, cls in REGISTRY.items()]


def _defaults_json() -> str:
    return json.dumps({name: list(system.default_tiebreaks) for name, system in SYSTEMS.items()})


def _options_json() -> str:
    return json.dumps({game: _options_of(game) for game in ENGINE_NAMES})


def _tiebreak_field(index: int) -> forms.ChoiceField:
    field = forms.ChoiceField(
        choices=_tiebreak_choices, required=False,
        label=format_lazy(_("Tie-break {index}"), index=index),
        help_text="" if index > 1 else _(
            "In order: the first breaks ties, the next what is still tied. Left empty on a "
            "new tournament: FIDE's recommended set for its format (filled in as you choose "
            "the format)."))
    if index == 1:
        field.widget.attrs["data-defaults"] = _defaults_json()
    return field


class TournamentForm(forms.ModelForm):
    """The settings as fields: game options, match format and tie-breaks are assembled
    into the service's values, and the service checks them (errors show by their field)."""

    board_rows = forms.IntegerField(
        required=False, min_value=2, max_value=12, label=_("Board rows"),
        help_text=_("Kazambi games: rows of the board (2 to 12; default 7)."))
    board_cols = forms.IntegerField(
        required=False, min_value=2, max_value=12, label=_("Board columns"),
        help_text=_("Kazambi games: columns of the board (2 to 12; default 8)."))
    deck = forms.TypedChoiceField(
        required=False, coerce=int, empty_value=None, label=_("Deck"),
        choices=[("", _("default (36)")), (36, _("36 cards (6 to ace)")),
                 (52, _("52 cards (2 to ace)"))],
        help_text=_("Stolbiki: 9 columns with 36 cards, 13 with 52."))
    team_size = forms.TypedChoiceField(
        required=False, coerce=int, empty_value=None, label=_("Team size"),
        choices=[("", _("default (2)")), (1, _("1 v 1 (two piles each)")), (2, _("2 v 2")),
                 (3, _("3 v 3"))], help_text=_("Stolbiki: players per team."))
    match_kind = forms.ChoiceField(
        choices=list(MATCH_KINDS.items()), initial="single", label=_("Match format"),
        help_text=_("How many games make a match between two entrants."))
    match_games = forms.IntegerField(
        min_value=1, max_value=99, initial=1, label=_("N (games)"),
        help_text=_("Best of N: an odd number (bo3 ends at 2 wins). First to N: the wins "
                    "needed (draws do not count). Fixed: the games played."))
    match_cap = forms.IntegerField(
        required=False, min_value=1, max_value=99, label=_("Cap (first to N)"),
        help_text=_("First to N only: the most games played; then more wins decides, equal "
                    "wins is a drawn match (Kugamai: 9)."))
    match_duplicate = forms.BooleanField(
        required=False, label=_("Duplicate deals"),
        help_text=_("Each deal is played twice with the roles swapped (N must be even)."))
    tiebreak_1 = _tiebreak_field(1)
    tiebreak_2 = _tiebreak_field(2)
    tiebreak_3 = _tiebreak_field(3)
    tiebreak_4 = _tiebreak_field(4)
    tiebreak_5 = _tiebreak_field(5)
    tiebreak_6 = _tiebreak_field(6)

    class Meta:
        model = Tournament
        fields = MODEL_FIELDS
        help_texts = {
            "rounds_planned": _("A Swiss needs it; a round robin and a knockout know theirs."),
            "clock": _('Base minutes + increment seconds, e.g. "15+10", "25 d5" (delay) or '
                       "empty for no clock. Each round may override it; the round page "
                       "advises a setting that fits its time slot."),
            "points_bye": _("A Swiss pairing-allocated bye (a requested half-point bye scores "
                            "a draw)."),
            "rated": _("The games count for the club's ratings."),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["game"].widget.attrs["data-options"] = _options_json()
        self.fields["first_colour"].required = False  # a form without it keeps the setting
        instance = self.instance
        if "format" in self.fields and (instance.pk is None
                                        or instance.format in dict(individual_formats())):
            format_field = self.fields["format"]
            assert isinstance(format_field, forms.ChoiceField)
            format_field.choices = [("", "---------"), *individual_formats()]
        if instance.pk is None:
            return
        for key, value in (instance.game_options or {}).items():
            if key in OPTION_FIELDS:
                self.initial[OPTION_FIELDS[key]] = value
        match = instance.match_format or {}
        self.initial.update({
            "match_kind": match.get("kind", "single"), "match_games": match.get("games", 1),
            "match_cap": match.get("max_games"), "match_duplicate": match.get("duplicate", False),
        })
        for index, key in enumerate(instance.tiebreaks or [], start=1):
            if index <= TIEBREAK_SLOTS:
                self.initial[f"tiebreak_{index}"] = key

    def clean_first_colour(self) -> str:
        return self.cleaned_data.get("first_colour") or self.instance.first_colour

    def assembled(self) -> dict[str, Any]:
        """The service's values from the form's fields: game options, match format,
        tie-breaks (None on a new tournament with none chosen: the format's defaults)."""
        data = self.cleaned_data
        game = data.get("game") or ""
        options = dict(self.instance.game_options or {}) if self.instance.pk else {}
        if game in ENGINE_NAMES:
            known = get_engine(game).default_options
            options = {key: value for key, value in options.items() if key in known}
            for key in known:
                field = OPTION_FIELDS.get(key)
                if field is not None and data.get(field) is not None:
                    options[key] = data[field]
        kind = data.get("match_kind") or "single"
        match_format = {"kind": kind, "games": 1 if kind == "single" else data.get("match_games"),
                        "max_games": data.get("match_cap") if kind == "first_to" else None,
                        "duplicate": bool(data.get("match_duplicate"))}
        tiebreaks: list[str] | None = [
            data[f"tiebreak_{index}"] for index in range(1, TIEBREAK_SLOTS + 1)
            if data.get(f"tiebreak_{index}")]
        if not tiebreaks and self.instance.pk is None:
            tiebreaks = None
        return {"game_options": options, "match_format": match_format, "tiebreaks": tiebreaks}

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        values = self.assembled()
        candidate = Tournament(**{name: data[name] for name in MODEL_FIELDS if name in data},
                               **{**values, "tiebreaks": values["tiebreaks"]
                                  if values["tiebreaks"] is not None
                                  else default_tiebreaks(data.get("format", ""))})
        try:
            validate_tournament(candidate)
        except ApplicationError as error:
            self.add_error(self._field_of(error.field, data.get("game")), error.message)
        return data

    def _field_of(self, field: str | None, game: str | None) -> str | None:
        if field == "game_options":
            fields = _options_of(game) if game in ENGINE_NAMES else []
            return fields[0] if fields else "game"
        if field == "match_format":
            return "match_games"
        if field == "tiebreaks":
            return "tiebreak_1"
        return field if field in self.fields else None


@admin.register(Tournament)
class TournamentAdmin(ClubScopedAdmin):
    form = TournamentForm
    change_form_template = "tournaments/admin/tournament_change_form.html"
    object_history_template = "tournaments/admin/object_history.html"
    list_display = ["dashboard_link", "club", "game", "format", "status", "created_at"]
    list_display_links = None
    list_filter = ["status", "format", "game", "club"]
    search_fields = ["name", "club__name"]
    list_select_related = ["club"]
    readonly_fields = ["slug", "status", "entrant_kind", "created_by", "created_at",
                       "updated_at"]
    fieldsets = [
        (None, {"fields": ["club", "name", "game", "format", "rounds_planned", "rated",
                           "release_pairings_at_once"]}),
        (_("Dates and arbiter"), {"fields": [("starts_on", "ends_on"), "chief_arbiter"],
                                  "description": _("Written in the TRF export's header.")}),
        (_("Game options"), {"fields": [("board_rows", "board_cols"), ("deck", "team_size")],
                             "description": _("Only the options of the chosen game apply.")}),
        (_("Matches and clock"), {"fields": [("match_kind", "match_games"),
                                             ("match_cap", "match_duplicate"), "clock"]}),
        (_("Scoring"), {"fields": [("points_win", "points_draw", "points_loss", "points_bye")]}),
        (_("Tie-breaks"), {"fields": [f"tiebreak_{i}" for i in range(1, TIEBREAK_SLOTS + 1)]}),
        (_("Swiss"), {"fields": ["first_colour", "baku_acceleration"],
                      "classes": ["collapse"]}),
        (_("Knockout"), {"fields": ["third_place_match", "grand_final_reset"],
                         "classes": ["collapse"]}),
        (_("Record"), {"fields": ["slug", "status", "entrant_kind", "created_by", "created_at",
                                  "updated_at"], "classes": ["collapse"]}),
    ]
    actions = ["open_registration", "start", "pair_next_round", "finish"]

    class Media:
        js = ["tournaments/admin/tournament_form.js"]

    @admin.display(description=_("tournament"), ordering="name")
    def dashboard_link(self, obj: Tournament) -> str:
        url = reverse("admin:tournaments_tournament_dashboard", args=[obj.pk])
        return format_html('<a href="{}">{}</a>', url, obj.name)

    # -- settings ----------------------------------------------------------------

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        values = {**{name: form.cleaned_data[name] for name in MODEL_FIELDS
                     if name in form.cleaned_data}, **form.assembled()}
        if change:
            original = Tournament.objects.get(pk=obj.pk)
            changes = {name: value for name, value in values.items()
                       if name in EDITABLE_FIELDS and value != getattr(original, name)}
            run_service(self, request, lambda: services.tournament_update(
                actor=request.user, tournament=original, **changes), "")
            obj.refresh_from_db()
            return
        fields = {name: value for name, value in values.items()
                  if name in EDITABLE_FIELDS and name not in ("name", "game", "format")}
        created: list[Tournament] = []
        ok = run_service(self, request, lambda: created.append(services.tournament_create(
            actor=request.user, club=values["club"], name=values["name"], game=values["game"],
            format=values["format"], **fields)), "")
        if not ok:
            raise PermissionDenied(gettext("The tournament was not created; see the message "
                                           "above."))
        obj.pk = created[0].pk
        obj.refresh_from_db()

    def _to_dashboard(self, obj: Tournament) -> HttpResponse:
        return redirect("admin:tournaments_tournament_dashboard", obj.pk)

    def response_add(self, request: HttpRequest, obj: Tournament,
                     post_url_continue: str | None = None) -> HttpResponse:
        if "_continue" in request.POST or "_addanother" in request.POST:
            return super().response_add(request, obj, post_url_continue)
        return self._to_dashboard(obj)

    def response_change(self, request: HttpRequest, obj: Tournament) -> HttpResponse:
        if "_continue" in request.POST or "_addanother" in request.POST:
            return super().response_change(request, obj)
        return self._to_dashboard(obj)

    def change_view(self, request: HttpRequest, object_id: str, form_url: str = "",
                    extra_context: dict[str, Any] | None = None) -> HttpResponse:
        tournament = self.get_object(request, object_id)
        if tournament is not None and not self.has_change_permission(request, tournament):
            raise PermissionDenied  # the settings are their organizers'; the dashboard shows them
        context = {**(extra_context or {}), **self.settings_context(request, object_id)}
        return super().change_view(request, object_id, form_url, context)

    def settings_context(self, request: HttpRequest, object_id: str | None) -> dict[str, Any]:
        """Extra context for the settings form (a floor above adds the clock advice)."""
        if object_id is None:
            return {}
        return {"dashboard_url": reverse("admin:tournaments_tournament_dashboard",
                                         args=[object_id]),
                "events_url": reverse("admin:tournaments_tournament_events",
                                      args=[object_id])}

    # -- pages -------------------------------------------------------------------

    def get_urls(self) -> list[Any]:
        wrap = self.admin_site.admin_view
        return [
            path("<int:object_id>/dashboard/", wrap(self.dashboard_view),
                 name="tournaments_tournament_dashboard"),
            path("<int:object_id>/entrants/", wrap(self.entrants_view),
                 name="tournaments_tournament_entrants"),
            *admin_lists.urls(self),
            *admin_prizes.urls(self),
            *admin_pairing_jobs.urls(self),
            path("<int:object_id>/events/", wrap(self.events_view),
                 name="tournaments_tournament_events"),
            *super().get_urls(),
        ]

    def _tournament(self, request: HttpRequest, object_id: int) -> Tournament:
        tournament = get_object_or_404(Tournament.objects.select_related("club"), pk=object_id)
        if not self.has_view_permission(request, tournament):
            raise PermissionDenied
        if request.method == "POST" and not can_manage_club(request.user, tournament.club):
            raise PermissionDenied
        return tournament

    def _page(self, request: HttpRequest, tournament: Tournament, title: str,
              template: str, context: dict[str, Any]) -> TemplateResponse:
        return TemplateResponse(request, template, {
            **self.admin_site.each_context(request), "opts": self.model._meta,
            "title": title, "tournament": tournament, "original": tournament,
            "can_manage": can_manage_club(request.user, tournament.club),
            "links": self.links(tournament), **context,
        })

    def links(self, tournament: Tournament) -> dict[str, str]:
        """Where the dashboard and the entrants page link to (a floor above adds more)."""
        public = reverse("pages:tournament-detail", args=[tournament.club.slug, tournament.slug])
        return {
            "dashboard": reverse("admin:tournaments_tournament_dashboard", args=[tournament.pk]),
            "entrants": reverse("admin:tournaments_tournament_entrants", args=[tournament.pk]),
            "settings": reverse("admin:tournaments_tournament_change", args=[tournament.pk]),
            "public": public,
            "csv": reverse("tournament-standings-csv", args=[tournament.pk]),
            "trf": reverse("tournament-export-trf", args=[tournament.pk]),
            "history": reverse("admin:tournaments_tournament_events", args=[tournament.pk]),
            **{f"list_{name}": url for name, url in admin_lists.list_urls(tournament).items()},
            **admin_prizes.prize_urls(tournament),
        }

    #: The dashboard's buttons: action -> (service, message when done).
    STEPS: dict[str, tuple[Callable[..., Any], Promise]] = {
        "open_registration": (services.tournament_open_registration,
                              _("Registration is open.")),
        "start": (services.tournament_start, _("Started: the seeds are fixed.")),
        "pair": (services.round_pair_next, _("The next round is paired.")),
        "finish": (services.tournament_finish, _("Finished.")),
    }

    def dashboard_view(self, request: HttpRequest, object_id: int) -> HttpResponse:
        tournament = self._tournament(request, object_id)
        if request.method == "POST":
            action = request.POST.get("action", "")
            if action == "reopen":
                self._reopen(request, tournament, request.POST.get("reason", ""))
            elif action == "release":
                self._release(request, tournament)
            elif action == "pair" and pairs_in_background(tournament):
                return self._pair_in_background(request, tournament)
            elif action in self.STEPS:
                service, step_done = self.STEPS[action]
                done = str(step_done)
                if run_service(self, request, lambda: service(actor=request.user,
                                                              tournament=tournament), done):
                    self.log_change(request, tournament, done)
            return redirect(request.path)
        overview = tournament_overview(tournament)
        standings = selectors.standings(tournament) if overview.rounds else None
        rounds = [(summary, {
            "results": reverse("admin:tournaments_round_change", args=[summary.round.pk]),
            "sheet": reverse("admin:tournaments_round_sheet", args=[summary.round.pk]),
            "slips": reverse("admin:tournaments_round_slips", args=[summary.round.pk]),
            "by_name": admin_lists.by_name_url(tournament.pk, summary.round.number),
        }) for summary in overview.rounds]
        next_url = next((urls["results"] for summary, urls in rounds
                         if summary.round.number == overview.next.round_number), "")
        return self._page(request, tournament, tournament.name,
                          "tournaments/admin/dashboard.html", {
                              "overview": overview, "standings": standings, "rounds": rounds,
                              "next_url": next_url, "match_text": _match_text(tournament),
                              "game_label": game_label(tournament.game),
                              "game_options": game_options_text(tournament.game_options),
                              "tiebreak_names": _abbreviations(tournament.tiebreaks),
                              "standings_headers": _abbreviations(
                                  standings["tiebreaks"] if standings else []),
                              "fee_totals": fee_totals(tournament),
                              "pairing_job_url": _active_job_url(tournament, overview.entrants),
                          })

    def _pair_in_background(self, request: HttpRequest, tournament: Tournament) -> HttpResponse:
        """A big Swiss round is paired by a worker: the progress page instead of a wait."""
        try:
            job = pairing_job_request(actor=request.user, tournament=tournament)
        except (ApplicationError, PermissionDenied) as error:
            self.message_user(request, str(error), messages.ERROR)
            return redirect(request.path)
        return redirect(admin_pairing_jobs.job_url(job))

    def _release(self, request: HttpRequest, tournament: Tournament) -> None:
        last = tournament.rounds.order_by("-number").first()
        if last is None:
            self.message_user(request, gettext("No round is paired yet."), messages.ERROR)
            return
        done = gettext("Round %(round)d is released.") % {"round": last.number}
        if run_service(self, request, lambda: services.round_release(
                actor=request.user, round_=last), done):
            self.log_change(request, tournament, done)

    @transaction.atomic
    def _reopen(self, request: HttpRequest, tournament: Tournament, reason: str) -> None:
        """Reopen and write the history entry in one transaction."""
        if run_service(self, request, lambda: services.tournament_reopen(
                actor=request.user, tournament=tournament, reason=reason),
                gettext("Reopened: correct the result on its round's page, then "
                        "finish again.")):
            self.log_change(request, tournament, gettext("Reopened: %(reason)s")
                            % {"reason": reason.strip()})

    # -- history -------------------------------------------------------------------

    HISTORY_PAGE_SIZE = 50

    def events_view(self, request: HttpRequest, object_id: int) -> HttpResponse:
        """The tournament's history, newest first, by round and kind: its organizers'."""
        tournament = self._tournament(request, object_id)
        if not can_manage_club(request.user, tournament.club):
            raise PermissionDenied
        round_number = _int(request.GET.get("round")) or None
        kind = request.GET.get("kind", "")
        kind = kind if kind in history.KIND_LABELS else ""
        found = history.events(tournament, round_number=round_number, kind=kind)
        page = Paginator(found, self.HISTORY_PAGE_SIZE).get_page(request.GET.get("page"))
        everything = history.events(tournament).order_by()
        rounds = sorted(number for number in everything.values_list("round_number", flat=True)
                        .distinct() if number is not None)
        kinds = sorted(((key, history.kind_label(key)) for key in
                        everything.values_list("kind", flat=True).distinct()),
                       key=lambda pair: pair[1].casefold())
        return self._page(request, tournament,
                          gettext("History: %(tournament)s") % {"tournament": tournament.name},
                          "tournaments/admin/history.html", {
                              "page": page, "lines": [(event, history.describe(event))
                                                      for event in page],
                              "rounds": rounds, "kinds": kinds, "round_number": round_number,
                              "kind": kind,
                          })

    def history_view(self, request: HttpRequest, object_id: str,
                     extra_context: dict[str, Any] | None = None) -> HttpResponse:
        """Django's log of this admin's saves, with a link to the tournament's history."""
        context = dict(extra_context or {})
        if object_id.isdigit():
            context["events_url"] = reverse("admin:tournaments_tournament_events",
                                            args=[object_id])
        return super().history_view(request, object_id, context)

    # -- entrants ------------------------------------------------------------------

    def entrants_view(self, request: HttpRequest, object_id: int) -> HttpResponse:
        tournament = self._tournament(request, object_id)
        context: dict[str, Any] = {}
        if request.method == "POST":
            response = self._entrants_post(request, tournament, context)
            if response is not None:
                return response
        return self._page(request, tournament,
                          gettext("Entrants: %(tournament)s") % {"tournament": tournament.name},
                          "tournaments/admin/entrants.html",
                          {**entrants_context(tournament), **context})

    def _entrants_post(self, request: HttpRequest, tournament: Tournament,
                       context: dict[str, Any]) -> HttpResponse | None:
        """Run the posted action; None to show the page again (an upload's preview)."""
        action = request.POST.get("action", "")
        actor = request.user
        entrants = tournament.entrants.select_related("player", "team")
        again = HttpResponseRedirect(request.path)

        def entrant() -> Entrant:
            found = entrants.filter(pk=_int(request.POST.get("entrant"))).first()
            if found is None:
                raise ApplicationError(gettext("Choose an entrant of this tournament."),
                                       field="entrant")
            return found

        late = request.POST.get("late_byes", "zero")
        if action == "register":
            form = RegisterForm(tournament, request.POST)
            if not form.is_valid():
                self.message_user(request, form.errors.as_text(), messages.ERROR)
                return again
            chosen = list(form.cleaned_data["chosen"])
            teams = tournament.entrant_kind == EntrantKind.TEAMS
            run_service(self, request, lambda: services.entrants_register(
                actor=actor, tournament=tournament, late_byes=late,
                players=[] if teams else chosen, teams=chosen if teams else []),
                ngettext("Entered %(count)d: %(names)s.", "Entered %(count)d: %(names)s.",
                         len(chosen)) % {"count": len(chosen),
                                         "names": ", ".join(str(c) for c in chosen)})
        elif action in ("fees", "paid_in_full"):
            admin_prizes.fees_post(request, tournament, entrants)
        elif action in ("upload", "upload_confirm", "paste"):
            return self._upload(request, tournament, action, late, context)
        elif action == "ratings":
            def save_ratings() -> None:
                changed: dict[int, int] = {}
                for row in entrants:
                    value = request.POST.get(f"rating-{row.pk}", "").strip()
                    if value and value != str(row.rating):
                        if not (value.isascii() and value.isdigit()):
                            raise ApplicationError(
                                gettext("%(entrant)s: the rating %(value)r is not a whole "
                                        "number.") % {"entrant": row, "value": value},
                                field="rating")
                        changed[row.pk] = int(value)
                if changed:
                    services.entrant_ratings_update(actor=actor, tournament=tournament,
                                                    ratings=changed)
            run_service(self, request, save_ratings, gettext("Ratings saved: seeds follow them."))
        elif action == "withdraw":
            from_round = _int(request.POST.get("from_round")) or None
            run_service(self, request, lambda: services.entrant_withdraw(
                actor=actor, entrant=entrant(), from_round=from_round), gettext("Withdrawn."))
        elif action == "reenter":
            run_service(self, request, lambda: services.entrant_reenter(
                actor=actor, entrant=entrant()), gettext("Entered again from the next round."))
        elif action == "remove":
            run_service(self, request, lambda: services.entrant_remove(
                actor=actor, entrant=entrant()), gettext("Entry taken back."))
        elif action == "bye":
            run_service(self, request, lambda: services.bye_request(
                actor=actor, entrant=entrant(),
                round_number=_int(request.POST.get("round_number")),
                kind=request.POST.get("kind", "")), gettext("Bye entered."))
        elif action == "bye_cancel":
            bye = RequestedBye.objects.filter(entrant__tournament=tournament,
                                              pk=_int(request.POST.get("bye"))).first()
            if bye is not None:
                run_service(self, request, lambda: services.bye_cancel(actor=actor, bye=bye),
                            gettext("Bye cancelled."))
        elif action == "forbid":
            def forbid() -> None:
                first = entrants.filter(pk=_int(request.POST.get("entrant_a"))).first()
                second = entrants.filter(pk=_int(request.POST.get("entrant_b"))).first()
                if first is None or second is None:
                    raise ApplicationError(gettext("Choose two entrants of this tournament."))
                services.forbid_pairing(actor=actor, tournament=tournament, entrant_a=first,
                                        entrant_b=second)
            run_service(self, request, forbid, gettext("They will not be paired together."))
        elif action == "allow":
            forbidden = ForbiddenPairing.objects.filter(
                tournament=tournament, pk=_int(request.POST.get("forbidden"))).first()
            if forbidden is not None:
                run_service(self, request, lambda: services.forbidden_pairing_remove(
                    actor=actor, forbidden=forbidden), gettext("They may meet again."))
        else:
            self.message_user(request, gettext("Unknown action %(action)r.") % {"action": action},
                              messages.ERROR)
        return again

    def _upload(self, request: HttpRequest, tournament: Tournament, action: str, late: str,
                context: dict[str, Any]) -> HttpResponse | None:
        """An uploaded or pasted entry list: a preview first, then the entries on
        confirmation."""
        upload = None
        try:
            if action == "upload":
                upload = request.FILES.get("file")
                if upload is None:
                    raise EntryListError(N_("choose a CSV or TRF file first"))
                rows = read_upload(upload.read())
            elif action == "paste":
                rows = read_pasted_names(request.POST.get("names", ""))
            else:
                rows = read_entry_list(request.POST.get("text", ""))
        except EntryListError as error:
            self.message_user(request, gettext("The entry list cannot be read: %(problem)s.")
                              % {"problem": core_error_message(error)}, messages.ERROR)
            return HttpResponseRedirect(request.path)
        if action in ("upload", "paste"):
            context["preview"] = entry_list_match(tournament, rows)
            context["preview_text"] = _as_csv(rows)
            context["preview_file"] = getattr(upload, "name", "")
            context["preview_new"] = sum(1 for m in context["preview"] if m.player is None)
            return None
        run_service(self, request, lambda: services.entry_list_register(
            actor=request.user, tournament=tournament, rows=rows, late_byes=late,
            file_name=request.POST.get("file_name", "")),
            ngettext("Entered the list of %(count)d.", "Entered the list of %(count)d.",
                     len(rows)) % {"count": len(rows)})
        return HttpResponseRedirect(request.path)

    # -- list actions ----------------------------------------------------------------

    def _each(self, request: HttpRequest, queryset: QuerySet[Tournament],
              service: Callable[..., Any], verb: str) -> None:
        for tournament in queryset.select_related("club"):
            def call(t: Tournament = tournament) -> Any:
                return service(actor=request.user, tournament=t)

            run_service(self, request, call, gettext("%(tournament)s: %(done)s.") % {
                "tournament": tournament, "done": verb})

    @admin.action(description=_("Open registration"))
    def open_registration(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self._each(request, queryset, services.tournament_open_registration,
                   gettext("registration open"))

    @admin.action(description=_("Start (seed the entrants)"))
    def start(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self._each(request, queryset, services.tournament_start, gettext("started"))

    @admin.action(description=_("Pair the next round"))
    def pair_next_round(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        big = [t for t in queryset.select_related("club") if pairs_in_background(t)]
        for tournament in big:
            def request_job(t: Tournament = tournament) -> Any:
                return pairing_job_request(actor=request.user, tournament=t)

            run_service(self, request, request_job, gettext(
                "%(tournament)s: the next round is being paired by a worker; its dashboard "
                "shows when it is done.") % {"tournament": tournament})
        self._each(request, queryset.exclude(pk__in=[t.pk for t in big]),
                   services.round_pair_next, gettext("next round paired"))

    @admin.action(description=_("Finish"))
    def finish(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self._each(request, queryset, services.tournament_finish, gettext("finished"))


def _active_job_url(tournament: Tournament, entrants: int) -> str:
    """The progress page of the tournament's pairing job (looked for in big Swiss events
    only: the others pair in the request)."""
    if not tournament.system.pairs_by_trf or entrants < settings.SWISS_BACKGROUND_ENTRANTS:
        return ""
    job = selectors.active_pairing_job(tournament)
    return admin_pairing_jobs.job_url(job) if job is not None else ""


def _abbreviations(keys: Any) -> list[str]:
    """FIDE's abbreviations of tie-break keys, for column headings."""
    return [REGISTRY[key].abbreviation if key in REGISTRY else str(key) for key in keys]


def _match_text(tournament: Tournament) -> str:
    from games.series.format import SeriesError

    try:
        return format_text(selectors.stored_match_format(tournament))
    except SeriesError:
        return "?"


def _int(value: Any) -> int:
    text = str(value or "").strip()
    return int(text) if text.isascii() and text.isdigit() else 0


def _as_csv(rows: list[Any]) -> str:
    """An entry list as the CSV text a confirmation posts back (every column read)."""
    return csv_text([list(ENTRY_COLUMNS),
                     *([getattr(row, key) for key in ENTRY_COLUMNS] for row in rows)])


class RegisterForm(forms.Form):
    """The club's players (or teams) not yet entered, to enter at once."""

    chosen = forms.ModelMultipleChoiceField(queryset=Player.objects.none(),
                                            widget=forms.CheckboxSelectMultiple,
                                            label=_("Chosen"))

    def __init__(self, tournament: Tournament, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["chosen"]
        assert isinstance(field, forms.ModelMultipleChoiceField)
        field.queryset = available(tournament)
        field.error_messages["required"] = gettext("Tick at least one name.")


def available(tournament: Tournament) -> QuerySet[Any]:
    """The club's players (or teams, for team games) not yet entered."""
    if tournament.entrant_kind == EntrantKind.TEAMS:
        return Team.objects.filter(club=tournament.club).exclude(
            entries__tournament=tournament).prefetch_related("memberships").order_by("name")
    return Player.objects.filter(club=tournament.club).exclude(
        entries__tournament=tournament).order_by("display_name")


def entrants_context(tournament: Tournament) -> dict[str, Any]:
    """What the entrants page shows: the entrants with their byes, the candidates with the
    ratings they would enter with, the forbidden pairs."""
    entrants = list(tournament.entrants.select_related("player", "team")
                    .prefetch_related("requested_byes").order_by("seed", "-rating", "id"))
    candidates = available(tournament)
    teams = tournament.entrant_kind == EntrantKind.TEAMS
    listed = registration_candidates(tournament, teams=list(candidates)) if teams else \
        registration_candidates(tournament, players=list(candidates))
    last_round = tournament.rounds.count()
    running = tournament.status == Status.RUNNING
    return {
        "entrants": entrants,
        "active": sum(1 for e in entrants if e.withdrawn_from_round is None),
        "candidates": listed,
        "teams": teams,
        "before_start": tournament.status in (Status.DRAFT, Status.REGISTRATION),
        "running": running,
        "finished": tournament.status == Status.FINISHED,
        "joins_round": last_round + 1 if running else 1,
        "late_byes": LATE_BYES,
        "system": tournament.system,
        "bye_kinds": [(k.value, k.label) for k in REQUESTABLE_BYES],
        "rounds": range(last_round + 1, (tournament.rounds_planned or last_round) + 1),
        "forbidden": list(tournament.forbidden_pairings.select_related(
            "entrant_low__player", "entrant_low__team", "entrant_high__player",
            "entrant_high__team")),
        "family": game_label(game_facts(tournament.game).family),
        "fees": fee_sheet(tournament),
    }
