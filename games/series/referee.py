"""The referee of bot games: every bot, built-in or external, in its own process.

Each seat's bot runs as a separate program (a built-in one through the launcher) behind
the protocol of docs/bot-protocol.md, in the sandbox of :mod:`games.bots.process.sandbox`:
it receives its seat's observation (or the moves since its last update) and its own seed,
nothing else. The referee holds the only true state. A bot that cannot start, crashes,
hangs, floods its output, prints garbage, answers an illegal move or overruns its time
loses the game for its side by forfeit; the outcome says why, with the offending line,
and the caller carries on. Every process of the game is killed when the game ends.

Seeds: ``seeds`` gives one seed per seat; draw them from a secret with
:func:`games.series.seeds.bot_seeds`, never from the deal's seed.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from games.bots.base import BotError
from games.bots.process.driver import BotFault, BotProcess, Identity
from games.bots.process.installed import InstalledBotError, installed_bot
from games.bots.process.sandbox import Program, Sandbox, SandboxError
from games.bots.protocol.messages import (
    GameResult,
    Go,
    NewGame,
    Position,
    Shown,
    format_go,
    format_referee,
)
from games.bots.registry import BOT_KINDS
from games.clocks.running import after_move, time_available
from games.clocks.setting import ClockSetting
from games.engines import EngineError, game_facts, get_engine

#: Spec kinds besides the built-in bot kinds.
INSTALLED, PROGRAM = "installed", "program"


@dataclass(frozen=True)
class BotSpec:
    """A side's bot: a built-in ``kind`` with its settings (``iterations`` and ``seconds``
    per move among them), an installed bot (``BotSpec.installed("name")``, run from the
    bots directory) or a command line (``BotSpec.program([...])``, for local tools such as
    ``bot_check``; workers run installed bots only). A program may be given ``writable``
    host folders (a jailed bot can write nowhere else but its own scratch): for local
    tools and tests, never for installed bots."""

    kind: str
    settings: Mapping[str, Any] = field(default_factory=dict)
    command: tuple[str, ...] = ()
    cwd: str | None = None
    writable: tuple[str, ...] = ()

    @classmethod
    def installed(cls, name: str) -> BotSpec:
        return cls(INSTALLED, {"name": name})

    @classmethod
    def program(cls, command: Sequence[str], cwd: str | None = None,
                writable: Sequence[str] = ()) -> BotSpec:
        if not command:
            raise BotError("a program needs a command line")
        return cls(PROGRAM, {}, tuple(command), cwd, tuple(writable))

    @property
    def label(self) -> str:
        if self.kind == INSTALLED:
            return str(self.settings.get("name"))
        if self.kind == PROGRAM:
            return " ".join(self.command)
        return self.kind


@dataclass(frozen=True)
class Launch:
    """How to start a spec's bot: the program (a command line in its folder, or a built-in
    bot served by the fork server) and its label."""

    program: Program
    label: str


def launch_of(spec: BotSpec, game: str, bots_dir: str | Path | None = None) -> Launch:
    """The command that runs ``spec`` for a game of ``game``."""
    if spec.kind == INSTALLED:
        bot = installed_bot(bots_dir, str(spec.settings.get("name")))
        if not bot.plays(game):
            raise InstalledBotError(f"the installed bot {bot.name!r} does not play {game} "
                                    f"(it plays {', '.join(bot.games)})")
        return Launch(Program(argv=tuple(bot.argv()), cwd=bot.folder, paths=bot.paths,
                              confined_to=bot.folder), bot.name)
    if spec.kind == PROGRAM:
        return Launch(Program(argv=spec.command, cwd=spec.cwd, writable=spec.writable),
                      spec.label)
    if spec.kind in BOT_KINDS:
        try:
            settings = json.loads(json.dumps(dict(spec.settings)))
        except (TypeError, ValueError) as error:
            raise BotError(f"the {spec.kind} bot's settings are not JSON: {error}") from None
        return Launch(Program(builtin=(spec.kind, settings)), spec.kind)
    raise BotError(f"unknown bot kind {spec.kind!r} (kinds: {', '.join(BOT_KINDS)}, "
                   f"{INSTALLED}, {PROGRAM})")


@dataclass(frozen=True)
class RefereeOutcome:
    """How a game ended. ``termination`` is ``normal``, ``forfeit`` or ``time_forfeit``;
    for a forfeit, ``fault`` is its kind (``start``, ``crash``, ``timeout``, ``cpu``,
    ``memory``, ``flood``, ``garbage``, ``protocol`` or ``illegal``), ``fault_seat`` the
    seat at fault and ``fault_line`` the line that caused it, if one did. ``info`` holds
    each move's info lines, ``durations`` each move's seconds, ``bots`` each seat's name."""

    winner_side: int | None
    termination: str  # "normal", "forfeit" or "time_forfeit"
    record: dict[str, Any]
    reason: str = ""
    score_detail: dict[str, Any] | None = None
    fault: str = ""
    fault_seat: int | None = None
    fault_line: str | None = None
    info: list[list[str]] = field(default_factory=list)
    durations: list[float] = field(default_factory=list)
    clock_left: list[float] | None = None
    bots: list[str] = field(default_factory=list)


