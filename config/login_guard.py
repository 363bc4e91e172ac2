"""A pause on logins after repeated failures, per user name and per client address.

Django's ``user_login_failed`` signal counts each failed admin or token login in the cache
(Redis in production, so every gunicorn process sees the same counts) twice: under the client
address and the user name, and under the client address alone. A name is counted as the login
forms authenticate it (:func:`normalise_username`: stripped and NFKC-normalised like the admin
form, case folded), so `` orgb``, ``orgb`` + tab or a full-width ``ｏｒｇｂ`` are one name with
``orgb``. Within ``LOGIN_FAILURE_WINDOW_SECONDS``:

* ``LOGIN_FAILURE_LIMIT`` failures for one name from one address pause that name there;
* ``LOGIN_FAILURE_ADDRESS_LIMIT`` failures from one address, over any names, pause every
  login from it;
* ``LOGIN_ACCOUNT_FAILURE_LIMIT`` failures for one name from any addresses (guesses spread
  over many addresses) slow that name: one attempt per ``LOGIN_ACCOUNT_DELAY`` seconds,
  doubling with each further failure up to ``LOGIN_ACCOUNT_DELAY_MAX``, so its owner waits
  at most that long. Attempts refused during the delay are not checked and do not extend
  it; the count lasts until a window passes without a failure. An address the name signed
  in from (within :data:`_KNOWN_ADDRESS_SECONDS`) is not slowed, and the owner is told of
  the failures at the next admin login (and the log says when the slowing starts).

:class:`LoginGuardMiddleware` answers a paused attempt with ``429`` and a message;
:class:`LoginGuardBackend`, the first authentication backend, refuses it inside
``authenticate()`` as well, so no login path can get past a pause. A successful login clears
its name's count, never the address count (a guesser's own account must not reset it).
"""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import math
import time
import unicodedata
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import ngettext

from core import json_depth
from core.counters import count_up

logger = logging.getLogger(__name__)

_KEY_PREFIX = "login-failures:"
_ADDRESS_KEY_PREFIX = "login-failures-address:"
_ACCOUNT_KEY_PREFIX = "login-failures-account:"
_ACCOUNT_UNTIL_PREFIX = "login-account-slowed-until:"
_REPORT_PREFIX = "login-account-report:"
_KNOWN_PREFIX = "login-known-address:"
_MAX_NAME_LENGTH = 300
#: How long an address an account signed in from stays known (not slowed), and how long
#: failures wait to be reported to the account's owner.
_KNOWN_ADDRESS_SECONDS = 30 * 24 * 60 * 60
_REPORTED_ADDRESSES = 100


def client_address(request: Any) -> str:
    """The client's address as every limit counts it: ``REMOTE_ADDR``, or the
    ``X-Forwarded-For`` entry appended by the outermost of ``NUM_PROXIES`` trusted proxies
    (entries before it can be forged); folded by :func:`counted_address`."""
    proxies = int(getattr(settings, "NUM_PROXIES", 0) or 0)
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if proxies and forwarded:
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if hops:
            return counted_address(hops[-min(proxies, len(hops))])
    return counted_address(str(request.META.get("REMOTE_ADDR", "")))


def counted_address(address: str) -> str:
    """An IPv6 address as its /64 network (one subscriber gets a whole /64 and can rotate
    through it freely, so a limit per address would be no limit), an IPv4-mapped one as
    its IPv4 address; anything else unchanged.

    >>> counted_address("2001:db8:1:2:a:b:c:d")
    '2001:db8:1:2::/64'
    >>> counted_address("::ffff:192.0.2.7")
    '192.0.2.7'
    """
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, 64), strict=False))
    return address


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


def _name_digest(username: str) -> str:
    return hashlib.sha256(normalise_username(username).encode()).hexdigest()


def _known_key(address: str, username: str) -> str:
    return _KNOWN_PREFIX + _key(address, username).removeprefix(_KEY_PREFIX)


def failure_count(address: str, username: str) -> int:
    return int(cache.get(_key(address, username), 0))


def address_failure_count(address: str) -> int:
    return int(cache.get(_address_key(address), 0))


def _increment(key: str, *, sliding: bool = False) -> int:
    """Add one to a count whose window starts at its first failure (``sliding``: at its
    last); returns the count."""
    window = settings.LOGIN_FAILURE_WINDOW_SECONDS
    count = count_up(key, window)
    if sliding:
        cache.touch(key, window)
    return count


def record_failure(address: str, username: str) -> int:
    """Count one failed login under its name and its address. Returns the name's count."""
    _increment(_address_key(address))
    return _increment(_key(address, username))


def clear_failures(address: str, username: str) -> None:
    cache.delete(_key(address, username))


def account_failure_count(username: str) -> int:
    return int(cache.get(_ACCOUNT_KEY_PREFIX + _name_digest(username), 0))


def account_delay_left(address: str, username: str) -> int:
    """Seconds (rounded up) before ``username`` may try again from ``address``; 0 if now."""
    if not username or cache.get(_known_key(address, username)):
        return 0
    until = cache.get(_ACCOUNT_UNTIL_PREFIX + _name_digest(username))
    return max(0, math.ceil(float(until) - time.time())) if until is not None else 0


