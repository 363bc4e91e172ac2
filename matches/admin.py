"""Admin for rounds, boards and games: thin, every write goes through the matches services."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q, QuerySet
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from core.errors import ApplicationError
from games.series.format import MatchScore
from matches.admin_games import GameAdmin, winner_letter  # noqa: F401  (GameAdmin registers)
from matches.admin_tournaments import TournamentRunAdmin  # noqa: F401  (replaces the registration)
from matches.clock_services import round_clock_advice
from matches.models import Game, Termination
from matches.selectors import round_sheet
from matches.services.games import game_entry_record
from matches.services.results import (
    BoardEntry,
    RoundResultsError,
    last_change,
    parse_game_record,
    result_snapshot,
    round_results_check,
    round_results_record,
)
from matches.texts import score_text
from players.admin import ClubScopedAdmin, ReadOnlyAdmin
from players.models import Club
from players.permissions import can_manage_club, is_organizer, managed_clubs
from tournaments.dashboard import pairing_stages
from tournaments.models import (
    FORFEIT_OUTCOMES,
    ByeKind,
    Outcome,
    Pairing,
    ResultChange,
    Round,
    Status,
)
from tournaments.selectors import (
    games_can_be_drawn,
    matches_can_be_drawn,
    pairing_facts,
    round_clock,
    unpaired_entrants,
)
from tournaments.services.pairing_edits import label as pairing_label
from tournaments.services.pairing_edits import pairing_edit, pairing_edit_check
from tournaments.services.rounds import round_clock_update, round_release, round_unpair
from tournaments.services.tournaments import clock_text_clean
from tournaments.texts import broken_rule_text

#: Where a result service's field error shows in a board's row.
_ROW_FIELD = {"score": "wins_a", "outcome": "outcome", "result": "outcome"}
_SCORE_INPUT = {"class": "vIntegerField result-input", "style": "width: 3.5em", "min": "0"}


class OrganizerInline(admin.TabularInline):
    """An inline that organizers see; only the club's organizers change it."""

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_organizer(request.user) or super().has_view_permission(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is None:
            return is_organizer(request.user)
        return can_manage_club(request.user, obj.tournament.club)


class PairingResultForm(forms.ModelForm):
    """One board's result as typed; ``version`` travels hidden to catch concurrent edits.

    The score fields are the form's own (the model's are excluded), so the form never
    validates or changes the pairing row: the result service checks the typed score
    against the match format (a score typed while the outcome still says pending is fine)
    and writes it.
    """

    wins_a = forms.IntegerField(min_value=0, required=False,
                                widget=forms.NumberInput(attrs=_SCORE_INPUT))
    wins_b = forms.IntegerField(min_value=0, required=False,
                                widget=forms.NumberInput(attrs=_SCORE_INPUT))
    draws = forms.IntegerField(min_value=0, required=False,
                               widget=forms.NumberInput(attrs=_SCORE_INPUT))
    outcome = forms.ChoiceField(choices=Outcome.choices,
                                widget=forms.Select(attrs={"class": "result-outcome"}))
    version = forms.IntegerField(widget=forms.HiddenInput)

    class Meta:
        model = Pairing
        fields: list[str] = []  # PairingInline excludes the model's score fields too

    def __init__(self, *args: Any, conflicts: dict[int, str] | None = None,
                 **kwargs: Any) -> None:
        instance = kwargs.get("instance")
        if instance is not None and conflicts and instance.pk in conflicts:
            instance.conflict_note = conflicts[instance.pk]
        if instance is not None:
            kwargs["initial"] = {
                "wins_a": instance.wins_a, "wins_b": instance.wins_b, "draws": instance.draws,
                "outcome": instance.outcome, "version": instance.version,
                **(kwargs.get("initial") or {}),
            }
        super().__init__(*args, **kwargs)
        if instance is not None and instance.pk is not None:
            self._offer_draws_only_where_possible(instance)
            if not instance.round.is_released:  # results wait for the release
                for name in ("wins_a", "wins_b", "draws", "outcome"):
                    if name in self.fields:
                        self.fields[name].disabled = True

    def _offer_draws_only_where_possible(self, pairing: Pairing) -> None:
        """No drawn-games box where the game has no draws (Kazambi), no "Draw" outcome
        where a match cannot end level (unless the board already says it)."""
        tournament = pairing.round.tournament
        if not games_can_be_drawn(tournament):
            del self.fields["draws"]
        if not matches_can_be_drawn(tournament):
            outcome = self.fields["outcome"]
            assert isinstance(outcome, forms.ChoiceField)
            outcome.choices = [choice for choice in Outcome.choices
                               if choice[0] != Outcome.DRAW or pairing.outcome == Outcome.DRAW]

    def entry(self) -> BoardEntry | None:
        """What the director changed on this board, or None."""
        changed = set(self.changed_data) - {"version"}
        if not changed or self.instance.entrant_b_id is None:
            return None
        data = self.cleaned_data
        outcome = data["outcome"] if "outcome" in changed else None
        draws = data.get("draws") or 0
        if outcome == Outcome.PENDING and (data["wins_a"] or data["wins_b"] or draws):
            outcome = None  # a score typed beside "pending": the score decides
        score = None
        if outcome not in (*FORFEIT_OUTCOMES, Outcome.PENDING):
            score = MatchScore(data["wins_a"] or 0, data["wins_b"] or 0, draws)
        return BoardEntry(self.instance.pk, data["version"], score, outcome)


class RoundResultsFormSet(BaseInlineFormSet):
    """Checks every changed board with the result service (nothing is written here) and
    shows each error in its board's row; ``RoundAdmin.save_formset`` then saves them all
    through the same service, in one transaction."""

    entries: list[BoardEntry]
    #: Boards left out because another director saved them meanwhile: what was typed.
    drafts: dict[int, dict[str, Any]]

    def clean(self) -> None:
        super().clean()
        self.entries = []
        self.drafts = {}
        # a board whose boxes cannot be read (a negative number) keeps its own error; the
        # other boards are still checked, so that every board's problem shows at once
        unreadable = sorted(row.instance.board for row in self.forms if row.errors)
        rows = {}
        for row in self.forms:
            assert isinstance(row, PairingResultForm)
            entry = None if row.errors else row.entry()
            if entry is not None:
                self.entries.append(entry)
                rows[row.instance.board] = row
        if not self.entries:
            if unreadable:
                raise ValidationError(self._nothing_saved(unreadable))
            return
        errors = round_results_check(round_=self.instance, entries=self.entries)
        stale = {e.board for e in errors if e.code == "stale"}
        if stale:
            self._keep_stale(rows, stale)
        errors = [e for e in errors if e.board not in stale or e.code != "stale"]
        for board_error in errors:
            target = rows.get(board_error.board)
            field = _ROW_FIELD.get(board_error.field or "")
            message = board_error.message
            board = gettext("Board %(board)d") % {"board": board_error.board}
            if not message.startswith(board):
                message = (gettext("Board %(board)d, %(field)s: %(problem)s") if field else
                           gettext("Board %(board)d: %(problem)s")) % {
                    "board": board_error.board, "field": board_error.field,
                    "problem": message}
            if target is None:
                raise ValidationError(message)
            target.add_error(field, message)
        wrong = sorted({*unreadable, *(e.board for e in errors)})
        if wrong:
            raise ValidationError(self._nothing_saved(wrong))

    @staticmethod
    def _nothing_saved(boards: list[int]) -> str:
        return ngettext("Nothing was saved: fix board %(boards)s and save again.",
                        "Nothing was saved: fix boards %(boards)s and save again.",
                        len(boards)) % {"boards": ", ".join(str(b) for b in boards)}

    def _keep_stale(self, rows: dict[int, Any], stale: set[int]) -> None:
        """Boards another director saved since this page was loaded: their entries are left
        out of this save and kept as typed, beside the other director's result, with the
        current version, so that saving again (deliberately) replaces it."""
        data = QueryDict(mutable=True)
        data.update(self.data)
        for board in sorted(stale):
            row = rows[board]
            current = Pairing.objects.get(pk=row.instance.pk)
            who, when = last_change(current)
            note = gettext(
                "%(who)s saved %(result)s at %(time)s. Your entry is kept in the boxes: save "
                "again to replace theirs, or reload the page to keep it.") % {
                    "who": who, "result": _snapshot_text(result_snapshot(current)),
                    "time": f"{timezone.localtime(when):%H:%M}"}
            row.instance.conflict_note = note
            data[row.add_prefix("version")] = str(current.version)
            typed = row.cleaned_data
            self.drafts[current.pk] = {
                "wins_a": typed.get("wins_a"), "wins_b": typed.get("wins_b"),
                "draws": typed.get("draws"), "outcome": typed.get("outcome"), "note": note,
                "board": board}
        self.entries = [e for e in self.entries
                        if e.pairing_id not in self.drafts]
        self.data = data
        for row in self.forms:
            row.data = data


class PairingInline(OrganizerInline):
    """Fast result entry: type the games won by each side, board by board (Tab moves along
    the row, then to the next board; Enter saves the page)."""

    model = Pairing
    form = PairingResultForm
    formset = RoundResultsFormSet
    #: The form's own score fields replace the model's: the admin never writes a result.
    exclude = ["wins_a", "wins_b", "draws", "outcome", "version"]
    fields = ["board", "stage", "entrant_a", "entrant_b", "bye_kind", "wins_a", "wins_b",
              "draws", "outcome", "version", "games_link", "note"]
    readonly_fields = ["board", "stage", "entrant_a", "entrant_b", "bye_kind", "games_link",
                       "note"]
    extra = 0
    can_delete = False
    ordering = ["board"]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_queryset(self, request: HttpRequest) -> QuerySet[Pairing]:
        return super().get_queryset(request).select_related(
            "round__tournament", "entrant_a__player", "entrant_a__team", "entrant_b__player",
            "entrant_b__team")

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = list(super().get_fields(request, obj))
        if obj is None or not obj.tournament.system.has_bracket:
            fields.remove("stage")
        if obj is not None and not games_can_be_drawn(obj.tournament):
            fields.remove("draws")
        return fields

    def get_formset(self, request: HttpRequest, obj: Any = None, **kwargs: Any) -> Any:
        self._stages = pairing_stages(obj) if obj is not None else {}
        return super().get_formset(request, obj, **kwargs)

    @admin.display(description=_("match"))
    def stage(self, obj: Pairing) -> str:
        """A knockout board's name in the bracket (final, third place...)."""
        return getattr(self, "_stages", {}).get(obj.pk, "")

    @admin.display(description="")
    def note(self, obj: Pairing) -> str:
        """Another director's result, when they saved this board after the page loaded."""
        text = getattr(obj, "conflict_note", "")
        return format_html('<span class="conflict-note">{}</span>', text) if text else ""

    @admin.display(description=_("games"))
    def games_link(self, obj: Pairing) -> str:
        if obj.pk is None or obj.entrant_b_id is None:
            return ""
        url = reverse("admin:tournaments_pairing_change", args=[obj.pk])
        return format_html('<a href="{}" tabindex="-1">{}</a>', url, gettext("games and log"))


class RoundForm(forms.ModelForm):
    """The round's clock override (checked as a clock setting) and time slot."""

    class Meta:
        model = Round
        fields = ["clock", "time_slot_minutes"]

    def clean_clock(self) -> str:
        try:
            return clock_text_clean(self.cleaned_data.get("clock"), field="clock")
        except ApplicationError as error:
            raise ValidationError(error.message) from None


@admin.register(Round)
class RoundAdmin(ClubScopedAdmin):
    form = RoundForm
    change_form_template = "matches/admin/round_change_form.html"
    list_display = ["tournament", "number", "status", "created_at", "released_at"]
    list_filter = ["status", "tournament__club"]
    search_fields = ["tournament__name"]
    list_select_related = ["tournament__club"]
    readonly_fields = ["tournament", "number", "status", "created_at", "released_at"]
    # compact: the boards' results come right after two short lines
    fieldsets = [
        (None, {"fields": [("tournament", "number", "status", "created_at", "released_at")]}),
        (_("Clock"), {"fields": [("clock", "time_slot_minutes")]}),
    ]
    inlines = [PairingInline]

    def club_of(self, obj: Round) -> Club:
        return obj.tournament.club

    def get_queryset(self, request: HttpRequest) -> QuerySet[Round]:
        """Organizers look at other clubs' rounds as the public does: drafts stay the
        host's until released."""
        return super().get_queryset(request).filter(
            Q(released_at__isnull=False) | Q(tournament__club__in=managed_clubs(request.user)))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # rounds come from "pair the next round"

    def get_urls(self) -> list[Any]:
        wrap = self.admin_site.admin_view
        return [
            path("<int:object_id>/sheet/", wrap(self.sheet_view),
                 name="tournaments_round_sheet"),
            path("<int:object_id>/slips/", wrap(self.slips_view),
                 name="tournaments_round_slips"),
            path("<int:object_id>/release/", wrap(self.release_view),
                 name="tournaments_round_release"),
            path("<int:object_id>/unpair/", wrap(self.unpair_view),
                 name="tournaments_round_unpair"),
            path("<int:object_id>/edit-pairings/", wrap(self.edit_view),
                 name="tournaments_round_edit"),
            *super().get_urls(),
        ]

    def _printable(self, request: HttpRequest, object_id: int, template: str) -> HttpResponse:
        round_ = get_object_or_404(Round.objects.select_related("tournament__club"),
                                   pk=object_id)
        if not self.has_view_permission(request, round_):
            raise PermissionDenied
        back = reverse("admin:tournaments_round_change", args=[round_.pk])
        return TemplateResponse(request, template,
                                {"sheet": round_sheet(round_), "back_url": back})

    def _managed_round(self, request: HttpRequest, object_id: int) -> Round:
        round_ = get_object_or_404(Round.objects.select_related("tournament__club"),
                                   pk=object_id)
        if request.method != "POST" or not can_manage_club(request.user,
                                                            round_.tournament.club):
            raise PermissionDenied
        return round_

    def _refused(self, request: HttpRequest, error: Exception) -> None:
        self.message_user(request, str(error), messages.ERROR)

    def release_view(self, request: HttpRequest, object_id: int) -> HttpResponse:
        round_ = self._managed_round(request, object_id)
        try:
            round_release(actor=request.user, round_=round_)
        except (ApplicationError, PermissionDenied) as error:
            self._refused(request, error)
        else:
            self.message_user(request, gettext("Round %(round)d is released: the players and "
                                               "the public pages see it now.")
                              % {"round": round_.number}, messages.SUCCESS)
        return redirect("admin:tournaments_round_change", round_.pk)

    def unpair_view(self, request: HttpRequest, object_id: int) -> HttpResponse:
        round_ = self._managed_round(request, object_id)
        try:
            boards = round_unpair(actor=request.user, round_=round_)
        except (ApplicationError, PermissionDenied) as error:
            self._refused(request, error)
            return redirect("admin:tournaments_round_change", round_.pk)
        self.message_user(request, ngettext(
            "Round %(round)d is unpaired (%(boards)d board removed): pair it again from the "
            "dashboard.", "Round %(round)d is unpaired (%(boards)d boards removed): pair it "
            "again from the dashboard.", boards) % {"round": round_.number, "boards": boards},
            messages.SUCCESS)
        return redirect("admin:tournaments_tournament_dashboard", round_.tournament_id)

    def edit_view(self, request: HttpRequest, object_id: int) -> HttpResponse:
        """A pairing edit: first the changes and the rules it breaks, then (confirmed) saved."""
        round_ = self._managed_round(request, object_id)
        action = request.POST.get("action", "")
        board = _int_or_none(request.POST.get("board"))
        entrants = [n for n in (_int_or_none(request.POST.get(key))
                                for key in ("entrant_1", "entrant_2")) if n is not None]
        back = reverse("admin:tournaments_round_change", args=[round_.pk])
        try:
            if "confirm" in request.POST:
                pairing_edit(actor=request.user, round_=round_, action=action, board=board,
                             entrants=entrants)
                self.message_user(request, gettext("The pairings are changed (logged in the "
                                                   "history)."), messages.SUCCESS)
                return redirect(back)
            plan = pairing_edit_check(round_=round_, action=action, board=board,
                                      entrants=entrants)
        except (ApplicationError, PermissionDenied) as error:
            self._refused(request, error)
            return redirect(back)
        return TemplateResponse(request, "matches/admin/pairing_edit_confirm.html", {
            **self.admin_site.each_context(request), "opts": self.model._meta,
            "title": gettext("Round %(round)d: confirm the edit") % {"round": round_.number},
            "original": round_, "plan": plan, "back_url": back,
            "broken": [broken_rule_text(item["rule"], item["names"]) for item in plan.broken],
            "fields": {"action": action, "board": board or "",
                       "entrant_1": entrants[0] if entrants else "",
                       "entrant_2": entrants[1] if len(entrants) > 1 else ""},
        })

    def sheet_view(self, request: HttpRequest, object_id: int) -> HttpResponse:
        return self._printable(request, object_id, "matches/pairing_sheet.html")

    def slips_view(self, request: HttpRequest, object_id: int) -> HttpResponse:
        return self._printable(request, object_id, "matches/result_slips.html")

    def change_view(self, request: HttpRequest, object_id: str, form_url: str = "",
                    extra_context: dict[str, Any] | None = None) -> HttpResponse:
        context = dict(extra_context or {})
        round_ = Round.objects.select_related("tournament").filter(pk=object_id).first()
        if round_ is not None and request.method == "GET":
            request.results_draft = request.session.pop(_draft_key(round_), None)  # type: ignore[attr-defined]
        if round_ is not None:
            context["dashboard_url"] = reverse("admin:tournaments_tournament_dashboard",
                                               args=[round_.tournament_id])
            context["sheet_url"] = reverse("admin:tournaments_round_sheet", args=[round_.pk])
            context["slips_url"] = reverse("admin:tournaments_round_slips", args=[round_.pk])
            context["by_name_url"] = reverse("admin:tournaments_tournament_by_name",
                                             args=[round_.tournament_id, round_.number])
            context["round_clock"] = round_clock(round_)
            context.update(_pairing_tools(request, round_))
            try:
                context["clock_advice"] = round_clock_advice(round_)
            except ApplicationError as error:
                context["clock_advice_error"] = error.message
        return super().change_view(request, object_id, form_url, context)

    def get_formset_kwargs(self, request: HttpRequest, obj: Any, inline: Any,
                           prefix: str) -> dict[str, Any]:
        """After a save that met another director's results, the page comes back with the
        boards as typed (bound to the kept entries) and their notes."""
        kwargs = super().get_formset_kwargs(request, obj, inline, prefix)
        draft = getattr(request, "results_draft", None)
        if draft and isinstance(inline, PairingInline) and request.method == "GET":
            rows = list(inline.get_queryset(request).filter(round=obj).order_by("board"))
            kwargs["data"] = _draft_data(prefix, obj, rows, draft)
            kwargs["form_kwargs"] = {"conflicts": {int(pk): d["note"]
                                                   for pk, d in draft.items()}}
        return kwargs

    def response_change(self, request: HttpRequest, obj: Round) -> HttpResponse:
        """After "Save" the director stays on the round, ready for the next results. A save
        that wrote nothing says so (or only what kept it from writing)."""
        saved = _saved(request)
        if not saved.written:
            if not saved.reported:
                self.message_user(request, gettext("Nothing was changed."), messages.INFO)
            return redirect(request.path)
        response = super().response_change(request, obj)
        if not {"_continue", "_addanother", "_saveasnew"} & set(request.POST):
            return redirect(request.path)
        return response

    def save_model(self, request: HttpRequest, obj: Round, form: Any, change: bool) -> None:
        if form.has_changed():
            round_clock_update(actor=request.user, round_=obj, clock=obj.clock,
                               time_slot_minutes=obj.time_slot_minutes)
            _saved(request).written = True

    def log_change(self, request: HttpRequest, obj: Any, message: Any) -> Any:
        if _saved(request).written:  # a save that wrote nothing is no change
            return super().log_change(request, obj, message)
        return None

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        if formset.model is not Pairing:
            super().save_formset(request, form, formset, change)
            return
        formset.new_objects, formset.changed_objects, formset.deleted_objects = [], [], []
        if formset.drafts:
            request.session[_draft_key(form.instance)] = {
                str(pk): draft for pk, draft in formset.drafts.items()}
            boards = ", ".join(str(d["board"]) for d in formset.drafts.values())
            self.message_user(request, ngettext(
                "Board %(boards)s: another director saved a result since you loaded the page; "
                "yours was not saved but is kept on the page beside theirs. Save again to "
                "replace theirs.",
                "Boards %(boards)s: another director saved a result since you loaded the "
                "page; yours was not saved but is kept on the page beside theirs. Save again "
                "to replace theirs.", len(formset.drafts)) % {"boards": boards},
                messages.WARNING)
            _saved(request).reported = True
        if not formset.entries:
            return
        try:
            recorded = round_results_record(actor=request.user, round_=form.instance,
                                            entries=formset.entries)
        except (RoundResultsError, PermissionDenied) as error:  # changed since the check
            transaction.set_rollback(True)
            self.message_user(request, gettext("Nothing was saved: %(reason)s")
                              % {"reason": error}, messages.ERROR)
            _saved(request).written, _saved(request).reported = False, True
            return
        _saved(request).written = True
        boards = ", ".join(str(r.pairing.board) for r in recorded)
        self.message_user(request, ngettext("Saved board %(boards)s.", "Saved boards %(boards)s.",
                                            len(recorded)) % {"boards": boards},
                          messages.SUCCESS)
        for result in recorded:
            if result.warning:
                self.message_user(request, result.warning, messages.WARNING)


def _int_or_none(value: str | None) -> int | None:
    try:
        return int(value) if value else None
    except ValueError:
        return None


def _pairing_tools(request: HttpRequest, round_: Round) -> dict[str, Any]:
    """The round page's draft mark, release and unpair buttons, the pairing edits (a Swiss's
    last round without results) and the Swiss settings the pairing used."""
    tournament = round_.tournament
    last = tournament.rounds.order_by("-number").values_list("number", flat=True).first()
    manage = can_manage_club(request.user, tournament.club)
    is_last = round_.number == last and tournament.status == Status.RUNNING
    played = ResultChange.objects.filter(pairing__round=round_).exists()
    pairings = list(round_.pairings.select_related("entrant_a__player", "entrant_a__team",
                                                   "entrant_b__player", "entrant_b__team")
                    .order_by("board"))
    unpaired = (unpaired_entrants(round_, pairings=pairings)
                if tournament.system.pairing_edits else [])
    seated = [e for p in pairings for e in (p.entrant_a, p.entrant_b)
              if e is not None and not (p.entrant_b is None
                                        and p.bye_kind != ByeKind.PAIRING_ALLOCATED)]
    tools: dict[str, Any] = {
        "round_draft": not round_.is_released,
        "may_release": manage and not round_.is_released,
        "may_unpair": manage and is_last and not played,
        "may_edit": manage and is_last and not played and tournament.system.pairing_edits,
        "release_url": reverse("admin:tournaments_round_release", args=[round_.pk]),
        "unpair_url": reverse("admin:tournaments_round_unpair", args=[round_.pk]),
        "edit_url": reverse("admin:tournaments_round_edit", args=[round_.pk]),
        "edit_boards": [p for p in pairings if p.entrant_b_id is not None],
        "edit_entrants": sorted(((e.pk, pairing_label(e)) for e in [*seated, *unpaired]),
                                key=lambda item: item[1]),
        "unpaired": [pairing_label(e) for e in unpaired],
    }
    tools["swiss_facts"] = pairing_facts(tournament)
    return tools


@dataclass
class _RoundSave:
    """What one save of the round page did: wrote anything; told the director why not."""

    written: bool = False
    reported: bool = False


def _saved(request: HttpRequest) -> _RoundSave:
    state = getattr(request, "_round_save", None)
    if state is None:
        state = _RoundSave()
        request._round_save = state  # type: ignore[attr-defined]
    return state


def _draft_key(round_: Round) -> str:
    return f"round-results-draft-{round_.pk}"


def _draft_data(prefix: str, round_: Round, rows: list[Pairing],
                draft: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Form data for the round's boards: the saved results, but the kept entries (with the
    current versions) on the boards another director saved meanwhile."""
    data: dict[str, Any] = {
        f"{prefix}-TOTAL_FORMS": len(rows), f"{prefix}-INITIAL_FORMS": len(rows),
        f"{prefix}-MIN_NUM_FORMS": 0, f"{prefix}-MAX_NUM_FORMS": 0,
    }
    for index, pairing in enumerate(rows):
        values: dict[str, Any] = {"wins_a": pairing.wins_a, "wins_b": pairing.wins_b,
                                  "draws": pairing.draws, "outcome": pairing.outcome}
        values.update({key: value for key, value in draft.get(str(pairing.pk), {}).items()
                       if key in values})
        values.update({"id": pairing.pk, "round": round_.pk, "version": pairing.version})
        for key, value in values.items():
            data[f"{prefix}-{index}-{key}"] = "" if value is None else value
    return data


class ReadOnlyInline(OrganizerInline):
    """Rows shown on a board's page that only the services write."""

    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class GameInline(ReadOnlyInline):
    """The games of the match, read-only (add games with "Add a game")."""

    model = Game
    fields = ("number", "first_side", "winner", "termination", "move_count", "has_record",
              "played_at", "recorded_by")
    readonly_fields = fields
    ordering = ["number"]

    @admin.display(description=_("winner"))
    def winner(self, obj: Game) -> str:
        return winner_letter(obj)

    @admin.display(description=_("record"), boolean=True)
    def has_record(self, obj: Game) -> bool:
        return obj.record is not None


def _snapshot_text(snapshot: dict[str, Any]) -> str:
    outcome = str(snapshot.get("outcome", ""))
    label = Outcome(outcome).label if outcome in Outcome.values else outcome
    values = {"result": label, "version": snapshot.get("version", "?")}
    if outcome in ("a_wins", "b_wins", "draw"):
        score = MatchScore(int(snapshot.get("wins_a", 0)), int(snapshot.get("wins_b", 0)),
                           int(snapshot.get("draws") or 0))
        return gettext("%(result)s %(score)s (version %(version)s)") % {
            **values, "score": score_text(score)}
    return gettext("%(result)s (version %(version)s)") % values


#: What a result change's words read: the board, its round and its two sides' names.
CHANGE_RELATED = ["pairing__round__tournament", "pairing__entrant_a__player",
                  "pairing__entrant_a__team", "pairing__entrant_b__player",
                  "pairing__entrant_b__team", "changed_by"]


class ResultChangeInline(ReadOnlyInline):
    """The board's change log: who changed the result, when, from what to what."""

    model = ResultChange
    fields = ("changed_at", "changed_by", "change_words", "warning")
    readonly_fields = fields
    verbose_name = _("result change")
    verbose_name_plural = _("change log")

    def get_queryset(self, request: HttpRequest) -> QuerySet[ResultChange]:
        return super().get_queryset(request).select_related(*CHANGE_RELATED)

    @admin.display(description=_("change"))
    def change_words(self, obj: ResultChange) -> str:
        return obj.change_text()


GAME_RESULT_CHOICES = [("", _("from the record")), ("a", _("A wins")), ("b", _("B wins")),
                       ("draw", _("Draw"))]


class GameEntryForm(forms.Form):
    """The next game of a match: its result, how it ended, and optionally its record."""

    version = forms.IntegerField(widget=forms.HiddenInput)
    result = forms.ChoiceField(
        label=_("Result"),
        choices=GAME_RESULT_CHOICES,
        required=False, widget=forms.Select(attrs={"autofocus": True}))
    termination = forms.ChoiceField(label=_("Termination"), choices=Termination.choices,
                                    initial=Termination.NORMAL)
    record = forms.CharField(
        label=_("Record"),
        required=False, widget=forms.Textarea(attrs={"rows": 6, "cols": 80}),
        help_text=_("Paste the game record (JSON, docs/rules/records.md); the engine replays it "
                    "and its result is the game's."))
    record_file = forms.FileField(label=_("Record file"), required=False,
                                  help_text=_("...or upload it as a file."))

    def __init__(self, *args: Any, draws: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not draws:  # the game has no draws (Kazambi): no "Draw" to choose
            result = self.fields["result"]
            assert isinstance(result, forms.ChoiceField)
            result.choices = [c for c in GAME_RESULT_CHOICES if c[0] != "draw"]


@admin.register(Pairing)
class PairingAdmin(ClubScopedAdmin):
    list_display = ["__str__", "outcome", "wins_a", "wins_b", "draws", "version", "updated_at"]
    list_filter = ["outcome", "round__tournament__club"]
    search_fields = ["round__tournament__name", "entrant_a__player__display_name",
                     "entrant_b__player__display_name"]
    list_select_related = ["round__tournament", "entrant_a__player", "entrant_a__team",
                           "entrant_b__player", "entrant_b__team"]
    change_form_template = "matches/admin/pairing_change_form.html"
    inlines = [GameInline, ResultChangeInline]

    def club_of(self, obj: Pairing) -> Club:
        return obj.round.tournament.club

    def get_queryset(self, request: HttpRequest) -> QuerySet[Pairing]:
        """Boards of other clubs' draft rounds stay hidden, as in :class:`RoundAdmin`."""
        return super().get_queryset(request).filter(
            Q(round__released_at__isnull=False)
            | Q(round__tournament__club__in=managed_clubs(request.user)))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # results are typed in the round's page, through the result service

    def get_exclude(self, request: HttpRequest, obj: Any = None) -> Any:
        excluded = list(super().get_exclude(request, obj) or [])
        if obj is not None and not games_can_be_drawn(obj.round.tournament):
            excluded.append("draws")  # the game has none: no "Draws: 0" line
        return excluded

    def get_urls(self) -> list[Any]:
        return [
            path("<int:object_id>/add-game/", self.admin_site.admin_view(self.add_game_view),
                 name="tournaments_pairing_add_game"),
            *super().get_urls(),
        ]

    def change_view(self, request: HttpRequest, object_id: str, form_url: str = "",
                    extra_context: dict[str, Any] | None = None) -> HttpResponse:
        context = dict(extra_context or {})
        pairing = Pairing.objects.select_related("round__tournament__club").filter(
            pk=object_id).first()
        if pairing is not None:
            context["round_url"] = reverse("admin:tournaments_round_change",
                                           args=[pairing.round_id])
            if pairing.entrant_b_id is not None and can_manage_club(
                    request.user, pairing.round.tournament.club):
                context["add_game_url"] = reverse("admin:tournaments_pairing_add_game",
                                                  args=[pairing.pk])
        return super().change_view(request, object_id, form_url, context)

    def add_game_view(self, request: HttpRequest, object_id: int) -> HttpResponse:
        pairing = get_object_or_404(
            Pairing.objects.select_related("round__tournament__club", "entrant_a__player",
                                           "entrant_a__team", "entrant_b__player",
                                           "entrant_b__team"), pk=object_id)
        if not can_manage_club(request.user, pairing.round.tournament.club):
            raise PermissionDenied
        draws = games_can_be_drawn(pairing.round.tournament)
        if request.method == "POST":
            form = GameEntryForm(request.POST, request.FILES, draws=draws)
            if form.is_valid() and self._add_game(request, pairing, form):
                return redirect("admin:tournaments_pairing_change", pairing.pk)
        else:
            form = GameEntryForm(initial={"version": pairing.version}, draws=draws)
        context = {
            **self.admin_site.each_context(request), "opts": self.model._meta,
            "title": gettext("Add game %(number)d: %(pairing)s") % {
                "number": pairing.games.count() + 1, "pairing": pairing}, "pairing": pairing,
            "form": form, "games": list(pairing.games.order_by("number")),
            "pairing_url": reverse("admin:tournaments_pairing_change", args=[pairing.pk]),
        }
        return TemplateResponse(request, "matches/admin/add_game.html", context)

    def _add_game(self, request: HttpRequest, pairing: Pairing, form: GameEntryForm) -> bool:
        data = form.cleaned_data
        try:
            upload = data.get("record_file")
            text = upload.read() if upload else data.get("record")
            recorded = game_entry_record(
                actor=request.user, pairing=pairing, expected_version=data["version"],
                result=data.get("result") or None, termination=data["termination"],
                record=parse_game_record(text))
        except ApplicationError as error:
            field = error.field if error.field in form.fields else None
            form.add_error(field, gettext("Board %(board)d: %(problem)s") % {
                "board": pairing.board, "problem": error.message})
            return False
        self.message_user(request, gettext("Game %(number)d saved; the match stands at "
                                           "%(score)s.") % {
            "number": recorded.game.number, "score": score_text(recorded.score)},
            messages.SUCCESS)
        if recorded.warning:
            self.message_user(request, recorded.warning, messages.WARNING)
        return True


@admin.register(ResultChange)
class ResultChangeAdmin(ReadOnlyAdmin):
    """The log of result changes: written by the result service only."""

    list_display = ["pairing", "changed_by", "changed_at", "change_words", "warning"]
    list_select_related = CHANGE_RELATED
    list_filter = ["pairing__round__tournament__club"]

    @admin.display(description=_("change"))
    def change_words(self, obj: ResultChange) -> str:
        return obj.change_text()
