"""The league manager's forms in the admin that a change form cannot hold: a season
team's roster (declared before the season starts, reserves added after) and a late lineup
entered for a team. Each calls a service; a refusal shows its reason above the form and
nothing changes."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.errors import ApplicationError
from leagues import services
from leagues.captain_selectors import is_partnership, reserve_candidates
from leagues.models import SeasonStatus, SeasonTeam, TeamMatch
from leagues.permissions import can_manage_league
from leagues.services.lineups import BoardChoice
from players.models import Player

EXTRA_SLOTS = 2


def _players(queryset: QuerySet[Player]) -> QuerySet[Player]:
    return queryset.filter(is_bot=False).order_by("display_name", "pk")


class RosterForm(forms.Form):
    """Regulars in board order (one choice per slot), then the reserves."""

    def __init__(self, *args: Any, season_team: SeasonTeam, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        entries = list(season_team.roster.order_by("order"))
        regulars = [e.player_id for e in entries if not e.reserve]
        choices = _players(Player.objects.filter(
            Q(club_id=season_team.team.club_id) | Q(pk__in=[e.player_id for e in entries])))
        slots = max(season_team.season.league.boards, len(regulars)) + EXTRA_SLOTS
        for slot in range(1, slots + 1):
            self.fields[f"regular_{slot}"] = forms.ModelChoiceField(
                choices, required=False, label=gettext("Board %(n)d") % {"n": slot},
                initial=regulars[slot - 1] if slot <= len(regulars) else None)
        self.fields["reserves"] = forms.ModelMultipleChoiceField(
            choices, required=False, label=_("Reserves"),
            initial=[e.player_id for e in entries if e.reserve])

    def regulars(self) -> list[Player]:
        return [player for name, player in self.cleaned_data.items()
                if name.startswith("regular_") and player is not None]

    def reserves(self) -> list[Player]:
        """The chosen reserves in the order posted."""
        chosen = {str(player.pk): player for player in self.cleaned_data["reserves"]}
        return [chosen[pk] for pk in dict.fromkeys(cast(QueryDict, self.data).getlist("reserves"))
                if pk in chosen]


class ReserveForm(forms.Form):
    def __init__(self, *args: Any, season_team: SeasonTeam, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"] = forms.ModelChoiceField(
            Player.objects.filter(pk__in=[p.pk for p in reserve_candidates(season_team)])
            .order_by("display_name", "pk"), label=_("New reserve"))


class LateLineupForm(forms.Form):
    """A team's boards in order (a partner per board in partnership games)."""

    def __init__(self, *args: Any, match: TeamMatch, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        assert match.away is not None
        league = match.division.season.league
        self.pairs = is_partnership(league)
        self.fields["team"] = forms.ChoiceField(label=_("Team"), choices=[
            (str(match.home_id), match.home.team.name), (str(match.away_id), match.away.team.name)])
        rostered = _players(Player.objects.filter(
            roster_entries__season_team__in=[match.home_id, match.away_id]).distinct())
        for board in range(1, league.boards + 1):
            self.fields[f"board_{board}"] = forms.ModelChoiceField(
                rostered, required=False, label=gettext("Board %(n)d") % {"n": board})
            if self.pairs:
                self.fields[f"partner_{board}"] = forms.ModelChoiceField(
                    rostered, required=False,
                    label=gettext("Board %(n)d, partner") % {"n": board})
        self.boards = league.boards

    def lineup(self) -> list[BoardChoice]:
        data = self.cleaned_data
        boards: list[BoardChoice] = []
        for board in range(1, self.boards + 1):
            player = data.get(f"board_{board}")
            if self.pairs and player is not None:
                boards.append((player, data.get(f"partner_{board}")))
            else:
                boards.append(player)
        return boards


def _page(admin_: admin.ModelAdmin[Any], request: HttpRequest, obj: Any, title: str,
          form: forms.Form, error: str, extra_forms: tuple[forms.Form, ...] = ()
          ) -> HttpResponse:
    return TemplateResponse(request, "leagues/admin/service_form.html", {
        **admin_.admin_site.each_context(request), "opts": admin_.model._meta,
        "title": title, "object": obj, "form": form, "error": error,
        "extra_forms": extra_forms,
        "back_url": reverse(f"admin:leagues_{admin_.model._meta.model_name}_change",
                            args=[obj.pk]),
    }, status=400 if error else 200)


def roster_view(admin_: admin.ModelAdmin[Any], request: HttpRequest,
                object_id: int) -> HttpResponse:
    """Declare the roster (planning), or add a reserve (running)."""
    team = get_object_or_404(SeasonTeam.objects.select_related(
        "season__league", "team"), pk=object_id)
    if not can_manage_league(request.user, team.season.league):
        raise PermissionDenied
    planning = team.season.status == SeasonStatus.PLANNING
    data = request.POST if request.method == "POST" else None
    form: forms.Form = (RosterForm(data, season_team=team) if planning
                        else ReserveForm(data, season_team=team))
    error = ""
    if data is not None and form.is_valid():
        try:
            if isinstance(form, RosterForm):
                services.roster_set(actor=request.user, season_team=team,
                                    players=form.regulars(),
                                    reserves=form.reserves())
            else:
                services.reserve_add(actor=request.user, season_team=team,
                                     player=form.cleaned_data["player"])
        except (ApplicationError, PermissionDenied) as refused:
            error = getattr(refused, "message", str(refused))
        else:
            admin_.message_user(request, gettext("The roster of %(team)s is saved.")
                                % {"team": team}, messages.SUCCESS)
            return redirect(reverse("admin:leagues_seasonteam_change", args=[team.pk]))
    title = (gettext("Roster of %(team)s") if planning
             else gettext("Add a reserve to %(team)s")) % {"team": team}
    return _page(admin_, request, team, title, form, error)


def late_lineup_view(admin_: admin.ModelAdmin[Any], request: HttpRequest,
                     object_id: int) -> HttpResponse:
    """A manager's lineup for a team (after the deadline: accepted, marked late, logged)."""
    match = get_object_or_404(TeamMatch.objects.select_related(
        "division__season__league", "home__team", "away__team"), pk=object_id)
    if not can_manage_league(request.user, match.division.season.league):
        raise PermissionDenied
    if match.away is None:  # a bye has no lineups
        raise Http404
    data = request.POST if request.method == "POST" else None
    form = LateLineupForm(data, match=match)
    error = ""
    if data is not None and form.is_valid():
        team = match.home if form.cleaned_data["team"] == str(match.home_id) else match.away
        try:
            lineup = services.lineup_submit(actor=request.user, match=match, team=team,
                                            boards=form.lineup())
        except (ApplicationError, PermissionDenied) as refused:
            error = getattr(refused, "message", str(refused))
        else:
            admin_.message_user(request, (
                gettext("The lineup of %(team)s is in (late).") if lineup.late
                else gettext("The lineup of %(team)s is in.")) % {"team": team},
                messages.SUCCESS)
            return redirect(reverse("admin:leagues_teammatch_change", args=[match.pk]))
    return _page(admin_, request, match, gettext("Lineup for %(match)s") % {"match": match},
                 form, error)
