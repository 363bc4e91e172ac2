"""Reads for the lists a tournament hall needs, for the admin's printable pages and the
public pages alike: the pairings by name ("find your board"), the starting-rank list,
the standings after any round, a player's card and the wall chart.

Each list is a fixed number of queries (the visible rounds' pairings, the entrants with
their players and clubs, and a team event's members), whatever the entrants and rounds;
the arithmetic is the pure standings core's (``tournaments.standings``).

``public=True`` reads only what anonymous readers may see: released rounds
(:func:`visible_pairings`).
"""

from __future__ import annotations

import unicodedata
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from players.models import Player
from tournaments import adapters
from tournaments.models import (
    ByeKind,
    Entrant,
    Outcome,
    Pairing,
    Tournament,
    released_filter,
)
from tournaments.selectors import TournamentData, members_by_team

#: The optional category fields of a player that the lists show when the model has them
#: (attribute: column heading): birth year, sex, federation or town, title.
CATEGORY_HEADINGS = {"birth_year": _("Born"), "sex": _("Sex"), "federation": _("Federation"),
                     "title": _("Title")}
CATEGORY_FIELDS = tuple(CATEGORY_HEADINGS)


def visible_pairings(tournament: Tournament, *, public: bool) -> QuerySet[Pairing]:
    """The tournament's pairings with their rounds, by round and board. Anonymous readers
    (``public``) see released rounds only: a round is a draft until it is released."""
    pairings = Pairing.objects.filter(round__tournament=tournament)
    if public:
        pairings = pairings.filter(released_filter("round__"))
    return pairings.select_related("round").order_by("round__number", "board")


class HallData(TournamentData):
    """What every list reads, loaded once: entrants (with players, clubs and teams) and the
    visible pairings grouped by round."""

    @property
    def completed(self) -> int:
        return self.completed_rounds

    def round_numbers(self) -> list[int]:
        return [pairings[0].round.number for pairings in self.rounds if pairings]


def hall_data(tournament: Tournament, *, public: bool) -> HallData:
    """Two queries: entrants, visible pairings."""
    entrants = list(tournament.entrants.select_related("player__club", "team"))
    by_number: dict[int, list[Pairing]] = {}
    for pairing in visible_pairings(tournament, public=public):
        by_number.setdefault(pairing.round.number, []).append(pairing)
    return HallData(tournament, entrants, [by_number[n] for n in sorted(by_number)])


def starting_order(entrants: list[Entrant]) -> list[Entrant]:
    """By starting number (seed), entrants without one after, in pairing order."""
    place = {e.pk: i for i, e in enumerate(adapters.pairing_order(entrants))}
    return sorted(entrants, key=lambda e: (e.seed is None, e.seed or 0, place[e.pk]))


def category_values(player: Player | None) -> dict[str, Any]:
    """The category fields the player model has and this player filled in."""
    if player is None:
        return {}
    values = {}
    for name in CATEGORY_FIELDS:
        value = getattr(player, name, None)
        if value not in (None, ""):
            getter = getattr(player, f"get_{name}_display", None)
            shown_as_code = name == "title"  # lists print titles as their codes: GM, WFM
            values[name] = getter() if callable(getter) and not shown_as_code else value
    return values


def _entrant_row(entrant: Entrant) -> dict[str, Any]:
    player = entrant.player if entrant.player_id is not None else None
    club = player.club.name if player is not None and player.club is not None else ""
    return {"entrant": entrant.pk, "seed": entrant.seed, "name": entrant.name,
            "rating": entrant.rating or None, "player_id": entrant.player_id,
            "club": club, "categories": category_values(player),
            "joined_round": entrant.joined_round,
            "withdrawn_from": entrant.withdrawn_from_round}


# -- team members ---------------------------------------------------------------------------


def team_members(tournament: Tournament, entrants: list[Entrant]) -> dict[int, list[Player]]:
    """A team event's members by entrant id (:func:`tournaments.selectors.members_by_team`
    keyed by the entrants' teams); empty for individuals."""
    teams = {e.team_id: e.pk for e in entrants if e.team_id is not None}
    if not teams:
        return {}
    return {teams[team]: players for team, players in members_by_team(tournament).items()
            if team in teams}


# -- pairings by name ------------------------------------------------------------------------


def _name_key(name: str) -> tuple[str, str]:
    """Names by their letters, accents aside (Émilie with the Es, Ёлка with the Еs)."""
    letters = unicodedata.normalize("NFKD", name.casefold())
    return "".join(c for c in letters if not unicodedata.combining(c)), name


