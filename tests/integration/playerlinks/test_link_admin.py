"""The director's links page (issue all, re-issue with the new address shown, revoke, QR),
the printable cards, and the check-in page; another club's organizer gets nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from playerlinks import selectors
from playerlinks.models import CheckIn, CheckInWindow, EntrantLink
from tournaments.models import RequestedBye

pytestmark = pytest.mark.django_db


def _admin(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_links_page_issues_reissues_and_revokes(make_event: Any, organizer: Any) -> None:
    event = make_event("swiss", entrants=3, rounds_planned=3)
    client = _admin(organizer)
    url = f"/admin/tournaments/tournament/{event.pk}/links/"
    dashboard = client.get(f"/admin/tournaments/tournament/{event.pk}/dashboard/")
    assert url.encode() in dashboard.content
    page = client.get(url)
    assert page.status_code == 200 and b"Issue 3 missing links" in page.content
    client.post(url, {"action": "issue_missing"})
    assert EntrantLink.objects.live().count() == 3
    link = EntrantLink.objects.order_by("entrant__seed").first()
    assert link is not None
    fresh = client.post(url, {"action": "reissue", "link": link.pk})
    assert fresh.status_code == 200 and b"fresh-link" in fresh.content
    assert "no-store" in fresh["Cache-Control"]
    new = EntrantLink.objects.live().get(entrant=link.entrant)
    assert new.pk != link.pk
    assert f"/p/{selectors.link_token(new)}/".encode() in fresh.content
    client.post(url, {"action": "revoke", "link": new.pk})
    assert not EntrantLink.objects.live().filter(entrant=link.entrant).exists()
    other = EntrantLink.objects.live().first()
    assert other is not None
    qr = client.get(f"{url}{other.pk}/qr.svg")
    assert qr.status_code == 200 and qr["Content-Type"] == "image/svg+xml"
    assert qr.content.startswith(b"<svg")
    cards = client.get(f"{url}cards/")
    assert cards.status_code == 200
    assert cards.content.count(b"<svg") == 2
    assert f"/p/{selectors.link_token(other)}/".encode() in cards.content
    for bad in ("x", "\x00", "9" * 30, "-1"):
        assert client.post(url, {"action": "revoke", "link": bad}).status_code == 404


def test_link_cards_for_the_print_pack(make_event: Any, organizer: Any) -> None:
    from playerlinks import services

    event = make_event("swiss", entrants=2, rounds_planned=3)
    services.links_issue_missing(actor=organizer, tournament=event)
    cards = selectors.link_cards(event, "https://club.example/")
    assert [card.starting_number for card in cards] == [1, 2]
    assert all(card.url.startswith("https://club.example/p/") for card in cards)
    assert all(card.qr_svg.startswith("<svg") for card in cards)
    player = cards[0].entrant.player
    assert player is not None and cards[0].holder_name == player.display_name


def test_check_in_page(make_event: Any, organizer: Any) -> None:
    event = make_event("swiss", entrants=3, rounds_planned=3)
    client = _admin(organizer)
    url = f"/admin/tournaments/tournament/{event.pk}/check-in/"
    assert b"open-check-in" in client.get(url).content
    client.post(url, {"action": "open", "minutes": "abc"})
    assert not CheckInWindow.objects.exists()
    client.post(url, {"action": "open", "minutes": "20"})
    window = CheckInWindow.objects.get()
    assert window.closes_at is not None
    first = event.entrants.get(seed=1)
    client.post(url, {"action": "check_in", "entrant": first.pk})
    page = client.get(url).content.decode()
    assert "1 checked in, 2 missing" in page
    client.post(url, {"action": "close"})
    assert RequestedBye.objects.filter(kind="zero").count() == 2
    assert CheckIn.objects.count() == 1


def test_another_clubs_organizer_gets_nothing(make_event: Any, organizer: Any,
                                              club_b: Any) -> None:
    event = make_event("swiss", entrants=2, rounds_planned=3)
    client = _admin(club_b.organizers.get())
    base = f"/admin/tournaments/tournament/{event.pk}"
    for path in ("/links/", "/links/cards/", "/check-in/"):
        assert client.get(base + path).status_code in (403, 404)
    assert client.post(base + "/links/", {"action": "issue_missing"}).status_code in (403, 404)
    assert client.post(base + "/check-in/", {"action": "open"}).status_code in (403, 404)
    assert not EntrantLink.objects.exists() and not CheckInWindow.objects.exists()
