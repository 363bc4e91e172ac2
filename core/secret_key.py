"""What makes a ``SECRET_KEY`` (or a password) unfit for production: plain Python, read by the
settings before Django starts and by the deploy checks (``config/checks.py``)."""

from __future__ import annotations

MIN_LENGTH = 50
"""Django's own deploy check (security.W009) asks for 50 characters."""

MIN_DISTINCT = 5
"""...and at least 5 different characters."""

PLACEHOLDER_WORDS = (
    "change-me", "changeme", "change_me", "replace", "placeholder", "your-secret", "yoursecret",
    "secret-key", "secretkey", "example", "insecure", "do-not-use", "donotuse", "not-secret",
    "notsecret", "default",
)
"""Words of placeholders, all of 7 characters or more: a random key of 67 URL-safe
characters holds one of them by chance about once in 10^8 keys."""


def placeholder_reason(value: str) -> str | None:
    """Why ``value`` looks like a placeholder rather than a secret, or None."""
    lowered = value.lower()
    for word in PLACEHOLDER_WORDS:
        if word in lowered:
            return f"it contains {word!r}"
    if len(set(value)) < MIN_DISTINCT:
        return f"it has fewer than {MIN_DISTINCT} different characters"
    for unit in range(1, len(value) // 2 + 1):
        if len(value) % unit == 0 and value[:unit] * (len(value) // unit) == value:
            return f"it repeats {value[:unit]!r}"
    return None


def secret_key_problem(key: str) -> str | None:
    """What is wrong with ``key`` as a production ``SECRET_KEY``, or None."""
    if not key:
        return "SECRET_KEY is not set"
    reason = placeholder_reason(key)
    if reason is not None:
        return f"SECRET_KEY looks like a placeholder ({reason})"
    if len(key) < MIN_LENGTH:
        return f"SECRET_KEY is too weak: {len(key)} characters, fewer than {MIN_LENGTH}"
    return None
