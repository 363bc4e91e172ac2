"""What a public sign-up costs: queries and wall milliseconds per sign-up through the
service, accepted at once (a player created, entered, fee set, link issued) and
waitlisted, as the tournament fills (do they grow with the sign-ups already there?), and
the cost of an applicant's withdrawal that moves the first waiting up.

Run against a migrated scratch database, e.g. ``DEBUG=true
DATABASE_URL=postgres://postgres@127.0.0.1:5432/scratch .venv/bin/python
bench/bench_signup.py`` (it builds its own club and tournament, and removes nothing:
use a scratch database). ``SIGNUP_BENCH_CAP`` sets the cap (default 200; as many again
are waitlisted).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection, reset_queries  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils.crypto import get_random_string  # noqa: E402

from players.models import Club  # noqa: E402
from signup import services  # noqa: E402
from tournaments import services as tournament_services  # noqa: E402

CAP = int(os.environ.get("SIGNUP_BENCH_CAP", "200"))


def main() -> None:
    tag = get_random_string(6).lower()
    user = get_user_model().objects.create_user(f"bench-{tag}", password=tag)
    club = Club.objects.create(name=f"Bench club {tag}", slug=f"bench-{tag}")
    club.organizers.add(user)
    tournament = tournament_services.tournament_create(
        actor=user, club=club, name="Bench Swiss", game="kugamai", format="swiss",
        rounds_planned=7)
    tournament_services.tournament_open_registration(actor=user, tournament=tournament)
    services.signup_settings_update(actor=user, tournament=tournament, is_open=True, cap=CAP,
                                    ask_email=True)
    rows: dict[str, list[tuple[int, float]]] = {"accepted": [], "waitlisted": []}
    tokens = []
    for number in range(2 * CAP):
        reset_queries()
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            signup, token = services.sign_up(
                tournament=tournament, name=f"Bench Person {number:04d}",
                fields={"email": f"p{number}@example.org"})
            spent = time.perf_counter() - started
        tokens.append(signup)
        rows[str(signup.status)].append((len(queries), 1000 * spent))
        if number == 0 and os.environ.get("SIGNUP_BENCH_SHOW"):
            for query in queries.captured_queries:
                print(query["time"], query["sql"][:160])
    print(f"{'sign-up':<22}{'count':>7}{'queries first':>15}{'queries last':>14}"
          f"{'median ms':>11}{'p95 ms':>9}")
    for status, found in rows.items():
        times = sorted(ms for _q, ms in found)
        print(f"{status:<22}{len(found):>7}{found[0][0]:>15}{found[-1][0]:>14}"
              f"{statistics.median(times):>11.1f}{times[int(0.95 * (len(times) - 1))]:>9.1f}")
    reset_queries()
    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        services.signup_withdraw(signup=tokens[0])
        spent = time.perf_counter() - started
    print(f"{'withdraw + move up':<22}{1:>7}{len(queries):>15}{'':>14}{1000 * spent:>11.1f}")


if __name__ == "__main__":
    main()
