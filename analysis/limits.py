"""What anonymous analysis may cost: CPU time per client address, the time it holds a
web worker over the whole site, and how many analyses run at once.

A position's analysis is the one request anyone may send that computes for a long time,
so requests per minute (``ANALYSIS_THROTTLE``) do not bound it; time does. The search of
an anonymous request runs inside :func:`anonymous_search`, which

* takes one of ``ANALYSIS_CONCURRENCY`` slots for the whole site (a cache key added
  only if absent, so every gunicorn process sees it; it expires by itself should its
  process die), so anonymous analyses never hold more than that many workers;
* starts only while its client address has spent less than
  ``ANALYSIS_ADDRESS_CPU_PER_MINUTE`` CPU seconds a minute, and anonymous searches over
  all addresses held a worker for less than ``ANALYSIS_SITE_SECONDS_PER_MINUTE``;
* counts its thread's CPU time (:func:`time.thread_time`: what the address used, however
  busy the machine) against the address, and the wall time it held the slot against the
  site: on a loaded machine a search holds its worker longer than its CPU time says, and
  the worker is what the other visitors wait for.

A spent budget or a busy site is a :class:`core.errors.LimitError` (``429`` with
``Retry-After``) and runs nothing. Each count is a sliding window kept with atomic
increments in the cache (Redis in production) over :data:`WINDOW` seconds, a sixth of
the budgets per minute: this window's milliseconds plus the last one's, weighted by the
part of it still inside the last :data:`WINDOW` seconds. A search started just under a
budget may overrun it by one request's time (``ANALYSIS_CPU_SECONDS``, twice that of
wall time).
"""

from __future__ import annotations

import hashlib
import math
import secrets
import time
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.errors import LimitError

#: The sliding window of the counts, in seconds: short, so that a budget per minute
#: comes a sixth at a time and a burst never holds a worker for long.
WINDOW = 10
_PREFIX = "analysis-time:"
_SLOT_PREFIX = "analysis-slot:"
#: A slot outlives the longest anonymous search (twice its CPU seconds of wall time) by
#: this much before it expires on its own.
_SLOT_MARGIN = 10


def _address_meter(address: str) -> str:
    return _PREFIX + "address:" + hashlib.sha256(address.encode()).hexdigest()


_SITE_METER = _PREFIX + "site"


def check(address: str) -> None:
    """Refuse a search now if its address or the site has spent its time: before taking
    the slot, so that refusals never hold it (:func:`anonymous_search` looks again)."""
    _check(_limits(address), time.time())


@contextmanager
def anonymous_search(address: str) -> Iterator[None]:
    """Run the block in one of the site's slots for anonymous analysis if the address and
    the site have time left; count the block's CPU time against the address and its wall
    time against the site."""
    key, token = _take_slot()
    try:
        check(address)
        cpu, wall = time.thread_time(), time.perf_counter()
        try:
            yield
        finally:
            now = time.time()
            _charge(_address_meter(address), time.thread_time() - cpu, now)
            _charge(_SITE_METER, time.perf_counter() - wall, now)
    finally:
        if cache.get(key) == token:
            cache.delete(key)


def spent(address: str) -> tuple[float, float]:
    """The address's CPU seconds and the site's worker seconds over the last
    :data:`WINDOW`."""
    now = time.time()
    return (_spent(_address_meter(address), now) / 1000, _spent(_SITE_METER, now) / 1000)


def _limits(address: str) -> dict[str, int]:
    """The meters a search from ``address`` draws on, with their limits."""
    return {_address_meter(address): _per_window(settings.ANALYSIS_ADDRESS_CPU_PER_MINUTE),
            _SITE_METER: _per_window(settings.ANALYSIS_SITE_SECONDS_PER_MINUTE)}


def _per_window(per_minute: float) -> int:
    """Milliseconds a window, never none (then nothing could ever be counted under it)."""
    return max(1, round(per_minute * 1000 * WINDOW / 60))


def _take_slot() -> tuple[str, str]:
    token = secrets.token_hex(8)
    timeout = math.ceil(2 * settings.ANALYSIS_CPU_SECONDS) + _SLOT_MARGIN
    for index in range(settings.ANALYSIS_CONCURRENCY):
        key = f"{_SLOT_PREFIX}{index}"
        if cache.add(key, token, timeout=timeout):
            return key, token
    raise LimitError(_("The analysis is busy with other visitors' positions. Try again in "
                       "a moment."),
                     retry_after=1, code="analysis_busy")


def _keys(meter: str, now: float) -> tuple[str, str, float]:
    """The meter's keys for this window and the last one, and how far this one is gone."""
    index = int(now // WINDOW)
    return f"{meter}:{index}", f"{meter}:{index - 1}", now / WINDOW - index


def _counts(meters: list[str], now: float) -> dict[str, tuple[int, int, float]]:
    keys = {meter: _keys(meter, now) for meter in meters}
    found = cache.get_many([key for current, last, _ in keys.values() for key in (current, last)])
    return {meter: (int(found.get(last, 0)), int(found.get(current, 0)), gone)
            for meter, (current, last, gone) in keys.items()}


def _spent(meter: str, now: float) -> float:
    last, current, gone = _counts([meter], now)[meter]
    return last * (1 - gone) + current


def _check(limits: dict[str, int], now: float) -> None:
    for meter, (last, current, gone) in _counts(list(limits), now).items():
        limit = limits[meter]
        if last * (1 - gone) + current < limit:
            continue
        seconds = math.ceil(_wait(last, current, gone, limit))
        if meter == _SITE_METER:
            message = ngettext(
                "The analysis time for visitors who are not signed in is used up for the "
                "moment. Try again in %(seconds)d second.",
                "The analysis time for visitors who are not signed in is used up for the "
                "moment. Try again in %(seconds)d seconds.", seconds)
        else:
            message = ngettext(
                "Your address has used up its analysis time for the moment. Try again in "
                "%(seconds)d second.",
                "Your address has used up its analysis time for the moment. Try again in "
                "%(seconds)d seconds.", seconds)
        raise LimitError(message % {"seconds": seconds}, retry_after=seconds,
                         code="analysis_limit")


def _wait(last: int, current: int, gone: float, limit: int) -> float:
    """Seconds until ``last * (1 - gone) + current`` falls under ``limit`` as the window
    slides on, if nothing more is spent."""
    if current < limit:  # within this window, as the last one's weight falls
        return WINDOW * (last * (1 - gone) + current - limit) / last
    # After this window, when it has become the last one.
    return WINDOW * (1 - gone) + WINDOW * (1 - limit / current)


def _charge(meter: str, seconds: float, now: float) -> None:
    milliseconds = max(1, round(seconds * 1000))
    key = _keys(meter, now)[0]
    cache.add(key, 0, timeout=2 * WINDOW + _SLOT_MARGIN)
    try:
        cache.incr(key, milliseconds)
    except ValueError:  # expired between add and incr
        cache.set(key, milliseconds, timeout=2 * WINDOW + _SLOT_MARGIN)
