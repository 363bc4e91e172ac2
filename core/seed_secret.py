"""The secret deals and bot seeds are drawn from (HMAC): plain Python, read by the settings
before Django starts and by ``bot_match``.

In order: ``BOT_SEED_SECRET`` if set; else derived from ``SECRET_KEY`` if one fit for
production is configured; else (a development install without a key, DEBUG on) a random
secret drawn once for this installation and kept in ``VAR_DIR/bot-seed-secret`` (0600).
Only if that file cannot be written does the secret derive from the public development
key, and then it is *weak*: anyone could rebuild the hidden hands.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import secrets
from pathlib import Path

from core.secret_key import placeholder_reason, secret_key_problem

SECRET_FILE = "bot-seed-secret"
MIN_LENGTH = 16
"""A configured seed secret shorter than this is weak."""

#: Why a seed secret is weak (``bot_match`` says it in words).
SHORT, PLACEHOLDER, DEVELOPMENT = "short", "placeholder", "development"


def derived_from(key: str) -> str:
    return hmac.new(key.encode(), b"bot and deal seeds", hashlib.sha256).hexdigest()


def weakness(secret: str) -> str:
    """Why ``secret`` (a configured one) is guessable: SHORT, PLACEHOLDER, or ""."""
    if placeholder_reason(secret) is not None:
        return PLACEHOLDER
    return SHORT if len(secret) < MIN_LENGTH else ""


def installation_secret(var_dir: Path) -> str:
    """This installation's secret, drawn and kept in ``var_dir`` on first use."""
    path = var_dir / SECRET_FILE
    with contextlib.suppress(FileNotFoundError):
        return _read(path)
    var_dir.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process drew it first
        return _read(path)
    with os.fdopen(fd, "w") as stream:
        stream.write(secrets.token_hex(32) + "\n")
    return _read(path)


def _read(path: Path) -> str:
    secret = path.read_text().strip()
    if len(secret) < MIN_LENGTH:
        raise OSError(f"{path} holds no secret")
    return secret


def seed_secret(configured: str, secret_key: str, var_dir: Path,
                development_key: str) -> tuple[str, str]:
    """The seed secret and its weakness ("" when nobody outside can know it)."""
    if configured:
        return configured, weakness(configured)
    if secret_key and secret_key_problem(secret_key) is None:
        return derived_from(secret_key), ""
    try:
        return installation_secret(var_dir), ""
    except OSError:
        key = secret_key or development_key
        return derived_from(key), DEVELOPMENT
