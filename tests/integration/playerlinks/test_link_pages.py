"""My page (/p/<token>/), its live part and check-in; /me/links/; the kiosk; and the
attacks: revoked and replaced tokens, other tournaments' links, NUL bytes, random tokens
(rate-limited per address, nothing written), CSRF, other clubs' organizers."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from playerlinks import checkins, guard, services, tokens
from playerlinks.lookup import link_from_token
from playerlinks.models import CheckIn, EntrantLink
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_counts() -> Any:
    cache.clear()
    yield
    cache.clear()


def _hygienic(response: Any) -> None:
    assert response["Referrer-Policy"] == "no-referrer"
    assert response["Cache-Control"] == "private, no-store"
    assert "noindex" in response["X-Robots-Tag"]


def _swiss(make_event: Any, organizer: Any, **fields: Any) -> tuple[Any, Any, str]:
    event = make_event("swiss", entrants=4, rounds_planned=3, **fields)
    entrant = event.entrants.order_by("seed").first()
    link, token = services.link_issue(actor=organizer, entrant=entrant)
    return event, link, token


def test_my_page_shows_my_released_board_and_standing(make_event: Any, organizer: Any) -> None:
    event, link, token = _swiss(make_event, organizer)
    type(event).objects.filter(pk=event.pk).update(venue="Club hall")
    client = Client()
    page = client.get(f"/p/{token}/")
    assert page.status_code == 200
    _hygienic(page)
    text = page.content.decode()
    assert link.player.display_name in text and "Not published yet" in text
    assert "Club hall" in text

    round_ = tournament_services.round_pair_next(actor=organizer, tournament=event,
                                                 release=True)
    board = round_.pairings.get(entrant_a=link.entrant)
    text = client.get(f"/p/{token}/").content.decode()
    assert f"Board {board.board}" in text
    assert board.entrant_b is not None and board.entrant_b.name in text
    assert f"/p/{token}/report/" in text  # the result is open: report it
    assert f"/p/{token}/clock/" in text  # and the board's clock
    assert "Place" in text


def test_drafts_are_never_shown(make_event: Any, organizer: Any) -> None:
    event, link, token = _swiss(make_event, organizer)
    round_ = tournament_services.round_pair_next(actor=organizer, tournament=event,
                                                 release=False)
    assert round_.released_at is None
    client = Client()
    text = client.get(f"/p/{token}/").content.decode()
    assert "Not published yet" in text and "Board " not in text
    etag = client.get(f"/p/{token}/live/")["ETag"]
    tournament_services.round_release(actor=organizer, round_=round_)
    released = client.get(f"/p/{token}/live/", HTTP_IF_NONE_MATCH=etag)
    assert released.status_code == 200 and b"Board " in released.content


def test_the_live_part_answers_304_until_something_changes(make_event: Any,
                                                           organizer: Any) -> None:
    event, link, token = _swiss(make_event, organizer)
    client = Client()
    first = client.get(f"/p/{token}/live/")
    assert first.status_code == 200 and first["ETag"]
    _hygienic(first)
    again = client.get(f"/p/{token}/live/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    tournament_services.round_pair_next(actor=organizer, tournament=event, release=True)
    changed = client.get(f"/p/{token}/live/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and b"Board" in changed.content


def test_check_in_by_link_needs_csrf(make_event: Any, organizer: Any) -> None:
    event, link, token = _swiss(make_event, organizer)
    checkins.check_in_window_open(actor=organizer, tournament=event)
    careful = Client(enforce_csrf_checks=True)
    assert careful.post(f"/p/{token}/check-in/").status_code == 403
    assert not CheckIn.objects.exists()
    page = careful.get(f"/p/{token}/")
    assert b"check-in-button" in page.content
    csrf = careful.cookies["csrftoken"].value
    done = careful.post(f"/p/{token}/check-in/", {"csrfmiddlewaretoken": csrf})
    assert done.status_code == 302 and done["Location"] == f"/p/{token}/"
    assert CheckIn.objects.get().entrant == link.entrant
    assert "You are checked in for round 1" in careful.get(f"/p/{token}/").content.decode()


def test_a_revoked_or_replaced_token_stops_at_once(make_event: Any, organizer: Any) -> None:
    event, link, token = _swiss(make_event, organizer)
    client = Client()
    assert client.get(f"/p/{token}/").status_code == 200
    new, new_token = services.link_reissue(actor=organizer, link=link)
    gone = client.get(f"/p/{token}/")
    assert gone.status_code == 404
    _hygienic(gone)
    assert client.get(f"/p/{new_token}/").status_code == 200
    services.link_revoke(actor=organizer, link=new)
    assert client.get(f"/p/{new_token}/").status_code == 404
    checkins.check_in_window_open(actor=organizer, tournament=event)
    assert client.post(f"/p/{new_token}/check-in/").status_code == 404
    assert not CheckIn.objects.exists()


@pytest.mark.parametrize("path", ["/p/%00/", "/p/" + "A" * 31 + "%00/", "/p/" + "A" * 5000 + "/",
                                  "/p/..%2F..%2Fadmin/", "/p/%F0%9F%98%80/"])
def test_odd_tokens_are_refused(path: str) -> None:
    response = Client().get(path)
    assert response.status_code == 404
    _hygienic(response)


@pytest.mark.slow
def test_ten_thousand_random_tokens_find_nothing_and_write_nothing(
        make_event: Any, organizer: Any, settings: Any, django_assert_max_num_queries: Any) -> None:
    event, link, _token = _swiss(make_event, organizer)
    checkins.check_in_window_open(actor=organizer, tournament=event)
    before = (EntrantLink.objects.count(), CheckIn.objects.count())
    guesses = [secrets.token_urlsafe(24)[: tokens.TOKEN_LENGTH] for _ in range(10_000)]
    assert all(tokens.looks_like_token(guess) for guess in guesses)
    # All 10,000 looked up by their hashes (one query: what the resolver asks, in bulk);
    # the first thousand through the resolver itself, one by one.
    hashes = [tokens.token_hash(guess) for guess in guesses]
    assert not EntrantLink.objects.filter(token_hash__in=hashes).exists()
    assert all(link_from_token(guess) is None for guess in guesses[:1000])
    # Through the site: after LINK_FAILURE_LIMIT misses the address gets 429s, unread.
    settings.LINK_FAILURE_LIMIT = 20
    client = Client()
    statuses = [client.get(f"/p/{guess}/").status_code for guess in guesses[:25]]
    assert statuses == [404] * 20 + [429] * 5
    refused = client.get(f"/p/{guesses[30]}/live/")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    with django_assert_max_num_queries(0):
        assert client.post(f"/p/{guesses[31]}/check-in/").status_code == 429
    assert (EntrantLink.objects.count(), CheckIn.objects.count()) == before
    assert Client(REMOTE_ADDR="10.9.8.7").get(f"/p/{guesses[0]}/").status_code == 404


def test_my_links_lists_a_signed_in_players_links(make_event: Any, organizer: Any,
                                                  make_user: Any) -> None:
    event, link, token = _swiss(make_event, organizer)
    user = make_user("anna")
    link.player.user = user
    link.player.save(update_fields=["user"])
    client = Client()
    assert client.get("/me/links/").status_code == 302  # sign in first
    client.force_login(user)
    page = client.get("/me/links/")
    assert page.status_code == 200
    _hygienic(page)
    assert f"/p/{token}/" in page.content.decode()
    services.link_revoke(actor=organizer, link=link)
    assert f"/p/{token}/" not in client.get("/me/links/").content.decode()


def test_the_kiosk_checks_in_by_number_for_its_clubs_organizers(make_event: Any,
                                                                organizer: Any,
                                                                club_b: Any) -> None:
    event = make_event("swiss", entrants=3, rounds_planned=3)
    checkins.check_in_window_open(actor=organizer, tournament=event)
    anonymous = Client()
    assert anonymous.get(f"/kiosk/{event.pk}/").status_code == 302
    stranger = Client()
    stranger.force_login(club_b.organizers.get())
    assert stranger.get(f"/kiosk/{event.pk}/").status_code == 403
    assert stranger.post(f"/kiosk/{event.pk}/", {"code": "1"}).status_code == 403
    kiosk = Client(enforce_csrf_checks=True)
    kiosk.force_login(organizer)
    page = kiosk.get(f"/kiosk/{event.pk}/")
    assert page.status_code == 200 and b"kiosk-code" in page.content
    assert kiosk.post(f"/kiosk/{event.pk}/", {"code": "1"}).status_code == 403  # no CSRF
    csrf = kiosk.cookies["csrftoken"].value
    done = kiosk.post(f"/kiosk/{event.pk}/", {"code": "1", "csrfmiddlewaretoken": csrf},
                      HTTP_ACCEPT="application/json")
    assert done.status_code == 200 and done.json()["ok"]
    first = event.entrants.get(seed=1)
    assert done.json()["name"] == first.name
    assert CheckIn.objects.get().method == "kiosk"
    bad = kiosk.post(f"/kiosk/{event.pk}/", {"code": "42\x00", "csrfmiddlewaretoken": csrf},
                     HTTP_ACCEPT="application/json")
    assert bad.status_code == 400 and not bad.json()["ok"]
    assert CheckIn.objects.count() == 1


def test_the_kiosk_is_rate_limited(make_event: Any, organizer: Any, settings: Any) -> None:
    settings.LINK_FAILURE_LIMIT = 3
    event = make_event("swiss", entrants=2, rounds_planned=3)
    checkins.check_in_window_open(actor=organizer, tournament=event)
    kiosk = Client()
    kiosk.force_login(organizer)
    codes = [kiosk.post(f"/kiosk/{event.pk}/", {"code": "A" * 32},
                        HTTP_ACCEPT="application/json").status_code for _ in range(4)]
    assert codes == [400, 400, 400, 429]
    assert not CheckIn.objects.exists()
    assert guard.failures("127.0.0.1") == 3


def test_the_no_referrer_pages_forms_pass_csrf_with_an_opaque_origin(make_event: Any,
                                                                     organizer: Any) -> None:
    """A no-referrer page's browser posts with "Origin: null": its CSRF token is still
    checked in full, and a foreign origin is refused."""
    event, link, token = _swiss(make_event, organizer)
    checkins.check_in_window_open(actor=organizer, tournament=event)
    careful = Client(enforce_csrf_checks=True)
    page = careful.get(f"/p/{token}/")
    assert f'action="/p/{token}/language/"'.encode() in page.content
    csrf = careful.cookies["csrftoken"].value
    foreign = careful.post(f"/p/{token}/check-in/", {"csrfmiddlewaretoken": csrf},
                           HTTP_ORIGIN="https://evil.example")
    assert foreign.status_code == 403
    assert careful.post(f"/p/{token}/check-in/", {"csrfmiddlewaretoken": "x" * 64},
                        HTTP_ORIGIN="null").status_code == 403
    assert not CheckIn.objects.exists()
    switched = careful.post(f"/p/{token}/language/", {"csrfmiddlewaretoken": csrf,
                                                     "language": "ru"}, HTTP_ORIGIN="null")
    assert switched.status_code == 302 and switched["Location"] == f"/p/{token}/"
    assert careful.cookies["django_language"].value == "ru"
    done = careful.post(f"/p/{token}/check-in/", {"csrfmiddlewaretoken": csrf},
                        HTTP_ORIGIN="null")
    assert done.status_code == 302 and CheckIn.objects.count() == 1
    assert "Вы отмечены" in careful.get(f"/p/{token}/").content.decode()


def test_query_budget_of_my_page_and_its_poll(make_event: Any, organizer: Any,
                                              django_assert_max_num_queries: Any) -> None:
    """A phone polls every 15 s: an unchanged page costs a handful of queries; the full page
    (standings included) stays bounded."""
    event, link, token = _swiss(make_event, organizer)
    tournament_services.round_pair_next(actor=organizer, tournament=event, release=True)
    client = Client()
    client.get(f"/p/{token}/")  # sessions, caches and the "last used" write settle
    etag = client.get(f"/p/{token}/live/")["ETag"]
    with django_assert_max_num_queries(4):
        assert client.get(f"/p/{token}/live/", HTTP_IF_NONE_MATCH=etag).status_code == 304
    with django_assert_max_num_queries(14):
        assert client.get(f"/p/{token}/").status_code == 200
    link.refresh_from_db()
    assert link.last_used_at is not None


def test_each_member_of_a_partnership_has_a_page_and_checks_the_pair_in(
        club_a: Any, organizer: Any) -> None:
    import datetime as dt

    from players import services as player_services
    from players.models import Player

    people = [Player.objects.create(display_name=f"Member {i}", club=club_a) for i in range(4)]
    event = tournament_services.tournament_create(
        actor=organizer, club=club_a, name="Pairs night", game="kazambi-pairs",
        format="round_robin", release_pairings_at_once=True)
    for index in range(2):
        team = player_services.team_create(actor=organizer, name=f"Team {index}", club=club_a,
                                           members=people[2 * index: 2 * index + 2],
                                           joined_on=dt.date(2020, 1, 1))
        tournament_services.entrant_register(actor=organizer, tournament=event, team=team)
    event = tournament_services.tournament_start(actor=organizer, tournament=event)
    assert services.links_issue_missing(actor=organizer, tournament=event) == 4
    checkins.check_in_window_open(actor=organizer, tournament=event)
    first, second = EntrantLink.objects.filter(entrant__team__name="Team 0").order_by(
        "player__display_name")
    assert {first.player, second.player} == {people[0], people[1]}
    pages = [Client().get(f"/p/{services.link_token(link)}/").content.decode()
             for link in (first, second)]
    assert "Member 0" in pages[0] and "Member 1" in pages[1]
    assert all("Team 0" in page for page in pages)
    checkins.check_in_by_link(link=second)
    assert CheckIn.objects.get().entrant == first.entrant
    assert "You are checked in" in Client().get(
        f"/p/{services.link_token(first)}/").content.decode()
