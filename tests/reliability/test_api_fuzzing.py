"""schemathesis against the running API: no 5xx, and responses that match the schema.

A live server (a thread of this process on 127.0.0.1, on the test database) serves the API;
schemathesis's command line reads ``/api/schema/`` and sends generated requests, reads
anonymously and writes with an organizer's token. The server counts the requests it got
and keeps the traceback of every unhandled exception, so a 5xx comes with its cause.
"""

from __future__ import annotations

import os
import subprocess
import sys
import traceback
from pathlib import Path
from typing import Any

import pytest
from django.core.signals import got_request_exception, request_started
from rest_framework.authtoken.models import Token

from matches import services as match_services
from players.models import Player
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
        round_ = services.round_pair_next(actor=actor, tournament=tournament)
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
