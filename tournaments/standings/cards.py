"""Player cards: one entrant's tournament round by round, as a hall list prints it.

Per round the opponent, who moved first, the result symbol, the points and the running
score; over the tournament the points, the games over the board against rated opponents,
their average rating and the performance rating (FIDE: forfeits and byes never count).

>>> from tournaments.standings.record import Entrant, RoundEntry, TournamentRecord
>>> ana = Entrant("ana", 1800, (RoundEntry("bo", True, "win"), RoundEntry(None, None, "win",
...                                                                      "pairing_bye")))
>>> bo = Entrant("bo", 1700, (RoundEntry("ana", False, "loss"), RoundEntry(None, None,
...                                                                      "loss", "zero_bye")))
>>> card = player_card(TournamentRecord((ana, bo)), "ana")
>>> [r.running for r in card.rounds], card.points, card.performance
([1.0, 2.0], 2.0, 2500)
"""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.standings.rating import average_rating, performance_rating
from tournaments.standings.record import Entrant, EntrantId, Kind, StandingsError, TournamentRecord
from tournaments.standings.tables import result_symbol

_GAME_POINTS = {"win": 1.0, "draw": 0.5, "loss": 0.0}


@dataclass(frozen=True)
class CardRound:
    """One round of a card (``opponent`` None: a bye or an absence)."""

    number: int
    opponent: EntrantId | None
    first_move: bool | None
    result: str
    kind: Kind
    points: float
    running: float


@dataclass(frozen=True)
class PlayerCard:
    entrant: EntrantId
    rating: int | None
    rounds: tuple[CardRound, ...]
    points: float
    #: Games over the board against rated opponents (what the performance counts).
    rated_games: int
    #: None without a rated game.
    average_opponent_rating: int | None
    performance: int | None


def running_scores(record: TournamentRecord, entrant: EntrantId) -> list[float]:
    """The entrant's score after each round: item ``r - 1`` after round ``r``."""
    return [item.running for item in player_card(record, entrant).rounds]


def performance(record: TournamentRecord, entrant: EntrantId) -> int | None:
    """The performance rating over the games played against rated opponents (None: none)."""
    return player_card(record, entrant).performance


def player_card(record: TournamentRecord, entrant: EntrantId) -> PlayerCard:
    found = next((item for item in record.entrants if item.id == entrant), None)
    if found is None:
        raise StandingsError(f"unknown entrant {entrant!r}")
    return _card(record, found, {item.id: item.rating for item in record.entrants})


def _card(record: TournamentRecord, found: Entrant,
          ratings: dict[EntrantId, int | None]) -> PlayerCard:
    running = 0.0
    rounds = []
    opponents: list[int] = []
    scored = 0.0
    for number, entry in enumerate(found.rounds, start=1):
        points = record.points(entry)
        running += points
        rounds.append(CardRound(number, entry.opponent, entry.first_move,
                                result_symbol(entry), entry.kind, points, running))
        rating = ratings.get(entry.opponent) if entry.opponent is not None else None
        if entry.played and rating is not None:
            opponents.append(rating)
            scored += _GAME_POINTS[entry.result]
    aro = average_rating(opponents) if opponents else None
    tpr = performance_rating(aro, scored, len(opponents)) if aro is not None else None
    return PlayerCard(found.id, found.rating, tuple(rounds), running, len(opponents), aro, tpr)


def player_cards(record: TournamentRecord) -> dict[EntrantId, PlayerCard]:
    """Every entrant's card, by id (a wall chart's rows)."""
    ratings = {item.id: item.rating for item in record.entrants}
    return {item.id: _card(record, item, ratings) for item in record.entrants}
