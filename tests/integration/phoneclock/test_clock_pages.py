"""The phone clock's pages over HTTP: the director's and the player's clock, CSRF on the
taps, refusals (anonymous, another club, unknown links, NUL bytes, oversized bodies), the
follow state, the service worker's scope header, the round page's clock links and
measured advice, and the director's confirmation button in the admin."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from phoneclock import services
from phoneclock.models import ClockSession, ClockTap
from playerlinks.services import link_issue
from tournaments import services as tournament_services
from tournaments.models import Outcome, Pairing
from tournaments.services.rounds import round_clock_update

pytestmark = pytest.mark.django_db

T0 = 1_700_000_000_000


def first_round(event: Any, organizer: Any) -> Any:
    round_ = event.rounds.filter(number=1).first() or tournament_services.round_pair_next(
        actor=organizer, tournament=event, release=True)
    return round_


@pytest.fixture
def board(make_event: Any, organizer: Any) -> Pairing:
    event = make_event("round_robin", entrants=4, clock="3+2")
    round_ = first_round(event, organizer)
    return Pairing.objects.filter(round=round_, entrant_b__isnull=False).order_by("board")[0]


def staff(user: Any) -> Client:
    user.is_staff = True
    user.save()
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    return client


def post(client: Client, url: str, body: Any, csrf: bool = True) -> Any:
    headers = {"X-CSRFToken": client.cookies["csrftoken"].value} if csrf else {}
    data = body if isinstance(body, str | bytes) else json.dumps(body)
    return client.post(url, data=data, content_type="application/json", headers=headers)


def test_the_directors_clock_takes_taps_with_csrf(board: Pairing, organizer: Any) -> None:
    client = staff(organizer)
    url = reverse("phoneclock:board", args=[board.pk, 1])
    page = client.get(url)
    assert page.status_code == 200
    assert b'id="clock-data"' in page.content and b"<script>" not in page.content
    session = ClockSession.objects.get(pairing=board)
    taps = [{"seq": 1, "seat": 0, "kind": "start", "at": T0},
            {"seq": 2, "seat": 0, "kind": "move", "at": T0 + 4000}]
    assert post(client, url + "taps/", {"session": session.pk, "taps": taps},
                csrf=False).status_code == 403
    answer = post(client, url + "taps/", {"session": session.pk, "taps": taps})
    assert answer.status_code == 200, answer.content
    assert [tap["left"] for tap in answer.json()["taps"]] == [180_000, 178_000]
    again = post(client, url + "taps/", {"session": session.pk, "taps": taps})
    assert again.status_code == 200 and ClockTap.objects.count() == 2

    for bad in ({"session": session.pk, "taps": [{"seq": 3, "seat": 1, "kind": "mo\x00ve",
                                                   "at": T0 + 5000}]},
                {"session": "1", "taps": []}, "[1, 2", b"\xff\xfe"):
        refused = post(client, url + "taps/", bad)
        assert refused.status_code == 400, bad
    huge = {"session": session.pk, "taps": [{"seq": 1, "seat": 0, "kind": "start",
                                             "at": T0}] * 100_000}
    assert post(client, url + "taps/", huge).status_code in (400, 413)
    assert ClockTap.objects.count() == 2

    state = Client().get(reverse("phoneclock:follow-state", args=[session.follow_token]))
    assert [tap["seq"] for tap in state.json()["taps"]] == [1, 2]
    assert Client().get(reverse("phoneclock:follow", args=[session.follow_token])).status_code \
        == 200
    worker = Client().get(reverse("phoneclock:sw"))
    assert worker["Service-Worker-Allowed"] == "/"


def test_strangers_are_refused(board: Pairing, club_b: Any) -> None:
    url = reverse("phoneclock:board", args=[board.pk, 1])
    assert Client().get(url).status_code == 302  # to the login page
    stranger = staff(club_b.organizers.get())
    assert stranger.get(url).status_code == 403
    assert Client().get("/p/" + "a" * 32 + "/clock/").status_code == 404
    assert not ClockSession.objects.exists()


def test_a_players_link_opens_their_boards_clock(board: Pairing, organizer: Any) -> None:
    assert board.entrant_b is not None
    link, token = link_issue(actor=organizer, entrant=board.entrant_b)
    client = Client(enforce_csrf_checks=True)
    page = client.get(reverse("phoneclock:link", args=[token]))
    assert page.status_code == 200
    session = ClockSession.objects.get(pairing=board)
    assert session.opened_by_link == link
    taps = [{"seq": 1, "seat": 0, "kind": "start", "at": T0},
            {"seq": 2, "seat": 0, "kind": "resign", "at": T0 + 1000}]
    base = reverse("phoneclock:link", args=[token])
    assert post(client, base + "taps/", {"session": session.pk, "taps": taps}).status_code == 200
    agreed = post(client, base + "agree/", {"session": session.pk})
    assert agreed.json()["agreed"] == [False, True]

    director = staff(organizer)
    change = director.get(reverse("admin:phoneclock_clocksession_change", args=[session.pk]))
    confirm = reverse("admin:phoneclock_clocksession_confirm", args=[session.pk])
    assert confirm.encode() in change.content
    director.post(confirm, {"csrfmiddlewaretoken": director.cookies["csrftoken"].value})
    board.refresh_from_db()
    assert board.outcome == Outcome.B_WINS


def test_round_page_links_the_clocks_and_shows_measured_advice(make_event: Any,
                                                               organizer: Any) -> None:
    event = make_event("round_robin", entrants=20, clock="3")
    round_ = first_round(event, organizer)
    boards = list(Pairing.objects.filter(round=round_, entrant_b__isnull=False))
    client = staff(organizer)
    url = reverse("admin:tournaments_round_change", args=[round_.pk])
    before = client.get(url).content.decode()
    assert reverse("phoneclock:board", args=[boards[0].pk, 1]) in before
    assert "Only 0 games measured" in before
    for index, pairing in enumerate(boards):
        session = services.session_open(actor=organizer, pairing=pairing, game_number=1)
        taps: list[dict[str, Any]] = [{"seq": 1, "seat": 0, "kind": "start", "at": T0}]
        for move in range(6):
            taps.append({"seq": move + 2, "seat": move % 2, "kind": "move",
                         "at": T0 + (move + 1) * (5000 + 1000 * index)})
        taps.append({"seq": 8, "seat": 0, "kind": "resign", "at": taps[-1]["at"] + 1000})
        services.taps_record(actor=organizer, session=session, taps=taps)
    round_clock_update(actor=organizer, round_=round_, clock="3", time_slot_minutes=90)
    api = client.get(reverse("round-clock-advice", args=[round_.pk]))
    assert api.status_code == 200, api.content
    assert api.json()["measured"]["games_measured"] == 10
    from phoneclock.selectors import measured_advice_dict

    measured = measured_advice_dict(round_)
    assert (measured["fallback"], measured["games_measured"], measured["lost_on_time"]) == \
        (False, 10, 0)
    after = client.get(url).content.decode()
    assert "Measured on the phone clock (10 games) for 3" in after
    assert "0 of the 10 measured games would be lost on time" in after


def test_guessing_tokens_on_the_clock_pauses_the_address_as_on_every_link_page(
        client: Any, settings: Any) -> None:
    from django.core.cache import cache

    cache.clear()
    settings.LINK_FAILURE_LIMIT = 3
    for guess in ("A", "B", "C"):
        assert client.get(f"/p/{guess * 32}/clock/").status_code == 404
    assert client.get(f"/p/{'D' * 32}/clock/").status_code == 429
    assert client.post(f"/p/{'E' * 32}/clock/taps/", "{}",
                       content_type="application/json").status_code == 429
    assert client.get(f"/p/{'F' * 32}/").status_code == 429  # the same budget
    cache.clear()


def test_the_game_page_shows_each_moves_time(board: Pairing, organizer: Any) -> None:
    from games.engines import get_engine
    from games.series import game_roles
    from games.series.deals import deal_for_game
    from matches.models import Game
    from matches.services.games import game_entry_record
    from matches.services.times import game_times_attach

    engine = get_engine("kugamai")
    state = engine.new_game(deal=deal_for_game("kugamai", {}, 11, game_roles("kugamai", 0)))
    while not engine.is_over(state):
        state = engine.play(state, engine.legal_moves(state)[-1])
    game_entry_record(actor=organizer, pairing=board, expected_version=board.version,
                      record=engine.record(state))
    game = Game.objects.get(pairing=board)
    assert game.move_count
    times = [[index + 1.0, 170.0 - index] for index in range(game.move_count)]
    page = Client().get(reverse("pages:game-detail", args=[game.pk])).content.decode()
    assert 'class="move-time"' not in page
    game_times_attach(actor=organizer, game=game, move_times=times)
    page = Client().get(reverse("pages:game-detail", args=[game.pk])).content.decode()
    assert page.count('class="move-time"') == game.move_count
    assert "0:01 · 2:50" in page and "Move times (phone clock)" not in page


def test_a_game_with_times_only_lists_them_by_player(board: Pairing, organizer: Any) -> None:
    from matches.models import Game

    link, token = link_issue(actor=organizer, entrant=board.entrant_a)
    client = Client(enforce_csrf_checks=True)
    base = reverse("phoneclock:link", args=[token])
    client.get(base)
    session = ClockSession.objects.get(pairing=board)
    taps = [{"seq": 1, "seat": 0, "kind": "start", "at": T0},
            {"seq": 2, "seat": 0, "kind": "move", "at": T0 + 65_000},
            {"seq": 3, "seat": 1, "kind": "resign", "at": T0 + 70_000}]
    assert post(client, base + "taps/", {"session": session.pk, "taps": taps}).status_code == 200
    services.session_result_confirm(actor=organizer, session=session)
    game = Game.objects.get(pairing=board)
    page = Client().get(reverse("pages:game-detail", args=[game.pk])).content.decode()
    assert "Move times (phone clock)" in page
    assert f"{board.entrant_a.name}: <span class=\"move-time\">1:05 · 1:57</span>" in page
    detail = Client().get(reverse("game-detail", args=[game.pk])).json()
    assert (detail["move_times"], detail["clock_left"]) == ([[65.0, 117.0]], [117.0, 175.0])


def test_a_second_phone_follows_until_it_takes_the_clock_over(board: Pairing,
                                                              organizer: Any) -> None:
    client = staff(organizer)
    url = reverse("phoneclock:board", args=[board.pk, 1])
    page = client.get(url).content.decode()
    assert "Take the clock over on this phone" in page and 'data-action="draw"' in page
    session = ClockSession.objects.get(pairing=board)
    first, second = "a" * 32, "b" * 32

    def send(phone: str, taps: list[dict[str, Any]], take_over: bool = False) -> Any:
        return post(client, url + "taps/", {"session": session.pk, "phone": phone,
                                            "take_over": take_over, "taps": taps})

    assert send(first, []).status_code == 200  # the first phone claims the clock
    start = {"seq": 1, "seat": 0, "kind": "start", "at": T0}
    assert send(first, [start]).status_code == 200
    refused = send(second, [{"seq": 2, "seat": 0, "kind": "move", "at": T0 + 1000}])
    assert refused.status_code == 409 and refused.json()["code"] == "other_phone"
    assert "another phone" in refused.json()["detail"]
    assert ClockTap.objects.count() == 1
    taken = send(second, [], take_over=True)
    assert taken.status_code == 200 and [tap["seq"] for tap in taken.json()["taps"]] == [1]
    assert send(second, [{"seq": 2, "seat": 0, "kind": "move", "at": T0 + 1000}]) \
        .status_code == 200
    assert send(first, []).json()["code"] == "other_phone"  # now the first one follows
    session.refresh_from_db()
    assert session.runner == second
    for bad in ("short", "x" * 41, "bad id with spaces", 5):
        answer = send(bad, [])  # type: ignore[arg-type]
        assert answer.status_code == 400 and answer.json()["errors"] == {
            "phone": [answer.json()["detail"]]}
    assert post(client, url + "taps/", {"session": session.pk, "take_over": "yes",
                                        "taps": []}).status_code == 400


def test_a_game_without_draws_shows_no_draw_button(make_event: Any, organizer: Any) -> None:
    event = make_event("round_robin", entrants=4, game="kazambi", clock="3+2")
    round_ = first_round(event, organizer)
    pairing = Pairing.objects.filter(round=round_, entrant_b__isnull=False)[0]
    page = staff(organizer).get(reverse("phoneclock:board", args=[pairing.pk, 1]))
    assert page.status_code == 200 and b'data-action="draw"' not in page.content


def test_measured_advice_in_the_settings_box_and_the_game_agnostic_api(
        make_event: Any, organizer: Any) -> None:
    event = make_event("round_robin", entrants=20, clock="3")
    round_ = first_round(event, organizer)
    client = staff(organizer)
    settings_page = reverse("admin:tournaments_tournament_change", args=[event.pk])
    api = reverse("clock-advice")
    query: dict[str, Any] = {"game": "kugamai", "slot_minutes": 60}
    before = client.get(api, query).json()["measured"]
    assert (before["fallback"], before["games_measured"], before["minimum"]) == (True, 0, 10)
    assert "Only 0 games measured on the phone clock" in client.get(settings_page) \
        .content.decode()
    for index, pairing in enumerate(Pairing.objects.filter(round=round_,
                                                           entrant_b__isnull=False)):
        session = services.session_open(actor=organizer, pairing=pairing, game_number=1)
        taps: list[dict[str, Any]] = [{"seq": 1, "seat": 0, "kind": "start", "at": T0}]
        for move in range(6):
            taps.append({"seq": move + 2, "seat": move % 2, "kind": "move",
                         "at": T0 + (move + 1) * (5000 + 1000 * index)})
        taps.append({"seq": 8, "seat": 0, "kind": "resign", "at": taps[-1]["at"] + 1000})
        services.taps_record(actor=organizer, session=session, taps=taps)
    answer = client.get(api, query).json()
    assert answer["measured"]["setting"] == answer["setting"]
    assert (answer["measured"]["fallback"], answer["measured"]["games_measured"]) == (False, 10)
    tight = client.get(api, {**query, "clock": "0:20", "boards": 10}).json()["measured"]
    # three moves of 5 + i s each (board i) overrun 20 s from i = 2 on
    assert (tight["setting"], tight["boards"], tight["lost_on_time"]) == ("0:20", 10, 8)
    refused = client.get(api, {**query, "clock": "3|2|1"})
    assert refused.status_code == 400 and "clock" in refused.json()["errors"]
    assert client.get(api, {**query, "boards": 0}).status_code == 400
    page = client.get(settings_page).content.decode()
    assert "Clock advice from games measured on the phone clock" in page
    assert "for a round of 10 boards" in page and "this tournament's clock" in page
