"""Calendar feeds parsed back by icalendar; embeds framed only by the club's origins; the
venue screen and its polled part."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import icalendar
import pytest
from django.utils import timezone

from core.errors import ApplicationError
from notices import services
from notices.models import EmbedSettings
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db

START = dt.datetime(2026, 12, 5, 18, 30, tzinfo=dt.UTC)


def paired(make_event: Any, organizer: Any, **fields: Any) -> tuple[Any, Any]:
    tournament = make_event(entrants=4, **fields)
    tournament.venue = "Hall B; room 2, upstairs"
    tournament.save(update_fields=["venue"])
    round_ = tournament_services.round_pair_next(actor=organizer, tournament=tournament,
                                                 release=True)
    round_.starts_at = START
    round_.time_slot_minutes = 90
    round_.save(update_fields=["starts_at", "time_slot_minutes"])
    tournament.refresh_from_db()
    return tournament, round_


def calendar_of(client: Any, url: str) -> Any:
    response = client.get(url)
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"].startswith("text/calendar")
    return icalendar.Calendar.from_ical(response.content)


def test_tournament_feed_has_each_timed_round_with_venue(
    client: Any, make_event: Any, organizer: Any
) -> None:
    tournament, round_ = paired(make_event, organizer)
    url = f"/tournaments/{tournament.club.slug}/{tournament.slug}/calendar.ics"
    calendar = calendar_of(client, url)
    [event] = calendar.walk("VEVENT")
    assert event.decoded("DTSTART") == START
    assert event.decoded("DTEND") == START + dt.timedelta(minutes=90)
    assert str(event["LOCATION"]) == "Hall B; room 2, upstairs"
    assert str(event["SUMMARY"]) == f"{tournament.name}, round 1"
    assert "/rounds/1/" in str(event["URL"])


def test_player_feed_names_the_board_and_opponent(
    client: Any, make_event: Any, organizer: Any
) -> None:
    tournament, round_ = paired(make_event, organizer)
    pairing = round_.pairings.select_related("entrant_a__player", "entrant_b__player").first()
    player = pairing.entrant_b.player
    [event] = calendar_of(client, f"/players/{player.pk}/calendar.ics").walk("VEVENT")
    assert f"board {pairing.board} against {pairing.entrant_a.name}" in str(event["SUMMARY"])
    assert str(event["DESCRIPTION"]) == "Your opponent moves first."
    assert event.decoded("DTSTART") == START


def test_draft_rounds_stay_out_of_the_feeds(client: Any, make_event: Any,
                                            organizer: Any) -> None:
    tournament = make_event(entrants=2)
    round_ = tournament_services.round_pair_next(actor=organizer, tournament=tournament,
                                                 release=False)
    round_.starts_at = START
    round_.save(update_fields=["starts_at"])
    player = tournament.entrants.first().player
    for url in (f"/tournaments/{tournament.club.slug}/{tournament.slug}/calendar.ics",
                f"/players/{player.pk}/calendar.ics"):
        assert calendar_of(client, url).walk("VEVENT") == []


def test_team_feed(client: Any, club_a: Any, organizer: Any) -> None:
    from players import services as player_services
    from players.models import Player

    members = [Player.objects.create(display_name=f"M{i}", club=club_a) for i in range(4)]
    event = tournament_services.tournament_create(
        actor=organizer, club=club_a, name="Pairs Cup", game="kazambi-pairs",
        format="round_robin", match_format={"kind": "single", "games": 1},
        release_pairings_at_once=True)
    teams = []
    for index in range(2):
        team = player_services.team_create(
            actor=organizer, name=f"Pair {index}", club=club_a,
            members=members[2 * index:2 * index + 2], joined_on=dt.date(2020, 1, 1))
        teams.append(team)
        tournament_services.entrant_register(actor=organizer, tournament=event, team=team,
                                             rating=1500 - index)
    event = tournament_services.tournament_start(actor=organizer, tournament=event)
    round_ = tournament_services.round_pair_next(actor=organizer, tournament=event)
    round_.starts_at = START
    round_.save(update_fields=["starts_at"])
    url = f"/tournaments/{club_a.slug}/{event.slug}/teams/{teams[0].pk}/calendar.ics"
    [item] = calendar_of(client, url).walk("VEVENT")
    assert "against Pair 1" in str(item["SUMMARY"])
    # a member's own feed has the team's match too
    [mine] = calendar_of(client, f"/players/{members[0].pk}/calendar.ics").walk("VEVENT")
    assert str(mine["UID"]) != str(item["UID"])
    assert client.get(f"/tournaments/{club_a.slug}/{event.slug}/teams/999999/calendar.ics"
                      ).status_code == 404


# -- embeds ------------------------------------------------------------------------------------


def test_embed_without_settings_may_not_be_framed(client: Any, make_event: Any,
                                                  organizer: Any) -> None:
    tournament, _round = paired(make_event, organizer)
    response = client.get(f"/embed/{tournament.club.slug}/{tournament.slug}/standings/")
    assert response.status_code == 200
    assert "frame-ancestors 'none'" in response["Content-Security-Policy"]


def test_embed_is_framed_by_the_listed_origins_only(client: Any, make_event: Any,
                                                    organizer: Any, club_a: Any) -> None:
    tournament, round_ = paired(make_event, organizer)
    services.embed_settings_update(actor=organizer, club=club_a,
                                   origins=["https://Club.Example.org/", "http://localhost:8080"])
    for kind in ("standings", "pairings", "bracket"):
        response = client.get(f"/embed/{tournament.club.slug}/{tournament.slug}/{kind}/")
        assert response.status_code == 200
        policy = response["Content-Security-Policy"]
        assert "frame-ancestors https://club.example.org http://localhost:8080" in policy
        assert "X-Frame-Options" not in response
        body = response.content.decode()
        assert "/admin" not in body
        assert "csrfmiddlewaretoken" not in body
    pairings = client.get(f"/embed/{tournament.club.slug}/{tournament.slug}/pairings/")
    first = round_.pairings.select_related("entrant_a__player").first()
    assert first.entrant_a.name in pairings.content.decode()
    assert client.get(f"/embed/{tournament.club.slug}/{tournament.slug}/admin/"
                      ).status_code == 404


def test_embed_part_answers_304_until_a_result_changes(
    client: Any, make_event: Any, organizer: Any
) -> None:
    from games.series.format import MatchScore
    from matches.services.results import match_result_record

    tournament, round_ = paired(make_event, organizer)
    url = f"/embed/{tournament.club.slug}/{tournament.slug}/pairings/part/"
    first = client.get(url)
    etag = first["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    pairing = round_.pairings.first()
    match_result_record(actor=organizer, pairing=pairing, score=MatchScore(1, 0, 0),
                        expected_version=pairing.version)
    again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 200 and "1 : 0" in again.content.decode()


@pytest.mark.parametrize("origins", [
    ["https://club.example.org/standings"], ["javascript:alert(1)"], ["https://a\x00b.org"],
    ["*"], ["https://club.example.org; script-src *"], "https://club.example.org",
    ["https://x.org"] * 0 + [f"https://c{i}.example.org" for i in range(100_000)],
    ["ftp://club.example.org"], ["https://club.example.org:99999"], [5],
])
def test_bad_origins_are_refused_with_nothing_written(organizer: Any, club_a: Any,
                                                      origins: Any) -> None:
    with pytest.raises(ApplicationError) as refused:
        services.embed_settings_update(actor=organizer, club=club_a, origins=origins)
    assert refused.value.field == "origins"
    assert not EmbedSettings.objects.exists()


def test_another_clubs_organizer_cannot_set_the_origins(club_a: Any, club_b: Any) -> None:
    from django.core.exceptions import PermissionDenied

    stranger = club_b.organizers.get()
    with pytest.raises((ApplicationError, PermissionDenied)):
        services.embed_settings_update(actor=stranger, club=club_a,
                                       origins=["https://evil.example"])
    assert not EmbedSettings.objects.exists()


# -- the venue screen --------------------------------------------------------------------------


def test_screen_shows_pairings_by_name_standings_and_results(
    client: Any, make_event: Any, organizer: Any
) -> None:
    tournament, round_ = paired(make_event, organizer)
    response = client.get(f"/tournaments/{tournament.club.slug}/{tournament.slug}/screen/")
    assert response.status_code == 200
    body = response.content.decode()
    first_slide = body.split('data-slide="pairings"', 1)[1].split("</section>", 1)[0]
    shown = re.findall(r'<span class="name">([^<]*)</span>', first_slide)
    names = sorted(e.name for e in tournament.entrants.select_related("player"))
    assert shown == names  # alphabetical, everyone once
    assert 'data-slide="pairings"' in body and 'data-slide="standings"' in body
    assert "/admin" not in body
    part = client.get(f"/tournaments/{tournament.club.slug}/{tournament.slug}/screen/part/")
    assert part.status_code == 200
    assert client.get(part.wsgi_request.path, HTTP_IF_NONE_MATCH=part["ETag"]
                      ).status_code == 304


def test_screen_of_a_draft_tournament_is_not_found(client: Any, make_event: Any) -> None:
    tournament = make_event(entrants=2, start=False)
    tournament.status = "draft"
    tournament.save(update_fields=["status"])
    assert client.get(f"/tournaments/{tournament.club.slug}/{tournament.slug}/screen/"
                      ).status_code == 404
    assert timezone.now()


def test_screen_and_embeds_answer_in_queries_that_do_not_grow(
    client: Any, make_event: Any, organizer: Any, django_assert_max_num_queries: Any
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for size in (4, 16):
        tournament = make_event(entrants=size)
        tournament_services.round_pair_next(actor=organizer, tournament=tournament,
                                            release=True)
        base = f"{tournament.club.slug}/{tournament.slug}"
        row = []
        for path in (f"/tournaments/{base}/screen/part/", f"/embed/{base}/pairings/part/",
                     f"/embed/{base}/standings/", f"/embed/{base}/bracket/",
                     f"/tournaments/{base}/calendar.ics"):
            with CaptureQueriesContext(connection) as queries:
                assert client.get(path).status_code == 200, path
            row.append(len(queries))
        counts.append(row)
    assert counts[0] == counts[1], counts


def test_the_tournament_page_links_its_calendar_and_venue_screen(client: Any,
                                                                 make_event: Any) -> None:
    event = make_event(entrants=2)
    page = client.get(f"/tournaments/{event.club.slug}/{event.slug}/").content.decode()
    for link in (f"/tournaments/{event.club.slug}/{event.slug}/calendar.ics",
                 f"/tournaments/{event.club.slug}/{event.slug}/screen/"):
        assert f'href="{link}"' in page
        assert client.get(link).status_code == 200


def test_a_new_viewer_of_the_screen_or_an_embed_reads_the_body_built_for_the_first(
    client: Any, make_event: Any, organizer: Any
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    tournament = make_event(entrants=16)
    tournament_services.round_pair_next(actor=organizer, tournament=tournament, release=True)
    base = f"{tournament.club.slug}/{tournament.slug}"
    for path in (f"/tournaments/{base}/screen/", f"/embed/{base}/standings/",
                 f"/embed/{base}/pairings/"):
        first = client.get(path)
        with CaptureQueriesContext(connection) as queries:
            second = client.get(path)
        assert second.content == first.content, path
        assert len(queries) <= 2, (path, [q["sql"] for q in queries])
