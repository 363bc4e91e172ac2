"""Match formats: a single game, best of N, first to N wins (with a cap), or N fixed games.

Draws never count towards a first-to-N target (Kugamai's rule). A match ends as soon as its
format decides it; :meth:`MatchFormat.check_next_game` refuses a game beyond that.

>>> fmt = MatchFormat.parse("ft3/9")
>>> fmt.is_decided(MatchScore(wins_a=3, wins_b=1, draws=2))
True
>>> MatchFormat.parse("bo5").max_games_needed()
5
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

Kind = Literal["single", "best_of", "first_to", "fixed"]
KINDS: tuple[Kind, ...] = ("single", "best_of", "first_to", "fixed")


class SeriesError(ValueError):
    """A match format or a match score that the rules do not allow."""


@dataclass(frozen=True)
class MatchScore:
    """Games won by side A, by side B, and drawn."""

    wins_a: int = 0
    wins_b: int = 0
    draws: int = 0

    @property
    def games(self) -> int:
        return self.wins_a + self.wins_b + self.draws

    def add(self, winner: int | None) -> MatchScore:
        """The score after one more game won by side 0 (A), 1 (B) or drawn (None)."""
        if winner == 0:
            return MatchScore(self.wins_a + 1, self.wins_b, self.draws)
        if winner == 1:
            return MatchScore(self.wins_a, self.wins_b + 1, self.draws)
        return MatchScore(self.wins_a, self.wins_b, self.draws + 1)

    def __str__(self) -> str:
        return f"{self.wins_a}-{self.wins_b}" + (f" ({self.draws} drawn)" if self.draws else "")


_TEXT = re.compile(r"^(single|bo(\d+)|ft(\d+)(?:/(\d+))?|fixed(\d+))(\+dup)?$")


@dataclass(frozen=True)
class MatchFormat:
    kind: Kind = "single"
    #: N of best-of-N, first-to-N or N fixed games (1 for a single game).
    games: int = 1
    #: first-to-N only: most games played before the match stops (more wins decides).
    max_games: int | None = None
    #: each deal is played twice with the sides' roles swapped (games come in pairs).
    duplicate: bool = False

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise SeriesError(f"unknown match format {self.kind!r} (formats: {', '.join(KINDS)})")
        if self.games < 1:
            raise SeriesError("a match needs at least one game")
        if self.kind == "single" and self.games != 1:
            raise SeriesError("a single-game match has exactly one game")
        if self.kind == "best_of" and self.games % 2 == 0:
            raise SeriesError(f"best of {self.games} can end level: use an odd number")
        if self.kind == "first_to":
            if self.max_games is not None and self.max_games < self.games:
                raise SeriesError(
                    f"first to {self.games} needs max_games of at least {self.games}, "
                    f"not {self.max_games}"
                )
        elif self.max_games is not None:
            raise SeriesError("max_games applies only to first-to-N matches")
        if self.duplicate and self.kind == "single":
            raise SeriesError("a duplicate match plays each deal twice: use fixed 2 or more")

    # -- text and documents ------------------------------------------------------

    @classmethod
    def parse(cls, text: str) -> MatchFormat:
        """Read ``single``, ``bo5``, ``ft3``, ``ft3/9`` (cap of 9 games), ``fixed4``,
        each optionally followed by ``+dup`` for duplicate deals."""
        match = _TEXT.match(text.strip().lower())
        if match is None:
            raise SeriesError(
                f"cannot read match format {text!r}: use single, bo5, ft3, ft3/9 or fixed4, "
                "optionally followed by +dup"
            )
        duplicate = bool(match.group(6))
        if match.group(2):
            return cls("best_of", int(match.group(2)), duplicate=duplicate)
        if match.group(3):
            cap = int(match.group(4)) if match.group(4) else None
            return cls("first_to", int(match.group(3)), cap, duplicate=duplicate)
        if match.group(5):
            return cls("fixed", int(match.group(5)), duplicate=duplicate)
        return cls("single", duplicate=duplicate)

    def __str__(self) -> str:
        text = {
            "single": "single",
            "best_of": f"bo{self.games}",
            "first_to": f"ft{self.games}" + (f"/{self.max_games}" if self.max_games else ""),
            "fixed": f"fixed{self.games}",
        }[self.kind]
        return text + ("+dup" if self.duplicate else "")

    def describe(self) -> str:
        base = {
            "single": "a single game",
            "best_of": f"best of {self.games}",
            "first_to": f"first to {self.games} wins (draws do not count"
            + (f", at most {self.max_games} games)" if self.max_games else ")"),
            "fixed": f"{self.games} games",
        }[self.kind]
        return base + (", duplicate deals" if self.duplicate else "")

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "games": self.games, "max_games": self.max_games,
                "duplicate": self.duplicate}

    @classmethod
    def from_dict(cls, doc: dict[str, Any]) -> MatchFormat:
        if not isinstance(doc, dict):
            raise SeriesError("a match format must be an object")
        unknown = set(doc) - {"kind", "games", "max_games", "duplicate"}
        if unknown:
            raise SeriesError(f"unknown match format field {sorted(unknown)[0]!r}")
        try:
            return cls(
                kind=doc.get("kind", "single"),
                games=int(doc.get("games", 1)),
                max_games=None if doc.get("max_games") is None else int(doc["max_games"]),
                duplicate=bool(doc.get("duplicate", False)),
            )
        except (TypeError, ValueError) as error:
            raise SeriesError(f"bad match format: {error}") from None

    # -- deciding a match --------------------------------------------------------

    @property
    def wins_needed(self) -> int | None:
        """Wins that end the match early (None for fixed-length formats)."""
        if self.kind == "best_of":
            return self.games // 2 + 1
        if self.kind == "first_to":
            return self.games
        return None

    def max_games_needed(self) -> int | None:
        """The longest the match can run; None for first-to-N without a cap."""
        if self.kind == "first_to":
            return self.max_games
        return self.games

    def is_decided(self, score: MatchScore) -> bool:
        """True when no further game may be played."""
        needed = self.wins_needed
        if needed is not None and max(score.wins_a, score.wins_b) >= needed:
            return True
        limit = self.max_games_needed()
        return limit is not None and score.games >= limit

    def winner(self, score: MatchScore) -> int | None:
        """Side 0 or 1 that won a decided match, or None for a drawn match."""
        if not self.is_decided(score):
            raise SeriesError(f"the match is not decided yet at {score}")
        if score.wins_a == score.wins_b:
            return None
        return 0 if score.wins_a > score.wins_b else 1

    def check_next_game(self, score: MatchScore) -> None:
        """Raise :class:`SeriesError` if the match is already decided at ``score``."""
        if self.is_decided(score):
            raise SeriesError(
                f"the match ({self.describe()}) is already decided at {score}: "
                "no further game may be played"
            )

    def check_final(self, score: MatchScore) -> None:
        """Check that ``score`` is a complete, reachable final score of this format."""
        if min(score.wins_a, score.wins_b, score.draws) < 0:
            raise SeriesError("game counts cannot be negative")
        needed = self.wins_needed
        if needed is not None and score.wins_a >= needed and score.wins_b >= needed:
            raise SeriesError(
                f"a {self.describe()} match cannot end {score.wins_a}-{score.wins_b}: "
                f"it stops when one side reaches {needed} wins"
            )
        if needed is not None and max(score.wins_a, score.wins_b) > needed:
            raise SeriesError(
                f"a {self.describe()} match stops at {needed} wins, "
                f"so {max(score.wins_a, score.wins_b)} wins is impossible"
            )
        limit = self.max_games_needed()
        if limit is not None and score.games > limit:
            raise SeriesError(
                f"a {self.describe()} match has at most {limit} games, not {score.games}"
            )
        if not self.is_decided(score):
            raise SeriesError(f"a {self.describe()} match is not over at {score}")
        last_game_winner_wins = max(score.wins_a, score.wins_b)
        if needed is not None and last_game_winner_wins == needed:
            # the deciding win was the last game: before it, the match was still open
            before = MatchScore(
                score.wins_a - (score.wins_a == needed), score.wins_b - (score.wins_b == needed),
                score.draws,
            )
            if self.is_decided(before) and score.games > 0:
                raise SeriesError(
                    f"a {self.describe()} match would have ended before reaching {score}"
                )
        if self.duplicate and self.kind == "fixed" and score.games % 2:
            raise SeriesError("a duplicate match plays games in pairs")
