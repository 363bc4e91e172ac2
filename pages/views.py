"""Public pages: thin views over pages.selectors, rendered by templates/pages/."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_GET

from analysis import selectors as analysis_selectors
from games.engines import game_facts
from matches.models import Game
from pages import selectors
from pages.http import compact, versioned_page
from pages.viewer import RecordViewError, game_steps, move_label
from players.models import Club, Player
from ratings.models import RATING_FAMILIES
from tournaments import cache as tournament_cache
from tournaments.etags import TournamentState
from tournaments.models import Status, Tournament


def _tournament(club: str, slug: str) -> Tournament:
    """The published tournament with its club and bot run (if any): one query."""
    return get_object_or_404(
        Tournament.objects.select_related("club", "bot_run").exclude(status=Status.DRAFT),
        club__slug=club, slug=slug,
    )


#: The part templates of the tabs (the results part each page polls while it runs).
_PARTS = {selectors.OVERVIEW: "pages/_tournament_overview.html",
          selectors.ROUND: "pages/_tournament_round.html",
          selectors.TABLE: "pages/_tournament_table.html"}
_PART_URLS = {selectors.OVERVIEW: "pages:tournament-results",
              selectors.ROUND: "pages:tournament-round-results",
              selectors.TABLE: "pages:tournament-table-results"}


def _kind(tab: str, number: int | None) -> str:
    """The name of a tab's answers in cache keys and ETags (one per language)."""
    name = f"round{number}" if tab == selectors.ROUND else tab
    return f"{get_language()}-{name}"


def _part_context(tournament: Tournament, tab: str, number: int | None) -> dict[str, Any]:
    if tab == selectors.OVERVIEW:
        context: dict[str, Any] | None = selectors.tournament_overview(tournament)
    elif tab == selectors.ROUND:
        context = selectors.tournament_round(tournament, number or 0)
    else:
        context = selectors.tournament_table(tournament)
    if context is None:
        raise Http404("No such page of this tournament.")
    if "bracket" in context:
        # pages.svg builds this markup and escapes every text in it (markup.esc).
        context["bracket"].svg = mark_safe(context["bracket"].svg)  # nosec B308 B703
    return context


def _part_html(state: TournamentState, tournament: Tournament, tab: str,
               number: int | None) -> SafeString:
    """A tab's results part (its tabs and content), rendered once per page state (the
    tournament's version and its club's name and slug: the part links by them) and kept in
    the cache."""
    html = tournament_cache.cached(
        state, f"pages-{_kind(tab, number)}",
        lambda: compact(render_to_string(_PARTS[tab],
                                         _part_context(tournament, tab, number))))
    # Our own template rendered it, escaping every value; pages.svg escapes its SVG text.
    return mark_safe(html)  # nosec B308 B703


def _tab_title(tournament: Tournament, tab: str, number: int | None) -> str:
    if tab == selectors.ROUND:
        return gettext("Round %(number)s") % {"number": number}
    if tab == selectors.TABLE:
        return gettext(tournament.system.table_label)
    return gettext(tournament.system.overview_label)


def _tab_page(request: HttpRequest, club: str, slug: str, tab: str,
              number: int | None = None) -> HttpResponse:
    """A tab of the tournament's pages: rendered once per tournament version (and sent as
    a 304 to a browser that has it), except while bots play, when the run's figures on the
    overview change by the second."""
    state = selectors.page_state(club, slug)
    if state is None:
        raise Http404("No such tournament.")
    kind = _kind(tab, number)

    def page() -> str:
        tournament = _tournament(club, slug)
        part = _part_html(state.state, tournament, tab, number)
        args = [club, slug] if number is None else [club, slug, number]
        context = {
            "tournament": tournament, "nav": "tournaments", "tab": tab,
            "tab_title": _tab_title(tournament, tab, number),
            "progress": selectors.live_progress(tournament) if tab == selectors.OVERVIEW
            else None,
            "game_label": selectors.game_name(tournament.game),
            "league_part": selectors.league_part(tournament),
            "results_html": part,
            "results_url": reverse(_PART_URLS[tab], args=args),
            "results_etag": tournament_cache.etag(state.state, f"{kind}-results"),
            "live_texts": selectors.live_texts(), "next_path": request.path,
            "signup_url": reverse("signup:signup", args=[club, slug])
            if state.signup_open else "",
        }
        return render_to_string("pages/tournament_detail.html", context)

    if state.live and tab == selectors.OVERVIEW:
        response = HttpResponse(page())
    else:
        page_kind = f"{kind}-page-signup" if state.signup_open else f"{kind}-page"
        response = versioned_page(request, state.state, page_kind, page)
    if settings.CSRF_COOKIE_NAME not in request.COOKIES:
        get_token(request)  # the language switch of this shared page reads the cookie
    return response


def _tab_part(request: HttpRequest, club: str, slug: str, tab: str,
              number: int | None = None) -> HttpResponse:
    """A tab's results part alone, for the live page to swap in."""
    state = selectors.page_state(club, slug)
    if state is None:
        raise Http404("No such tournament.")
    return versioned_page(request, state.state, f"{_kind(tab, number)}-results",
                          lambda: str(_part_html(state.state, _tournament(club, slug), tab,
                                                 number)))


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
        "games": [(name, selectors.game_name(name)) for name in selectors.GAME_NAMES],
        "statuses": [(value, label) for value, label in Status.choices if value != Status.DRAFT],
    }
    return render(request, "pages/tournament_list.html", context)


