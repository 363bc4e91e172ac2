"""The Content-Security-Policy in a real headless Chromium: the admin pages (with the round
page's nonce'd script and the print pages) and the browsable API load without a single
violation. The public pages are checked by test_browser.py's console test."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.browser import Browser
from tests.e2e.test_admin_walkthrough import PASSWORD, wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def errors(browser: Browser) -> list[str]:
    """The console's errors, but the admin's missing favicon (no page of ours names one)."""
    return [line for line in browser.console_errors() if "/favicon.ico" not in line]


@pytest.fixture
def csp_round(transactional_db: Any) -> dict[str, Any]:
    from django.contrib.auth import get_user_model

    from players.models import Club, Player
    from tournaments import services

    user = get_user_model().objects.create_user("csp_root", password=PASSWORD, is_staff=True,
                                                is_superuser=True)
    club = Club.objects.create(name="CSP Club", slug="csp-club")
    club.organizers.add(user)
    tournament = services.tournament_create(actor=user, club=club, name="CSP cup",
                                            game="kugamai", format="round_robin")
    for index in range(4):
        player = Player.objects.create(display_name=f"Csp {index + 1}", club=club)
        services.entrant_register(actor=user, tournament=tournament, player=player)
    tournament = services.tournament_start(actor=user, tournament=tournament)
    round_ = services.round_pair_next(actor=user, tournament=tournament, release=True)
    return {"round": round_, "tournament": tournament, "player": player}


def test_admin_and_api_pages_run_under_the_policy(browser: Browser, live_server: Any,
                                                   csp_round: dict[str, Any]) -> None:
    server = str(live_server.url)
    round_, tournament = csp_round["round"], csp_round["tournament"]
    errors(browser)  # drop what earlier tests in this browser left (a refused form's 400)
    browser.get(server + "/admin/login/?next=/admin/")
    wait_for(browser, "return document.getElementById('id_username');")
    assert errors(browser) == []
    browser.run("document.getElementById('id_username').value = arguments[0];"
                "document.getElementById('id_password').value = arguments[1];"
                "document.getElementById('login-form').submit();", "csp_root", PASSWORD)
    wait_for(browser, "return location.pathname === '/admin/' && "
                      "document.readyState === 'complete';")
    pages = [
        "/admin/",
        "/admin/tournaments/tournament/",
        f"/admin/tournaments/tournament/{tournament.pk}/change/",
        f"/admin/tournaments/tournament/{tournament.pk}/dashboard/",
        f"/admin/tournaments/tournament/{tournament.pk}/entrants/",
        "/admin/tournaments/tournament/add/",
        "/admin/tournaments/tournament/import-trf/",
        f"/admin/tournaments/round/{round_.pk}/change/",
        f"/admin/tournaments/round/{round_.pk}/sheet/",
        f"/admin/tournaments/round/{round_.pk}/slips/",
        "/admin/players/player/",
        "/admin/players/player/add/",
        f"/admin/players/player/{csp_round['player'].pk}/change/",
        "/api/",
        "/api/tournaments/",
        "/api/players/",
        "/api/docs/",
    ]
    for path in pages:
        browser.get(server + path)
        wait_for(browser, "return document.readyState === 'complete';")
        assert errors(browser) == [], path
        if path.startswith(f"/admin/tournaments/round/{round_.pk}/change"):
            # the nonce'd inline script ran: the cursor waits in the first result
            focused = wait_for(browser, "return document.activeElement && "
                                        "document.activeElement.id;")
            assert focused.startswith("id_pairings-0-"), focused
        if path.endswith("/slips/"):
            assert browser.run("return !!document.getElementById('print');")
