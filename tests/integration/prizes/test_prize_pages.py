"""The prize list's pages: public once the tournament is finished (English and Russian,
its CSV safe in a spreadsheet), the admin's prizes page (settings, groups, preview, CSV)
and the entrants page's fees."""

from __future__ import annotations

import csv
import io
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client

from tests.integration.prizes.events import LADDER, THREE_WAY, cash
from tournaments import services
from tournaments.csv_cells import read_cell
from tournaments.models import Entrant, PrizeGroup, Tournament
from tournaments.services.prizes import prize_group_create, prize_settings_update

D = Decimal
pytestmark = pytest.mark.django_db


def public(tournament: Tournament, tail: str = "prizes/") -> str:
    return f"/tournaments/{tournament.club.slug}/{tournament.slug}/{tail}"


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def admin_url(tournament: Tournament, tail: str = "prizes/") -> str:
    return f"/admin/tournaments/tournament/{tournament.pk}/{tail}"


def test_public_page_only_once_final(play_event: Any, organizer: Any) -> None:
    tournament = play_event(LADDER, finish=False)
    prize_group_create(actor=organizer, tournament=tournament, name="Overall",
                       prizes=cash(500, 300))
    client = Client()
    assert client.get(public(tournament)).status_code == 404
    assert client.get(public(tournament, "prizes.csv")).status_code == 404
    assert "/prizes/" not in client.get(public(tournament, "lists/")).content.decode()
    services.tournament_finish(actor=organizer, tournament=tournament)
    page = client.get(public(tournament))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Overall" in text and "500.00" in text and "Provisional" not in text
    assert f'href="{public(tournament)}"' in client.get(
        public(tournament, "lists/")).content.decode()
    russian = client.get(public(tournament), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Призы" in russian and "Место" in russian


def test_no_prizes_no_page(play_event: Any) -> None:
    tournament = play_event(LADDER)
    assert Client().get(public(tournament)).status_code == 404
    assert "/prizes/" not in Client().get(public(tournament, "lists/")).content.decode()


def test_the_csv_is_safe_in_a_spreadsheet(play_event: Any, organizer: Any) -> None:
    names = ("=HYPERLINK(\"http://x\")", "+1+2", "@SUM(A1)", "Dee")
    tournament = play_event(THREE_WAY, names=names)
    tournament = prize_settings_update(actor=organizer, tournament=tournament,
                                       prize_ties="hort", currency="EUR")
    prize_group_create(actor=organizer, tournament=tournament, name="-Overall",
                       prizes=cash(1000, 500, 300, 200))
    response = Client().get(public(tournament, "prizes.csv"))
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:6] == ["group", "category", "place", "prize_cash", "prize_item", "name"]
    for row in rows[1:]:
        assert row[0] == "'-Overall"
        assert row[5][:1] not in "=+-@", row
    assert {read_cell(row[5]) for row in rows[1:]} == set(names)
    assert sorted(row[8] for row in rows[1:]) == ["1000.00", "266.66", "316.66", "416.66"]


def test_admin_prizes_page_settings_groups_and_preview(play_event: Any, organizer: Any,
                                                       club_b: Any) -> None:
    tournament = play_event(THREE_WAY, finish=False)
    client = logged_in(organizer)
    page = client.get(admin_url(tournament))
    assert page.status_code == 200
    client.post(admin_url(tournament), {"action": "settings", "prize_ties": "hort",
                                        "currency": "eur", "entry_fee": "12,50"})
    tournament.refresh_from_db()
    assert (tournament.prize_ties, tournament.currency, tournament.entry_fee) == (
        "hort", "EUR", D("12.50"))
    client.post(admin_url(tournament), {
        "action": "group_add", "new-name": "Overall", "new-kind": "overall",
        "new-prizes": "1000; Trophy\n500\n300\n200\n"})
    group = PrizeGroup.objects.get(tournament=tournament)
    assert [(p.cash, p.item) for p in group.prizes.all()] == [
        (D(1000), "Trophy"), (D(500), ""), (D(300), ""), (D(200), "")]
    text = client.get(admin_url(tournament)).content.decode()
    assert 'id="prize-provisional"' in text and "416.66" in text and "Trophy" in text
    # refused with a message, nothing written
    response = client.post(admin_url(tournament), {
        "action": "group_update", "group": group.pk, f"g{group.pk}-name": "Overall",
        f"g{group.pk}-kind": "overall", f"g{group.pk}-prizes": "100\n200"}, follow=True)
    assert "cannot be worth more" in response.content.decode()
    assert group.prizes.count() == 4
    response = client.post(admin_url(tournament), {
        "action": "group_add", "new-name": "Band", "new-kind": "rating_band",
        "new-prizes": "50"}, follow=True)
    assert "lowest or a highest rating" in response.content.decode()
    assert PrizeGroup.objects.count() == 1
    csv_text = client.get(admin_url(tournament, "prizes.csv")).content.decode()
    assert "provisional" in csv_text
    # another club's organizer reads nothing and writes nothing
    other = logged_in(club_b.organizers.get())
    assert other.post(admin_url(tournament), {"action": "group_delete",
                                              "group": group.pk}).status_code == 403
    assert PrizeGroup.objects.count() == 1
    client.post(admin_url(tournament), {"action": "group_delete", "group": group.pk})
    assert PrizeGroup.objects.count() == 0


def test_entrants_page_fees_and_paid_in_full(play_event: Any, organizer: Any,
                                             club_b: Any) -> None:
    tournament = play_event(LADDER, finish=False)
    entrants = {e.name: e for e in Entrant.objects.filter(tournament=tournament)}
    client = logged_in(organizer)
    url = admin_url(tournament, "entrants/")
    page = client.get(url).content.decode()
    assert 'id="fees"' in page
    client.post(url, {"action": "fees", f"due-{entrants['A'].pk}": "20",
                      f"paid-{entrants['A'].pk}": "5", f"due-{entrants['B'].pk}": "20"})
    client.post(url, {"action": "paid_in_full", "paid": [entrants["B"].pk]})
    response = client.post(url, {"action": "fees", f"paid-{entrants['C'].pk}": "-3",
                                 f"paid-{entrants['D'].pk}": "4"}, follow=True)
    assert "cannot be negative" in response.content.decode()
    fees = {e.name: (e.fee_due, e.fee_paid) for e in Entrant.objects.filter(
        tournament=tournament)}
    assert fees == {"A": (D(20), D(5)), "B": (D(20), D(20)), "C": (D(0), D(0)),
                    "D": (D(0), D(0))}
    assert "Due 40.00, paid 25.00, outstanding 15.00" in client.get(url).content.decode()
    assert "Due 40.00, paid 25.00" in client.get(
        admin_url(tournament, "dashboard/")).content.decode()
    other = logged_in(club_b.organizers.get())
    assert other.post(url, {"action": "paid_in_full",
                            "paid": [entrants["A"].pk]}).status_code == 403
    assert Entrant.objects.get(pk=entrants["A"].pk).fee_paid == D(5)
