"""Marks texts of the pure cores for translation without importing Django.

A pure core writes ``N_("move %(number)d: %(rule)s")`` and keeps the parameters apart;
the Django shell translates the marked text and then fills it in. ``make messages``
collects ``N_`` as a gettext keyword.
"""

from __future__ import annotations


def N_(message: str) -> str:  # noqa: N802 - the usual name of a no-op gettext marker
    """Return ``message`` unchanged; it only marks the text for the catalogue."""
    return message
