"""Reads for tournaments: lists, rounds with pairings, standings, crosstables.

The standings selectors load a tournament's entrants and pairings in a fixed number of
queries (two), whatever the number of rounds and entrants, and leave the work to the
pure standings core.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Prefetch, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from core.bounds import MAX_MATCH_GAMES
from games.engines import game_facts
from games.series.format import MatchFormat, SeriesError
from players.models import Player, TeamMembership
from players.permissions import managed_clubs
from tournaments import adapters, texts
from tournaments.csv_cells import csv_text
from tournaments.models import (
    PAIRING_JOB_ACTIVE,
    ByeKind,
    Entrant,
    Pairing,
    PairingJob,
    Round,
    Status,
    Tournament,
    released_filter,
)


def stored_match_format(tournament: Tournament) -> MatchFormat:
    """The tournament's match format as stored (``SeriesError`` if it cannot be read)."""
    return MatchFormat.from_dict(tournament.match_format or {})


def match_format_of(tournament: Tournament) -> MatchFormat:
    """The tournament's match format as played: a first-to-N stored without a cap (before
    the bound) plays at most :data:`MAX_MATCH_GAMES` games."""
    match_format = stored_match_format(tournament)
    if match_format.kind == "first_to" and match_format.max_games is None:
        cap = max(MAX_MATCH_GAMES, match_format.games)
        match_format = MatchFormat("first_to", match_format.games, cap,
                                   match_format.duplicate)
    return match_format


def games_can_be_drawn(tournament: Tournament) -> bool:
    """Can one game of ``tournament`` be drawn (its game's facts; Kazambi: never)?"""
    return game_facts(tournament.game).draws_possible


def matches_can_be_drawn(tournament: Tournament) -> bool:
    """Can a match of ``tournament`` end level (drawn games, or an even number of games
    with the wins shared)? Pages offer and explain draws only when it can."""
    try:
        match_format = stored_match_format(tournament)
    except SeriesError:
        return True
    return match_format.can_end_level(games_can_be_drawn(tournament))


def tournament_list() -> QuerySet[Tournament]:
    return (
        Tournament.objects.select_related("club")
        .annotate(entrant_count=Count("entrants")).order_by("-created_at", "-id")
    )


def entrant_list(tournament: Tournament) -> QuerySet[Entrant]:
    return tournament.entrants.select_related("player", "team").order_by("seed", "id")


def match_names(tournament: Tournament) -> dict[str, str]:
    """A knockout's match names by match id ("Final", "Grand final"; empty for other
    systems): the bracket's shape follows from the seeded entrants, read in one query."""
    if not tournament.system.has_bracket:
        return {}
    seed_of = {pk: seed for pk, seed in tournament.entrants.filter(seed__isnull=False)
               .values_list("id", "seed") if seed is not None}
    if len(seed_of) < 2:
        return {}
    return texts.match_names(adapters.bracket_of(tournament, [], seed_of))


def _pairings_with_names() -> QuerySet[Pairing]:
    return Pairing.objects.select_related(
        "entrant_a__player", "entrant_a__team", "entrant_b__player", "entrant_b__team"
    ).order_by("board")


def released_rounds(tournament: Tournament | None = None) -> QuerySet[Round]:
    """The rounds the public sees (every page, table and feed reads rounds through this or
    :meth:`RoundQuerySet.released`): a draft round stays with its organizers."""
    rounds = Round.objects.released()
    return rounds.filter(tournament=tournament) if tournament is not None else rounds


def _seen_by(user: Any) -> Q:
    """Released rounds, and every round of the clubs ``user`` organizes."""
    return released_filter() | Q(tournament__club__in=managed_clubs(user))


def round_list(tournament: Tournament | None = None, *, viewer: Any = None,
               drafts: bool = False) -> QuerySet[Round]:
    """Rounds with their boards: released ones, plus the drafts ``viewer`` organizes (or
    every draft with ``drafts``, for the organizers' own pages)."""
    rounds = Round.objects.select_related("tournament__club").prefetch_related(
        Prefetch("pairings", queryset=_pairings_with_names())
    )
    if not drafts:
        rounds = rounds.filter(_seen_by(viewer))
    return rounds.filter(tournament=tournament) if tournament is not None else rounds


