"""Match series between two sides: formats, when a match is decided, and who plays which
role in each game (first move, low doubles, duplicate deals). Pure Python."""

from games.series.deals import CheckedRecord, check_record, deal_for_game
from games.series.format import MatchFormat, MatchScore, SeriesError
from games.series.roles import GameRoles, game_roles

__all__ = [
    "CheckedRecord",
    "GameRoles",
    "MatchFormat",
    "MatchScore",
    "SeriesError",
    "check_record",
    "deal_for_game",
    "game_roles",
]
