"""The tournament admin, completed from the matches floor: the clock advice on the
settings form (from the games recorded so far) and the TRF import with its preview.
``tournaments.admin.TournamentAdmin`` holds the rest; this subclass replaces its
registration, so that arrows keep pointing down."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from core.engine_messages import game_label_lazy
from core.errors import ApplicationError
from games.clocks.setting import format_setting
from games.engines import ENGINE_NAMES, game_facts
from games.series.format import MatchFormat, SeriesError
from matches.clock_services import AdviceQuestion, advice_extra, clock_advice
from matches.services.imports import tournament_import_trf, trf_import_preview, trf_text
from players.models import Club
from players.permissions import managed_clubs
from tournaments.admin import TournamentAdmin
from tournaments.models import Tournament

#: Round time slots (minutes) the settings form gives clock advice for.
ADVICE_SLOTS = (45, 60, 90, 120)
#: Games a TRF file can hold: played by single players.
SINGLE_PLAYER_GAMES = [name for name in ENGINE_NAMES if game_facts(name).team_game is not True]


class TrfImportForm(forms.Form):
    club = forms.ModelChoiceField(queryset=Club.objects.none(), label=_("Club"))
    game = forms.ChoiceField(
        choices=[(name, game_label_lazy(name)) for name in SINGLE_PLAYER_GAMES],
        initial="kazambi", label=_("Game"), help_text=_(
            "A TRF file does not say which game was played. Kazambi has no draws: a file "
            "with draws is Kugamai's."))
    name = forms.CharField(required=False, max_length=160, label=_("Name"),
                           help_text=_("Leave empty to use the file's own name (its 012 "
                                       "line)."))
    file = forms.FileField(required=False, label=_("File"),
                           help_text=_("TRF-16 (.trf, .txt): UTF-8, with or without BOM, or "
                                       "Latin-1/Windows-1252."))
    rated = forms.TypedChoiceField(
        required=False, label=_("Rated"), empty_value=None,
        coerce=lambda value: value == "yes",
        choices=[("", _("Decide from the club's games")), ("yes", _("Rated")),
                 ("no", _("Not rated"))],
        help_text=_("Whether the imported games count for ratings. Off when the club "
                    "already has the same games (an export imported back would rate them "
                    "twice)."))
    text = forms.CharField(required=False, widget=forms.HiddenInput)
    file_name = forms.CharField(required=False, max_length=200, widget=forms.HiddenInput)

    def __init__(self, user: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        clubs = managed_clubs(user)
        field = self.fields["club"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = clubs
        if clubs.count() == 1:
            field.initial = clubs.get()

    def upload_name(self) -> str:
        """The uploaded file's name (kept through the preview for the history)."""
        upload = self.cleaned_data.get("file")
        return upload.name if upload is not None else self.cleaned_data.get("file_name") or ""

    def content(self) -> str:
        upload = self.cleaned_data.get("file")
        if upload is not None:
            return trf_text(upload.read())
        text = self.cleaned_data.get("text") or ""
        if not text.strip():
            raise ApplicationError(gettext("Choose a TRF file to import."), field="file")
        return text


