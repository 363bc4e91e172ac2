"""Kugamai: the two-player domino chain game of GAMES.md section 2.

``KugamaiEngine`` holds the rules; ``playout.random_playout`` plays fast random games;
``match.match_decided`` tells whether a match is over.
"""

from games.engines.kugamai.engine import KugamaiEngine
from games.engines.kugamai.match import match_decided

__all__ = ["KugamaiEngine", "match_decided"]
