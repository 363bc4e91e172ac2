"""Token hygiene: failed link lookups rate-limited per client address, and link paths
masked in every log line.

A client address that fails ``LINK_FAILURE_LIMIT`` lookups (unknown, malformed or revoked
tokens) within ``LINK_FAILURE_WINDOW_SECONDS`` is refused (429 with ``Retry-After``) until
the window passes, before any lookup: guessing 192-bit tokens was hopeless anyway, and this
keeps a guesser from even costing the database. Counts live in the cache (Redis in
production: every process sees them).
"""

from __future__ import annotations

import hashlib
import logging
import re
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.cache import cache

from core.counters import count_up

if TYPE_CHECKING:
    from playerlinks.models import EntrantLink

_PREFIX = "link-failures:"
DEFAULT_LIMIT = 30
DEFAULT_WINDOW = 10 * 60

#: The paths that carry a secret, wherever they appear in a log line: a private link
#: (``/p/<token>``), a sign-up's status page, a clock's follow page, an e-mail's opt-out
#: link and a league captain's link; the secret is what follows up to the next slash,
#: blank, quote or query.
SECRET_PREFIXES = ("/p/", "/sign-up/", "/clock/follow/", "/notices/opt-out/",
                   "/league/captain/")
LINK_PATH = re.compile("(" + "|".join(re.escape(p) for p in SECRET_PREFIXES)
                       + r")[^/\s\"'?#]+")
MASK = r"\1<token>"


def _has_secret(text: str) -> bool:
    return any(prefix in text for prefix in SECRET_PREFIXES)


def limit() -> int:
    return int(getattr(settings, "LINK_FAILURE_LIMIT", DEFAULT_LIMIT))


def window() -> int:
    return int(getattr(settings, "LINK_FAILURE_WINDOW_SECONDS", DEFAULT_WINDOW))


def _key(address: str) -> str:
    return _PREFIX + hashlib.sha256(address.encode()).hexdigest()


def failures(address: str) -> int:
    return int(cache.get(_key(address), 0))


def is_limited(address: str) -> bool:
    return failures(address) >= limit()


def record_failure(address: str) -> int:
    """One failed lookup from ``address`` (the window starts at its first failure)."""
    return count_up(_key(address), window())


class LinkGuessing(Exception):
    """The address failed too many lookups: refuse it until the window passes."""


def guarded_link(address: str, token: str) -> EntrantLink | None:
    """The live link of ``token`` for a client at ``address``: a miss counts against the
    address, and a paused address is refused (:class:`LinkGuessing`) before any lookup.
    Every page under /p/ resolves its token through here."""
    from playerlinks.lookup import link_from_token  # logging loads this module before apps

    if is_limited(address):
        raise LinkGuessing
    link = link_from_token(token)
    if link is None:
        record_failure(address)
    return link


def mask(text: str) -> str:
    """``text`` with every private link path masked."""
    return LINK_PATH.sub(MASK, text) if _has_secret(text) else text


class MaskLinkTokens(logging.Filter):
    """A logging filter: link tokens never reach a log (django.request, django.server,
    gunicorn's access log). It rewrites the record's message and arguments in place."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = mask(record.msg)
        args: Any = record.args
        if isinstance(args, tuple):
            record.args = tuple(mask(a) if isinstance(a, str) else _masked_other(a)
                                for a in args)
        elif isinstance(args, dict):  # in place: gunicorn's atoms are a dict of its own
            for name, value in list(args.items()):
                if isinstance(value, str) and _has_secret(value):
                    args[name] = mask(value)
        request = getattr(record, "request", None)
        if request is not None and _has_secret(str(getattr(request, "path", ""))):
            record.request = _MaskedRequest(request)
        return True


def _masked_other(value: Any) -> Any:
    text = str(value) if value is not None and not isinstance(value, int | float) else ""
    return mask(text) if _has_secret(text) else value


class _MaskedRequest:
    """A request as a log record shows it, its path masked (Django's request logger adds
    the request to the record; handlers that format it read path and META)."""

    def __init__(self, request: Any) -> None:
        self._request = request
        self.path = mask(str(request.path))
        self.path_info = mask(str(getattr(request, "path_info", "")))
        self.META = {k: mask(v) if isinstance(v, str) else v
                     for k, v in getattr(request, "META", {}).items()}

    def get_full_path(self) -> str:
        return mask(str(self._request.get_full_path()))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._request, name)

    def __repr__(self) -> str:
        return mask(repr(self._request))