class _Forfeit(Exception):  # noqa: N818 - control flow inside the referee only
    def __init__(self, seat: int, termination: str, reason: str, fault: str,
                 line: str | None = None) -> None:
        super().__init__(reason)
        self.seat, self.termination, self.reason = seat, termination, reason
        self.fault, self.line = fault, line


def referee_game(
    game: str,
    options: Mapping[str, Any],
    deal: Mapping[str, Any],
    sides: tuple[BotSpec, BotSpec],
    *,
    seeds: Sequence[int],
    clock: ClockSetting | None = None,
    move_seconds: float | None = None,
    sandbox: Sandbox | None = None,
    bots_dir: str | Path | None = None,
    max_moves: int = 1000,
    game_seconds: float | None = None,
) -> RefereeOutcome:
    """Play one game from ``deal``: seat ``s`` is played by a process of side ``s % 2``'s
    bot, seeded with ``seeds[s]``. ``clock`` runs a chess clock per seat; ``move_seconds``
    limits every move; without either, a move may take the sandbox's default limit.
    ``game_seconds`` bounds the whole game: no move may run past it (the ``go`` line says
    so), and the seat thinking when it runs out loses on time."""
    return _Game(game, options, deal, sides, seeds, clock, move_seconds,
                 sandbox or Sandbox(), bots_dir, max_moves, game_seconds).play()


#: The longest reason an outcome gives (a bot's long line is cut).
REASON_CHARS = 1000

#: Characters of info lines a game's record keeps, all moves together (besides the driver's
#: bound per move); moves after that keep none.
INFO_CHARS_PER_GAME = 64_000

#: Moves a seat is assumed to make at most, for its CPU limit (the rules' games need fewer).
CPU_MOVES = 100


def game_sandbox(sandbox: Sandbox, clock: ClockSetting | None,
                 move_seconds: float | None) -> Sandbox:
    """``sandbox`` with a CPU limit that never ends a bot before its clock could: at least
    twice (two threads) the time the clock or the move limit gives a seat over
    :data:`CPU_MOVES` moves."""
    wall: float
    if clock is not None:
        wall = clock.base_seconds + clock.bonus_seconds * CPU_MOVES
    elif move_seconds is not None:
        wall = move_seconds * CPU_MOVES
    else:
        return sandbox
    cpu = max(sandbox.limits.cpu_seconds, math.ceil(2 * wall))
    return replace(sandbox, limits=replace(sandbox.limits, cpu_seconds=cpu))


