"""schemathesis against the running API: no 5xx, and responses that match the schema; then
every field of every writable endpoint with adversarial values (NUL, numbers no column
holds, long strings and lists, deep nesting): no 5xx either.

A live server (a thread of this process on 127.0.0.1, on the test database) serves the API;
schemathesis's command line reads ``/api/schema/`` and sends generated requests, reads
anonymously and writes with an organizer's token. The server counts the requests it got
and keeps the traceback of every unhandled exception, so a 5xx comes with its cause.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import traceback
from pathlib import Path
from typing import Any

import pytest
from django.core.signals import got_request_exception, request_started
from rest_framework.authtoken.models import Token

from matches import services as match_services
from players.models import Player
from tests.reliability.test_object_permissions import RECIPES, writable_operations
from tournaments import services
from tournaments.models import Pairing

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES_PER_OPERATION = int(os.environ.get("FUZZ_EXAMPLES", "30"))
MIN_REQUESTS = 1000
CHECKS = "not_a_server_error,response_schema_conformance,content_type_conformance"


def seed(club_a: Any, club_b: Any) -> str:
    """Objects for the generated requests to find, and the organizer's token."""
    alice = club_a.organizers.get()
    for club in (club_a, club_b):
        actor = club.organizers.get()
        tournament = services.tournament_create(actor=actor, club=club, name=f"{club.name} cup",
                                                game="kugamai", format="round_robin")
        for index in range(4):
            player = Player.objects.create(display_name=f"{club.slug} {index}", club=club)
            services.entrant_register(actor=actor, tournament=tournament, player=player,
                                      rating=1800 - index)
        services.tournament_start(actor=actor, tournament=tournament)
        round_ = services.round_pair_next(actor=actor, tournament=tournament, release=True)
        pairing: Pairing = round_.pairings.order_by("board")[0]
        from games.series.format import MatchScore

        match_services.result_record(actor=actor, pairing=pairing, score=MatchScore(1, 0, 0),
                               expected_version=pairing.version)
    return Token.objects.create(user=alice).key


class ServerLog:
    def __init__(self) -> None:
        self.requests = 0
        self.errors: list[str] = []

    def started(self, **kwargs: Any) -> None:
        self.requests += 1

    def failed(self, request: Any = None, **kwargs: Any) -> None:
        where = f"{request.method} {request.get_full_path()}" if request is not None else "?"
        self.errors.append(f"{where}\n{traceback.format_exc()}")


def schemathesis(base: str, tmp_path: Path, name: str,
                 *extra: str) -> subprocess.CompletedProcess[str]:
    command = [
        str(Path(sys.executable).parent / "schemathesis"), "run", f"{base}/api/schema/",
        "--checks", CHECKS, "--max-examples", str(EXAMPLES_PER_OPERATION),
        "--phases", "examples,fuzzing", "--workers", "2", "--seed", "20261129",
        "--generation-database", "none", "--no-shrink", "--request-timeout", "30",
        "--exclude-path", "/api/auth/token/", "--no-color", "--output-truncate", "true",
        "--report", "junit", "--report-junit-path", str(tmp_path / f"{name}.xml"), *extra,
    ]
    env = {**os.environ, "SCHEMATHESIS_HOOKS": ""}
    return subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=900,
                          env=env)


def test_generated_requests_get_no_server_error_and_conforming_answers(
    live_server: Any, club_a: Any, club_b: Any, tmp_path: Path
) -> None:
    token = seed(club_a, club_b)
    log = ServerLog()
    request_started.connect(log.started, dispatch_uid="fuzz-count")
    got_request_exception.connect(log.failed, dispatch_uid="fuzz-errors")
    try:
        reads = schemathesis(live_server.url, tmp_path, "reads", "--include-method", "GET")
        writes = schemathesis(live_server.url, tmp_path, "writes",
                              "--exclude-method", "GET",
                              "--header", f"Authorization: Token {token}")
    finally:
        request_started.disconnect(dispatch_uid="fuzz-count")
        got_request_exception.disconnect(dispatch_uid="fuzz-errors")
    report = (f"server got {log.requests} requests\n--- reads\n{reads.stdout[-6000:]}"
              f"\n--- writes\n{writes.stdout[-6000:]}\n{writes.stderr[-2000:]}")
    print(report)
    summary = Path(os.environ.get("RELIABILITY_REPORT_DIR", tmp_path)) / "fuzzing.txt"
    summary.write_text(f"schemathesis: {log.requests} requests to the live server, "
                       f"{len(log.errors)} unhandled exceptions\n")
    assert not log.errors, "unhandled exceptions in the server:\n" + "\n".join(log.errors[:5])
    assert reads.returncode == 0, report
    assert writes.returncode == 0, report
    assert log.requests >= MIN_REQUESTS, report


