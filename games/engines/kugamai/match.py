"""Match-level helpers for Kugamai (docs/rules/kugamai.md, "The match"), free of any framework.

A match goes on until one player has won ``target`` games (3); draws do not count. The
option ``max_games`` (default 9) caps its length: when that many games have been played,
more wins decides, and equal wins is a drawn match.

>>> match_decided((3, 1), 5)
(True, 0)
>>> match_decided((2, 2), 9)
(True, None)
>>> match_decided((2, 1), 4)
(False, None)
>>> [low_doubles_seat(game, first=1) for game in range(4)]
[1, 0, 1, 0]
"""

from __future__ import annotations

from games.engines.errors import OptionError
from games.i18n import N_

TARGET_WINS = 3
MAX_GAMES = 9


def match_decided(
    wins: tuple[int, int],
    games_played: int,
    target: int = TARGET_WINS,
    max_games: int = MAX_GAMES,
) -> tuple[bool, int | None]:
    """``(decided, winner)`` of a match after ``games_played`` games (draws included) in
    which seat 0 won ``wins[0]`` and seat 1 ``wins[1]``; ``winner`` is ``None`` while the
    match goes on and for a drawn match. Inconsistent figures raise :class:`OptionError`.

    The seats here are the match's players as seated in its first game.
    """
    if len(wins) != 2 or any(isinstance(w, bool) or not isinstance(w, int) for w in wins):
        raise OptionError(N_("wins must be two whole numbers, not %(wins)r"), wins=wins)
    if target < 1 or max_games < 1:
        raise OptionError(N_("target (%(target)s) and max_games (%(max_games)s) must be at least "
                             "1"),
                          target=target, max_games=max_games)
    first, second = wins
    if first < 0 or second < 0 or first + second > games_played:
        raise OptionError(N_("wins %(first)s and %(second)s do not fit %(games_played)s games "
                             "played"),
                          first=first, second=second, games_played=games_played)
    if first >= target or second >= target:
        if first >= target and second >= target:
            raise OptionError(N_("both players have %(target)s wins; the match ended earlier"),
                              target=target)
        return True, 0 if first >= target else 1
    if games_played >= max_games:
        if first == second:
            return True, None
        return True, 0 if first > second else 1
    return False, None


def low_doubles_seat(game_index: int, first: int = 0) -> int:
    """The seat taking the low doubles (1-1, 2-2, 3-3) in game ``game_index`` (0-based) of
    a match whose first game gave them to seat ``first``, drawn by lot: they alternate.
    Pass it to ``new_game`` as the option ``low_doubles_seat``."""
    if isinstance(first, bool) or first not in (0, 1):
        raise OptionError(N_("kugamai: seat %(first)r does not exist (0..1)"), first=first)
    if isinstance(game_index, bool) or not isinstance(game_index, int) or game_index < 0:
        raise OptionError(N_("kugamai: game index must be 0 or more, not %(game_index)r"),
                          game_index=game_index)
    return (first + game_index) % 2