def needing_boards(number: int, entrants: Iterable[Entrant], on_fixed_bye: set[int]) -> list[int]:
    """The entrants who need a board in round ``number``: everyone playing it, but those
    on a requested (or absent) bye (``on_fixed_bye``)."""
    return [e.pk for e in entrants if e.plays_in(number) and e.pk not in on_fixed_bye]


def unpaired_entrants(round_: Round, entrants: Iterable[Entrant] | None = None,
                      pairings: Iterable[Pairing] | None = None) -> list[Entrant]:
    """Entrants a hand edit left without a board in the round, by starting number (the
    tournament's entrants and the round's pairings are read unless given)."""
    if entrants is None:
        entrants = round_.tournament.entrants.select_related("player", "team")
    if pairings is None:
        pairings = round_.pairings.all()
    rows = [p for p in pairings if p.round_id == round_.pk]
    seated = {e for p in rows for e in (p.entrant_a_id, p.entrant_b_id) if e is not None}
    fixed = {p.entrant_a_id for p in rows
             if p.entrant_b_id is None and p.bye_kind != ByeKind.PAIRING_ALLOCATED}
    ordered = sorted(entrants, key=lambda e: (e.seed if e.seed is not None else 1 << 30, e.pk))
    needed = set(needing_boards(round_.number, ordered, fixed))
    return [e for e in ordered if e.pk in needed and e.pk not in seated]


def pairing_facts(tournament: Tournament) -> list[str]:
    """The pairing settings a Swiss's round pages state (admin and public): acceleration
    and who moves first in round 1."""
    if not tournament.system.pairs_by_trf:
        return []
    return [gettext("Baku acceleration: on") if tournament.baku_acceleration
            else gettext("Baku acceleration: off"),
            gettext("First move in round 1: %(who)s") % {
                "who": tournament.get_first_colour_display()}]


def round_clock(round_: Round) -> str:
    """The clock the round plays: its own setting, or the tournament's."""
    return str(round_.clock or round_.tournament.clock or "")


def pairing_list(*, viewer: Any = None, drafts: bool = False) -> QuerySet[Pairing]:
    """Boards with names: those of released rounds, plus the drafts ``viewer`` organizes
    (every board with ``drafts``)."""
    pairings = _pairings_with_names().select_related("round__tournament__club")
    if not drafts:
        pairings = pairings.filter(released_filter("round__")
                                   | Q(round__tournament__club__in=managed_clubs(viewer)))
    return pairings


@dataclass
class TournamentData:
    """Everything the standings need, loaded once."""

    tournament: Tournament
    entrants: list[Entrant]
    rounds: list[list[Pairing]]
    by_id: dict[int, Entrant] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.by_id = {entrant.pk: entrant for entrant in self.entrants}

    @property
    def completed_rounds(self) -> int:
        return adapters.completed_rounds(self.rounds)


def tournament_data(tournament: Tournament, *, drafts: bool = False) -> TournamentData:
    """Entrants (with names) and the pairings of released rounds (of every round with
    ``drafts``: the organizers' dashboard), grouped by round: two queries."""
    entrants = list(tournament.entrants.select_related("player", "team"))
    pairings = Pairing.objects.filter(round__tournament=tournament).select_related("round")
    if not drafts:
        pairings = pairings.released()
    by_number: dict[int, list[Pairing]] = {}
    for pairing in pairings.order_by("round__number", "board"):
        by_number.setdefault(pairing.round.number, []).append(pairing)
    return TournamentData(tournament, entrants, [by_number[n] for n in sorted(by_number)])


def _entrant_fields(entrant: Entrant | None) -> dict[str, Any]:
    if entrant is None:
        return {"entrant": None, "name": None, "seed": None, "rating": None}
    return {"entrant": entrant.pk, "name": entrant.name, "seed": entrant.seed,
            "rating": entrant.rating}


