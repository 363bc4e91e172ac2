"""Content-Security-Policy (Django 6's built-in support): every page carries it, inline
scripts run only with the request's nonce, and the API docs get their own policy."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def directives(header: str) -> dict[str, list[str]]:
    parsed = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            parsed[words[0]] = words[1:]
    return parsed


@pytest.mark.parametrize("path", ["/", "/tournaments/", "/admin/login/", "/api/players/",
                                  "/healthz"])
def test_every_answer_carries_the_policy(client: Client, path: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 200, path
    policy = directives(answer["Content-Security-Policy"])
    assert policy["default-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["base-uri"] == ["'self'"]
    assert "'unsafe-inline'" not in policy["script-src"]
    assert "'unsafe-eval'" not in policy["script-src"]


def test_the_round_page_s_inline_script_carries_the_nonce(make_event: Any, organizer: Any,
                                                          client: Client) -> None:
    from tournaments import services

    tournament = make_event("round_robin", entrants=4)
    round_ = services.round_pair_next(actor=organizer, tournament=tournament, release=True)
    organizer.is_staff = True
    organizer.save(update_fields=["is_staff"])
    client.force_login(organizer)
    for path in (f"/admin/tournaments/round/{round_.pk}/change/",
                 f"/admin/tournaments/round/{round_.pk}/slips/",
                 f"/admin/tournaments/round/{round_.pk}/sheet/"):
        answer = client.get(path)
        assert answer.status_code == 200, path
        nonce = re.search(r"'nonce-([^']+)'", answer["Content-Security-Policy"])
        assert nonce, path
        page = answer.content.decode()
        inline = re.findall(r"<script(?![^>]*\bsrc=)([^>]*)>", page)
        assert inline, path
        assert all(f'nonce="{nonce.group(1)}"' in attributes for attributes in inline), path
        assert not re.search(r"\son[a-z]+=\"", page), f"an inline event handler on {path}"


def test_the_api_docs_come_from_our_own_static_files(client: Client) -> None:
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    policy = directives(docs["Content-Security-Policy"])
    assert policy["script-src"] == ["'self'"]  # the site's policy, no CDN
    page = docs.content.decode()
    assert "cdn." not in page and "/static/drf_spectacular_sidecar/swagger-ui-dist/" in page
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>\s*\S", page), "inline script in docs"
    script = client.get("/api/docs/?script=")
    assert script.status_code == 200 and "SwaggerUIBundle" in script.content.decode()
    redoc = client.get("/api/redoc/")
    page = redoc.content.decode()
    assert "/static/drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js" in page
    assert "fonts.googleapis" not in page
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>\s*\S", page), "inline script in redoc"
    policy = directives(redoc["Content-Security-Policy"])
    assert policy["script-src"] == ["'self'"] and "blob:" in policy["worker-src"]
