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

from games.i18n import N_, Message, MessageError

Kind = Literal["single", "best_of", "first_to", "fixed"]
KINDS: tuple[Kind, ...] = ("single", "best_of", "first_to", "fixed")


class SeriesError(MessageError):
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

    def label(self) -> Message:
        """The score as shown: ``2-1``, or ``2-1 (1 drawn)``; translatable."""
        if self.draws:
            return Message(N_("%(wins_a)s-%(wins_b)s (%(draws)s drawn)"),
                           wins_a=self.wins_a, wins_b=self.wins_b, draws=self.draws)
        return Message(N_("%(wins_a)s-%(wins_b)s"), wins_a=self.wins_a, wins_b=self.wins_b)

    def __str__(self) -> str:
        return str(self.label())


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
            raise SeriesError(N_("unknown match format %(kind)r (formats: %(formats)s)"),
                              kind=self.kind, formats=', '.join(KINDS))
        if self.games < 1:
            raise SeriesError(N_("a match needs at least one game"))
        if self.kind == "single" and self.games != 1:
            raise SeriesError(N_("a single-game match has exactly one game"))
        if self.kind == "best_of" and self.games % 2 == 0:
            raise SeriesError(N_("best of %(games)s can end level: use an odd number"),
                              games=self.games)
        if self.kind == "first_to":
            if self.max_games is not None and self.max_games < self.games:
                raise SeriesError(
                    N_("first to %(games)s needs max_games of at least %(games)s, not "
                       "%(max_games)s"),
                    games=self.games, max_games=self.max_games
                )
        elif self.max_games is not None:
            raise SeriesError(N_("max_games applies only to first-to-N matches"))
        if self.duplicate and self.kind == "single":
            raise SeriesError(N_("a duplicate match plays each deal twice: use fixed 2 or more"))

    # -- text and documents ------------------------------------------------------

    @classmethod
    def parse(cls, text: str) -> MatchFormat:
        """Read ``single``, ``bo5``, ``ft3``, ``ft3/9`` (cap of 9 games), ``fixed4``,
        each optionally followed by ``+dup`` for duplicate deals."""
        match = _TEXT.match(text.strip().lower())
        if match is None:
            raise SeriesError(
                N_("cannot read match format %(text)r: use single, bo5, ft3, ft3/9 or fixed4, "
                   "optionally followed by +dup"),
                text=text
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
        return str(self.description())

    def description(self) -> Message:
        """The format in words (``best of 5``), translatable."""
        if self.kind == "single":
            base = Message(N_("a single game"))
        elif self.kind == "best_of":
            base = Message(N_("best of %(games)s"), games=self.games)
        elif self.kind == "first_to" and self.max_games:
            base = Message(N_("first to %(games)s wins (draws do not count, at most "
                              "%(max_games)s games)"), games=self.games, max_games=self.max_games)
        elif self.kind == "first_to":
            base = Message(N_("first to %(games)s wins (draws do not count)"), games=self.games)
        else:
            base = Message(N_("%(games)s games"), games=self.games)
        if self.duplicate:
            return Message(N_("%(format)s, duplicate deals"), format=base)
        return base

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "games": self.games, "max_games": self.max_games,
                "duplicate": self.duplicate}

    @classmethod
    def from_dict(cls, doc: dict[str, Any]) -> MatchFormat:
        if not isinstance(doc, dict):
            raise SeriesError(N_("a match format must be an object"))
        unknown = set(doc) - {"kind", "games", "max_games", "duplicate"}
        if unknown:
            raise SeriesError(N_("unknown match format field %(key)r"), key=sorted(unknown)[0])
        try:
            return cls(
                kind=doc.get("kind", "single"),
                games=int(doc.get("games", 1)),
                max_games=None if doc.get("max_games") is None else int(doc["max_games"]),
                duplicate=bool(doc.get("duplicate", False)),
            )
        except (TypeError, ValueError) as error:
            raise SeriesError(N_("bad match format: %(error)s"), error=error) from None

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

    def can_end_level(self, draws_possible: bool) -> bool:
        """Can a match of this format end level (a drawn match)? Always when its games can
        be drawn; otherwise only when it may stop at an even number of games with neither
        side at the wins needed (fixed 2, 4...; first to N capped at an even count below
        2N - 1).

        >>> MatchFormat("single").can_end_level(False), MatchFormat("fixed", 2).can_end_level(False)
        (False, True)
        >>> MatchFormat("first_to", 3, 4).can_end_level(False)
        True
        """
        if draws_possible:
            return True
        if self.kind == "fixed":
            return self.games % 2 == 0
        if self.kind == "first_to" and self.max_games is not None:
            return self.max_games % 2 == 0 and self.max_games // 2 < self.games
        return False

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
            raise SeriesError(N_("the match is not decided yet at %(score)s"), score=score.label())
        if score.wins_a == score.wins_b:
            return None
        return 0 if score.wins_a > score.wins_b else 1

    def check_next_game(self, score: MatchScore) -> None:
        """Raise :class:`SeriesError` if the match is already decided at ``score``."""
        if self.is_decided(score):
            raise SeriesError(
                N_("the match (%(format)s) is already decided at %(score)s: no further game may be "
                   "played"),
                format=self.description(), score=score.label()
            )

    def check_final(self, score: MatchScore) -> None:
        """Check that ``score`` is a complete, reachable final score of this format."""
        if min(score.wins_a, score.wins_b, score.draws) < 0:
            raise SeriesError(N_("game counts cannot be negative"))
        needed = self.wins_needed
        if needed is not None and score.wins_a >= needed and score.wins_b >= needed:
            raise SeriesError(
                N_("a %(format)s match cannot end %(wins_a)s-%(wins_b)s: it stops when one side "
                   "reaches %(needed)s wins"),
                format=self.description(), wins_a=score.wins_a, wins_b=score.wins_b, needed=needed
            )
        if needed is not None and max(score.wins_a, score.wins_b) > needed:
            raise SeriesError(
                N_("a %(format)s match stops at %(needed)s wins, so %(wins)s wins is impossible"),
                format=self.description(), needed=needed, wins=max(score.wins_a, score.wins_b)
            )
        limit = self.max_games_needed()
        if limit is not None and score.games > limit:
            raise SeriesError(
                N_("a %(format)s match has at most %(limit)s games, not %(games)s"),
                format=self.description(), limit=limit, games=score.games
            )
        if not self.is_decided(score):
            raise SeriesError(N_("a %(format)s match is not over at %(score)s"),
                              format=self.description(), score=score.label())
        last_game_winner_wins = max(score.wins_a, score.wins_b)
        if needed is not None and last_game_winner_wins == needed:
            # the deciding win was the last game: before it, the match was still open
            before = MatchScore(
                score.wins_a - (score.wins_a == needed), score.wins_b - (score.wins_b == needed),
                score.draws,
            )
            if self.is_decided(before) and score.games > 0:
                raise SeriesError(
                    N_("a %(format)s match would have ended before reaching %(score)s"),
                    format=self.description(), score=score.label()
                )
        if self.duplicate and self.kind == "fixed" and score.games % 2:
            raise SeriesError(N_("a duplicate match plays games in pairs"))