@require_GET
def tournament_detail(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    return _tab_page(request, club, slug, selectors.OVERVIEW)


@require_GET
def tournament_results(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    return _tab_part(request, club, slug, selectors.OVERVIEW)


@require_GET
def tournament_round(request: HttpRequest, club: str, slug: str, number: int) -> HttpResponse:
    return _tab_page(request, club, slug, selectors.ROUND, number)


@require_GET
def tournament_round_results(request: HttpRequest, club: str, slug: str,
                             number: int) -> HttpResponse:
    return _tab_part(request, club, slug, selectors.ROUND, number)


@require_GET
def tournament_table(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    return _tab_page(request, club, slug, selectors.TABLE)


@require_GET
def tournament_table_results(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    return _tab_part(request, club, slug, selectors.TABLE)


@require_GET
def team_detail(request: HttpRequest, club: str, slug: str, team: int) -> HttpResponse:
    """A team's page in a tournament: members, results and games; rendered once per
    tournament version (a member joining or leaving bumps it: tournaments.freshness)."""
    state = selectors.page_state(club, slug)
    if state is None:
        raise Http404("No such tournament.")

    def page() -> str:
        context = selectors.team_page(_tournament(club, slug), team)
        if context is None:
            raise Http404("No such team in this tournament.")
        return render_to_string("pages/team_detail.html",
                                {**context, "nav": "tournaments", "next_path": request.path})

    response = versioned_page(request, state.state, f"{get_language()}-team{team}-page", page)
    if settings.CSRF_COOKIE_NAME not in request.COOKIES:
        get_token(request)  # the language switch of this shared page reads the cookie
    return response


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


_OUTCOMES = {"win": _("a win"), "draw": _("a draw"), "loss": _("a loss")}
#: The words the viewer's analysis panel (pages/js/analysis.js) shows.
_ANALYSIS_TEXTS = {
    "loading": _("Analysing…"), "failed": _("The analysis could not be fetched."),
    "busy": _("The analysis is busy with other visitors' positions: asking again in "
              "%(seconds)s s…"),
    "limited": _("The analysis time for visitors is used up for the moment: asking again "
                 "in %(seconds)s s…"),
    "later": _("The analysis is busy for the moment: come back to this position later."),
    "over": _("The game is over."), "win": _("win"), "draw": _("draw"), "loss": _("loss"),
    "exact_win": _("With perfect play the side to move wins."),
    "exact_draw": _("With perfect play the game is drawn."),
    "exact_loss": _("With perfect play the side to move loses."),
    "mcts": _("Search estimate (%(iterations)s iterations, seed %(seed)s): win rates."),
    "sampling": _("Expected column points, the side to move's to the other side's, and "
                  "the win rate (%(samples)s playouts per move; %(information)s)."),
    "observed": _("the hands the side to move cannot see dealt afresh for each"),
    "all": _("every hand known: the game is over"),
    "unexplored": _("%(count)s moves not tried by the search."),
    "points": _("%(mine)s to %(theirs)s"),
}


def _blunder_mark(note: dict[str, Any]) -> dict[str, str]:
    better = move_label(str(note.get("better_move") or ""), selectors.TEXTS)
    title = _("Blunder: %(before)s became %(after)s; better %(move)s") % {
        "before": _OUTCOMES.get(note.get("outcome_before", ""), ""),
        "after": _OUTCOMES.get(note.get("outcome_after", ""), ""), "move": better,
    }
    return {"blunder": "yes", "better": better, "title": str(title)}


def _clock_text(seconds: float) -> str:
    hours, rest = divmod(round(seconds), 3600)
    minutes, whole = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{whole:02d}" if hours else f"{minutes}:{whole:02d}"


def _move_times(game: Game, names: list[str]) -> list[dict[str, str]]:
    """The phone clock's times per move (sides alternate from the first mover)."""
    return [{"used": _clock_text(used), "left": _clock_text(left),
             "name": names[(game.first_side + index) % 2]}
            for index, (used, left) in enumerate(game.move_times or [])]


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
    names = [pairing.entrant_a.name,
             pairing.entrant_b.name if pairing.entrant_b else gettext("bye")]
    steps: list[Any] = []
    error = ""
    if game.record:
        try:
            steps = game_steps(game.record, names, texts=selectors.TEXTS)
        except RecordViewError as problem:
            error = str(problem)
    for step in steps:
        # pages.svg builds this markup and escapes every text in it (markup.esc).
        step.svg = mark_safe(step.svg)  # nosec B308 B703
    analysis = analysis_selectors.game_analysis(game.pk) if steps else None
    marks = {number: _blunder_mark(note)
             for number, note in analysis_selectors.move_marks(analysis).items()
             if note.get("blunder")}
    times = _move_times(game, names)
    context = {
        "game": game, "pairing": pairing, "tournament": pairing.round.tournament,
        "names": names, "steps": steps, "error": error,
        "documents": [step.document for step in steps],
        "move_list": [(step, marks.get(step.number),
                       times[step.number - 1] if step.number <= len(times) else None)
                      for step in steps if step.number],
        "move_times": times,
        "analysis": analysis and {
            "status": analysis.status, "blunders": len(marks),
            "percent": round(100 * analysis_selectors.progress(analysis)),
        },
        "record": game.record if steps else None,
        "analysis_texts": _ANALYSIS_TEXTS,
        "game_label": selectors.game_name(game.game),
        "hand_kind": game_facts(game.game).hand_kind,
        "match_score": selectors.score_text(pairing.wins_a, pairing.wins_b, pairing.draws),
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
        "family": family, "family_label": selectors.family_name(family),
        "families": selectors.families(), "clubs": clubs, "club": club, "entries": entries,
        "nav": "leaderboards",
    }
    return render(request, "pages/leaderboard.html", context)
