"""Time controls of several periods, time odds per side, and a running game clock.

A **time control** is one or more periods; each period gives a number of moves, the time
added when the period begins and the per-move bonus of :mod:`games.clocks.setting`
(Fischer increment, Bronstein delay or simple delay). Text form: periods separated by
commas, a period with a move count written ``moves/setting``::

    15+10                 one period: 15 minutes, 10 s Fischer increment (sudden death)
    40/90+30, 30+30       90 min for 40 moves, then 30 min more for the rest; +30 s throughout
    40/120, 20/60, 15     2 hours for 40 moves, 1 hour for the next 20, 15 minutes for the rest
    40/120                2 hours for every 40 moves (a last period with a move count repeats)

**Odds**: each side may have its own control (``controls_for(text, odds_text)``: side B's
text, empty for the same as side A).

:class:`GameClock` runs two clocks from taps, in whole milliseconds, with the rules of
:mod:`games.clocks.running` for one move (the flag falls when a move uses all the time
available, a bonus is added only after a completed move) plus the periods: when a seat
completes the last move of a period, the next period's time is added to its clock and
the next period's bonus applies from its next move. The arbiter may pause and resume
(paused time counts for nobody, a simple delay is not restarted by a pause) and add time
to a seat.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum

from games.clocks.errors import ClockInputError, ClockNotationError
from games.clocks.setting import ClockSetting, IncrementKind, format_setting, parse_setting
from games.i18n import N_

MAX_PERIODS = 5
MAX_PERIOD_MOVES = 500
#: The most time the arbiter may add with one tap.
MAX_ADDED_MS = 3600 * 1000
#: A flag claimed this early (ms of time still left) is still accepted: the phone's
#: display and the recorded timestamps may differ by a frame or a rounding.
FLAG_TOLERANCE_MS = 1000


@dataclass(frozen=True, slots=True)
class Period:
    """``moves`` moves (None: the rest of the game) with ``setting``'s time and bonus."""

    setting: ClockSetting
    moves: int | None = None


@dataclass(frozen=True, slots=True)
class TimeControl:
    periods: tuple[Period, ...]

    def __post_init__(self) -> None:
        if not 1 <= len(self.periods) <= MAX_PERIODS:
            raise ClockInputError(N_("a time control has 1 to %(most)s periods"),
                                  most=MAX_PERIODS)
        for period in self.periods[:-1]:
            if period.moves is None:
                raise ClockInputError(
                    N_("only the last period may run to the end of the game: give the "
                       "others a move count, like \"40/90+30, 30+30\""))

    @property
    def first(self) -> ClockSetting:
        return self.periods[0].setting

    def period(self, index: int) -> Period:
        """The ``index``-th period (0-based); past the end, the last one repeats."""
        return self.periods[min(index, len(self.periods) - 1)]

    def max_seconds_for(self, moves: float) -> float:
        """The most clock time a seat making ``moves`` moves can use."""
        total, done, index = 0.0, 0.0, 0
        while True:
            period = self.period(index)
            total += period.setting.base_seconds
            span = moves - done if period.moves is None else min(period.moves, moves - done)
            total += period.setting.bonus_seconds * max(span, 0)
            done += span
            if done >= moves or period.moves is None:
                return total
            index += 1

    def __str__(self) -> str:
        return format_control(self)


_PERIOD = re.compile(r"^\s*(?:(?P<moves>\d+)\s*/)?\s*(?P<setting>[^/]+?)\s*$")


def parse_control(text: str) -> TimeControl:
    """Read a time control from its text form (see the module docstring)."""
    if not isinstance(text, str) or not text.strip() or "\x00" in text or len(text) > 100:
        raise ClockNotationError(
            N_("cannot read time control %(text)r: write periods like \"15+10\" or "
               "\"40/90+30, 30+30\""), text=text if isinstance(text, str) else repr(text))
    periods = []
    for part in text.split(","):
        match = _PERIOD.match(part)
        if match is None:
            raise ClockNotationError(
                N_("cannot read period %(part)r: write \"moves/minutes+bonus\" like "
                   "\"40/90+30\", or a setting like \"30+30\""), part=part.strip())
        moves = int(match["moves"]) if match["moves"] else None
        if moves is not None and not 1 <= moves <= MAX_PERIOD_MOVES:
            raise ClockInputError(N_("a period has 1 to %(most)s moves, not %(moves)s"),
                                  most=MAX_PERIOD_MOVES, moves=moves)
        periods.append(Period(parse_setting(match["setting"]), moves))
    return TimeControl(tuple(periods))


def format_control(control: TimeControl) -> str:
    return ", ".join(
        (f"{period.moves}/" if period.moves else "") + format_setting(period.setting)
        for period in control.periods)


def controls_for(text: str, odds: str = "") -> tuple[TimeControl, TimeControl]:
    """Side A's and side B's controls: ``odds`` is side B's text (empty: the same)."""
    first = parse_control(text)
    return first, (parse_control(odds) if odds and odds.strip() else first)