def alphabetical_pairings(tournament: Tournament, number: int, *,
                          public: bool, data: HallData | None = None) -> dict[str, Any] | None:
    """Round ``number``'s boards by name: every entrant (and a team's members) with the
    board, the opponent and who moves first; byes and absences listed. None: no such
    (visible) round."""
    data = data or hall_data(tournament, public=public)
    pairings = next((p for p in data.rounds if p and p[0].round.number == number), None)
    if pairings is None:
        return None
    members = team_members(tournament, data.entrants)
    rows: list[dict[str, Any]] = []

    def add(entrant: Entrant, **facts: Any) -> None:
        for person in [None, *members.get(entrant.pk, [])]:
            name = person.display_name if person is not None else entrant.name
            rows.append({"name": name, "team": entrant.name if person is not None else "",
                         "seed": entrant.seed, "entrant": entrant.pk,
                         "player_id": person.pk if person is not None else entrant.player_id,
                         **facts})

    seen: set[int] = set()
    for pairing in pairings:
        first = data.by_id[pairing.entrant_a_id]
        seen.add(first.pk)
        if pairing.entrant_b_id is None:
            add(first, board=pairing.board, status="bye",
                bye=ByeKind(pairing.bye_kind).label if pairing.bye_kind else "",
                opponent=None, opponent_seed=None, moves_first=None)
            continue
        second = data.by_id[pairing.entrant_b_id]
        seen.add(second.pk)
        forfeit = pairing.outcome in (Outcome.A_FORFEIT_WIN, Outcome.B_FORFEIT_WIN,
                                      Outcome.DOUBLE_FORFEIT)
        status = "forfeit" if forfeit else "board"
        add(first, board=pairing.board, status=status, bye="", opponent=second.name,
            opponent_seed=second.seed, moves_first=True)
        add(second, board=pairing.board, status=status, bye="", opponent=first.name,
            opponent_seed=first.seed, moves_first=False)
    for entrant in data.entrants:
        if entrant.pk not in seen:
            add(entrant, board=None, status="absent", bye="", opponent=None,
                opponent_seed=None, moves_first=None)
    rows.sort(key=lambda row: _name_key(row["name"]))
    return {"number": number, "rows": rows, "teams": bool(members),
            "released": pairings[0].round.released_at is not None,
            "round_numbers": data.round_numbers()}


# -- the starting-rank list -------------------------------------------------------------------


def starting_list(tournament: Tournament, data: HallData | None = None) -> dict[str, Any]:
    """Entrants by starting number: name, rating, club and the category fields filled in
    (``categories``: a column, key and heading, for each field someone has)."""
    source = data.entrants if data is not None else list(
        tournament.entrants.select_related("player__club", "team"))
    entrants = starting_order(source)
    rows = [_entrant_row(e) for e in entrants]
    members = team_members(tournament, entrants)
    for row in rows:
        row["members"] = [p.display_name for p in members.get(row["entrant"], [])]
    shown = [(name, CATEGORY_HEADINGS[name]) for name in CATEGORY_FIELDS
             if any(name in row["categories"] for row in rows)]
    for row in rows:
        row["category_cells"] = [row["categories"].get(name, "") for name, _heading in shown]
    return {"rows": rows, "categories": shown,
            "clubs": any(row["club"] for row in rows),
            "ratings": any(row["rating"] for row in rows)}


# -- standings after round N -------------------------------------------------------------------


def standings_after(tournament: Tournament, after: int | None, *,
                    public: bool, data: HallData | None = None) -> dict[str, Any] | None:
    """The standings after round ``after`` (default: the last complete round), tie-breaks
    computed on the games up to it. None for a bracket (its standings are placings) or a
    round that is not complete (or not visible)."""
    if tournament.system.has_bracket:
        return None
    from tournaments.standings import compute_standings

    data = data or hall_data(tournament, public=public)
    completed = data.completed
    number = completed if after is None else after
    if completed == 0 or not 1 <= number <= completed:
        return None
    record = adapters.standings_record(tournament, data.entrants, data.rounds[:number])
    members = team_members(tournament, data.entrants)
    rows = []
    for row in compute_standings(record, tournament.tiebreaks):
        entrant = data.by_id[int(row.entrant)]
        rows.append({"rank": row.rank, **_entrant_row(entrant), "points": row.points,
                     "tiebreaks": [row.tiebreaks.get(key) for key in tournament.tiebreaks],
                     "members": [p.display_name for p in members.get(entrant.pk, [])]})
    return {"after_round": number, "choices": list(range(1, completed + 1)),
            "tiebreaks": list(tournament.tiebreaks), "rows": rows}


# -- the player card ---------------------------------------------------------------------------


