"""The public sign-up page and the status page over HTTP: CSRF, the honeypot, the limit
per address, the private status page's headers, withdrawing, the tournament page's link,
and the admin's decisions."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from signup import selectors, services
from signup.models import SignUp, SignUpStatus
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_limits() -> Any:
    cache.clear()
    yield
    cache.clear()


def _url(tournament: Any) -> str:
    return f"/tournaments/{tournament.club.slug}/{tournament.slug}/sign-up/"


def test_sign_up_through_the_page_and_follow_the_status_link(open_event: Any,
                                                             client: Client) -> None:
    tournament = open_event(cap=1, ask_email=True)
    page = client.get(_url(tournament))
    assert page.status_code == 200 and 'name="csrfmiddlewaretoken"' in page.content.decode()
    answer = client.post(_url(tournament), {"name": "Gina Holm", "email": "g@example.org"})
    assert answer.status_code == 303
    status_url = answer["Location"]
    status = client.get(status_url)
    assert status.status_code == 200
    assert status["Referrer-Policy"] == "no-referrer"
    assert "no-store" in status["Cache-Control"]
    body = status.content.decode()
    assert "You are entered." in body and "/p/" in body  # the private link once accepted
    # the second person waits
    waiting = client.post(_url(tournament), {"name": "Hugo", "email": "h@example.org"})
    body = client.get(waiting["Location"]).content.decode()
    assert "waiting list: number 1" in body
    # Gina withdraws from her status page: Hugo moves up
    token = status_url.rstrip("/").split("/")[-1]
    confirm = client.get(f"/sign-up/{token}/withdraw/")
    assert confirm.status_code == 200 and confirm["Referrer-Policy"] == "same-origin"
    assert client.post(f"/sign-up/{token}/withdraw/", {}).status_code == 400  # unconfirmed
    done = client.post(f"/sign-up/{token}/withdraw/", {"confirm": "yes"})
    assert done.status_code == 303
    assert SignUp.objects.get(name="Hugo").status == SignUpStatus.ACCEPTED
    assert "You have withdrawn." in client.get(status_url).content.decode()


def test_refused_input_is_shown_by_field_and_nothing_is_written(open_event: Any,
                                                                client: Client) -> None:
    tournament = open_event(ask_birth_year=True)
    answer = client.post(_url(tournament), {"name": "Ivo\x00", "birth_year": "1990"})
    assert answer.status_code == 400
    answer = client.post(_url(tournament), {"name": "Ivo", "birth_year": "12"})
    assert answer.status_code == 400 and 'id="error-birth_year"' in answer.content.decode()
    answer = client.post(_url(tournament), {"name": "x" * 100_000, "birth_year": "1990"})
    assert answer.status_code == 400 and 'id="error-name"' in answer.content.decode()
    assert not SignUp.objects.exists()


def test_csrf_is_required(open_event: Any) -> None:
    tournament = open_event()
    client = Client(enforce_csrf_checks=True)
    assert client.post(_url(tournament), {"name": "Jan"}).status_code == 403
    assert not SignUp.objects.exists()
    signup, token = services.sign_up(tournament=tournament, name="Kim")
    assert client.post(f"/sign-up/{token}/withdraw/", {"confirm": "yes"}).status_code == 403
    signup.refresh_from_db()
    assert signup.status == SignUpStatus.ACCEPTED


def test_the_honeypot_refuses_bots(open_event: Any, client: Client) -> None:
    tournament = open_event()
    answer = client.post(_url(tournament), {"name": "Bot", "website": "http://spam"})
    assert answer.status_code == 400
    assert not SignUp.objects.exists()


def test_submissions_are_limited_per_address(open_event: Any, client: Client,
                                             settings: Any) -> None:
    settings.SIGNUP_SUBMISSIONS_PER_WINDOW = 3
    tournament = open_event()
    for number in range(3):
        assert client.post(_url(tournament), {"name": f"P{number}"}).status_code == 303
    refused = client.post(_url(tournament), {"name": "P9"})
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert SignUp.objects.count() == 3
    other = client.post(_url(tournament), {"name": "P8"}, REMOTE_ADDR="10.0.0.9")
    assert other.status_code == 303


def test_unknown_tokens_and_closed_sign_ups(open_event: Any, client: Client,
                                            organizer: Any) -> None:
    assert client.get("/sign-up/" + "A" * 32 + "/").status_code == 404
    assert client.get("/sign-up/short/").status_code == 404
    tournament = open_event()
    services.signup_settings_update(actor=organizer, tournament=tournament, is_open=False)
    page = client.get(_url(tournament))
    assert page.status_code == 200 and 'id="signup-problem"' in page.content.decode()
    assert client.post(_url(tournament), {"name": "Late"}).status_code == 400
    assert not SignUp.objects.exists()


def test_the_tournament_page_links_to_an_open_sign_up(open_event: Any, client: Client,
                                                      organizer: Any) -> None:
    tournament = open_event()
    detail = f"/tournaments/{tournament.club.slug}/{tournament.slug}/"
    assert client.get(detail).status_code == 404  # a draft is not public
    tournament_services.tournament_open_registration(actor=organizer, tournament=tournament)
    assert 'id="signup-link"' in client.get(detail).content.decode()
    services.signup_settings_update(actor=organizer, tournament=tournament, is_open=False)
    assert 'id="signup-link"' not in client.get(detail).content.decode()


def test_the_admin_lists_pending_sign_ups_and_decides(open_event: Any, client: Client,
                                                      organizer: Any) -> None:
    tournament = open_event(cap=1, acceptance="organizer")
    first, _ = services.sign_up(tournament=tournament, name="Lena")
    second, _ = services.sign_up(tournament=tournament, name="Mona")
    client.force_login(organizer)
    listed = client.get("/admin/signup/signup/").content.decode()
    assert "Lena" in listed and "Mona" in listed
    answer = client.post(f"/admin/signup/signup/{first.pk}/decide/", {"decline": "1"})
    assert answer.status_code == 302
    second.refresh_from_db()
    assert second.status == SignUpStatus.PENDING  # moved up
    answer = client.post("/admin/signup/signup/", {
        "action": "accept_selected", "_selected_action": [second.pk]})
    assert answer.status_code == 302
    second.refresh_from_db()
    assert second.status == SignUpStatus.ACCEPTED
    page = client.get(f"/admin/signup/signup/{second.pk}/change/").content.decode()
    assert selectors.status_token(second) in page
    settings_page = client.get("/admin/signup/signupsettings/")
    assert settings_page.status_code == 200


def test_the_admin_shows_waiting_list_places_in_queries_that_do_not_grow(
        open_event: Any, client: Client, organizer: Any) -> None:
    import re

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    tournament = open_event(cap=1)
    client.force_login(organizer)
    counts = []
    for name in ("Ada", "Bea", "Cid", "Dan", "Eve"):
        services.sign_up(tournament=tournament, name=name)
        with CaptureQueriesContext(connection) as queries:
            listed = client.get("/admin/signup/signup/?state=waitlisted&o=1")
        counts.append(len(queries))
    places = re.findall(r'<td class="field-place">(\d+)</td>', listed.content.decode())
    assert sorted(places) == ["1", "2", "3", "4"]
    assert [selectors.waitlist_place(s) for s in selectors.waiting_list(tournament)] == [
        1, 2, 3, 4]
    assert counts[1] == counts[-1], counts
