"""Measured times of a recorded game: per move the seconds used and the seconds left on
the mover's clock (the phone clock measures them), and each side's time left at the end.

``Game.move_times`` lists ``[used, left]`` per move in the order played (the side is
implied: moves alternate from the game's first mover). Where the game has a record with
moves, the times must be as many as its moves; a game without a record keeps times only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from core.bounds import MAX_CLOCK_SECONDS
from core.errors import ApplicationError
from matches.models import Game
from matches.services.games import clock_left_clean
from matches.services.results import lock_board
from players.permissions import Actor

#: The most moves a game's times may list (a phone clock keeps at most 2000 taps).
MAX_TIMED_MOVES = 2000


def _seconds(value: Any, index: int, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) \
            or not math.isfinite(value) or not 0 <= value <= MAX_CLOCK_SECONDS:
        raise ApplicationError(
            _("move_times[%(index)d]: the %(what)s must be a number of seconds from 0 to "
              "%(limit)d, not %(value)r.") % {"index": index, "what": what,
                                              "limit": MAX_CLOCK_SECONDS, "value": value},
            field="move_times")
    return round(float(value), 3)


def move_times_clean(move_times: Any) -> list[list[float]]:
    """``[[used, left], ...]``: seconds, each from 0 to :data:`MAX_CLOCK_SECONDS`."""
    if not isinstance(move_times, list | tuple):
        raise ApplicationError(_("move_times must be a list of [seconds used, seconds left] "
                                 "per move."), field="move_times")
    if len(move_times) > MAX_TIMED_MOVES:
        raise ApplicationError(_("A game's times list at most %(most)d moves, not %(count)d.")
                               % {"most": MAX_TIMED_MOVES, "count": len(move_times)},
                               field="move_times")
    cleaned = []
    for index, pair in enumerate(move_times):
        if not isinstance(pair, list | tuple) or len(pair) != 2:
            raise ApplicationError(_("move_times[%(index)d] must be [seconds used, seconds "
                                     "left].") % {"index": index}, field="move_times")
        cleaned.append([_seconds(pair[0], index, _("time used")),
                        _seconds(pair[1], index, _("time left"))])
    return cleaned


@transaction.atomic
def game_times_attach(*, actor: Actor | None, game: Game, move_times: Sequence[Any],
                      clock_left: Sequence[Any] | None = None) -> Game:
    """Store the measured ``move_times`` (and ``clock_left``, each side's seconds left at
    the end, when given) on ``game``. Its result stays as it is."""
    tournament, _pairing = lock_board(actor, game.pairing)
    cleaned = move_times_clean(move_times)
    left = clock_left_clean(tournament, list(clock_left)) if clock_left is not None else None
    game = Game.objects.select_for_update().get(pk=game.pk)
    if game.record is not None and game.move_count is not None \
            and len(cleaned) != game.move_count:
        raise ApplicationError(
            _("Game %(number)d's record has %(moves)d moves but the clock measured "
              "%(timed)d: the times must match the record's moves one for one.")
            % {"number": game.number, "moves": game.move_count, "timed": len(cleaned)},
            field="move_times")
    game.move_times = cleaned
    fields = ["move_times"]
    if left is not None:
        game.clock_left = left
        fields.append("clock_left")
    game.save(update_fields=fields)
    return game
