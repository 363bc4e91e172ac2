"""The admin's forms validate through the same services as the API.

Before: the players, clubs, teams and bot-run admin saved rows directly, so a club's
``rating_settings`` could become ``{"system": "bogus"}`` or ``{"tau": 1e308}`` (then every
result entry of the club failed), a bot's ``bot_settings`` ``[1, 2, 3]`` (each of its games
raised in the worker), a player could be saved without a club, an organizer could link a
player to any user account, a NUL inside a JSON field was a 500, and a change the service
refused showed its error next to "changed successfully" and was logged as a change.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.admin.models import LogEntry
from django.test import Client

from core.errors import ApplicationError
from games.series.format import MatchScore
from matches.services import results as result_services
from players import services as player_services
from players.models import Club, Player, Team, TeamMembership
from tournaments import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice(club_a: Club) -> Any:
    return club_a.organizers.get()


@pytest.fixture
def browser(alice: Any) -> Client:
    client = Client()
    client.force_login(alice)
    return client


def _player_form(home: Club, **fields: Any) -> dict[str, Any]:
    data = {"display_name": "Bot", "club": home.pk, "is_bot": "on", "bot_kind": "mcts",
            "bot_settings": "{}", "fide_id": ""}
    data.update(fields)
    return {key: value for key, value in data.items() if value is not None}


def _errors(answer: Any) -> str:
    assert answer.status_code == 200, (answer.status_code, answer.get("Location"))
    text = answer.content.decode()
    assert "errornote" in text or "errorlist" in text
    return text


@pytest.mark.parametrize(("settings", "message"), [
    ("[1, 2, 3]", "must be a JSON object"),
    ('{"iterations": 1000000000}', "iterations"),
    ('{"seconds": 100000}', "seconds"),
    ('{"depth": 3}', "has no setting"),
    ('{"policy": "\\u0000"}', "policy"),
])
def test_bot_settings_are_checked_by_the_service(browser: Client, club_a: Club, settings: str,
                                                 message: str) -> None:
    logged = LogEntry.objects.count()
    answer = browser.post("/admin/players/player/add/",
                          _player_form(club_a, bot_settings=settings))
    assert message in _errors(answer)
    assert not Player.objects.exists()
    assert LogEntry.objects.count() == logged


def test_nul_inside_a_json_field_is_an_error_not_a_500(browser: Client, club_a: Club) -> None:
    answer = browser.post("/admin/players/player/add/",
                          _player_form(club_a, bot_kind="random",
                                       bot_settings='{"\\u0000": 1}'))
    assert answer.status_code == 200
    assert not Player.objects.exists()


def test_a_player_needs_a_club(browser: Client, club_a: Club) -> None:
    answer = browser.post("/admin/players/player/add/",
                          _player_form(club_a, club="", is_bot=None, bot_kind=""))
    _errors(answer)
    assert not Player.objects.exists()
    with pytest.raises(ApplicationError, match="Choose the player's club"):
        player_services.player_create(actor=club_a.organizers.get(), display_name="X",
                                      club=None)


def test_an_organizer_cannot_link_a_player_to_an_account(browser: Client, club_a: Club,
                                                         make_user: Any, alice: Any) -> None:
    other = make_user("someone")
    answer = browser.post("/admin/players/player/add/",
                          _player_form(club_a, is_bot=None, bot_kind="", user=other.pk,
                                       display_name="Human"))
    assert answer.status_code == 302
    assert Player.objects.get().user is None  # the field is not even on the form
    page = browser.get(f"/admin/players/player/{Player.objects.get().pk}/change/")
    assert 'name="user"' not in page.content.decode()
    with pytest.raises(ApplicationError, match="Only site administrators link"):
        player_services.player_update(actor=alice, player=Player.objects.get(), user=other)
    with pytest.raises(ApplicationError, match="Only site administrators link"):
        player_services.player_create(actor=alice, display_name="Y", club=club_a, user=other)


def test_a_site_administrator_links_accounts(admin_user: Any, club_a: Club,
                                            make_user: Any) -> None:
    client = Client()
    client.force_login(admin_user)
    other = make_user("someone")
    answer = client.post("/admin/players/player/add/",
                         _player_form(club_a, is_bot=None, bot_kind="", user=other.pk,
                                      display_name="Human"))
    assert answer.status_code == 302
    assert Player.objects.get().user == other


def test_a_valid_bot_is_saved_through_the_service_and_logged(browser: Client,
                                                            club_a: Club) -> None:
    answer = browser.post("/admin/players/player/add/",
                          _player_form(club_a, bot_settings='{"iterations": 200}'))
    assert answer.status_code == 302
    bot = Player.objects.get()
    assert bot.bot_settings == {"iterations": 200} and bot.club == club_a
    assert LogEntry.objects.filter(object_id=str(bot.pk)).count() == 1


def test_a_refusal_at_save_time_is_shown_alone_and_not_logged(
        browser: Client, club_a: Club, monkeypatch: Any) -> None:
    """The form's checks passed, then the service refused the save (someone changed the
    player in between): the page says nothing was saved, and nothing was."""
    player = Player.objects.create(display_name="Ada", club=club_a)
    real = player_services.player_update
    calls = []

    def refuse_the_second_time(**kwargs: Any) -> Any:
        calls.append(kwargs)
        if len(calls) > 1:
            raise ApplicationError("Someone changed this player meanwhile.")
        return real(**kwargs)

    monkeypatch.setattr(player_services, "player_update", refuse_the_second_time)
    logged = LogEntry.objects.count()
    answer = browser.post(f"/admin/players/player/{player.pk}/change/",
                          _player_form(club_a, display_name="Renamed", is_bot=None,
                                       bot_kind=""), follow=True)
    text = answer.content.decode()
    assert "Nothing was saved: Someone changed this player meanwhile." in text
    assert "changed successfully" not in text
    assert LogEntry.objects.count() == logged
    player.refresh_from_db()
    assert player.display_name == "Ada"


def test_club_rating_settings_cannot_be_edited_on_the_club(browser: Client,
                                                          club_a: Club) -> None:
    answer = browser.post(f"/admin/players/club/{club_a.pk}/change/",
                          {"name": "Alpha Club", "open_entries": "on",
                           "rating_settings": '{"system": "bogus"}'})
    assert answer.status_code == 302
    club_a.refresh_from_db()
    assert club_a.rating_settings == {} and club_a.open_entries is True


@pytest.mark.parametrize("settings", ['{"system": "bogus"}', '{"tau": 1e308}',
                                      '{"system": "elo", "k": 100000}', '[1]',
                                      '{"initial_rd": 10}'])
def test_the_rating_settings_page_checks_through_the_service(
        browser: Client, club_a: Club, settings: str) -> None:
    logged = LogEntry.objects.count()
    answer = browser.post(f"/admin/ratings/clubratingsettings/{club_a.pk}/change/",
                          {"rating_settings": settings})
    assert "changed successfully" not in _errors(answer)
    club_a.refresh_from_db()
    assert club_a.rating_settings == {}
    assert LogEntry.objects.count() == logged


def test_the_rating_settings_page_saves_through_the_service(
        browser: Client, club_a: Club, make_event: Any, alice: Any) -> None:
    tournament = make_event(entrants=2)
    pairing = services.round_pair_next(actor=alice, tournament=tournament,
                                       release=True).pairings.get()
    result_services.result_record(actor=alice, pairing=pairing, expected_version=1,
                                  score=MatchScore(1, 0, 0))
    answer = browser.post(f"/admin/ratings/clubratingsettings/{club_a.pk}/change/",
                          {"rating_settings": json.dumps({"system": "elo", "k": 20})})
    assert answer.status_code == 302
    club_a.refresh_from_db()
    assert club_a.rating_settings == {"system": "elo", "k": 20}
    assert set(club_a.ratings.values_list("system", flat=True)) == {"elo"}  # rebuilt


def test_another_club_s_rating_settings_page_is_refused(browser: Client,
                                                       club_b: Club) -> None:
    answer = browser.post(f"/admin/ratings/clubratingsettings/{club_b.pk}/change/",
                          {"rating_settings": '{"system": "elo"}'})
    assert answer.status_code == 403
    club_b.refresh_from_db()
    assert club_b.rating_settings == {}


def test_team_members_go_through_the_service(browser: Client, club_a: Club,
                                            club_b: Club) -> None:
    ours = Player.objects.create(display_name="Ours", club=club_a)
    theirs = Player.objects.create(display_name="Theirs", club=club_b)
    refused = browser.post("/admin/players/team/add/",
                           {"name": "Mixed", "club": club_a.pk, "members": [ours.pk, theirs.pk],
                            "memberships-TOTAL_FORMS": "0", "memberships-INITIAL_FORMS": "0"})
    assert "does not accept entries by other clubs" in _errors(refused)
    assert not Team.objects.exists()
    made = browser.post("/admin/players/team/add/",
                        {"name": "Ours", "club": club_a.pk, "members": [ours.pk],
                         "memberships-TOTAL_FORMS": "0", "memberships-INITIAL_FORMS": "0"})
    assert made.status_code == 302, made.content.decode()[:2000]
    team = Team.objects.get()
    changed = browser.post(f"/admin/players/team/{team.pk}/change/",
                           {"name": "Ours", "members": [],
                            "memberships-TOTAL_FORMS": "1", "memberships-INITIAL_FORMS": "1"})
    assert changed.status_code == 302, changed.content.decode()[:2000]
    membership = TeamMembership.objects.get()
    assert membership.left_on is not None  # left through the service, history kept


def test_bot_run_limits_are_checked_by_the_service(browser: Client, make_event: Any) -> None:
    tournament = make_event(bots="random", entrants=2, start=False)
    for move_seconds, game_seconds in (("100000", "900"), ("1", "100000"), ("0", "900")):
        answer = browser.post("/admin/botruns/botrun/add/", {
            "tournament": tournament.pk, "seed": "1", "move_seconds": move_seconds,
            "game_seconds": game_seconds, "game_timeout_seconds": "300"})
        _errors(answer)
    bad_bot = tournament.entrants.first().player
    Player.objects.filter(pk=bad_bot.pk).update(bot_settings=[1, 2, 3])  # saved long ago
    answer = browser.post("/admin/botruns/botrun/add/", {
        "tournament": tournament.pk, "seed": "1", "move_seconds": "1", "game_seconds": "900",
        "game_timeout_seconds": "300"})
    assert "must be a JSON object" in _errors(answer)
    tournament.refresh_from_db()
    assert tournament.status == "draft"


@pytest.mark.parametrize("settings", [{"tau": 1e308}, {"initial_rd": 10},
                                      {"system": "elo", "k": 10**9},
                                      {"initial_rating": -5}, {"period_days": 1e300}])
def test_the_api_refuses_rating_settings_the_maths_cannot_take(
        api: Any, alice: Any, club_a: Club, settings: dict[str, Any]) -> None:
    api.force_authenticate(alice)
    answer = api.put(f"/api/clubs/{club_a.pk}/rating-settings/",
                     {"rating_settings": settings}, format="json")
    assert answer.status_code == 400, answer.content
    club_a.refresh_from_db()
    assert club_a.rating_settings == {}
