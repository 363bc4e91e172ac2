"""Counts in the cache over a window (rate limits): shared by the web processes when the
cache is (Redis in production)."""

from __future__ import annotations

from django.core.cache import cache


def count_up(key: str, seconds: int) -> int:
    """Add one to the count ``key``, whose window of ``seconds`` starts at its first count;
    returns the new count."""
    cache.add(key, 0, timeout=seconds)
    try:
        return int(cache.incr(key))
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=seconds)
        return 1
