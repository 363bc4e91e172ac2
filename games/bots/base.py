"""The bot interface: a bot gets what its seat may see and returns a move text.

``Bot.choose(game, observation, budget)`` takes the engine name and the observation that
``engine.observation(state, seat)`` gives the seat to move: the whole state for Kazambi and
Kugamai (perfect information), only the seat's own hand, the table, hand sizes and shown
cards for Stolbiki. A bot never sees a Stolbiki state document with every hand:
:func:`check_observation` refuses it.
"""

from __future__ import annotations

import random
import time
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from games.engines import ENGINE_NAMES, game_facts, get_engine
from games.i18n import N_, Message, MessageError

DEFAULT_ITERATIONS = 1000


class BotError(MessageError):
    """A bot was set up or called with bad input (unknown kind, bad budget, wrong game)."""


class HiddenInformationError(BotError):
    """A bot was handed information its seat may not see (another seat's hidden cards)."""


@dataclass(frozen=True, slots=True)
class Budget:
    """How long a bot may think about one move.

    ``iterations`` gives reproducible play (same seed, same moves); ``seconds`` is a wall
    clock limit per move and ``cpu_seconds`` a limit of the searching thread's CPU time
    (:func:`time.thread_time`: the process's own in a bot's one-thread process, one
    request's in a threaded web server), fairer than wall time on a shared machine. With
    several, the search stops at whichever comes first; with none, it runs the bot's
    default (:data:`DEFAULT_ITERATIONS` iterations unless the bot says otherwise).
    """

    iterations: int | None = None
    seconds: float | None = None
    cpu_seconds: float | None = None

    def __post_init__(self) -> None:
        if self.iterations is not None and (
            isinstance(self.iterations, bool)
            or not isinstance(self.iterations, int)
            or self.iterations < 1
        ):
            raise BotError(
                N_("budget iterations must be a whole number >= 1, not %(iterations)r"),
                iterations=self.iterations
            )
        if self.seconds is not None and (
            isinstance(self.seconds, bool)
            or not isinstance(self.seconds, int | float)
            or not self.seconds > 0
        ):
            raise BotError(N_("budget seconds must be a positive number, not %(seconds)r"),
                           seconds=self.seconds)
        if self.cpu_seconds is not None and (
            isinstance(self.cpu_seconds, bool)
            or not isinstance(self.cpu_seconds, int | float)
            or not self.cpu_seconds > 0
        ):
            raise BotError(
                N_("budget cpu_seconds must be a positive number, not %(seconds)r"),
                seconds=self.cpu_seconds
            )

    @property
    def unset(self) -> bool:
        """True when the budget names no limit (the bot's default applies)."""
        return self.iterations is None and self.seconds is None and self.cpu_seconds is None

    def clock(self) -> BudgetClock:
        """A countdown for one move."""
        iterations = DEFAULT_ITERATIONS if self.unset else self.iterations
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        cpu_deadline = (
            None if self.cpu_seconds is None else time.thread_time() + self.cpu_seconds
        )
        return BudgetClock(iterations, deadline, cpu_deadline)

    def seconds_left(self) -> float | None:
        """The tighter of the time limits in seconds, ``None`` without one."""
        limits = [limit for limit in (self.seconds, self.cpu_seconds) if limit is not None]
        return min(limits) if limits else None


class BudgetClock:
    """Counts the iterations of one search against its :class:`Budget`."""

    __slots__ = ("limit", "deadline", "cpu_deadline", "done")

    def __init__(
        self, limit: int | None, deadline: float | None, cpu_deadline: float | None = None
    ) -> None:
        self.limit = limit
        self.deadline = deadline
        self.cpu_deadline = cpu_deadline
        self.done = 0

    def tick(self) -> bool:
        """Count one iteration; return True while another one is allowed."""
        self.done += 1
        if self.limit is not None and self.done >= self.limit:
            return False
        if self.cpu_deadline is not None and time.thread_time() >= self.cpu_deadline:
            return False
        return self.deadline is None or time.perf_counter() < self.deadline

    def expired(self) -> bool:
        """True once a time limit (if any) has passed."""
        return (self.deadline is not None and time.perf_counter() >= self.deadline) or (
            self.cpu_deadline is not None and time.thread_time() >= self.cpu_deadline
        )


def check_observation(game: str, observation: Mapping[str, Any]) -> int:
    """Check that ``observation`` is a seat's view of a game of ``game`` that is not over;
    return the seat to move (the seat the bot plays)."""
    if game not in ENGINE_NAMES:
        raise BotError(N_("unknown game %(game)r (games: %(games)s)"),
                       game=game, games=', '.join(ENGINE_NAMES))
    if not isinstance(observation, Mapping):
        raise BotError(N_("an observation must be a JSON object (engine.observation(state, seat))"))
    if observation.get("game", game) != game:
        raise BotError(N_("observation is for %(given)r, not %(game)r"),
                       given=observation.get("game"), game=game)
    to_move = observation.get("to_move")
    if isinstance(to_move, bool) or not isinstance(to_move, int):
        raise BotError(N_("observation needs 'to_move', the seat whose turn it is"))
    if not get_engine(game).perfect_information:
        if "hands" in observation:
            raise HiddenInformationError(
                N_("a %(label)s bot must get engine.observation(state, seat), not the state "
                   "document: that one shows every seat's hidden cards"),
                label=Message(game_facts(game).label)
            )
        if observation.get("seat") != to_move:
            raise BotError(
                N_("the observation is seat %(seat)r's, but seat %(to_move)s is to move: a bot "
                   "only moves for the seat whose view it gets"),
                seat=observation.get("seat"), to_move=to_move
            )
        if observation.get("is_over"):
            raise BotError(N_("the game is over: there is no move to choose"))
    return to_move


class Bot(ABC):
    """A player. ``seed`` makes it reproducible: the same seed, observations and budgets
    give the same moves (with an iteration budget)."""

    kind: ClassVar[str]

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(
        self, game: str, observation: Mapping[str, Any], budget: Budget | None = None
    ) -> str:
        """The canonical text of the move this bot plays for the seat to move."""
        check_observation(game, observation)
        return self.pick(game, observation, budget or Budget())

    @abstractmethod
    def pick(self, game: str, observation: Mapping[str, Any], budget: Budget) -> str:
        """:meth:`choose` after the observation was checked."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} seed={self.seed!r}>"