def _record_account_failure(address: str, username: str) -> None:
    """Count a checked failure for the account over all addresses; past the limit, slow it
    for a delay that doubles with each failure, up to the cap."""
    digest = _name_digest(username)
    count = _increment(_ACCOUNT_KEY_PREFIX + digest, sliding=True)
    over = count - settings.LOGIN_ACCOUNT_FAILURE_LIMIT
    if over < 0:
        return
    delay = min(settings.LOGIN_ACCOUNT_DELAY_MAX,
                settings.LOGIN_ACCOUNT_DELAY * 2 ** min(over, 30))
    cache.set(_ACCOUNT_UNTIL_PREFIX + digest, time.time() + delay, timeout=math.ceil(delay))
    if over == 0:
        logger.warning("logins for %r slowed: %d failures from several addresses within "
                       "%d s", normalise_username(username), count,
                       settings.LOGIN_FAILURE_WINDOW_SECONDS)


def _report_attempt(address: str, username: str) -> None:
    """Keep the failed (or refused) attempt for the owner's next login."""
    key = _REPORT_PREFIX + _name_digest(username)
    report = cache.get(key) or {"count": 0, "addresses": []}
    report["count"] += 1
    where = hashlib.sha256(address.encode()).hexdigest()[:16]
    if where not in report["addresses"] and len(report["addresses"]) < _REPORTED_ADDRESSES:
        report["addresses"].append(where)
    cache.set(key, report, timeout=_KNOWN_ADDRESS_SECONDS)


def remember_success(address: str, username: str) -> None:
    """A successful login: its name's count from this address is cleared (never the
    address's nor the account's), and the address becomes known to the account."""
    clear_failures(address, username)
    cache.set(_known_key(address, username), 1, timeout=_KNOWN_ADDRESS_SECONDS)


def pause_reason(address: str, username: str) -> str | None:
    """Why logins of ``username`` from ``address`` are paused (``"address"``, ``"name"`` or
    ``"account"``)."""
    if address_failure_count(address) >= settings.LOGIN_FAILURE_ADDRESS_LIMIT:
        return "address"
    if username and failure_count(address, username) >= settings.LOGIN_FAILURE_LIMIT:
        return "name"
    if account_delay_left(address, username):
        return "account"
    return None


def is_paused(address: str, username: str) -> bool:
    return pause_reason(address, username) is not None


def pause_message(username: str, reason: str = "name", seconds: int = 0) -> str:
    if reason == "account":
        return ngettext(
            "Too many failed logins for “%(username)s” from several addresses: its logins "
            "are slowed. Try again in %(seconds)d second.",
            "Too many failed logins for “%(username)s” from several addresses: its logins "
            "are slowed. Try again in %(seconds)d seconds.", seconds) % {
            "username": username, "seconds": seconds}
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
    if request is None:
        return
    address = client_address(request)
    record_failure(address, username)
    if username:
        _report_attempt(address, username)
        if not account_delay_left(address, username):  # else refused unchecked
            _record_account_failure(address, username)


def _on_logged_in(sender: Any, request: Any = None, user: Any = None, **kwargs: Any) -> None:
    """Tell the owner, at the next login, of the failed logins for the account."""
    if request is None or user is None:
        return
    report = cache.get(_REPORT_PREFIX + _name_digest(user.get_username()))
    if not report:
        return
    cache.delete(_REPORT_PREFIX + _name_digest(user.get_username()))
    count, addresses = report["count"], len(report["addresses"])
    text = ngettext(
        "%(count)d failed login for your account since your last login (addresses: "
        "%(addresses)d). If it was not yours, choose a stronger password.",
        "%(count)d failed logins for your account since your last login (addresses: "
        "%(addresses)d). If they were not yours, choose a stronger password.", count) % {
        "count": count, "addresses": addresses}
    messages.warning(request, text, fail_silently=True)


user_login_failed.connect(_on_login_failed, dispatch_uid="config.login_guard.failed")
user_logged_in.connect(_on_logged_in, dispatch_uid="config.login_guard.logged_in")


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
            if reason == "account":
                _report_attempt(address, username)
            return _refusal(kind, username.strip(), reason,
                            account_delay_left(address, username))
        response = self.get_response(request)
        succeeded = response.status_code == (302 if kind == "admin" else 200)
        if username and succeeded:
            remember_success(address, username)
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


def _refusal(kind: str, username: str, reason: str, delay: int = 0) -> HttpResponse:
    message = pause_message(username, reason, delay)
    retry_after = str(delay if reason == "account" else settings.LOGIN_FAILURE_WINDOW_SECONDS)
    response: HttpResponse
    if kind == "api":
        response = JsonResponse(
            {"detail": message, "code": "login_paused", "errors": {"username": [message]}},
            status=429,
        )
    else:
        minutes = 0 if reason == "account" else max(
            1, round(settings.LOGIN_FAILURE_WINDOW_SECONDS / 60))
        response = HttpResponse(
            render_to_string("login_paused.html", {
                "message": message, "minutes": minutes, "login_url": reverse("admin:login"),
            }),
            status=429,
        )
    response["Retry-After"] = retry_after
    return response
