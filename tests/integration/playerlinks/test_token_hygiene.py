"""Tokens never reach a log: the filter masks /p/<token> paths in Django's request and
server loggers and gunicorn's access log."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from django.test import Client

from playerlinks.guard import MaskLinkTokens, mask

TOKEN = "AbCdEfGhIjKlMnOpQrStUvWxYz012345"


def test_mask_hides_tokens_and_keeps_the_rest() -> None:
    assert mask(f"GET /p/{TOKEN}/live/ HTTP/1.1") == "GET /p/<token>/live/ HTTP/1.1"
    assert mask(f"/p/{TOKEN}?x=1") == "/p/<token>?x=1"
    assert mask("/tournaments/alpha/") == "/tournaments/alpha/"


def test_filter_masks_message_args_and_gunicorn_atoms() -> None:
    filt = MaskLinkTokens()
    record = logging.LogRecord("django.server", logging.INFO, __file__, 1,
                               '"%s" %s %s', (f"GET /p/{TOKEN}/ HTTP/1.1", "200", "12"), None)
    assert filt.filter(record)
    assert TOKEN not in record.getMessage()
    atoms = {"r": f"GET /p/{TOKEN}/ HTTP/1.1", "U": f"/p/{TOKEN}/", "s": "200"}
    record = logging.LogRecord("gunicorn.access", logging.INFO, __file__, 1,
                               "%(r)s %(U)s %(s)s", (atoms,), None)
    filt.filter(record)
    assert TOKEN not in record.getMessage() and "200" in record.getMessage()


def test_gunicorn_config_masks_its_access_log() -> None:
    import runpy
    from pathlib import Path

    conf = runpy.run_path(str(Path(__file__).parents[3] / "deploy" / "gunicorn.conf.py"))
    filters = conf["logconfig_dict"]["filters"]["mask_link_tokens"]
    assert filters["()"] == "playerlinks.guard.MaskLinkTokens"
    assert "mask_link_tokens" in conf["logconfig_dict"]["loggers"]["gunicorn.access"]["filters"]
    nginx = (Path(__file__).parents[3] / "deploy" / "nginx" / "clubtourney.conf").read_text()
    assert "/p/<token>" in nginx and "$loggable_uri" in nginx


@pytest.mark.django_db
def test_a_missing_link_logs_no_token(caplog: Any) -> None:
    logger = logging.getLogger("django.request")
    assert any(isinstance(f, MaskLinkTokens) for f in logger.filters)
    with caplog.at_level(logging.WARNING, logger="django.request"):
        assert Client().get(f"/p/{TOKEN}/").status_code == 404
    assert caplog.records, "Django logs a 404"
    assert all(TOKEN not in record.getMessage() for record in caplog.records)
    assert any("/p/<token>" in record.getMessage() for record in caplog.records)


def test_every_secret_path_is_masked_in_log_lines() -> None:
    from playerlinks.guard import mask

    line = ('"GET /sign-up/AbC123xyz/withdraw/ HTTP/1.1" 200 from /clock/follow/F0ll0w/state/ '
            'and /notices/opt-out/abc:def:ghi/ then /p/T0ken/report/')
    masked = mask(line)
    for secret in ("AbC123xyz", "F0ll0w", "abc:def:ghi", "T0ken"):
        assert secret not in masked
    assert "/sign-up/<token>/withdraw/" in masked and "/p/<token>/report/" in masked
    assert mask("/tournaments/alpha/open/sign-up/") == "/tournaments/alpha/open/sign-up/"
