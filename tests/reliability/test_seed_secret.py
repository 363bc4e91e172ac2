"""Deals and bot seeds come from a secret nobody outside can know.

Before: with DEBUG on and no ``SECRET_KEY`` (a development shell without ``.env``) the
seed secret was derived from the public development key, so anyone could rebuild every
hidden Stolbiki hand; ``bot_match`` said nothing about it.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]
DEVELOPMENT_KEY = "insecure-development-key-do-not-use-in-production"


def seed_secret_of(var_dir: Path, **env: str) -> str:
    """``BOT_SEED_SECRET`` as a fresh process with DEBUG on and no key computes it."""
    environment = {key: value for key, value in os.environ.items()
                   if key not in ("SECRET_KEY", "BOT_SEED_SECRET", "DJANGO_SETTINGS_MODULE")}
    environment.update(DEBUG="true", VAR_DIR=str(var_dir), **env)
    shown = subprocess.run(  # noqa: S603 - this interpreter, our settings
        [sys.executable, "-c", "import config.settings as s; print(s.BOT_SEED_SECRET)"],
        env=environment, cwd=ROOT, capture_output=True, text=True, check=True, timeout=60)
    return shown.stdout.strip()


def test_without_a_key_each_installation_draws_its_own_secret(tmp_path: Path) -> None:
    public = hmac.new(DEVELOPMENT_KEY.encode(), b"bot and deal seeds",
                      hashlib.sha256).hexdigest()
    first = seed_secret_of(tmp_path / "one")
    assert first != public and len(first) >= 32
    assert seed_secret_of(tmp_path / "one") == first  # kept: runs replay
    assert seed_secret_of(tmp_path / "two") not in (first, public)
    kept = tmp_path / "one" / "bot-seed-secret"
    assert kept.read_text().strip() == first
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600


def test_a_configured_secret_or_key_is_used_as_before(tmp_path: Path) -> None:
    assert seed_secret_of(tmp_path, BOT_SEED_SECRET="s" * 8 + "0123456789abcdef") == \
        "s" * 8 + "0123456789abcdef"
    key = "Zq4-Lw8Rt2Yp6Ns0Vb3Xk7Mj1Hg5Fd9Cs-Ae4Ui8Oy2Tr6Ew0Qa"
    assert seed_secret_of(tmp_path, SECRET_KEY=key) == hmac.new(
        key.encode(), b"bot and deal seeds", hashlib.sha256).hexdigest()
    assert not (tmp_path / "bot-seed-secret").exists()


def bot_match_warning(settings: Any, *extra: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    call_command("bot_match", "kugamai", "random", "random", "--pairs", "1", *extra,
                 stdout=out, stderr=err)
    return err.getvalue()


def test_bot_match_warns_when_seeds_are_predictable(settings: Any) -> None:
    assert "predictable" in bot_match_warning(settings, "--secret", "abc")
    assert "predictable" not in bot_match_warning(settings, "--secret", "a9Fq-Lw8Rt2Yp6Ns0Vb3")
    settings.BOT_SEED_SECRET_WEAKNESS = "development"
    assert "predictable" in bot_match_warning(settings)
    settings.BOT_SEED_SECRET_WEAKNESS = ""
    assert "predictable" not in bot_match_warning(settings)
