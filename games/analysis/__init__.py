"""Position and game analysis for the three games (pure Python, no Django).

>>> from games.analysis import analyse_position, Budget
>>> from games.engines import get_engine
>>> engine = get_engine("kugamai")
>>> report = analyse_position("kugamai", engine.new_game(seed=3), Budget())
>>> report.method
'exact'

Kugamai is solved exactly (:mod:`.kugamai`); Kazambi exactly once its endgame solver
reaches, by seeded MCTS before (:mod:`.kazambi`); Stolbiki by sampling the hidden hands
(:mod:`.stolbiki`). :func:`analyse_game` annotates every move of a recorded game.
"""

from __future__ import annotations

from games.analysis.budget import Budget
from games.analysis.game import analyse_game, position_at
from games.analysis.position import Analyst, analyse_position
from games.analysis.report import (
    AnalysisError,
    GameReport,
    MoveNote,
    MoveValue,
    PositionReport,
)

__all__ = [
    "AnalysisError",
    "Analyst",
    "Budget",
    "GameReport",
    "MoveNote",
    "MoveValue",
    "PositionReport",
    "analyse_game",
    "analyse_position",
    "position_at",
]
