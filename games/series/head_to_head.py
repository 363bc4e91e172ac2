"""A head-to-head match between two bots on duplicate deals, with evaluation statistics and
an optional SPRT stop rule. Pure Python: no database."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.bots.evaluation import HeadToHead, Sprt, pair_counts, pentanomial, trinomial
from games.series.deals import deal_for_game
from games.series.referee import BotSpec, referee_game
from games.series.roles import game_roles


@dataclass(frozen=True)
class MatchReport:
    wins: int
    draws: int
    losses: int
    forfeits: int
    pairs: list[int]  # pentanomial counts
    games: HeadToHead
    game_pairs: HeadToHead
    sprt_decision: str | None

    def lines(self, name_a: str, name_b: str) -> list[str]:
        g, p = self.games, self.game_pairs
        out = [
            f"{name_a} v {name_b}: +{self.wins} ={self.draws} -{self.losses} "
            f"({self.wins + self.draws + self.losses} games, {self.forfeits} by forfeit)",
            f"  score {g.score:.3f}, Elo {g.elo:+.1f} [{g.elo_low:+.1f}, {g.elo_high:+.1f}] "
            f"(95%, trinomial), LOS {g.los:.1%}",
            f"  pairs {self.pairs} (0..2 points): Elo {p.elo:+.1f} "
            f"[{p.elo_low:+.1f}, {p.elo_high:+.1f}] (95%, pentanomial), LOS {p.los:.1%}",
        ]
        if self.sprt_decision:
            out.append(f"  SPRT: {self.sprt_decision} accepted")
        return out


def play_match(
    game: str, bot_a: BotSpec, bot_b: BotSpec, *, pairs: int, seed: int = 0,
    options: Mapping[str, Any] | None = None, sprt: Sprt | None = None,
) -> MatchReport:
    """Play up to ``pairs`` deal pairs (each deal twice, roles swapped)."""
    options = dict(options or {})
    wins = draws = losses = forfeits = 0
    pair_points: list[float] = []
    decision = None
    for deal_index in range(pairs):
        points = 0.0
        for mirrored in (0, 1):
            roles = game_roles(game, 2 * deal_index + mirrored, duplicate=True)
            deal = deal_for_game(game, options, seed * 1_000_003 + deal_index, roles)
            outcome = referee_game(game, options, deal, (bot_a, bot_b),
                                   seed=seed * 1_000_003 + 2 * deal_index + mirrored)
            forfeits += outcome.termination != "normal"
            if outcome.winner_side == 0:
                wins, points = wins + 1, points + 1
            elif outcome.winner_side == 1:
                losses += 1
            else:
                draws, points = draws + 1, points + 0.5
        pair_points.append(points)
        if sprt is not None and deal_index >= 4:
            decision = sprt.decision(pentanomial(pair_counts(pair_points)))
            if decision:
                break
    counts = pair_counts(pair_points)
    return MatchReport(wins, draws, losses, forfeits, counts,
                       trinomial(wins=wins, draws=draws, losses=losses), pentanomial(counts),
                       decision)
