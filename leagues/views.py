"""Public league pages: thin views over ``leagues.public`` (which arranges
``leagues.selectors``' reads), rendered by templates/leagues/public/.

A season's pages (its tables and schedule, a team match, a team) are kept once per state
of the season's board tournaments and language, and answer ``304`` to a browser that has
them, as the tournament pages do; every league row written moves that state on
(``leagues.freshness``). The season page and a match page poll their results part while
the season runs (``pages/js/live.js``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_GET

from leagues import public
from leagues.models import League, Season
from tournaments import cache as tournament_cache
from tournaments.etags import etag_matches

LIST_LIMIT = 200


def _live_texts() -> str:
    """The words the live script (pages/js/live.js) writes under the page."""
    return json.dumps({"updated": gettext("Updated at {time}."),
                       "updated_over": gettext("Updated at {time}: the season is over.")})


def _answer(request: HttpRequest, state: public.SeasonState, kind: str,
            build: Callable[[], str]) -> HttpResponse:
    """``build()``'s page, kept under the season's state (ETag, 304) when it has one."""
    if state.state is None:
        response = HttpResponse(build())
    else:
        kind = f"{get_language()}-league-{kind}"
        etag = tournament_cache.etag(state.state, kind)
        if etag_matches(request.headers.get("If-None-Match"), etag):
            response = HttpResponseNotModified()
        else:
            response = HttpResponse(tournament_cache.cached(state.state, kind, build))
        response["ETag"] = etag
        response["Cache-Control"] = "no-cache"
    if settings.CSRF_COOKIE_NAME not in request.COOKIES:
        get_token(request)  # the language switch of this shared page reads the cookie
    return response


def _part_etag(state: public.SeasonState, kind: str) -> str:
    if state.state is None:
        return ""
    return tournament_cache.etag(state.state, f"{get_language()}-league-{kind}")


def _state(slug: str, number: int) -> public.SeasonState:
    state = public.season_state(slug, number)
    if state is None:
        raise Http404("No such season.")
    return state


def _season(slug: str, number: int) -> Season:
    season = public.season_for_page(slug, number)
    if season is None:
        raise Http404("No such season.")
    return season


@require_GET
def league_list(request: HttpRequest) -> HttpResponse:
    leagues = list(public.leagues_listed()[:LIST_LIMIT])
    return render(request, "leagues/public/league_list.html",
                  {"leagues": leagues, "nav": "leagues",
                   "game_labels": {league.pk: public.game_label(league.game)
                                   for league in leagues}})


@require_GET
def league_detail(request: HttpRequest, slug: str) -> HttpResponse:
    league = get_object_or_404(League.objects.select_related("host"), slug=slug)
    context = {"league": league, "history": public.league_history(league), "nav": "leagues",
               "game_label": public.game_label(league.game),
               "clubs": list(league.clubs.order_by("name"))}
    return render(request, "leagues/public/league_detail.html", context)


def _season_part(season: Season) -> str:
    league = season.league
    divisions = [public.division_view(division, list(league.tiebreaks or []))
                 for division in public.divisions_of(season)]
    return render_to_string("leagues/public/_season_divisions.html",
                            {"season": season, "league": league, "divisions": divisions})


def _season_context(request: HttpRequest, season: Season, tab: str) -> dict[str, Any]:
    return {"season": season, "league": season.league, "nav": "leagues", "tab": tab,
            "game_label": public.game_label(season.league.game), "next_path": request.path,
            "live_texts": _live_texts()}


@require_GET
def season_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    state = _state(slug, number)

    def page() -> str:
        season = _season(slug, number)
        context = {**_season_context(request, season, "season"),
                   "results_html": mark_safe(_season_part(season)),  # nosec B308 B703
                   "results_url": reverse("leagues:season-results", args=[slug, number]),
                   "results_etag": _part_etag(state, "season-results")}
        return render_to_string("leagues/public/season_detail.html", context)

    return _answer(request, state, "season-page", page)


@require_GET
def season_results(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    state = _state(slug, number)
    return _answer(request, state, "season-results", lambda: _season_part(_season(slug, number)))


@require_GET
def season_ratings(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The season's rating list per game (not cached: ratings move on after the results
    that a season's state follows)."""
    season = _season(slug, number)
    context = {**_season_context(request, season, "ratings"),
               "lists": public.rating_lists(season)}
    return render(request, "leagues/public/season_ratings.html", context)


def _match_part(season: Season, match_id: int) -> str:
    match = public.season_match(season, match_id)
    if match is None:
        raise Http404("No such match in this season.")
    return render_to_string("leagues/public/_match_boards.html",
                            {"season": season, "league": season.league, "match": match,
                             **public.match_page(match)})


@require_GET
def match_detail(request: HttpRequest, slug: str, number: int, match: int) -> HttpResponse:
    state = _state(slug, number)

    def page() -> str:
        season = _season(slug, number)
        found = public.season_match(season, match)
        if found is None:
            raise Http404("No such match in this season.")
        context = {**_season_context(request, season, "match"), "match": found,
                   "results_html": mark_safe(_match_part(season, match)),  # nosec B308 B703
                   "results_url": reverse("leagues:match-results", args=[slug, number, match]),
                   "results_etag": _part_etag(state, f"match{match}-results")}
        return render_to_string("leagues/public/match_detail.html", context)

    return _answer(request, state, f"match{match}-page", page)


@require_GET
def match_results(request: HttpRequest, slug: str, number: int, match: int) -> HttpResponse:
    state = _state(slug, number)
    return _answer(request, state, f"match{match}-results",
                   lambda: _match_part(_season(slug, number), match))


@require_GET
def team_detail(request: HttpRequest, slug: str, number: int, team: int) -> HttpResponse:
    state = _state(slug, number)

    def page() -> str:
        season = _season(slug, number)
        found = public.season_team(season, team)
        if found is None:
            raise Http404("No such team in this season.")
        context = {**_season_context(request, season, "team"), "team": found,
                   **public.team_page(found)}
        return render_to_string("leagues/public/team_detail.html", context)

    return _answer(request, state, f"team{team}-page", page)
