"""A pause on logins after repeated failures, per user name and per client address.

Django's ``user_login_failed`` signal counts each failed admin or token login in the cache
(Redis in production, so every gunicorn process sees the same counts) twice: under the client
address and the user name, and under the client address alone. A name is counted as the login
forms authenticate it (:func:`normalise_username`: stripped and NFKC-normalised like the admin
form, case folded), so `` orgb``, ``orgb`` + tab or a full-width ``ｏｒｇｂ`` are one name with
``orgb``. Within ``LOGIN_FAILURE_WINDOW_SECONDS``:

* ``LOGIN_FAILURE_LIMIT`` failures for one name from one address pause that name there;
* ``LOGIN_FAILURE_ADDRESS_LIMIT`` failures from one address, over any names, pause every
  login from it.

:class:`LoginGuardMiddleware` answers a paused attempt with ``429`` and a message;
:class:`LoginGuardBackend`, the first authentication backend, refuses it inside
``authenticate()`` as well, so no login path can get past a pause. A successful login clears
its name's count, never the address count (a guesser's own account must not reset it).
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import ngettext

from config import json_depth

_KEY_PREFIX = "login-failures:"
_ADDRESS_KEY_PREFIX = "login-failures-address:"
_MAX_NAME_LENGTH = 300


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


def normalise_username(raw: str) -> str:
    """The name a login attempt is counted under.

    Django's admin form strips the name and applies NFKC; DRF's token serializer strips it;
    the user manager stores names in NFKC. Stripping, NFKC and stripping again covers both
    forms (NFKC can turn a character into a space), and folding the case makes the count
    never finer than the database's comparison of names, whatever its collation.
    """
    if len(raw) > _MAX_NAME_LENGTH:  # no name is this long; spare the normalisation
        raw = raw[:_MAX_NAME_LENGTH]
    return unicodedata.normalize("NFKC", raw.strip()).strip().casefold()


def _key(address: str, username: str) -> str:
    digest = hashlib.sha256(f"{address}\n{normalise_username(username)}".encode()).hexdigest()
    return _KEY_PREFIX + digest


def _address_key(address: str) -> str:
    return _ADDRESS_KEY_PREFIX + hashlib.sha256(address.encode()).hexdigest()


def failure_count(address: str, username: str) -> int:
    return int(cache.get(_key(address, username), 0))


def address_failure_count(address: str) -> int:
    return int(cache.get(_address_key(address), 0))


def _increment(key: str) -> int:
    """Add one to a count whose window starts at its first failure; returns the count."""
    window = settings.LOGIN_FAILURE_WINDOW_SECONDS
    cache.add(key, 0, timeout=window)
    try:
        return int(cache.incr(key))
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=window)
        return 1


def record_failure(address: str, username: str) -> int:
    """Count one failed login under its name and its address. Returns the name's count."""
    _increment(_address_key(address))
    return _increment(_key(address, username))


def clear_failures(address: str, username: str) -> None:
    cache.delete(_key(address, username))


def pause_reason(address: str, username: str) -> str | None:
    """Why logins of ``username`` from ``address`` are paused (``"address"`` or ``"name"``)."""
    if address_failure_count(address) >= settings.LOGIN_FAILURE_ADDRESS_LIMIT:
        return "address"
    if username and failure_count(address, username) >= settings.LOGIN_FAILURE_LIMIT:
        return "name"
    return None


def is_paused(address: str, username: str) -> bool:
    return pause_reason(address, username) is not None


def pause_message(username: str, reason: str = "name") -> str:
    minutes = max(1, round(settings.LOGIN_FAILURE_WINDOW_SECONDS / 60))
    if reason == "address":
        return ngettext(
            "Too many failed logins from your address: logins from it are paused for up to "
            "%(minutes)d minute. Try again later, or ask an administrator to reset the password.",
            "Too many failed logins from your address: logins from it are paused for up to "
            "%(minutes)d minutes. Try again later, or ask an administrator to reset the "
            "password.", minutes) % {"minutes": minutes}
    return ngettext(
        "Too many failed logins for “%(username)s” from your address: logins for this user "
        "name are paused for up to %(minutes)d minute. Try again later, or ask an "
        "administrator to reset the password.",
        "Too many failed logins for “%(username)s” from your address: logins for this user "
        "name are paused for up to %(minutes)d minutes. Try again later, or ask an "
        "administrator to reset the password.", minutes) % {"username": username,
                                                            "minutes": minutes}


def _on_login_failed(sender: Any, credentials: dict[str, Any], request: Any = None,
                     **kwargs: Any) -> None:
    username = str(credentials.get("username") or "")
    if request is not None:
        record_failure(client_address(request), username)


user_login_failed.connect(_on_login_failed, dispatch_uid="config.login_guard.failed")


class LoginGuardBackend:
    """The first authentication backend: stops ``authenticate()`` for a paused name or
    address, whichever door the attempt came through (the middleware only watches the admin
    and token logins). The refusal counts as one more failure.

    It has no ``get_user`` on purpose: sessions and ``force_login`` belong to the model
    backend, which Django picks as the first backend that can load users.
    """

    def authenticate(self, request: Any, username: str | None = None,
                     password: str | None = None, **kwargs: Any) -> None:
        if request is not None and is_paused(client_address(request), str(username or "")):
            raise PermissionDenied("logins are paused")  # i18n: not for people
        return None


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
        reason = pause_reason(address, username)
        if reason is not None:
            return _refusal(kind, username.strip(), reason)
        response = self.get_response(request)
        succeeded = response.status_code == (302 if kind == "admin" else 200)
        if username and succeeded:
            clear_failures(address, username)
        return response


def _username(request: HttpRequest) -> str:
    try:
        if request.content_type == "application/json":
            data = json_depth.loads(request.body or b"{}")
            value = data.get("username") if isinstance(data, dict) else None
        else:
            value = request.POST.get("username")
    except (ValueError, UnicodeDecodeError):
        return ""  # the view reports the malformed body
    return value if isinstance(value, str) else ""


def _refusal(kind: str, username: str, reason: str) -> HttpResponse:
    message = pause_message(username, reason)
    retry_after = str(settings.LOGIN_FAILURE_WINDOW_SECONDS)
    response: HttpResponse
    if kind == "api":
        response = JsonResponse(
            {"detail": message, "code": "login_paused", "errors": {"username": [message]}},
            status=429,
        )
    else:
        minutes = max(1, round(settings.LOGIN_FAILURE_WINDOW_SECONDS / 60))
        response = HttpResponse(
            render_to_string("login_paused.html", {
                "message": message, "minutes": minutes, "login_url": reverse("admin:login"),
            }),
            status=429,
        )
    response["Retry-After"] = retry_after
    return response
