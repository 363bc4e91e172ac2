"""Private-link tokens, in plain Python.

A link's token is derived from a random nonce kept in its row and from a key the server
holds (derived from ``SECRET_KEY``): the database alone never yields a token, yet the server
can print a link's QR code again on a result slip. Only a hash of the token is looked up.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

TOKEN_LENGTH = 32
"""Characters of URL-safe base64: 192 bits."""

NONCE_BYTES = 16

_ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def new_nonce() -> str:
    return secrets.token_hex(NONCE_BYTES)


def token_for(key: bytes, nonce: str) -> str:
    """The token of the link whose row holds ``nonce``."""
    digest = hmac.new(key, nonce.encode("ascii"), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii")[:TOKEN_LENGTH]


def token_hash(token: str) -> str:
    """What the database stores and looks a token up by (64 hex digits)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def looks_like_token(text: str) -> bool:
    """Whether ``text`` has a token's shape: anything else is refused before the database."""
    return len(text) == TOKEN_LENGTH and all(char in _ALPHABET for char in text)
