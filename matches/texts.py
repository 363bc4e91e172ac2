"""Match scores and outcomes in words, in the active language."""

from __future__ import annotations

from django.utils.translation import gettext, ngettext, pgettext

from games.series.format import MatchScore
from matches.progress import SCORE_AND_STEP, MatchProgress
from tournaments.models import Outcome


def score_text(score: MatchScore, dash: str = "-") -> str:
    """``2-1`` or ``2-1 (1 drawn)`` (in Russian: ``2-1 (1 ничья)``, ``(2 ничьи)``...);
    ``dash`` goes between the wins (pages show an en dash)."""
    wins = f"{score.wins_a}{dash}{score.wins_b}"
    if not score.draws:
        return wins
    return ngettext("%(wins)s (%(draws)d drawn)", "%(wins)s (%(draws)d drawn)",
                    score.draws) % {"wins": wins, "draws": score.draws}


def outcome_text(outcome: str) -> str:
    """The outcome's label to go inside a sentence (``a wins``): its first letter in lower
    case (the sides' letters stay as they are in Russian: ``победа A``)."""
    label = str(Outcome(outcome).label)
    return label[:1].lower() + label[1:]



def progress_step(progress: MatchProgress) -> str:
    """What is happening on a board now (``game 3 playing``), in the active language."""
    return gettext(progress.step_template) % {"number": progress.next_game}


def progress_text(progress: MatchProgress) -> str:
    """The running score and the next step (``1–1, game 3 playing``), translated."""
    step = progress_step(progress)
    if not progress.games:
        return step
    score = score_text(MatchScore(progress.wins_a, progress.wins_b, progress.draws), dash="–")
    return gettext(SCORE_AND_STEP) % {"score": score, "step": step}


def role_text(role_name: str) -> str:
    """The games' role that alternates (``first move``, ``low doubles``), translated."""
    roles = {"first move": pgettext("the role that alternates", "first move"),
             "low doubles": pgettext("the role that alternates", "low doubles")}
    return roles.get(role_name, role_name)
