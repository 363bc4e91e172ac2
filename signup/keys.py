"""The server's key for sign-up status tokens (derived from SECRET_KEY)."""

from __future__ import annotations

from django.utils.crypto import salted_hmac


def signup_key() -> bytes:
    return salted_hmac("signup.status-token", "status-key", algorithm="sha256").digest()
