"""The prize tests' events: a four-player round robin played through the results
service (players A, B, C, D rated 2000, 1900, 1800, 1700), and the results worked by
hand."""

from __future__ import annotations

from typing import Any

from games.series.format import MatchScore
from matches import services as match_services
from tests.worlds import people, tournament_of
from tournaments import services
from tournaments.models import Tournament
from tournaments.services.prizes import PrizeSpec

#: Who beat whom: (first, second) -> "first" / "second" / "draw" by player name.
Results = dict[frozenset[str], str]


def cash(*amounts: int) -> list[PrizeSpec]:
    return [PrizeSpec(cash=amount) for amount in amounts]


def play(organizer: Any, club_a: Any, results: Results, ratings: dict[str, int] | None = None,
         finish: bool = True, names: tuple[str, ...] = ("A", "B", "C", "D"),
         **fields: Any) -> Tournament:
    """A four-player round robin (A 2000, B 1900, C 1800, D 1700 unless ``ratings``)
    played to the end with ``results`` (winner's name or "draw" per pair), finished
    unless asked not to; ``names`` are the players' display names for A, B, C, D."""
    letter = dict(zip(names, "ABCD", strict=True))
    players = people(club_a, list(names))
    tournament = tournament_of(organizer, club_a, players, name="Prize cup",
                               top_rating=2000, rating_step=100, **fields)
    if ratings:
        services.entrant_ratings_update(
            actor=organizer, tournament=tournament,
            ratings={e.pk: ratings[letter[e.name]] for e in tournament.entrants.all()
                     if letter[e.name] in ratings})
    tournament = services.tournament_start(actor=organizer, tournament=tournament)
    for _ in range(3):
        round_ = services.round_pair_next(actor=organizer, tournament=tournament,
                                          release=True)
        for pairing in round_.pairings.select_related("entrant_a__player",
                                                      "entrant_b__player"):
            if pairing.entrant_b is None:
                continue
            a, b = letter[pairing.entrant_a.name], letter[pairing.entrant_b.name]
            winner = results[frozenset((a, b))]
            score = MatchScore(0, 0, 1) if winner == "draw" else \
                MatchScore(1, 0, 0) if winner == a else MatchScore(0, 1, 0)
            match_services.result_record(actor=organizer, pairing=pairing, score=score,
                                         expected_version=pairing.version)
    if finish:
        tournament = services.tournament_finish(actor=organizer, tournament=tournament)
    tournament.refresh_from_db()
    return tournament


def pair(a: str, b: str) -> frozenset[str]:
    return frozenset((a, b))


#: A beats everyone (3); B, C and D draw among themselves (1 each): tied for 2nd-4th.
THREE_WAY: Results = {pair("A", "B"): "A", pair("A", "C"): "A", pair("A", "D"): "A",
                      pair("B", "C"): "draw", pair("B", "D"): "draw", pair("C", "D"): "draw"}
#: A 3, B 2, C 1, D 0: no ties.
LADDER: Results = {pair("A", "B"): "A", pair("A", "C"): "A", pair("A", "D"): "A",
                   pair("B", "C"): "B", pair("B", "D"): "B", pair("C", "D"): "C"}