def standings(tournament: Tournament) -> dict[str, Any]:
    """Standings after the last complete round: rank, entrant, points, tie-breaks.

    A knockout's standings are the bracket placements (shared places for those knocked
    out at the same stage; None for those still in).
    """
    data = tournament_data(tournament)
    if tournament.system.has_bracket:
        return _knockout_standings(data)
    from tournaments.standings import compute_standings

    record = adapters.standings_record(tournament, data.entrants, data.rounds)
    rows = compute_standings(record, tournament.tiebreaks)
    return {
        "after_round": data.completed_rounds,
        "tiebreaks": list(tournament.tiebreaks),
        "rows": [
            {"rank": row.rank, **_entrant_fields(data.by_id[int(row.entrant)]),
             "points": row.points, "tiebreaks": row.tiebreaks}
            for row in rows
        ],
    }


def _knockout_standings(data: TournamentData) -> dict[str, Any]:
    seeded = [e for e in data.entrants if e.seed is not None]
    if not seeded:
        return {"after_round": 0, "tiebreaks": [], "rows": []}
    seed_of = {e.pk: int(e.seed) for e in seeded if e.seed is not None}
    by_seed = {seed: data.by_id[pk] for pk, seed in seed_of.items()}
    pairings = [p for pairings in data.rounds for p in pairings]
    bracket = adapters.bracket_of(data.tournament, pairings, seed_of)
    places = bracket.placement()
    wins: dict[int, int] = {}
    for pairing in pairings:
        winner = adapters.knockout_winner(pairing)
        if winner is not None and pairing.entrant_b_id is not None:
            wins[winner] = wins.get(winner, 0) + 1
    ordered = sorted(places.items(), key=lambda item: (item[1] or 0, item[0]))
    return {
        "after_round": data.completed_rounds,
        "tiebreaks": [],
        "rows": [
            {"rank": place, **_entrant_fields(by_seed[seed]),
             "points": wins.get(by_seed[seed].pk, 0), "tiebreaks": {}}
            for seed, place in ordered
        ],
        "bracket": bracket.to_dict(),
    }