class _Game:
    def __init__(
        self, game: str, options: Mapping[str, Any], deal: Mapping[str, Any],
        sides: tuple[BotSpec, BotSpec], seeds: Sequence[int], clock: ClockSetting | None,
        move_seconds: float | None, sandbox: Sandbox, bots_dir: str | Path | None,
        max_moves: int, game_seconds: float | None = None,
    ) -> None:
        self.name = game
        self.engine = get_engine(game)
        self.options = dict(options)
        self.state = self.engine.new_game(deal=deal, **self.options)
        self.seats = self.engine.seat_count(**self.options)
        if len(seeds) != self.seats:
            raise ValueError(f"{game} has {self.seats} seats: give {self.seats} bot seeds, "
                             f"not {len(seeds)}")
        self.sides, self.seeds, self.clock = sides, list(seeds), clock
        sandbox = game_sandbox(sandbox, clock, move_seconds)
        self.move_seconds, self.sandbox, self.bots_dir = move_seconds, sandbox, bots_dir
        self.limits = sandbox.limits
        self.max_moves = max_moves
        self.game_seconds = game_seconds
        self.game_deadline: float | None = None
        self.players: list[BotProcess | None] = [None] * self.seats
        self.labels = [sides[seat % 2].label for seat in range(self.seats)]
        self.identities: list[Identity | None] = [None] * self.seats
        self.moves = 0
        self.info: list[list[str]] = []
        self.info_chars = 0
        self.durations: list[float] = []
        self.left = [float(clock.base_seconds)] * self.seats if clock else None
        self.synced = [-1] * self.seats  # moves each seat has heard of (-1: no position)
        self.shown: list[list[list[str]]] = [[] for _ in range(self.seats)]
        self._history: tuple[int, list[str]] = (-1, [])

    # -- the game ------------------------------------------------------------------------

    def play(self) -> RefereeOutcome:
        result: GameResult | None = None
        if self.game_seconds is not None:
            self.game_deadline = time.perf_counter() + self.game_seconds
        try:
            self._start()
            while not self.engine.is_over(self.state):
                if self.moves >= self.max_moves:
                    raise RuntimeError(f"{self.name}: no end after {self.max_moves} moves")
                self._move()
            outcome = self.engine.result(self.state)
            result = GameResult(outcome["winner"], "normal")
            detail = {k: v for k, v in outcome.items() if k != "winner"} or None
            return self._outcome(outcome["winner"], "normal", "", detail)
        except _Forfeit as forfeit:
            winner = 1 - forfeit.seat % 2
            result = GameResult(winner, forfeit.termination)
            return self._outcome(winner, forfeit.termination, forfeit.reason, None,
                                 forfeit.fault, forfeit.seat, forfeit.line)
        finally:
            players = [player for player in self.players if player is not None]
            for player in players:
                player.quit(result)
            for player in players:
                player.close()

    def _start(self) -> None:
        faults: dict[int, tuple[str, str, str | None]] = {}
        for seat in range(self.seats):
            try:
                launch = launch_of(self.sides[seat % 2], self.name, self.bots_dir)
                self.labels[seat] = launch.label
                self.players[seat] = BotProcess(launch.program, sandbox=self.sandbox,
                                                label=launch.label)
            except BotFault as fault:
                faults[seat] = (fault.kind, fault.message, fault.line)
            except (BotError, InstalledBotError, SandboxError) as error:
                faults[seat] = ("start", str(error), None)
        deadline = time.perf_counter() + self.limits.start_seconds
        for seat, player in enumerate(self.players):
            if player is None:
                continue
            new_game = NewGame(self.name, seat, self.seats, self.seeds[seat], self.options)
            try:
                self.identities[seat] = player.handshake(deadline)
                player.new_game(new_game, deadline)
            except BotFault as fault:
                faults[seat] = (fault.kind, fault.message, fault.line)
        if faults:
            seat = min(faults)
            kind, message, line = faults[seat]
            others = "; ".join(f"seat {s} ({self.labels[s]}) also failed: {faults[s][1]}"
                               for s in sorted(faults) if s != seat)
            reason = f"seat {seat} ({self.labels[seat]}) could not start: {message}"
            raise _Forfeit(seat, "forfeit", reason + (f"; {others}" if others else ""),
                           "start" if kind in ("timeout", "crash") else kind, line)

    def _move(self) -> None:
        seat = self.engine.to_move(self.state)
        player = self.players[seat]
        assert player is not None
        allowed, go = self._go(seat)
        lines = [*self._update(seat), format_go(go)]
        number = self.moves + 1
        who = f"seat {seat} ({self.labels[seat]})"
        now = time.perf_counter()
        deadline = now + allowed + self.limits.move_margin_seconds
        game_over = self.game_deadline is not None and self.game_deadline <= deadline
        if game_over:
            assert self.game_deadline is not None
            deadline = self.game_deadline
        out_of_time = f"{who} was on move {number} when the game's {self.game_seconds} s ran out"
        if deadline <= now:
            raise _Forfeit(seat, "time_forfeit", out_of_time, "timeout")
        try:
            reply = player.ask(lines, deadline)
        except BotFault as fault:
            if fault.kind == "timeout" and game_over:
                raise _Forfeit(seat, "time_forfeit", out_of_time, "timeout", fault.line) from None
            if fault.kind == "timeout":
                raise _Forfeit(seat, "time_forfeit", f"{who} did not answer move {number} "
                               f"within {allowed:.2f} s: {fault}", "timeout", fault.line) from None
            raise _Forfeit(seat, "forfeit", f"{who} failed on move {number}: {fault}",
                           fault.kind, fault.line) from None
        if reply.seconds > allowed + self.limits.move_margin_seconds:
            raise _Forfeit(seat, "time_forfeit", f"{who} took {reply.seconds:.2f} s for move "
                           f"{number} (limit {allowed:.2f} s)", "timeout", f"move {reply.move}")
        try:
            self.state = self.engine.play(self.state, reply.move)
        except EngineError as error:
            shown = reply.move if len(reply.move) <= 200 else reply.move[:200] + "..."
            raise _Forfeit(seat, "forfeit", f"{who} played an illegal move {number} "
                           f"{shown!r}: {error}", "illegal", f"move {reply.move}") from None
        if self.clock is not None and self.left is not None:
            self.left[seat] = max(0.0, after_move(self.clock, self.left[seat], reply.seconds))
        self.moves = number
        self.info.append(self._kept_info(reply.info))
        self.durations.append(reply.seconds)

    def _kept_info(self, lines: list[str]) -> list[str]:
        """The info lines of a move the record keeps, within the game's bound."""
        kept = []
        for line in lines:
            if self.info_chars + len(line) > INFO_CHARS_PER_GAME:
                break
            self.info_chars += len(line)
            kept.append(line)
        return kept

    def _go(self, seat: int) -> tuple[float, Go]:
        """How long ``seat`` may take for its move, and the ``go`` that says so."""
        limits = []
        times: tuple[int, ...] = ()
        bonus, bonus_ms = "none", 0
        if self.clock is not None and self.left is not None:
            limits.append(time_available(self.clock, self.left[seat]))
            times = tuple(int(left * 1000) for left in self.left)
            bonus, bonus_ms = self.clock.kind.value, self.clock.bonus_seconds * 1000
        movetime = self.move_seconds
        if movetime is None and self.clock is None:
            movetime = self.limits.default_move_seconds
        if self.game_deadline is not None:  # no move runs past the game's end
            left = max(0.001, self.game_deadline - time.perf_counter())
            movetime = left if movetime is None else min(movetime, left)
        if movetime is not None:
            limits.append(movetime)
        movetime_ms = None if movetime is None else int(movetime * 1000)
        return min(limits), Go(times, bonus, bonus_ms, movetime_ms)

    def _update(self, seat: int) -> list[str]:
        """What ``seat`` must hear before its ``go``: its observation, or (a bot that asked
        for moves, after its first position) the moves since its last update."""
        identity = self.identities[seat]
        shows_hands = game_facts(self.name).pass_shows_hand
        if identity is None or identity.updates != "moves" or self.synced[seat] < 0:
            observation = self.engine.observation(self.state, seat)
            if shows_hands:
                self.shown[seat] = [list(cards) for cards in observation["revealed_by_seat"]]
            self.synced[seat] = self.moves
            return [format_referee(Position(observation))]
        new = self._canonical_history()[self.synced[seat]:]
        self.synced[seat] = self.moves
        lines = ["moves " + " ".join(new)] if new else []
        if shows_hands:
            revealed = self.engine.observation(self.state, seat)["revealed_by_seat"]
            for other, cards in enumerate(revealed):
                if list(cards) != self.shown[seat][other]:
                    self.shown[seat][other] = list(cards)
                    lines.append(format_referee(Shown(other, tuple(cards))))
        return lines

    def _canonical_history(self) -> list[str]:
        moves, history = self._history
        if moves != self.moves:
            history = list(self.engine.to_dict(self.state)["history"])
            self._history = (self.moves, history)
        return history

    def _outcome(
        self, winner: int | None, termination: str, reason: str,
        detail: dict[str, Any] | None, fault: str = "", seat: int | None = None,
        line: str | None = None,
    ) -> RefereeOutcome:
        record = self.engine.record(self.state)
        if any(self.info):
            record["info"] = [list(lines) for lines in self.info]
        bots = [identity.name if identity else self.labels[seat_]
                for seat_, identity in enumerate(self.identities)]
        if len(reason) > REASON_CHARS:
            reason = reason[:REASON_CHARS - 3] + "..."
        return RefereeOutcome(
            winner, termination, record, reason, detail, fault, seat, line,
            self.info, self.durations, list(self.left) if self.left is not None else None, bots,
        )
