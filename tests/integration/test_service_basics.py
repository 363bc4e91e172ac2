from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def test_healthz_reports_database_and_broker(client: Any) -> None:
    response = client.get("/healthz")
    body = response.json()
    assert body["database"]["ok"] is True
    assert body["broker"]["ok"] is True
    assert response.status_code == 200


def test_openapi_schema_generates_without_warnings(tmp_path: Any) -> None:
    out = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    text = out.read_text()
    for path in ("/api/players/", "/api/clubs/", "/api/teams/"):
        assert path in text


def test_docs_page(client: Any) -> None:
    assert client.get("/api/docs/").status_code == 200


def test_demo_loads_twice_without_duplicates(admin_user: Any) -> None:
    from players.models import Player

    call_command("load_demo")
    first = Player.objects.count()
    call_command("load_demo")
    assert Player.objects.count() == first >= 12


def test_an_organizer_who_is_not_staff_can_use_the_admin(client: Any, club_a: Any,
                                                          make_user: Any) -> None:
    organizer = club_a.organizers.get()
    assert not organizer.is_staff
    assert client.login(username=organizer.username, password=f"pw-{organizer.username}")
    assert client.get("/admin/").status_code == 200
    assert client.get("/admin/players/player/").status_code == 200
    outsider = make_user("outsider")
    client.logout()
    response = client.post("/admin/login/", {"username": outsider.username,
                                             "password": "pw-outsider", "next": "/admin/"})
    assert response.status_code == 200  # the form again, with an error
    assert client.get("/admin/").status_code == 302
