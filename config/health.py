"""``/healthz``: is the database reachable, is the broker reachable."""

from __future__ import annotations

import time
from typing import Any

from django.db import connection
from django.http import HttpRequest, JsonResponse


def _check_database() -> dict[str, Any]:
    started = time.perf_counter()
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as error:  # any failure is a failed check, reported, not raised
        return {"ok": False, "error": f"{type(error).__name__}: {error}"}
    return {"ok": True, "vendor": connection.vendor,
            "ms": round((time.perf_counter() - started) * 1000, 1)}


def _check_broker() -> dict[str, Any]:
    from config.celery import app

    started = time.perf_counter()
    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
            transport = conn.transport_cls
    except Exception as error:
        return {"ok": False, "error": f"{type(error).__name__}: {error}"}
    return {"ok": True, "transport": str(transport),
            "ms": round((time.perf_counter() - started) * 1000, 1)}


def healthz(request: HttpRequest) -> JsonResponse:
    checks = {"database": _check_database(), "broker": _check_broker()}
    healthy = all(check["ok"] for check in checks.values())
    return JsonResponse({"status": "ok" if healthy else "fail", **checks},
                        status=200 if healthy else 503)
