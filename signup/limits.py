"""Sign-up submissions per address: a few in a window, counted in the cache (shared by
the web processes when ``CACHE_URL`` names a shared cache)."""

from __future__ import annotations

import hashlib
import time

from django.conf import settings
from django.utils.translation import ngettext

from core.counters import count_up
from core.errors import LimitError

#: Submissions (sign-ups and withdrawals, accepted or refused) per address and window.
DEFAULT_PER_WINDOW = 5
WINDOW_SECONDS = 10 * 60


def _key(address: str, window: int) -> str:
    digest = hashlib.sha256(address.encode("utf-8", "replace")).hexdigest()[:32]
    return f"signup-rate:{digest}:{window}"


def spend(address: str, now: float | None = None) -> None:
    """Count one submission from ``address``; refuse it (``LimitError``) past the limit."""
    per_window = int(getattr(settings, "SIGNUP_SUBMISSIONS_PER_WINDOW", DEFAULT_PER_WINDOW))
    now = time.time() if now is None else now
    window = int(now // WINDOW_SECONDS)
    if count_up(_key(address, window), WINDOW_SECONDS * 2) > per_window:
        seconds = max(1, int((window + 1) * WINDOW_SECONDS - now))
        minutes = max(1, (seconds + 59) // 60)
        raise LimitError(ngettext(
            "Too many sign-ups from your address. Try again in %(minutes)d minute.",
            "Too many sign-ups from your address. Try again in %(minutes)d minutes.",
            minutes) % {"minutes": minutes}, retry_after=seconds, code="signup_limit")
