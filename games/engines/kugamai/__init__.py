"""Kugamai: the two-player domino chain game of docs/rules/kugamai.md.

``KugamaiEngine`` holds the rules; ``playout.random_playout`` plays fast random games;
``match.match_decided`` tells whether a match is over and ``match.low_doubles_seat``
who takes the low doubles in each game of it.
"""

from games.engines.kugamai.engine import KugamaiEngine
from games.engines.kugamai.match import low_doubles_seat, match_decided

__all__ = ["KugamaiEngine", "low_doubles_seat", "match_decided"]