def _pending_rounds(data: HallData) -> list[tuple[int, dict[int, tuple[Pairing, bool]]]]:
    """The visible rounds after the complete ones: per entrant its pairing and whether it
    is the first side."""
    later = []
    for pairings in data.rounds[data.completed:]:
        boards: dict[int, tuple[Pairing, bool]] = {}
        for p in pairings:
            boards[p.entrant_a_id] = (p, True)
            if p.entrant_b_id is not None:
                boards[p.entrant_b_id] = (p, False)
        later.append((pairings[0].round.number, boards))
    return later


def _opponent(data: HallData, opponent_id: Any) -> dict[str, Any] | None:
    if opponent_id is None:
        return None
    opponent = data.by_id[int(opponent_id)]
    return {"entrant": opponent.pk, "name": opponent.name, "seed": opponent.seed,
            "rating": opponent.rating or None, "player_id": opponent.player_id}


def player_card(tournament: Tournament, entrant_id: int, *,
                public: bool, data: HallData | None = None) -> dict[str, Any] | None:
    """One entrant's tournament: per round the opponent (starting number, rating), who
    moved first, the result and the running score; then a round being played; the points,
    rank and performance rating. None: not an entrant of this tournament."""
    from tournaments.standings import compute_standings
    from tournaments.standings.cards import player_card as build_card

    data = data or hall_data(tournament, public=public)
    entrant = data.by_id.get(entrant_id)
    if entrant is None:
        return None
    completed = data.completed
    record = adapters.standings_record(tournament, data.entrants, data.rounds[:completed])
    card = build_card(record, entrant.pk)
    rank = None
    if completed and not tournament.system.has_bracket:
        rank = next(row.rank for row in compute_standings(record, tournament.tiebreaks)
                    if row.entrant == entrant.pk)
    rounds: list[dict[str, Any]] = [
        {"number": item.number, "opponent": _opponent(data, item.opponent),
         "first_move": item.first_move, "result": item.result, "kind": item.kind,
         "points": item.points, "running": item.running, "pending": False}
        for item in card.rounds]
    for number, boards in _pending_rounds(data):
        pairing, first = boards.get(entrant.pk, (None, None))
        other = None if pairing is None else (pairing.entrant_b_id if first
                                              else pairing.entrant_a_id)
        rounds.append({"number": number, "opponent": _opponent(data, other),
                       "first_move": first if other is not None else None,
                       "result": "", "board": pairing.board if pairing else None,
                       "kind": "pending" if pairing else "absent", "points": None,
                       "running": None, "pending": True})
    return {"entrant": _entrant_row(entrant), "rounds": rounds, "rank": rank,
            "points": card.points, "performance": card.performance,
            "average_opponent_rating": card.average_opponent_rating,
            "rated_games": card.rated_games,
            "after_round": completed,
            "categories": [(CATEGORY_HEADINGS[name], value) for name, value
                           in category_values(entrant.player).items()],
            "members": [p.display_name for p in
                        team_members(tournament, [entrant]).get(entrant.pk, [])]}


# -- the wall chart ---------------------------------------------------------------------------


def wall_chart(tournament: Tournament, *, public: bool,
               data: HallData | None = None) -> dict[str, Any] | None:
    """Rows by starting rank, one cell per visible round (the opponent's starting number,
    who moved first, the result; a round being played without its result), points and
    rank. None for a bracket."""
    if tournament.system.has_bracket:
        return None
    from tournaments.standings import compute_standings
    from tournaments.standings.cards import player_cards

    data = data or hall_data(tournament, public=public)
    completed = data.completed
    record = adapters.standings_record(tournament, data.entrants, data.rounds[:completed])
    cards = player_cards(record)
    ranks = ({row.entrant: row.rank for row in compute_standings(record, tournament.tiebreaks)}
             if completed else {})
    pending = _pending_rounds(data)
    rows = []
    for entrant in starting_order(data.entrants):
        card = cards[entrant.pk]
        cells = [{"opponent_seed": _seed(data, item.opponent), "first_move": item.first_move,
                  "result": item.result, "kind": item.kind} for item in card.rounds]
        for _number, boards in pending:
            pairing, first = boards.get(entrant.pk, (None, None))
            other = None if pairing is None else (pairing.entrant_b_id if first
                                                  else pairing.entrant_a_id)
            cells.append({"opponent_seed": _seed(data, other),
                          "first_move": first if other is not None else None,
                          "result": "" if pairing is not None else "–",
                          "kind": "pending" if pairing is not None else "absent"})
        rows.append({**_entrant_row(entrant), "cells": cells, "points": card.points,
                     "rank": ranks.get(entrant.pk)})
    return {"rounds": data.round_numbers(), "after_round": completed, "rows": rows}


def _seed(data: HallData, entrant_id: Any) -> int | None:
    return None if entrant_id is None else data.by_id[int(entrant_id)].seed
