"""Time the print pack of a 200-player, 9-round Swiss event in a scratch PostgreSQL database.

Creates the database (``createdb``), migrates it, bulk-inserts one club, 200 players with
Cyrillic names, a Kugamai Swiss tournament of 200 entrants (fees due and paid) and nine
released rounds of 100 boards with results (a best-of-three: 2-0, 2-1, 1-1 draws...), and
a private link for every entrant (the slips' QR codes). Then it builds, as the admin's
buttons do, the whole event as one PDF and as a zip, and each document apart, printing the
wall time of each (the aim: the whole pack under 5 s). The database is dropped at the end
unless ``--keep`` is given. Run from the repository root (PostgreSQL on 127.0.0.1, user
postgres)::

    .venv/bin/python bench/bench_print.py [--players N] [--rounds N] [--runs N] [--out DIR]
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import subprocess
import sys
import time
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

FIRST = ["Анна", "Борис", "Вера", "Глеб", "Дарья", "Егор", "Ёлка", "Жанна", "Зоя", "Илья",
         "Émilie", "Zoë", "John", "Léa"]
LAST = ["Иванов", "Щукин", "Жукова", "Аверина", "Сидоров", "Ёлкина", "Цветков", "Юдина",
        "Dupont", "Brandt", "Smith"]


def populate(players: int, rounds: int, seed: int) -> int:
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from playerlinks.services import links_issue_missing
    from players.models import Club, Player
    from tournaments.models import Entrant, Pairing, Round, Tournament

    rng = random.Random(seed)
    start = dt.datetime(2026, 12, 5, 10, 0, tzinfo=dt.UTC)
    with transaction.atomic():
        user = get_user_model().objects.create_superuser("bench", password="bench-print")
        club = Club.objects.create(name="Шахматный клуб «Ладья»", slug="bench")
        people = Player.objects.bulk_create(
            Player(display_name=f"{LAST[i % len(LAST)]} {FIRST[i % len(FIRST)]} {i}",
                   club=club) for i in range(players))
        tournament = Tournament.objects.create(
            club=club, name="Кубок клуба 2026", slug="bench-cup", game="kugamai",
            format="swiss", match_format={"kind": "best_of", "games": 3}, rated=False,
            status="finished", rounds_planned=rounds, starts_on=start.date(),
            venue="Дом культуры", entry_fee=Decimal("15.00"), chief_arbiter="Петрова Анна",
            tiebreaks=["buchholz_cut1", "buchholz", "sonneborn_berger", "wins"])
        entrants = Entrant.objects.bulk_create(
            Entrant(tournament=tournament, player=person, seed=index + 1,
                    rating=2200 - index * 3, fee_due=Decimal("15.00"),
                    fee_paid=Decimal("15.00") if index % 4 else Decimal("0.00"))
            for index, person in enumerate(people))
        made = Round.objects.bulk_create(
            Round(tournament=tournament, number=n + 1, status="finished",
                  released_at=start + dt.timedelta(hours=3 * n),
                  starts_at=start + dt.timedelta(hours=3 * n)) for n in range(rounds))
        results = [("a_wins", 2, 0, 0), ("a_wins", 2, 1, 0), ("b_wins", 0, 2, 0),
                   ("b_wins", 1, 2, 0), ("draw", 1, 1, 1)]
        pairings = []
        for round_ in made:
            order = list(range(players))
            rng.shuffle(order)
            for board in range(players // 2):
                outcome, wins_a, wins_b, draws = rng.choice(results)
                pairings.append(Pairing(
                    round=round_, board=board + 1, entrant_a=entrants[order[2 * board]],
                    entrant_b=entrants[order[2 * board + 1]], outcome=outcome,
                    wins_a=wins_a, wins_b=wins_b, draws=draws))
        Pairing.objects.bulk_create(pairings, batch_size=2000)
        links_issue_missing(actor=user, tournament=tournament)
    return tournament.pk


def measure(tournament_id: int, runs: int, out: Path | None) -> None:
    from printpack import pack
    from tournaments.models import Tournament

    tournament = Tournament.objects.select_related("club").get(pk=tournament_id)
    base = "https://club.example/"
    jobs = {
        "whole event, one PDF (A4)": lambda: pack.event_pdf(tournament, base_url=base),
        "whole event, one PDF (Letter)": lambda: pack.event_pdf(tournament, paper="Letter",
                                                                base_url=base),
        "whole event, zip of PDFs": lambda: pack.event_zip(tournament, base_url=base),
        "round 9 pairings by board": lambda: pack.kind_pdf(tournament, "pairings", number=9),
        "round 9 pairings by name": lambda: pack.kind_pdf(tournament, "by_name", number=9),
        "round 9 result slips (QR codes)": lambda: pack.kind_pdf(tournament, "slips",
                                                                 number=9, base_url=base),
        "standings": lambda: pack.kind_pdf(tournament, "standings"),
        "wall chart": lambda: pack.kind_pdf(tournament, "wall_chart"),
        "check-in sheet": lambda: pack.kind_pdf(tournament, "checkin"),
    }
    for name, job in jobs.items():
        times, cpu = [], []
        body = b""
        for _ in range(runs):
            started, used = time.perf_counter(), time.process_time()
            body = job() or b""
            times.append(time.perf_counter() - started)
            cpu.append(time.process_time() - used)
        # the first run of the first job also makes the QR codes (kept for the next ones);
        # CPU: this process's own time, what a busy machine's wall time hides
        print(f"{name:32} first {times[0]:5.2f} s  best {min(times):5.2f} s wall, "
              f"{min(cpu):5.2f} s CPU  {len(body) / 1024:5.0f} KiB")
        if out is not None:
            out.mkdir(parents=True, exist_ok=True)
            suffix = "zip" if "zip" in name else "pdf"
            (out / f"{name.split(',')[0].replace(' ', '-')}-{len(body)}.{suffix}").write_bytes(
                body)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--database", default="bench_print")
    parser.add_argument("--out", type=Path, help="Keep the PDFs in this folder.")
    parser.add_argument("--keep", action="store_true", help="Keep the scratch database.")
    args = parser.parse_args()

    url = f"postgres://postgres@127.0.0.1:5432/{args.database}"
    env = {**os.environ, "DATABASE_URL": url, "DEBUG": "true",
           "DJANGO_SETTINGS_MODULE": "config.settings"}
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    pg = ("-h", "127.0.0.1", "-U", "postgres")
    subprocess.run(("dropdb", *pg, "--if-exists", args.database), check=True)
    subprocess.run(("createdb", *pg, args.database), check=True)
    try:
        subprocess.run((sys.executable, "manage.py", "migrate", "-v", "0"), cwd=ROOT, env=env,
                       check=True)
        started = time.perf_counter()
        tournament = populate(args.players, args.rounds, args.seed)
        print(f"created {args.players} players and {args.rounds} rounds in "
              f"{time.perf_counter() - started:.1f} s; {args.runs} runs each:")
        measure(tournament, args.runs, args.out)
    finally:
        if not args.keep:
            from django.db import connections

            connections.close_all()
            subprocess.run(("dropdb", *pg, "--if-exists", "--force", args.database), check=True)


if __name__ == "__main__":
    main()