def measured_advice(tournament: Tournament, advice: list[dict[str, Any]]) -> dict[str, Any]:
    """Each advised setting (and the tournament's own clock) judged on the games measured
    on the phone clock, for a round of all the entrants' boards."""
    boards = max(1, tournament.entrants.count() // 2)
    try:
        most = MatchFormat.from_dict(tournament.match_format or {}).max_games_needed() or 1
    except SeriesError:
        most = 1

    memo: dict[str, Any] = {}

    def judge(clock: str) -> dict[str, Any]:
        question = AdviceQuestion(game=tournament.game, options=tournament.game_options or {},
                                  clock=clock, boards=boards, games_per_match=most, memo=memo)
        return advice_extra(question).get("measured") or {}

    rows = [{"slot": item["slot"], "setting": format_setting(item["advice"].setting),
             "measured": judge(format_setting(item["advice"].setting))}
            for item in advice if "advice" in item]
    own = judge(tournament.clock) if tournament.clock else None
    found = [row["measured"] for row in rows if row["measured"]] + ([own] if own else [])
    if not found:
        return {}
    return {"rows": rows, "own": own, "clock": tournament.clock, "boards": boards,
            "fallback": found[0]["fallback"], "games_measured": found[0]["games_measured"],
            "minimum": found[0].get("minimum")}


class TournamentRunAdmin(TournamentAdmin):
    change_list_template = "matches/admin/tournament_change_list.html"
    change_form_template = "matches/admin/tournament_change_form.html"

    def settings_context(self, request: HttpRequest, object_id: str | None) -> dict[str, Any]:
        context = super().settings_context(request, object_id)
        tournament = Tournament.objects.filter(pk=object_id).first() if object_id else None
        if tournament is None:
            return context
        advice = []
        for slot in ADVICE_SLOTS:
            try:
                found, moves = clock_advice(game=tournament.game,
                                            options=tournament.game_options,
                                            match_format=tournament.match_format or {},
                                            slot_minutes=slot)
                advice.append({"slot": slot, "advice": found, "moves": moves})
            except ApplicationError as error:
                advice.append({"slot": slot, "error": error.message})
        basis = next((item for item in advice if "advice" in item), None)
        if basis is not None:
            context["clock_advice"] = advice
            context["clock_basis"] = basis
            context["clock_measured"] = measured_advice(tournament, advice)
        return context

    def links(self, tournament: Tournament) -> dict[str, str]:
        return {**super().links(tournament),
                "import": reverse("admin:tournaments_tournament_import_trf")}

    def get_urls(self) -> list[Any]:
        return [
            path("import-trf/", self.admin_site.admin_view(self.import_view),
                 name="tournaments_tournament_import_trf"),
            *super().get_urls(),
        ]

    def changelist_view(self, request: HttpRequest,
                        extra_context: dict[str, Any] | None = None) -> Any:
        context = {**(extra_context or {}),
                   "import_url": reverse("admin:tournaments_tournament_import_trf")}
        return super().changelist_view(request, context)

    def import_view(self, request: HttpRequest) -> HttpResponse:
        """Upload a TRF file, see what it holds (a dry run of the import), then import."""
        if not self.has_add_permission(request):
            raise PermissionDenied
        preview = None
        if request.method == "POST":
            form = TrfImportForm(request.user, request.POST, request.FILES)
            if form.is_valid():
                data = form.cleaned_data
                try:
                    text = form.content()
                    if "_import" in request.POST:
                        tournament = tournament_import_trf(
                            actor=request.user, club=data["club"], text=text,
                            game=data["game"], name=data["name"] or None,
                            rated=data["rated"], file_name=form.upload_name())
                        self.log_addition(request, tournament,
                                          gettext("Imported from a TRF file"))
                        entrants = tournament.entrants.count()
                        rounds = tournament.rounds.count()
                        self.message_user(request, gettext(
                            "Imported %(tournament)s: %(entrants)s, %(rounds)s.") % {
                            "tournament": tournament.name,
                            "entrants": ngettext("%(count)d entrant", "%(count)d entrants",
                                                 entrants) % {"count": entrants},
                            "rounds": ngettext("%(count)d round", "%(count)d rounds",
                                               rounds) % {"count": rounds}},
                            messages.SUCCESS)
                        return redirect("admin:tournaments_tournament_dashboard", tournament.pk)
                    preview = trf_import_preview(actor=request.user, club=data["club"],
                                                 text=text, game=data["game"],
                                                 name=data["name"] or None,
                                                 rated=data["rated"])
                    form = TrfImportForm(request.user, initial={
                        "club": data["club"], "game": data["game"], "name": data["name"],
                        "text": text, "rated": "yes" if preview.rated else "no",
                        "file_name": form.upload_name()})
                except (ApplicationError, PermissionDenied) as error:
                    form.add_error("file" if isinstance(error, ApplicationError) else None,
                                   str(error))
        else:
            form = TrfImportForm(request.user)
        return TemplateResponse(request, "matches/admin/import_trf.html", {
            **self.admin_site.each_context(request), "opts": self.model._meta,
            "title": gettext("Import a tournament from a TRF file"), "form": form,
            "preview": preview,
        })


admin.site.unregister(Tournament)
admin.site.register(Tournament, TournamentRunAdmin)
