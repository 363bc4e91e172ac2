"""Deeply nested JSON is a 400 (or a form error), never a 500: every writable API endpoint,
the token login and its guard, JSON pasted into the admin and game records.

Before: a 10 KB body nested 5,000 levels raised RecursionError inside ``json.loads`` on
every write endpoint, anonymously on ``/api/auth/token/`` (in the login guard, before the
throttle), each with a long traceback in the log. ``core/json_depth.py`` now measures the
nesting with a scan that does not recurse before anything parses the text.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from django.core.signals import got_request_exception
from django.test import Client
from rest_framework.test import APIClient

from core.json_depth import MAX_JSON_DEPTH, nesting_overflow
from matches.services.results import parse_game_record
from players.models import Club, Player
from tests.reliability.test_object_permissions import (
    NOT_OBJECT_WRITES,
    RECIPES,
    snapshot,
    writable_operations,
)
from tests.reliability.world import World

pytestmark = pytest.mark.django_db

LEVELS = 5000
DEEP_LIST = "[" * LEVELS + "]" * LEVELS
DEEP_BODY = '{"name": ' + DEEP_LIST + "}"  # 10 KB
DEEP_OBJECT = '{"a": ' * LEVELS + "1" + "}" * LEVELS


class Failures:
    """Unhandled exceptions in views and tracebacks in the log, while a test runs."""

    def __init__(self, caplog: pytest.LogCaptureFixture) -> None:
        self.caplog = caplog
        self.exceptions: list[str] = []

    def seen(self, request: Any = None, **kwargs: Any) -> None:
        self.exceptions.append(f"{request.method} {request.path}" if request else "?")

    def assert_none(self) -> None:
        tracebacks = [record.getMessage() for record in self.caplog.records
                      if record.exc_info or "Traceback" in record.getMessage()]
        assert not self.exceptions, f"unhandled exceptions: {self.exceptions}"
        assert not tracebacks, f"tracebacks in the log: {tracebacks[:3]}"


@pytest.fixture
def failures(caplog: pytest.LogCaptureFixture) -> Any:
    caplog.set_level(logging.WARNING)
    seen = Failures(caplog)
    got_request_exception.connect(seen.seen, dispatch_uid="deep-json")
    yield seen
    got_request_exception.disconnect(dispatch_uid="deep-json")


def _writes() -> list[tuple[str, str]]:
    return [op for op in writable_operations() if op[0] != "delete"] + sorted(NOT_OBJECT_WRITES)


def _url(method: str, path: str, world: World) -> str:
    if "{id}" not in path:
        return path
    object_id, _ = RECIPES[(method, path)](world)
    return path.replace("{id}", str(object_id))


def _is_depth_refusal(response: Any) -> bool:
    return response.status_code == 400 and f"deeper than {MAX_JSON_DEPTH}" in \
        response.json()["detail"]


def test_every_write_endpoint_refuses_deep_json_with_a_400(world: World, failures: Failures
                                                          ) -> None:
    client = APIClient(raise_request_exception=False)
    client.force_authenticate(world.club.organizers.get())
    before = snapshot()
    answers = {}
    for method, path in _writes():
        for shape, body in (("lists", DEEP_BODY), ("objects", DEEP_OBJECT)):
            response = getattr(client, method)(_url(method, path, world), body,
                                               content_type="application/json")
            answers[(method, path, shape)] = response
    wrong = {key: (r.status_code, r.content[:200]) for key, r in answers.items()
             if not _is_depth_refusal(r)}
    assert not wrong, f"not refused as too deep: {wrong}"
    assert len(answers) >= 2 * 20
    failures.assert_none()
    assert snapshot() == before


def test_the_token_login_refuses_deep_json_anonymously(db: Any, failures: Failures) -> None:
    """Refused at the edge, before the login guard and the view: no traceback, no work."""
    client = APIClient(raise_request_exception=False)
    answers = [client.post("/api/auth/token/", body, content_type="application/json")
               for body in (DEEP_BODY, DEEP_OBJECT) * 40]
    assert all(_is_depth_refusal(answer) for answer in answers)
    failures.assert_none()


def test_the_admin_login_refuses_a_deep_json_body(db: Any, failures: Failures) -> None:
    client = Client(raise_request_exception=False)
    response = client.post("/admin/login/", DEEP_BODY, content_type="application/json")
    assert _is_depth_refusal(response)
    failures.assert_none()


def test_the_login_guard_reads_no_name_from_a_deep_body(rf: Any) -> None:
    """The guard's own look at the user name, should it ever see such a body first."""
    from config.login_guard import _username

    request = rf.post("/api/auth/token/", '{"username": "alice", "x": ' + DEEP_LIST + "}",
                      content_type="application/json")
    assert _username(request) == ""


