"""The report page of a private link: the form, the state, the opponent's claim once both
reported, errors naming the field, CSRF, budgets, private headers, revoked links."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from playerlinks import services as links
from reporting.models import ResultReport
from tests.integration.reporting.conftest import board_links
from tournaments.models import Outcome

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_budgets() -> Any:
    cache.clear()
    yield
    cache.clear()


def url(token: str) -> str:
    return f"/p/{token}/report/"


def post(client: Client, token: str, pairing: Any, **fields: Any) -> Any:
    return client.post(url(token), {"pairing": pairing.pk, **fields})


def private(response: Any) -> None:
    assert response["Cache-Control"] == "no-store"
    assert response["Referrer-Policy"] == "same-origin"  # no-referrer breaks CSRF


def test_report_then_see_the_opponents_claim(reporting_event: Any, client: Client) -> None:
    tournament, round_, found = reporting_event(match_format="bo3")
    pairing = round_.pairings.order_by("board").first()
    a, b = board_links(pairing, found)
    token_a, token_b = found[a.entrant_id][1], found[b.entrant_id][1]
    page = client.get(url(token_a))
    assert page.status_code == 200
    private(page)
    text = page.content.decode()
    assert "Report your result" in text and pairing.entrant_b.name in text
    sent = post(client, token_a, pairing, kind="score", wins_a="2", wins_b="0")
    assert sent.status_code == 302 and sent["Location"].endswith("?sent=1")
    private(sent)
    page_b = client.get(url(token_b)).content.decode()
    assert "Your opponent reported" not in page_b  # only once both reported
    assert "your opponent reported: add yours" in page_b
    post(client, token_b, pairing, kind="games", game_1="a", game_2="a")
    page_b = client.get(url(token_b) + "?sent=1").content.decode()
    assert "Your opponent reported" in page_b and "Both agree" in page_b
    assert "Thank you" in page_b


def test_errors_name_the_field_and_nothing_is_kept(reporting_event: Any,
                                                   client: Client) -> None:
    tournament, round_, found = reporting_event(game="kazambi", match_format="bo3")
    pairing = round_.pairings.order_by("board").first()
    token = found[pairing.entrant_a_id][1]
    refused = post(client, token, pairing, kind="games", game_1="a", game_2="draw", game_3="a")
    assert refused.status_code == 400
    text = refused.content.decode()
    assert 'id="games-error"' in text and "no draws" in text
    refused = post(client, token, pairing, kind="score", wins_a="x", wins_b="1")
    assert 'id="wins_a-error"' in refused.content.decode()
    assert not ResultReport.objects.exists()


def test_another_board_or_a_nul_is_refused(reporting_event: Any, client: Client) -> None:
    tournament, round_, found = reporting_event()
    first, second = round_.pairings.order_by("board")
    token = found[first.entrant_a_id][1]
    assert post(client, token, second, kind="score", wins_a="1",
                wins_b="0").status_code == 400
    assert client.post(url(token), {"pairing": "1\x00", "kind": "score"}).status_code == 400
    assert client.post(url(token), {"pairing": "9" * 30, "kind": "score"}).status_code == 400
    assert not ResultReport.objects.exists()


def test_csrf_is_required(reporting_event: Any) -> None:
    tournament, round_, found = reporting_event()
    pairing = round_.pairings.order_by("board").first()
    token = found[pairing.entrant_a_id][1]
    strict = Client(enforce_csrf_checks=True)
    response = strict.post(url(token), {"pairing": pairing.pk, "kind": "score", "wins_a": "1",
                                        "wins_b": "0"})
    assert response.status_code == 403
    assert not ResultReport.objects.exists()


def test_unknown_and_revoked_links_and_token_guessing(reporting_event: Any, organizer: Any,
                                                      client: Client, settings: Any) -> None:
    settings.REPORTING_BAD_TOKEN_BUDGET = (3, 600)
    tournament, round_, found = reporting_event()
    pairing = round_.pairings.order_by("board").first()
    link, token = found[pairing.entrant_a_id]
    links.link_revoke(actor=organizer, link=link)
    revoked = post(client, token, pairing, kind="score", wins_a="1", wins_b="0")
    assert revoked.status_code == 404
    private(revoked)
    assert client.get(url("A" * 32)).status_code == 404
    assert client.get(url("short")).status_code == 404
    guessed = client.get(url("B" * 32))
    assert guessed.status_code == 429 and guessed["Retry-After"]
    live_token = found[pairing.entrant_b_id][1]
    assert client.get(url(live_token)).status_code == 429  # the address waits
    assert not ResultReport.objects.exists()


def test_a_links_submissions_are_budgeted(reporting_event: Any, client: Client,
                                          settings: Any) -> None:
    settings.REPORTING_LINK_BUDGET = (2, 600)
    tournament, round_, found = reporting_event()
    pairing = round_.pairings.order_by("board").first()
    token = found[pairing.entrant_a_id][1]
    for _ in range(2):
        assert post(client, token, pairing, kind="score", wins_a="1",
                    wins_b="0").status_code == 302
    limited = post(client, token, pairing, kind="score", wins_a="0", wins_b="1")
    assert limited.status_code == 429
    assert ResultReport.objects.count() == 2


def test_a_recorded_result_closes_the_form(reporting_event: Any, client: Client,
                                           organizer: Any) -> None:
    from reporting import services

    tournament, round_, found = reporting_event()
    pairing = round_.pairings.order_by("board").first()
    a, b = board_links(pairing, found)
    services.report_submit(link=a, pairing=pairing, kind="no_show")
    claim = ResultReport.objects.get()
    services.report_resolve(actor=organizer, pairing=pairing, report=claim)
    pairing.refresh_from_db()
    assert pairing.outcome == Outcome.A_FORFEIT_WIN
    text = client.get(url(found[b.entrant_id][1])).content.decode()
    assert "Recorded result:" in text and "wins by forfeit" in text
    assert 'name="kind"' not in text


def test_the_polled_page_is_a_few_queries(reporting_event: Any, client: Client,
                                          django_assert_max_num_queries: Any) -> None:
    tournament, round_, found = reporting_event()
    pairing = round_.pairings.order_by("board").first()
    a, b = board_links(pairing, found)
    post(client, found[a.entrant_id][1], pairing, kind="score", wins_a="1", wins_b="0")
    post(client, found[b.entrant_id][1], pairing, kind="score", wins_a="0", wins_b="1")
    with django_assert_max_num_queries(6):
        assert client.get(url(found[a.entrant_id][1])).status_code == 200
