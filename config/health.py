"""``/healthz``: is the database reachable, is the broker reachable.

The answer is public, so it says only whether each check passed (``200`` or ``503``); what
went wrong (the driver's message, which names hosts, ports and roles) goes to the log.
The broker check opens a connection, so its result is kept for
``HEALTH_BROKER_CACHE_SECONDS`` (5) per process: a load balancer polling every second
costs the broker one connection every few seconds, not one per poll.
"""

from __future__ import annotations

import logging
import threading
import time

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse

logger = logging.getLogger(__name__)

_broker_lock = threading.Lock()
_broker_last: tuple[str, float, bool] | None = None  # (broker URL, checked at, ok)


def _check_database() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception:  # any failure is a failed check: logged, not shown
        logger.warning("healthz: the database check failed", exc_info=True)
        return False
    return True


def _check_broker() -> bool:
    """Connect to the broker, or reuse a result younger than the cache time."""
    global _broker_last
    from config.celery import app

    url = str(app.conf.broker_write_url or app.conf.broker_url or "")
    ttl = float(getattr(settings, "HEALTH_BROKER_CACHE_SECONDS", 5.0))
    with _broker_lock:
        now = time.monotonic()
        if _broker_last is not None:
            last_url, checked_at, ok = _broker_last
            if last_url == url and now - checked_at < ttl:
                return ok
        try:
            with app.connection_for_write() as conn:
                conn.ensure_connection(max_retries=1, timeout=2)
        except Exception:
            logger.warning("healthz: the broker check failed", exc_info=True)
            ok = False
        else:
            ok = True
        _broker_last = (url, time.monotonic(), ok)
        return ok


def healthz(request: HttpRequest) -> JsonResponse:
    checks = {"database": _check_database(), "broker": _check_broker()}
    healthy = all(checks.values())
    body = {name: {"ok": ok} for name, ok in checks.items()}
    return JsonResponse({"status": "ok" if healthy else "fail", **body},
                        status=200 if healthy else 503)