def test_deep_json_in_an_admin_json_field_is_a_form_error(club_a: Club,
                                                          failures: Failures) -> None:
    client = Client(raise_request_exception=False)
    client.force_login(club_a.organizers.get())
    answer = client.post("/admin/players/player/add/", {
        "display_name": "Bot", "club": club_a.pk, "is_bot": "on", "bot_kind": "random",
        "bot_settings": DEEP_OBJECT, "fide_id": ""})
    assert answer.status_code == 200
    assert f"deeper than {MAX_JSON_DEPTH}" in answer.content.decode()
    assert not Player.objects.exists()
    answer = client.post(f"/admin/ratings/clubratingsettings/{club_a.pk}/change/",
                         {"rating_settings": DEEP_LIST})
    assert answer.status_code == 200
    assert f"deeper than {MAX_JSON_DEPTH}" in answer.content.decode()
    failures.assert_none()


def test_a_deep_game_record_is_an_error_in_the_admin_and_the_api(world: World,
                                                                failures: Failures) -> None:
    alice = world.club.organizers.get()
    pairing = world.pairing
    client = Client(raise_request_exception=False)
    client.force_login(alice)
    page = client.post(f"/admin/tournaments/pairing/{pairing.pk}/add-game/", {
        "version": pairing.version, "termination": "normal", "record": DEEP_OBJECT})
    assert page.status_code == 200
    assert f"deeper than {MAX_JSON_DEPTH}" in page.content.decode()
    api = APIClient(raise_request_exception=False)
    api.force_authenticate(alice)
    response = api.post(f"/api/pairings/{pairing.pk}/games/",
                        {"version": pairing.version, "record": DEEP_LIST}, format="json")
    assert response.status_code == 400
    assert f"deeper than {MAX_JSON_DEPTH}" in json.dumps(response.json())
    assert pairing.games.count() == 0
    failures.assert_none()


def test_the_depth_scan_counts_brackets_outside_strings_only() -> None:
    at_limit = "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH
    assert nesting_overflow(at_limit) is None
    assert nesting_overflow("[" + at_limit + "]") == MAX_JSON_DEPTH
    assert nesting_overflow(json.dumps({"name": DEEP_LIST})) is None
    assert nesting_overflow(json.dumps(['"\\' + DEEP_LIST])) is None
    assert nesting_overflow(DEEP_BODY.encode()) is not None
    assert nesting_overflow('{"a": "\\"", "b": ' + DEEP_LIST + "}") is not None
    with pytest.raises(Exception, match=f"deeper than {MAX_JSON_DEPTH}"):
        parse_game_record(DEEP_OBJECT)


def test_json_at_the_depth_limit_still_parses(world: World) -> None:
    """The limit refuses nesting, not ordinary bodies: 60 levels reach the serializers."""
    client = APIClient()
    client.force_authenticate(world.club.organizers.get())
    nested = "[" * 60 + "]" * 60
    response = client.patch(f"/api/players/{world.player.pk}/",
                            '{"display_name": "Renamed", "bot_settings": ' + nested + "}",
                            content_type="application/json")
    assert not _is_depth_refusal(response)
    assert response.status_code in (200, 400)


def test_the_api_parser_refuses_depth_itself() -> None:
    """Behind the edge check, the JSON parser checks too (it is the one that would recurse)."""
    import io

    from rest_framework.exceptions import ParseError

    from core.parsers import StrictJSONParser

    with pytest.raises(ParseError, match=f"deeper than {MAX_JSON_DEPTH}"):
        StrictJSONParser().parse(io.BytesIO(DEEP_OBJECT.encode()), "application/json", {})
    assert StrictJSONParser().parse(io.BytesIO(b'{"a": [[1]]}'), "application/json", {}) \
        == {"a": [[1]]}