class TapKind(StrEnum):
    START = "start"
    MOVE = "move"
    PAUSE = "pause"
    RESUME = "resume"
    ADD_TIME = "add_time"
    FLAG = "flag"
    RESIGN = "resign"
    DRAW = "draw"


@dataclass(frozen=True, slots=True)
class Tap:
    """One tap: ``seat`` is the seat that moved (move), whose clock starts (start), that
    gets time (add_time), whose flag fell (flag), that resigns (resign) or that entered a
    draw agreed by both (draw: the game ends without a loser)."""

    kind: TapKind
    seat: int
    at_ms: int
    amount_ms: int = 0


@dataclass(frozen=True, slots=True)
class TapOutcome:
    """What a tap did: for a move, the time it used and the seat's time left after it
    (with the bonus); for the others the seat's time left at the tap."""

    seat: int
    used_ms: int
    left_ms: int
    move: int = 0


@dataclass
class GameClock:
    """Two seats' clocks run from taps (times in ms; taps' ``at_ms`` never go back)."""

    controls: tuple[TimeControl, TimeControl]
    left: list[int] = field(default_factory=list)
    moves: list[int] = field(default_factory=lambda: [0, 0])
    periods: list[int] = field(default_factory=lambda: [0, 0])
    period_moves: list[int] = field(default_factory=lambda: [0, 0])
    running: int | None = None
    paused: bool = False
    started: bool = False
    #: The running seat's time spent on its current move so far (paused time excluded).
    move_elapsed: int = 0
    since: int = 0
    finished: str = ""
    loser: int | None = None
    last_at: int = 0

    def __post_init__(self) -> None:
        if not self.left:
            self.left = [c.first.base_seconds * 1000 for c in self.controls]

    def setting(self, seat: int) -> ClockSetting:
        return self.controls[seat].period(self.periods[seat]).setting

    def _elapsed(self, at_ms: int) -> int:
        if self.running is None or self.paused:
            return self.move_elapsed
        return self.move_elapsed + at_ms - self.since

    def available_ms(self, seat: int) -> int:
        """How long the seat's current move may last before its flag falls."""
        setting = self.setting(seat)
        delay = setting.bonus_seconds * 1000 if setting.kind is IncrementKind.SIMPLE_DELAY else 0
        return self.left[seat] + delay

    def shown_ms(self, seat: int, at_ms: int) -> int:
        """What seat's clock shows at ``at_ms`` (0 once the flag fell)."""
        if seat != self.running:
            return self.left[seat]
        return max(0, self._left_after(seat, self._elapsed(at_ms), bonus=False))

    def _left_after(self, seat: int, used: int, *, bonus: bool) -> int:
        setting = self.setting(seat)
        kind, extra = setting.kind, setting.bonus_seconds * 1000
        left = self.left[seat]
        if kind is IncrementKind.SIMPLE_DELAY:
            return left - max(0, used - extra)
        if not bonus:
            return left - used
        if kind is IncrementKind.FISCHER:
            return left - used + extra
        if kind is IncrementKind.BRONSTEIN:
            return left - used + min(extra, used)
        return left - used

    def apply(self, tap: Tap) -> TapOutcome:
        """Apply one tap, or raise :class:`ClockInputError` saying why it cannot be."""
        if tap.seat not in (0, 1):
            raise ClockInputError(N_("seat %(seat)r is not 0 or 1"), seat=tap.seat)
        if not isinstance(tap.at_ms, int) or tap.at_ms < self.last_at:
            raise ClockInputError(N_("tap times must not go back (%(at)r after %(last)s)"),
                                  at=tap.at_ms, last=self.last_at)
        if self.finished:
            raise ClockInputError(N_("the game is over (%(how)s): no more taps"),
                                  how=self.finished)
        kind = TapKind(tap.kind)
        self.last_at = tap.at_ms
        if kind is TapKind.START:
            if self.started:
                raise ClockInputError(N_("the clock is already started"))
            self.started, self.running, self.since, self.move_elapsed = True, tap.seat, tap.at_ms, 0
            return TapOutcome(tap.seat, 0, self.left[tap.seat])
        if not self.started:
            raise ClockInputError(N_("start the clock first"))
        if kind is TapKind.MOVE:
            return self._move(tap)
        if kind is TapKind.PAUSE:
            if self.paused:
                raise ClockInputError(N_("the clock is already paused"))
            self.move_elapsed = self._elapsed(tap.at_ms)
            self.paused = True
            return TapOutcome(tap.seat, 0, self.shown_ms(tap.seat, tap.at_ms))
        if kind is TapKind.RESUME:
            if not self.paused:
                raise ClockInputError(N_("the clock is not paused"))
            self.paused, self.since = False, tap.at_ms
            return TapOutcome(tap.seat, 0, self.shown_ms(tap.seat, tap.at_ms))
        if kind is TapKind.ADD_TIME:
            if not 0 < tap.amount_ms <= MAX_ADDED_MS:
                raise ClockInputError(N_("added time must be 1 ms to 1 hour, not %(amount)r"),
                                      amount=tap.amount_ms)
            self.left[tap.seat] += tap.amount_ms
            return TapOutcome(tap.seat, 0, self.shown_ms(tap.seat, tap.at_ms))
        if kind is TapKind.FLAG:
            shown = self.shown_ms(tap.seat, tap.at_ms)
            if tap.seat != self.running or shown > FLAG_TOLERANCE_MS:
                raise ClockInputError(N_("seat %(seat)s's flag has not fallen: %(left)s ms left"),
                                      seat=tap.seat, left=shown)
            return self._end(tap, "flag", shown=0)
        if kind is TapKind.DRAW:
            return self._end(tap, "draw", shown=self.shown_ms(tap.seat, tap.at_ms))
        # resign
        return self._end(tap, "resign", shown=self.shown_ms(tap.seat, tap.at_ms))

    def _end(self, tap: Tap, how: str, shown: int) -> TapOutcome:
        used = self._elapsed(tap.at_ms) if tap.seat == self.running else 0
        self.move_elapsed = self._elapsed(tap.at_ms)
        if self.running is not None:  # the running clock stops where it is
            self.left[self.running] = max(0, self._left_after(self.running, self.move_elapsed,
                                                              bonus=False))
        self.finished, self.paused = how, True
        self.loser = None if how == "draw" else tap.seat
        if how == "flag":
            self.left[tap.seat] = 0
        return TapOutcome(tap.seat, used, shown)

    def _move(self, tap: Tap) -> TapOutcome:
        seat = tap.seat
        if self.running != seat:
            raise ClockInputError(N_("seat %(seat)s's clock is not running"), seat=seat)
        if self.paused:
            raise ClockInputError(N_("the clock is paused: resume it first"))
        used = self._elapsed(tap.at_ms)
        if used >= self.available_ms(seat):
            return self._end(tap, "flag", shown=0)
        self.left[seat] = self._left_after(seat, used, bonus=True)
        self.moves[seat] += 1
        self.period_moves[seat] += 1
        period = self.controls[seat].period(self.periods[seat])
        if period.moves is not None and self.period_moves[seat] >= period.moves:
            self.periods[seat] += 1
            self.period_moves[seat] = 0
            self.left[seat] += self.controls[seat].period(self.periods[seat]).setting \
                .base_seconds * 1000
        self.running, self.since, self.move_elapsed = 1 - seat, tap.at_ms, 0
        return TapOutcome(seat, used, self.left[seat], self.moves[seat])