# -- adversarial values for every field of every writable endpoint --------------------------
#
# schemathesis generates values that fit the schema's types; these are the ones an attacker
# or a careless script sends on purpose (issue 15): NUL characters, numbers no column holds,
# long lists and strings, deep nesting. Each request runs as club A's organizer (a superuser,
# so that club creation is allowed too) from a recipe body that is valid, with one field
# replaced, inside a savepoint that is rolled back, so every request meets the same state.

FUZZ_VALUES: dict[str, str] = {  # raw JSON text, so that 1e400 and NaN go out as written
    "nul": '"a\\u0000b"',
    "nul-nested": '{"k": ["ok", "\\u0000"], "\\u0000": 1}',
    "huge-int": "1" + "0" * 30,
    "huge-negative": "-1" + "0" * 30,
    "1e308": "1e308",
    "1e400": "1e400",
    "nan": "NaN",
    "minus-one": "-1",
    "long-string": '"' + "x" * 100_000 + '"',
    "long-list": "[" + ",".join(["1"] * 2000) + "]",
    "long-list-of-strings": "[" + ",".join(['"a"'] * 2000) + "]",
    "deep": "[" * 200 + "]" * 200,
    "object": '{"a": 1}',
    "settings-1e308": '{"system": "glicko2", "tau": 1e308, "kind": "first_to", "games": 1e308}',
    "null": "null",
}
WHOLE_BODIES: dict[str, str] = {
    "body-1e400": "1e400",
    "body-list": "[1, 2, 3]",
    "body-nul-key": '{"\\u0000": "\\u0000"}',
    "body-deep": '{"a": ' * 100 + "1" + "}" * 100,
    "body-not-json": "{not json",
}
SLOW_SECONDS = 2.0


def _request_fields(method: str, path: str) -> list[str]:
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    body = (schema["paths"][path][method].get("requestBody", {}).get("content", {})
            .get("application/json", {}).get("schema") or {})
    ref = body.get("$ref", "")
    component = schema["components"]["schemas"].get(ref.rsplit("/", 1)[-1], {}) if ref else {}
    return sorted(component.get("properties", {}))


def test_every_writable_field_survives_adversarial_values(world: Any, club_a: Any) -> None:
    from django.db import transaction
    from django.test import Client

    alice = club_a.organizers.get()
    alice.is_superuser = True
    alice.is_staff = True
    alice.save()
    client = Client(raise_request_exception=False)
    client.force_login(alice)
    log = ServerLog()
    got_request_exception.connect(log.failed, dispatch_uid="fuzz-values-errors")
    failures: list[str] = []
    slow: list[str] = []
    sent = 0
    try:
        for method, path in writable_operations():
            object_id, base = RECIPES[(method, path)](world)
            url = path.replace("{id}", str(object_id)) if object_id is not None else path
            cases = [(f"{field}={name}", json.dumps({**(base or {}), field: "__FUZZ__"})
                      .replace('"__FUZZ__"', token))
                     for field in _request_fields(method, path)
                     for name, token in FUZZ_VALUES.items()]
            cases += list(WHOLE_BODIES.items())
            for label, text in cases:
                errors_before = len(log.errors)
                started = time.monotonic()
                with transaction.atomic():
                    answer = getattr(client, method)(url, text,
                                                     content_type="application/json")
                    transaction.set_rollback(True)
                seconds = time.monotonic() - started
                sent += 1
                if answer.status_code >= 500 or len(log.errors) > errors_before:
                    cause = log.errors[-1].strip().splitlines()[-1] if log.errors else ""
                    failures.append(f"{method.upper()} {path} {label}: {answer.status_code} "
                                    f"{cause}")
                if seconds > SLOW_SECONDS:
                    slow.append(f"{method.upper()} {path} {label}: {seconds:.1f} s")
    finally:
        got_request_exception.disconnect(dispatch_uid="fuzz-values-errors")
    report = (f"{sent} adversarial requests, {len(failures)} server errors, "
              f"{len(slow)} slower than {SLOW_SECONDS} s\n" + "\n".join(failures + slow))
    print(report)
    summary = Path(os.environ.get("RELIABILITY_REPORT_DIR", "/tmp")) / "fuzzing-values.txt"
    summary.write_text(report + "\n")
    assert not failures, report
