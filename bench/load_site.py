"""What ``bench/bench_load.py`` adds to the service: a minimal view and a large Swiss.

``urlpatterns`` is the service's own URLconf with one more path, ``/bench/minimal``: a
Django view returning a fixed JSON body, through the same middleware as every page. It is
the floor the other URLs are measured against (``bench/load_settings.py`` points
``ROOT_URLCONF`` here; the service itself never serves it).

:func:`build_swiss` makes a 200-player, 9-round Swiss through the services, as a club
would: players registered, each round paired by the Dutch system and every board's
result entered (one game a match, seeded random results favouring the higher rating).
"""

from __future__ import annotations

import random

from django.http import HttpRequest, HttpResponse
from django.urls import path

from config.urls import urlpatterns as service_urlpatterns

MINIMAL_BODY = b'{"status": "ok"}'


def minimal(request: HttpRequest) -> HttpResponse:
    return HttpResponse(MINIMAL_BODY, content_type="application/json")


urlpatterns = [path("bench/minimal", minimal, name="bench-minimal"), *service_urlpatterns]


def build_swiss(*, players: int = 200, rounds: int = 9, seed: int = 2026,
                slug: str = "bench-swiss", live: bool = False) -> str:
    """The Swiss's public page path, building it first unless it exists.

    ``live``: the last round is paired and only its first half of boards has results (a
    results night in progress), and the tournament stays running.
    """
    from django.contrib.auth import get_user_model

    from games.series.format import MatchScore
    from matches import services as match_services
    from players.models import Club, Player
    from tournaments import services
    from tournaments.models import Tournament

    existing = Tournament.objects.filter(slug=slug).select_related("club").first()
    if existing is not None:
        return f"/tournaments/{existing.club.slug}/{existing.slug}/"
    rng = random.Random(seed)
    organizer, _ = get_user_model().objects.get_or_create(username="bench-organizer")
    club, _ = Club.objects.get_or_create(slug="bench-club", defaults={"name": "Bench Club"})
    club.organizers.add(organizer)
    tournament = services.tournament_create(
        actor=organizer, club=club, name=slug.replace("-", " ").title(),
        game="kugamai", format="swiss",
        rounds_planned=rounds, match_format={"kind": "single", "games": 1}, rated=False,
        tiebreaks=["buchholz_cut1", "buchholz", "sonneborn_berger", "wins"],
    )
    ratings: dict[int, int] = {}
    for number in range(1, players + 1):
        player = Player.objects.create(display_name=f"Bench Player {number:03d}", club=club)
        entrant = services.entrant_register(actor=organizer, tournament=tournament,
                                            player=player, rating=rng.randint(1200, 2400))
        ratings[entrant.pk] = entrant.rating
    tournament = services.tournament_start(actor=organizer, tournament=tournament)
    for number in range(1, rounds + 1):
        round_ = services.round_pair_next(actor=organizer, tournament=tournament, release=True)
        boards = [p for p in round_.pairings.order_by("board") if p.entrant_b_id is not None]
        if live and number == rounds:
            boards = boards[: len(boards) // 2]
        for pairing in boards:
            assert pairing.entrant_b_id is not None
            expected = 1 / (1 + 10 ** ((ratings[pairing.entrant_b_id]
                                        - ratings[pairing.entrant_a_id]) / 400))
            score = MatchScore(1, 0, 0) if rng.random() < expected else MatchScore(0, 1, 0)
            match_services.match_result_record(actor=organizer, pairing=pairing,
                                         expected_version=pairing.version, score=score)
    if not live:
        services.tournament_finish(actor=organizer, tournament=tournament)
    return f"/tournaments/{club.slug}/{tournament.slug}/"


def page_weights(path: str, samples: int = 5) -> list[dict[str, float | str]]:
    """Each tab of the live Swiss at ``path`` (overview, the round in play, the table, and
    the results part the open overview polls): raw and gzip bytes as served, and the CPU
    time of the first request after a result is entered (median of ``samples``: each
    sample enters one more result of the round in play, through the service, then asks)."""
    import gzip
    import statistics
    import time

    from django.test import Client

    from games.series.format import MatchScore
    from matches import services as match_services
    from tournaments.models import Outcome, Pairing, Tournament

    tournament = Tournament.objects.get(slug=path.rstrip("/").rsplit("/", 1)[-1])
    last = tournament.rounds.order_by("-number").first()
    assert last is not None
    pending = list(Pairing.objects.filter(round=last, outcome=Outcome.PENDING)
                   .exclude(entrant_b=None).order_by("board"))
    organizer = tournament.club.organizers.first()
    client = Client(HTTP_HOST="127.0.0.1")
    urls = {"overview (standings, round in play)": path,
            "results part (what the open page polls)": path + "results/",
            f"round {last.number} tab": path + f"rounds/{last.number}/",
            "round-by-round tab": path + "table/"}
    rows: list[dict[str, float | str]] = []
    for name, url in urls.items():
        cpu = []
        body = b""
        for _ in range(samples):
            pairing = pending.pop()
            match_services.match_result_record(actor=organizer, pairing=pairing,
                                               expected_version=pairing.version,
                                               score=MatchScore(1, 0, 0))
            started = time.process_time()
            answer = client.get(url)
            cpu.append(time.process_time() - started)
            assert answer.status_code == 200, (url, answer.status_code)
            body = answer.content
        rows.append({"page": name, "url": url, "raw": len(body),
                     "gzip": len(gzip.compress(body, compresslevel=6, mtime=0)),
                     "cpu_ms": 1000 * statistics.median(cpu)})
    return rows
