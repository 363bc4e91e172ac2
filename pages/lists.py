"""The public list pages of a tournament: what each template shows, arranged from
``tournaments.lists`` read as an anonymous reader sees it (released rounds only)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, pgettext

from pages import selectors
from tournaments import lists
from tournaments.models import Status, Tournament

#: The lists a tournament's "Lists" tab offers, by page name.
STARTING, BY_NAME, STANDINGS_AFTER, WALL_CHART, CARD, PRIZES = (
    "starting", "by-name", "standings-after", "wall-chart", "card", "prizes")


def list_links(tournament: Tournament, data: lists.HallData | None = None) -> list[dict[str, Any]]:
    """The list pages this tournament has now, for the lists' own navigation."""
    system = tournament.system
    links: list[dict[str, Any]] = [{"page": STARTING, "label": gettext("Starting list")}]
    rounds = data.round_numbers() if data is not None else []
    if rounds:
        links.append({"page": BY_NAME, "label": gettext("Find your board"),
                      "number": rounds[-1]})
    if not system.has_bracket and data is not None and data.completed:
        links.append({"page": STANDINGS_AFTER, "label": gettext("Standings after a round"),
                      "number": data.completed})
    if not system.has_bracket and rounds:
        links.append({"page": WALL_CHART, "label": gettext("Wall chart")})
    if tournament.status == Status.FINISHED and tournament.prize_groups.exists():
        links.append({"page": PRIZES, "label": gettext("Prizes")})
    return links


def _context(tournament: Tournament, page: str, data: lists.HallData) -> dict[str, Any]:
    links = selectors.round_links(tournament)
    return {"tournament": tournament, "tab": selectors.LISTS, "list_page": page,
            "tabs": selectors.tournament_tabs(tournament, links),
            "list_links": list_links(tournament, data),
            "game_label": selectors.game_name(tournament.game), "nav": "tournaments"}


def starting_page(tournament: Tournament) -> dict[str, Any]:
    data = lists.hall_data(tournament, public=True)
    context = _context(tournament, STARTING, data)
    context["starting"] = lists.starting_list(tournament, data)
    context["title"] = gettext("Starting list")
    return context


def by_name_page(tournament: Tournament, number: int) -> dict[str, Any] | None:
    data = lists.hall_data(tournament, public=True)
    listing = lists.alphabetical_pairings(tournament, number, public=True, data=data)
    if listing is None:
        return None
    context = _context(tournament, BY_NAME, data)
    context["listing"] = listing
    context["round_numbers"] = listing["round_numbers"]
    context["number"] = number
    context["title"] = gettext("Round %(number)s by name") % {"number": number}
    return context


def standings_after_page(tournament: Tournament, number: int | None) -> dict[str, Any] | None:
    data = lists.hall_data(tournament, public=True)
    table = lists.standings_after(tournament, number, public=True, data=data)
    if table is None:
        return None
    context = _context(tournament, STANDINGS_AFTER, data)
    context["table"] = table
    context["legend"] = selectors.tiebreak_legend(table["tiebreaks"])
    context["number"] = table["after_round"]
    context["title"] = gettext("Standings after round %(number)s") % {
        "number": table["after_round"]}
    return context


def wall_chart_page(tournament: Tournament) -> dict[str, Any] | None:
    data = lists.hall_data(tournament, public=True)
    chart = lists.wall_chart(tournament, public=True, data=data)
    if chart is None or not chart["rounds"]:
        return None
    context = _context(tournament, WALL_CHART, data)
    context["chart"] = chart
    context["letters"] = first_move_letters()
    context["title"] = gettext("Wall chart")
    return context


def card_page(tournament: Tournament, entrant_id: int) -> dict[str, Any] | None:
    data = lists.hall_data(tournament, public=True)
    card = lists.player_card(tournament, entrant_id, public=True, data=data)
    if card is None:
        return None
    context = _context(tournament, CARD, data)
    context["card"] = card
    context["result_legend"] = selectors.result_legend()
    context["title"] = card["entrant"]["name"]
    return context


def prizes_page(tournament: Tournament) -> dict[str, Any] | None:
    """The prize list, once the tournament is finished (None before, or without prizes)."""
    from tournaments.prize_lists import prize_list

    if tournament.status != Status.FINISHED:
        return None
    result = prize_list(tournament)
    if not result.final or not result.groups:
        return None
    context = _context(tournament, PRIZES, lists.hall_data(tournament, public=True))
    context["prize_list"] = result
    context["title"] = gettext("Prizes")
    return context


def first_move_letters() -> dict[str, str]:
    """The one-letter marks of who moved first in a wall chart's cell."""
    return {"first": pgettext("moved first, one letter", "f"),
            "second": pgettext("moved second, one letter", "s")}
