"""Issue 35's evening, end to end over HTTP, one client (one address) per phone: 21 people
sign up for a 20-place Swiss (the 21st waits, and moves up when one withdraws), 19 check in
from their links and one at the kiosk, round 1 is reported from the links (agreed boards,
one conflict, one no-show claim), round 2 is refused until the director has confirmed the
agreed boards in one click and settled the rest, and the standings equal those of the same
results typed by the director in a twin event. The browser tests of each part are
tests/e2e/test_signup_browser.py, test_player_links_browser.py, test_reporting_browser.py."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from core.errors import ApplicationError
from games.series.format import MatchScore
from matches.services.results import match_result_record
from playerlinks.checkins import check_in_window_close, check_in_window_open
from signup.services import signup_settings_update
from tournaments import cache as tournament_cache
from tournaments import services
from tournaments.models import Outcome, Pairing, Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

CONFLICT_BOARD, NO_SHOW_BOARD = 8, 9


@pytest.fixture(autouse=True)
def _fresh_limits() -> Any:
    cache.clear()
    yield
    cache.clear()


def _phone(number: int) -> Client:
    return Client(REMOTE_ADDR=f"10.0.{number // 200}.{number % 200 + 1}")


def _sign_up(tournament: Tournament, number: int) -> tuple[Client, str]:
    phone = _phone(number)
    answer = phone.post(f"/tournaments/{tournament.club.slug}/{tournament.slug}/sign-up/",
                        {"name": f"Player {number:02d}", "email": f"p{number}@example.org"})
    assert answer.status_code == 303, answer.content.decode()[:500]
    return phone, answer["Location"]


def _private_link(phone: Client, status_url: str) -> str | None:
    found = re.search(r"/p/([A-Za-z0-9_-]{32})/", phone.get(status_url).content.decode())
    return found.group(1) if found else None


def _report(phone: Client, token: str, pairing: Pairing, **fields: Any) -> None:
    answer = phone.post(f"/p/{token}/report/", {"pairing": pairing.pk, **fields})
    assert answer.status_code in (200, 302, 303), answer.content.decode()[:500]


def _standings(tournament: Tournament) -> list[tuple[str, Any]]:
    table = tournament_cache.standings(Tournament.objects.get(pk=tournament.pk))
    return [(row["name"], row["points"]) for row in table["rows"]]


def test_a_players_evening(club_a: Any, organizer: Any) -> None:
    event = services.tournament_create(
        actor=organizer, club=club_a, name="Friday Swiss", game="kugamai", format="swiss",
        rounds_planned=3, release_pairings_at_once=True)
    signup_settings_update(actor=organizer, tournament=event, is_open=True, cap=20,
                           ask_email=True)

    # Sign-up: 21 phones for 20 places.
    phones = [_sign_up(event, number) for number in range(1, 22)]
    assert "waiting list: number 1" in phones[20][0].get(phones[20][1]).content.decode()
    withdrawn_phone, withdrawn_status = phones[3]
    token = withdrawn_status.rstrip("/").split("/")[-1]
    assert withdrawn_phone.post(f"/sign-up/{token}/withdraw/",
                                {"confirm": "yes"}).status_code in (200, 302, 303)
    found = [(phone, _private_link(phone, status)) for phone, status in phones
             if phone is not withdrawn_phone]
    entered = [(phone, link) for phone, link in found if link]
    assert len(entered) == 20, "everyone entered sees their private link"
    assert event.entrants.filter(withdrawn_from_round__isnull=True).count() == 20

    # Check-in: 19 from their links, one at the kiosk by starting number.
    event = services.tournament_start(actor=organizer, tournament=event)
    window = check_in_window_open(actor=organizer, tournament=event)
    for phone, link in entered[:19]:
        assert phone.post(f"/p/{link}/check-in/").status_code in (302, 303)
    desk = Client()
    desk.force_login(organizer)
    last = event.entrants.get(player__display_name="Player 21")
    kiosk = desk.post(f"/kiosk/{event.pk}/", {"code": str(last.seed)})
    assert kiosk.status_code == 200 and "Player 21" in kiosk.content.decode()
    assert check_in_window_close(actor=organizer, window=window) == []

    # Round 1 reported from the phones.
    round_1 = services.round_pair_next(actor=organizer, tournament=event)
    phone_of = {}
    for phone, link in entered:
        phone_of[link] = phone
    link_of: dict[int, list[str]] = {}
    for phone, link in entered:
        page = phone.get(f"/p/{link}/").content.decode()
        board = int(re.search(r"Board (\d+)", page).group(1))  # type: ignore[union-attr]
        link_of.setdefault(board, []).append(link)
    boards = {p.board: p for p in round_1.pairings.all()}
    assert sorted(link_of) == sorted(boards) and len(boards) == 10

    def side_links(pairing: Pairing) -> tuple[str, str]:
        first, second = link_of[pairing.board]
        entrant_of_first = phone_of[first].get(f"/p/{first}/").content.decode()
        is_a = pairing.entrant_a.name in entrant_of_first.split("Opponent")[0]
        return (first, second) if is_a else (second, first)

    typed: dict[int, tuple[MatchScore | None, str | None]] = {}
    for number, pairing in sorted(boards.items()):
        a, b = side_links(pairing)
        if number == NO_SHOW_BOARD:
            _report(phone_of[a], a, pairing, kind="no_show")
            typed[number] = (None, Outcome.A_FORFEIT_WIN)
            continue
        wins = (1, 0) if number % 2 else (0, 1)
        _report(phone_of[a], a, pairing, kind="score", wins_a=wins[0], wins_b=wins[1],
                draws=0)
        claimed_by_b = (wins[1], wins[0]) if number == CONFLICT_BOARD else wins
        _report(phone_of[b], b, pairing, kind="score", wins_a=claimed_by_b[0],
                wins_b=claimed_by_b[1], draws=0)
        typed[number] = (MatchScore(*wins), None)

    # The director: all agreed boards in one click; round 2 waits for the other two.
    answer = desk.post(f"/admin/reporting/resultreport/confirm-round/{round_1.pk}/", {})
    assert answer.status_code == 302
    pending = sorted(p.board for p in round_1.pairings.filter(outcome=Outcome.PENDING))
    assert pending == [CONFLICT_BOARD, NO_SHOW_BOARD]
    with pytest.raises(ApplicationError):
        services.round_pair_next(actor=organizer, tournament=event)
    conflict = boards[CONFLICT_BOARD]
    desk.post(f"/admin/reporting/resultreport/resolve/{conflict.pk}/",
              {"wins_a": "0", "wins_b": "1"})
    queue = desk.get("/admin/reporting/resultreport/queue/").content.decode()
    no_show = boards[NO_SHOW_BOARD]
    claim = re.search(r'name="report" value="(\d+)"', queue)
    assert claim, "the no-show claim waits in the queue"
    desk.post(f"/admin/reporting/resultreport/resolve/{no_show.pk}/",
              {"report": claim.group(1)})
    no_show.refresh_from_db()
    assert no_show.outcome == Outcome.A_FORFEIT_WIN
    assert not round_1.pairings.filter(outcome=Outcome.PENDING).exists()
    assert services.round_pair_next(actor=organizer, tournament=event).number == 2

    # The same results typed by the director in a twin event give the same standings.
    twin = services.tournament_create(
        actor=organizer, club=club_a, name="Friday Swiss (typed)", game="kugamai",
        format="swiss", rounds_planned=3, release_pairings_at_once=True, rated=False)
    for entrant in event.entrants.filter(withdrawn_from_round__isnull=True).order_by("seed"):
        services.entrant_register(actor=organizer, tournament=twin, player=entrant.player)
    services.entrant_ratings_update(  # as they entered the evening (the event rated them since)
        actor=organizer, tournament=twin, ratings={e.pk: 0 for e in twin.entrants.all()})
    twin = services.tournament_start(actor=organizer, tournament=twin)
    twin_round = services.round_pair_next(actor=organizer, tournament=twin)
    for pairing in twin_round.pairings.order_by("board"):
        original = boards[pairing.board]
        assert pairing.entrant_b is not None and original.entrant_b is not None
        assert (pairing.entrant_a.player_id, pairing.entrant_b.player_id) == (
            original.entrant_a.player_id, original.entrant_b.player_id)
        score, outcome = typed[pairing.board]
        if pairing.board == CONFLICT_BOARD:
            score = MatchScore(0, 1)
        match_result_record(actor=organizer, pairing=pairing, score=score, outcome=outcome,
                            expected_version=pairing.version)
    assert _standings(twin) == [(name, points) for name, points in _standings(event)]
