"""Public pages: thin views over pages.selectors, rendered by templates/pages/."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_GET

from games.engines import game_facts
from matches.models import Game
from pages import selectors
from pages.http import compact, versioned_page
from pages.viewer import RecordViewError, game_steps
from players.models import Club, Player
from ratings.models import RATING_FAMILIES
from tournaments import cache as tournament_cache
from tournaments.models import Format, Status, Tournament


def _tournament(club: str, slug: str) -> Tournament:
    """The published tournament with its club and bot run (if any): one query."""
    return get_object_or_404(
        Tournament.objects.select_related("club", "bot_run").exclude(status=Status.DRAFT),
        club__slug=club, slug=slug,
    )


def _results_html(tournament: Tournament) -> SafeString:
    """The results part of the tournament page (standings, tables, rounds), rendered once
    per tournament version and kept in the cache."""
    html = tournament_cache.cached(
        tournament, "pages-results",
        lambda: compact(render_to_string("pages/_tournament_results.html",
                                         _tournament_context(tournament))))
    # Our own template rendered it, escaping every value; pages.svg escapes its SVG text.
    return mark_safe(html)  # nosec B308 B703


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    context = {**selectors.home_lists(), "families": selectors.families(), "nav": "home"}
    return render(request, "pages/home.html", context)


@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    game = request.GET.get("game", "")
    status = request.GET.get("status", "")
    tournaments = selectors.tournaments_filtered(game, status)[:200]
    context = {
        "tournaments": tournaments, "game": game, "status": status, "nav": "tournaments",
        "games": list(selectors.GAME_NAMES.items()),
        "statuses": [(value, label) for value, label in Status.choices if value != Status.DRAFT],
        "formats": dict(Format.choices),
    }
    return render(request, "pages/tournament_list.html", context)


def _tournament_context(tournament: Tournament) -> dict[str, Any]:
    context = selectors.tournament_page(tournament)
    if "bracket_svg" in context:
        # pages.svg builds this markup and escapes every text in it (markup.esc).
        context["bracket_svg"] = mark_safe(context["bracket_svg"])  # nosec B308 B703
    context["nav"] = "tournaments"
    return context


@require_GET
def tournament_detail(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    """The tournament page: rendered once per tournament version (and sent as a 304 to a
    browser that has it), except while bots play, when the run's figures change by the
    second."""
    state = selectors.page_state(club, slug)
    if state is None:
        raise Http404("No such tournament.")

    def page() -> str:
        tournament = _tournament(club, slug)
        progress = selectors.live_progress(tournament)
        context = {
            "tournament": tournament, "progress": progress, "nav": "tournaments",
            "game_label": selectors.game_name(tournament.game),
            "results_html": _results_html(tournament),
            "results_etag": tournament_cache.etag(tournament, "results"),
        }
        return render_to_string("pages/tournament_detail.html", context)

    if state.live:
        return HttpResponse(page())
    return versioned_page(request, state.state, "page", page)


@require_GET
def tournament_results(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    """The results part of the tournament page alone, for the live page to swap in."""
    state = selectors.page_state(club, slug)
    if state is None:
        raise Http404("No such tournament.")
    return versioned_page(request, state.state, "results",
                          lambda: str(_results_html(_tournament(club, slug))))


@require_GET
def tournament_live(request: HttpRequest, club: str, slug: str) -> JsonResponse:
    tournament = _tournament(club, slug)
    progress = selectors.live_progress(tournament)
    response = JsonResponse({"status": tournament.status, "progress": progress})
    response["Cache-Control"] = "no-store"
    return response


@require_GET
def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(Player.objects.select_related("club"), pk=pk)
    ratings = selectors.player_ratings(player)
    for view in ratings:
        # pages.svg builds this markup and escapes every text in it (markup.esc).
        view["chart"] = mark_safe(view["chart"])  # nosec B308 B703
    context = {
        "player": player, "ratings": ratings, "games": selectors.player_games(player),
        "matches": selectors.player_matches(player), "nav": "players",
    }
    return render(request, "pages/player_detail.html", context)


@gzip_page
@require_GET
def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(
        Game.objects.select_related(
            "pairing__round__tournament__club", "pairing__entrant_a__player",
            "pairing__entrant_a__team", "pairing__entrant_b__player", "pairing__entrant_b__team",
        ), pk=pk,
    )
    pairing = game.pairing
    names = [pairing.entrant_a.name, pairing.entrant_b.name if pairing.entrant_b else "bye"]
    steps: list[Any] = []
    error = ""
    if game.record:
        try:
            steps = game_steps(game.record, names)
        except RecordViewError as problem:
            error = str(problem)
    for step in steps:
        # pages.svg builds this markup and escapes every text in it (markup.esc).
        step.svg = mark_safe(step.svg)  # nosec B308 B703
    context = {
        "game": game, "pairing": pairing, "tournament": pairing.round.tournament,
        "names": names, "steps": steps, "error": error,
        "documents": [step.document for step in steps],
        "game_label": selectors.game_name(game.game),
        "hand_kind": game_facts(game.game).hand_kind,
        "match_score": f"{pairing.wins_a}–{pairing.wins_b}"
        + (f" ({pairing.draws} drawn)" if pairing.draws else ""),
        "winner_name": names[game.winner_side] if game.winner_side is not None else None,
        "nav": "tournaments",
    }
    return render(request, "pages/game_detail.html", context)


@require_GET
def leaderboard_index(request: HttpRequest) -> HttpResponse:
    return redirect("pages:leaderboard", family=RATING_FAMILIES[0])


@require_GET
def leaderboard(request: HttpRequest, family: str) -> HttpResponse:
    from ratings.selectors import leaderboard as rating_leaderboard

    if family not in RATING_FAMILIES:
        raise Http404("No such game family.")
    clubs = selectors.leaderboard_clubs(family)
    club_slug = request.GET.get("club", "")
    club = next((c for c in clubs if c.slug == club_slug), None)
    if club_slug and club is None:
        club = get_object_or_404(Club, slug=club_slug)
    club = club or (clubs[0] if clubs else None)
    entries = rating_leaderboard(club, family) if club is not None else []
    context = {
        "family": family, "family_label": selectors.FAMILY_NAMES.get(family, family),
        "families": selectors.families(), "clubs": clubs, "club": club, "entries": entries,
        "nav": "leaderboards",
    }
    return render(request, "pages/leaderboard.html", context)
