"""Budgets of the report page, counted in the cache (Redis in production: every gunicorn
process sees the same counts): submissions per link and per address, and unknown tokens per
address (token guessing). A venue's players often share one address (its Wi-Fi), so the
address budgets are wide; a link's budget is narrow.

Each budget is ``(count, seconds)`` and can be changed in settings:
``REPORTING_LINK_BUDGET``, ``REPORTING_ADDRESS_BUDGET``, ``REPORTING_BAD_TOKEN_BUDGET``.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext as _

from core.counters import count_up
from core.errors import LimitError

DEFAULTS = {
    "REPORTING_LINK_BUDGET": (10, 10 * 60),
    "REPORTING_ADDRESS_BUDGET": (240, 60),
    "REPORTING_BAD_TOKEN_BUDGET": (20, 10 * 60),
}


def _budget(name: str) -> tuple[int, int]:
    count, seconds = getattr(settings, name, DEFAULTS[name])
    return int(count), int(seconds)


def _key(kind: str, value: str) -> str:
    return f"reporting:{kind}:" + hashlib.sha256(value.encode("utf-8")).hexdigest()[:32]


def _spend(kind: str, value: str, budget: str) -> None:
    count, seconds = _budget(budget)
    if count_up(_key(kind, value), seconds) > count:
        raise LimitError(_("Too many reports for now: wait a few minutes and try again."),
                         retry_after=seconds)


def submission_spend(link_id: int, address: str) -> None:
    """Count one submission from ``link_id`` at ``address``; LimitError when over budget."""
    _spend("address", address, "REPORTING_ADDRESS_BUDGET")
    _spend("link", str(link_id), "REPORTING_LINK_BUDGET")


def bad_token_check(address: str) -> None:
    """Refuse every lookup from an address that guessed too many tokens."""
    count, seconds = _budget("REPORTING_BAD_TOKEN_BUDGET")
    if int(cache.get(_key("bad", address)) or 0) >= count:
        raise LimitError(_("Too many unknown links from your address: wait a few minutes."),
                         retry_after=seconds)


def bad_token_spend(address: str) -> None:
    _count, seconds = _budget("REPORTING_BAD_TOKEN_BUDGET")
    count_up(_key("bad", address), seconds)
