"""Counts of games and players in words, with the active language's plural forms."""

from __future__ import annotations

from django.utils.formats import number_format
from django.utils.translation import ngettext


def games_count(count: int) -> str:
    """``1 game``, ``2 games`` (in Russian: 1 партия, 2 партии, 5 партий, 21 партия)."""
    return ngettext("%(count)s game", "%(count)s games", count) % {
        "count": number_format(count)}


def players_count(count: int) -> str:
    """``1 player``, ``5 players`` (участник, участника, участников)."""
    return ngettext("%(count)s player", "%(count)s players", count) % {
        "count": number_format(count)}