def run_taps(controls: tuple[TimeControl, TimeControl], taps: list[Tap]) -> tuple[
        GameClock, list[TapOutcome]]:
    """Run a whole list of taps (raises at the first that cannot be applied)."""
    clock = GameClock(controls)
    return clock, [clock.apply(tap) for tap in taps]


MAX_CLOCK_TEXT = 300


def game_control_text(text: str, game_number: int) -> tuple[str, str]:
    """A round's clock text for game ``game_number`` of a match, split into side A's and
    side B's text (side B's empty: the same as A's).

    Games of a match are separated by ``;`` (the last one repeats: "15+10; 5+3" plays
    the first game at 15+10 and every later one at 5+3), sides by ``|`` (time odds:
    "5 | 3" gives side A 5 minutes and side B 3)."""
    if not isinstance(text, str) or "\x00" in text or len(text) > MAX_CLOCK_TEXT:
        raise ClockNotationError(N_("cannot read clock %(text)r"), text=str(text)[:40])
    games = [part.strip() for part in text.split(";")]
    chosen = games[min(max(game_number, 1), len(games)) - 1]
    sides = [part.strip() for part in chosen.split("|")]
    if len(sides) > 2:
        raise ClockNotationError(N_("a clock has two sides: at most one \"|\" per game, not "
                                    "%(text)r"), text=chosen)
    first, second = sides[0], (sides[1] if len(sides) == 2 else "")
    controls_for(first, second)  # checks both
    return first, second if second and second != first else ""


def format_clock_text(text: str) -> str:
    """The canonical form of a full clock text (games ``;``, sides ``|``, periods ``,``),
    or :class:`ClockNotationError`/:class:`ClockInputError` when a part cannot be read."""
    if not isinstance(text, str) or "\x00" in text or len(text) > MAX_CLOCK_TEXT:
        raise ClockNotationError(N_("cannot read clock %(text)r"), text=str(text)[:40])
    games = []
    for game in text.split(";"):
        sides = [format_control(parse_control(side)) for side in game.split("|")]
        if len(sides) > 2:
            raise ClockNotationError(N_("a clock has two sides: at most one \"|\" per game, not "
                                        "%(text)r"), text=game.strip())
        games.append(" | ".join(sides))
    return "; ".join(games)
