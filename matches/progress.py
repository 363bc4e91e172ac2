"""A match in progress: the games recorded so far and what comes next, in words.

Pure (no database): the public pages and the API's pairing representation give the same
text from the same function, for boards entered by a director and for a bot run's boards
(whose games are played one after another, so the next one is the one being played).

>>> from games.series.format import MatchFormat
>>> match_progress(MatchFormat.parse("bo5"), [0, 1]).text
'1–1, game 3 playing'
>>> match_progress(MatchFormat.parse("ft2"), [0, 1, None], knockout=True).text
'1–1 (1 drawn), game 4 playing'
>>> match_progress(MatchFormat.parse("fixed2"), [0, 1], knockout=True).text
'1–1, level: tie-break to come'
>>> match_progress(MatchFormat.parse("single"), []).text
'playing'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from games.i18n import N_
from games.series.format import MatchFormat, MatchScore

#: The steps in words, marked for translation (``matches.texts.progress_text`` translates
#: them): the English texts are those of :attr:`MatchProgress.text`.
STEP_STARTING = N_("playing")
STEP_PLAYING = N_("game %(number)d playing")
STEP_TIE_BREAK = N_("level: tie-break to come")
STEP_TO_CONFIRM = N_("result to be confirmed")
SCORE_AND_STEP = N_("%(score)s, %(step)s")


@dataclass(frozen=True, slots=True)
class MatchProgress:
    """A pending match's running score (games won by A, by B, drawn) and its next step."""

    wins_a: int
    wins_b: int
    draws: int
    #: Games recorded so far.
    games: int
    #: The number of the game being played; None when the match waits for its result (a
    #: level knockout match waits for its tie-break).
    next_game: int | None
    #: The running score and the next step in words: "1–1, game 3 playing".
    text: str
    #: The step's marked template (one of the ``STEP_`` texts), filled with ``next_game``.
    step_template: str = STEP_STARTING

    @property
    def score(self) -> str:
        """The running score alone ("1–1 (1 drawn)"); empty before the first game."""
        if not self.games:
            return ""
        return f"{self.wins_a}–{self.wins_b}" + (f" ({self.draws} drawn)" if self.draws else "")

    @property
    def step(self) -> str:
        """What is happening now, without the score ("game 3 playing")."""
        return self.text.removeprefix(self.score).removeprefix(", ")

    def as_dict(self) -> dict[str, Any]:
        values = asdict(self)
        del values["step_template"]
        return values


def match_progress(fmt: MatchFormat, winners: Iterable[int | None], *,
                   knockout: bool = False) -> MatchProgress:
    """The progress of a pending match whose recorded games were won by side 0 (A), 1 (B)
    or drawn (None), in game order."""
    score = MatchScore()
    for winner in winners:
        score = score.add(winner)
    running = f"{score.wins_a}–{score.wins_b}" + (f" ({score.draws} drawn)"
                                                   if score.draws else "")
    if not fmt.is_decided(score):
        next_game = score.games + 1
        template = STEP_PLAYING if score.games else STEP_STARTING
        step = template % {"number": next_game} if score.games else template
        text = SCORE_AND_STEP % {"score": running, "step": step} if score.games else step
        return MatchProgress(score.wins_a, score.wins_b, score.draws, score.games,
                             next_game, text, template)
    template = STEP_TIE_BREAK if knockout and score.wins_a == score.wins_b else STEP_TO_CONFIRM
    return MatchProgress(score.wins_a, score.wins_b, score.draws, score.games, None,
                         SCORE_AND_STEP % {"score": running, "step": template}, template)