def _name_ids(value: Any, data: TournamentData) -> Any:
    """Replace entrant ids in a crosstable document by id-and-name objects."""
    if isinstance(value, dict):
        return {
            key: (_entrant_fields(data.by_id.get(item)) if key in ("entrant", "opponent")
                  and isinstance(item, int) else _name_ids(item, data))
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [_name_ids(item, data) for item in value]
    return value


def crosstable(tournament: Tournament) -> dict[str, Any]:
    from tournaments.standings import compute_standings
    from tournaments.standings import crosstable as build_crosstable

    data = tournament_data(tournament)
    record = adapters.standings_record(tournament, data.entrants, data.rounds)
    rows = compute_standings(record, tournament.tiebreaks)
    table = build_crosstable(record, rows)
    table["entrants"] = [_entrant_fields(data.by_id[int(i)]) for i in table["entrants"]]
    table["rows"] = _name_ids(table["rows"], data)
    return {"after_round": data.completed_rounds, **table}


def round_by_round(tournament: Tournament) -> dict[str, Any]:
    from tournaments.standings import compute_standings
    from tournaments.standings import round_by_round as build_table

    data = tournament_data(tournament)
    record = adapters.standings_record(tournament, data.entrants, data.rounds)
    rows = compute_standings(record, tournament.tiebreaks)
    return {"after_round": data.completed_rounds,
            "rows": _name_ids(build_table(record, rows), data)}


def points_before_rounds(tournament: Tournament) -> dict[int, list[float]]:
    """Per entrant id, the points each had when each round began: item ``r - 1`` for round
    ``r``, for every round up to the one after the last complete round (pairing sheets
    print them). Empty for a knockout, where matches won are not points."""
    if tournament.system.has_bracket:
        return {}
    data = tournament_data(tournament)
    record = adapters.standings_record(tournament, data.entrants, data.rounds)
    before: dict[int, list[float]] = {}
    for entrant in record.entrants:
        total = 0.0
        points = [total]
        for entry in entrant.rounds:
            total += record.points(entry)
            points.append(total)
        before[int(entrant.id)] = points
    return before


def standings_csv(tournament: Tournament) -> str:
    """The standings as CSV: rank, seed, name, rating, points, then each tie-break."""
    table = standings(tournament)
    header = ["rank", "seed", "name", "rating", "points", *table["tiebreaks"]]
    return csv_text([header, *(
        [row["rank"] or "", row["seed"] or "", row["name"], row["rating"], row["points"],
         *(row["tiebreaks"].get(k) for k in table["tiebreaks"])]
        for row in table["rows"])])


def tournament_trf(tournament: Tournament) -> str:
    """The tournament as TRF-16 text (Swiss and round robin; FIDE's exchange format), with
    each player's place in the standings in the rank column; a Swiss's settings and
    forbidden pairs as the extension lines pairing programs read."""
    from dataclasses import replace

    from tournaments.trf import write_trf

    data = tournament_data(tournament)
    forbidden = tournament.forbidden_pairings.values_list("entrant_low_id", "entrant_high_id")
    document = adapters.trf_document(tournament, data.entrants, data.rounds,
                                     forbidden=forbidden)
    if not tournament.system.has_bracket and data.entrants:
        start_rank = {e.pk: n for n, e in enumerate(adapters.pairing_order(data.entrants), 1)}
        place = {start_rank[row["entrant"]]: row["rank"] for row in standings(tournament)["rows"]}
        document.players = [replace(player, rank=place.get(player.start_rank))
                            for player in document.players]
    return write_trf(document)


def rounds_remaining(tournament: Tournament) -> int:
    """Rounds still to pair, as the tournament's system counts them: what the Berger
    schedule has left (round robin), the rounds planned (Swiss), or the bracket's (knockout:
    as if the first entrant of each match won, so a double elimination's grand-final reset
    is not counted).

    A round already paired counts as done, even while its results are awaited.
    """
    return rounds_remaining_of(
        tournament, list(tournament.entrants.all()),
        list(Pairing.objects.filter(round__tournament=tournament)), tournament.rounds.count())


def rounds_remaining_of(tournament: Tournament, entrants: list[Entrant],
                        pairings: list[Pairing], paired: int) -> int:
    """:func:`rounds_remaining` over rows already loaded (for many tournaments at once)."""
    state = adapters.system_state(tournament, adapters.system_entries(entrants), pairings, paired)
    return tournament.system.rounds_remaining(state)


def rounds_total(tournament: Tournament) -> int:
    """Rounds paired so far plus :func:`rounds_remaining`."""
    return tournament.rounds.count() + rounds_remaining(tournament)


#: A team event's members by team id (see :func:`members_by_team`).
Members = dict[int, list[Player]]


def members_by_team(tournament: Tournament) -> Members:
    """A team event's members by team, as they were while it was played: memberships open
    on any day from its creation to its end (or today). One query; empty (none) for an
    event of players."""
    if tournament.entrant_kind != "teams":
        return {}
    start = tournament.created_at.date()
    end = (tournament.updated_at if tournament.status == Status.FINISHED
           else timezone.now()).date()
    memberships = (TeamMembership.objects
                   .filter(team__entries__tournament=tournament, joined_on__lte=end)
                   .filter(Q(left_on__isnull=True) | Q(left_on__gte=start))
                   .select_related("player").order_by("joined_on", "player__display_name"))
    members: Members = {}
    for membership in memberships:
        team_players = members.setdefault(membership.team_id, [])
        if membership.player not in team_players:
            team_players.append(membership.player)
    return members


def active_pairing_job(tournament: Tournament) -> PairingJob | None:
    """The tournament's queued or running pairing job, if any."""
    return tournament.pairing_jobs.filter(status__in=PAIRING_JOB_ACTIVE).first()
