"""A pause on logins after repeated failures, per client address and user name.

Django's ``user_login_failed`` signal counts each failed admin or token login in the cache
(Redis in production, so every gunicorn process sees the same counts); once a client
address has failed ``LOGIN_FAILURE_LIMIT`` times for one user name within
``LOGIN_FAILURE_WINDOW_SECONDS``, :class:`LoginGuardMiddleware` refuses further attempts
for that pair with ``429`` until the window ends. A successful login clears the count.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import reverse
from django.utils.html import escape

_KEY_PREFIX = "login-failures:"


def client_address(request: Any) -> str:
    """The client's address: ``REMOTE_ADDR``, or the ``X-Forwarded-For`` entry appended by
    the outermost of ``NUM_PROXIES`` trusted proxies (entries before it can be forged)."""
    proxies = int(getattr(settings, "NUM_PROXIES", 0) or 0)
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if proxies and forwarded:
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if hops:
            return hops[-min(proxies, len(hops))]
    return str(request.META.get("REMOTE_ADDR", ""))


def _key(address: str, username: str) -> str:
    digest = hashlib.sha256(f"{address}\n{username.casefold()}".encode()).hexdigest()
    return _KEY_PREFIX + digest


def failure_count(address: str, username: str) -> int:
    return int(cache.get(_key(address, username), 0))


def record_failure(address: str, username: str) -> int:
    """Count one failed login; the window starts at the first failure. Returns the count."""
    key = _key(address, username)
    cache.add(key, 0, timeout=settings.LOGIN_FAILURE_WINDOW_SECONDS)
    try:
        return int(cache.incr(key))
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=settings.LOGIN_FAILURE_WINDOW_SECONDS)
        return 1


def clear_failures(address: str, username: str) -> None:
    cache.delete(_key(address, username))


def is_paused(address: str, username: str) -> bool:
    return failure_count(address, username) >= settings.LOGIN_FAILURE_LIMIT


def pause_message(username: str) -> str:
    minutes = max(1, round(settings.LOGIN_FAILURE_WINDOW_SECONDS / 60))
    return (
        f"Too many failed logins for “{username}” from your address: logins for this "
        f"user name are paused for up to {minutes} minutes. Try again later, or ask an "
        "administrator to reset the password."
    )


def _on_login_failed(sender: Any, credentials: dict[str, Any], request: Any = None,
                     **kwargs: Any) -> None:
    username = str(credentials.get("username") or "")
    if request is not None and username:
        record_failure(client_address(request), username)


user_login_failed.connect(_on_login_failed, dispatch_uid="config.login_guard.failed")


class LoginGuardMiddleware:
    """Refuses admin and token logins for a paused (address, user name) pair."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self._paths: dict[str, str] | None = None

    def _login_paths(self) -> dict[str, str]:
        if self._paths is None:
            self._paths = {reverse("admin:login"): "admin", reverse("api-token"): "api"}
        return self._paths

    def __call__(self, request: HttpRequest) -> HttpResponse:
        kind = self._login_paths().get(request.path) if request.method == "POST" else None
        if kind is None:
            return self.get_response(request)
        username = _username(request)
        address = client_address(request)
        if username and is_paused(address, username):
            return _refusal(kind, username)
        response = self.get_response(request)
        succeeded = response.status_code == (302 if kind == "admin" else 200)
        if username and succeeded:
            clear_failures(address, username)
        return response


def _username(request: HttpRequest) -> str:
    try:
        if request.content_type == "application/json":
            data = json.loads(request.body or b"{}")
            value = data.get("username") if isinstance(data, dict) else None
        else:
            value = request.POST.get("username")
    except (ValueError, UnicodeDecodeError):
        return ""  # the view reports the malformed body
    return value if isinstance(value, str) else ""


def _refusal(kind: str, username: str) -> HttpResponse:
    message = pause_message(username)
    retry_after = str(settings.LOGIN_FAILURE_WINDOW_SECONDS)
    response: HttpResponse
    if kind == "api":
        response = JsonResponse(
            {"detail": message, "code": "login_paused", "errors": {"username": [message]}},
            status=429,
        )
    else:
        response = HttpResponse(
            "<!doctype html><html lang=en><meta charset=utf-8><title>Login paused</title>"
            f"<h1>Login paused</h1><p>{escape(message)}</p></html>",
            status=429,
        )
    response["Retry-After"] = retry_after
    return response
