"""config.table_events with committed writes (transactional tests): the listener hears each
write to a watched table, cached page states and API lists follow at once, and a lost
listener connection stops the caching until it is back."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import psycopg
import pytest
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext

from config import list_cache, table_events
from games.series.format import MatchScore
from matches import services as match_services
from tournaments import services

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def listening() -> Iterator[table_events.TableEvents]:
    with override_settings(TABLE_EVENTS=True):
        table_events.events.stop()
        list_cache.clear()
        assert table_events.events.wait_listening(), "the listener did not start"
        try:
            yield table_events.events
        finally:
            table_events.events.stop()
    list_cache.clear()


def _until(check: Callable[[], bool], timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.02)
    return False


def _settled(events: table_events.TableEvents, tables: list[str]) -> Any:
    """The snapshot once no notification came for a moment (writes before it are heard)."""
    previous = events.snapshot(tables)
    while True:
        time.sleep(0.2)
        current = events.snapshot(tables)
        if current == previous:
            return current
        previous = current


def _dsn() -> str:
    settings = connection.settings_dict
    return (f"host={settings['HOST']} port={settings['PORT'] or 5432} "
            f"user={settings['USER']} dbname={settings['NAME']}")


def test_a_committed_write_changes_its_tables_snapshot_only(
        listening: table_events.TableEvents, club_a: Any) -> None:
    from players.models import Player

    players = listening.snapshot(["players_player"])
    tournaments = listening.snapshot(["tournaments_tournament"])
    assert players is not None and tournaments is not None
    Player.objects.create(display_name="Newcomer", club=club_a)
    assert _until(lambda: listening.snapshot(["players_player"]) != players)
    assert listening.snapshot(["tournaments_tournament"]) == tournaments


def test_api_list_is_kept_until_its_tables_change(listening: table_events.TableEvents,
                                                  client: Client, club_a: Any,
                                                  django_assert_num_queries: Any) -> None:
    from players.models import Player

    Player.objects.create(display_name="First", club=club_a)
    _settled(listening, ["players_player", "players_club"])
    first = client.get("/api/players/")
    assert first.status_code == 200
    with django_assert_num_queries(0):
        again = client.get("/api/players/")
    assert again.content == first.content and again["Content-Type"] == "application/json"
    assert "X-Frame-Options" in again and "Content-Security-Policy" in again
    before = listening.snapshot(["players_player"])
    Player.objects.create(display_name="Second", club=club_a)
    assert _until(lambda: listening.snapshot(["players_player"]) != before)
    names = [row["display_name"] for row in client.get("/api/players/").json()["results"]]
    assert "Second" in names


def test_credentials_are_never_answered_from_memory(listening: table_events.TableEvents,
                                                    client: Client, organizer: Any) -> None:
    _settled(listening, ["players_player", "players_club"])
    client.get("/api/players/")
    client.force_login(organizer)
    with CaptureQueriesContext(connection) as queries:
        client.get("/api/players/")
    assert len(queries) > 0  # the view ran


def test_the_page_follows_a_result_without_polling_the_database(
        listening: table_events.TableEvents, client: Client, organizer: Any,
        make_event: Callable[..., Any], django_assert_num_queries: Any) -> None:
    event = make_event("round_robin", entrants=2)
    round_ = services.round_pair_next(actor=organizer, tournament=event)
    url = f"/tournaments/{event.club.slug}/{event.slug}/"
    _settled(listening, ["tournaments_tournament"])
    page = client.get(url)
    assert "playing" in page.content.decode()
    with django_assert_num_queries(0):  # state and page both kept in this process
        again = client.get(url, HTTP_IF_NONE_MATCH=page["ETag"])
    assert again.status_code == 304
    pairing = round_.pairings.get()
    before = listening.snapshot(["tournaments_tournament"])
    match_services.match_result_record(actor=organizer, pairing=pairing, score=MatchScore(1, 0, 0),
                                 expected_version=pairing.version)
    assert _until(lambda: listening.snapshot(["tournaments_tournament"]) != before)
    after = client.get(url, HTTP_IF_NONE_MATCH=page["ETag"])
    assert after.status_code == 200 and "playing" not in after.content.decode()


def test_a_lost_listener_stops_caching_until_it_is_back(
        listening: table_events.TableEvents) -> None:
    before = listening.snapshot(["players_player"])
    assert before is not None
    with psycopg.connect(_dsn(), autocommit=True) as admin:
        ended = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE application_name = %s AND datname = current_database()",
            [table_events.APPLICATION_NAME]).fetchall()
    assert ended
    assert _until(lambda: listening.snapshot(["players_player"]) is None)
    assert _until(lambda: listening.snapshot(["players_player"]) is not None)
    assert listening.snapshot(["players_player"]) != before  # a new epoch


def test_switched_off_nothing_is_kept(client: Client) -> None:
    table_events.events.stop()
    assert table_events.snapshot(["players_player"]) is None
    client.get("/api/players/")
    with CaptureQueriesContext(connection) as queries:
        client.get("/api/players/")
    assert len(queries) > 0


def test_a_player_renamed_reaches_a_listening_process(
        listening: table_events.TableEvents, client: Client, organizer: Any,
        make_event: Callable[..., Any]) -> None:
    """The rename bumps the tournament's version (a trigger), whose notification makes the
    process read the tournament's state again: the cached page is not served."""
    from players import services as player_services

    event = make_event("round_robin", entrants=2)
    url = f"/tournaments/{event.club.slug}/{event.slug}/"
    _settled(listening, ["tournaments_tournament"])
    page = client.get(url)
    assert client.get(url, HTTP_IF_NONE_MATCH=page["ETag"]).status_code == 304
    player = event.entrants.select_related("player").first().player
    before = listening.snapshot(["tournaments_tournament"])
    player_services.player_update(actor=organizer, player=player, display_name="Heard Rename")
    assert _until(lambda: listening.snapshot(["tournaments_tournament"]) != before)
    after = client.get(url, HTTP_IF_NONE_MATCH=page["ETag"])
    assert after.status_code == 200 and "Heard Rename" in after.content.decode()
