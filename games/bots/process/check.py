"""A protocol check of a bot program: a few games against the random bot, on both sides,
and every protocol error with the line that caused it (``manage.py bot_check``)."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from games.bots.process.sandbox import Sandbox, isolation_available
from games.engines import get_engine
from games.series.deals import deal_for_game
from games.series.referee import BotSpec, RefereeOutcome, referee_game
from games.series.roles import game_roles
from games.series.seeds import bot_seeds, deal_seed
from games.series.targets import Target


@dataclass(frozen=True)
class Problem:
    """A game the checked bot lost by a fault, with the line that caused it."""

    game: str
    number: int
    seat: int | None
    fault: str
    reason: str
    line: str | None

    def text(self) -> str:
        where = f"{self.game} game {self.number}" + (
            f", seat {self.seat}" if self.seat is not None else "")
        shown = f"\n    line: {self.line!r}" if self.line is not None else ""
        return f"{where}: {self.fault}: {self.reason}{shown}"


@dataclass
class CheckReport:
    label: str
    isolation: str
    games: int = 0
    names: set[str] = field(default_factory=set)
    problems: list[Problem] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.problems

    def lines(self) -> list[str]:
        out = [f"checked {self.label}: {self.games} games against the random bot",
               f"  {self.isolation}"]
        if self.names:
            out.append(f"  it calls itself {', '.join(sorted(self.names))}")
        out.extend(f"  warning: {warning}" for warning in self.warnings)
        out.extend(f"  error: {problem.text()}" for problem in self.problems)
        out.append("  no protocol errors" if self.passed else
                   f"  {len(self.problems)} game(s) lost by a fault")
        return out


def check_bot(
    target: Target, *, games: Sequence[str] | None = None, games_each: int = 2,
    move_seconds: float = 5.0, sandbox: Sandbox | None = None,
    bots_dir: str | Path | None = None, secret: str | None = None,
    on_game: Callable[[str, int, RefereeOutcome], None] | None = None,
) -> CheckReport:
    """Play ``games_each`` games of each game (the bot on side 0, then side 1, ...) against
    the random bot and collect every fault of the bot's."""
    secret = secret or secrets.token_hex(16)
    report = CheckReport(target.label, isolation_available())
    random = BotSpec("random")
    for game in games or target.games:
        seats = get_engine(game).seat_count()
        for number in range(games_each):
            side = number % 2
            roles = game_roles(game, number)
            deal = deal_for_game(game, {}, deal_seed(secret, game, number), roles)
            sides = (target.spec, random) if side == 0 else (random, target.spec)
            outcome = referee_game(game, {}, deal, sides,
                                   seeds=bot_seeds(secret, seats, game, number),
                                   move_seconds=move_seconds, sandbox=sandbox,
                                   bots_dir=bots_dir)
            report.games += 1
            if on_game is not None:
                on_game(game, number + 1, outcome)
            report.names.update(outcome.bots[s] for s in range(side, seats, 2))
            if outcome.termination != "normal" and outcome.fault_seat is not None and (
                    outcome.fault_seat % 2 != side):
                report.warnings.append(f"{game} game {number + 1}: the random bot failed: "
                                       f"{outcome.reason}")
            elif outcome.termination != "normal":
                report.problems.append(Problem(game, number + 1, outcome.fault_seat,
                                               outcome.fault, outcome.reason,
                                               outcome.fault_line))
    if "unnamed" in report.names:
        report.warnings.append("the bot sent no name line in the handshake")
    return report
