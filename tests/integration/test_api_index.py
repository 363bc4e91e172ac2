"""``/api/`` answers with the API's index; the docs pages come from our own static files."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.django_db


def test_api_index_lists_collections_and_documents(client: Any) -> None:
    answer = client.get("/api/", HTTP_ACCEPT="application/json")
    assert answer.status_code == 200
    index = answer.json()
    for key in ("clubs", "players", "teams", "tournaments", "rounds", "games", "pairings",
                "bot_runs", "ratings", "schema", "docs", "redoc"):
        assert key in index, key
    assert index["tournaments"].endswith("/api/tournaments/")
    assert client.get(index["tournaments"], HTTP_ACCEPT="application/json").status_code == 200
    assert client.get(index["schema"]).status_code == 200


def test_docs_static_files_are_served(client: Any) -> None:
    from django.contrib.staticfiles import finders

    for name in ("drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js",
                 "drf_spectacular_sidecar/swagger-ui-dist/swagger-ui.css",
                 "drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js"):
        assert finders.find(name), name
