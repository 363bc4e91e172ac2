"""A knockout's public pages name matches as the director does ("Final", "Third-place
match", "Grand final"), in the reader's language, and list the bracket by round for a
phone; a team event's pages show each team's members and have a page per team (members,
results, games) that follows its members and shows released rounds only."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone, translation

from games.series.format import MatchScore
from matches import services as match_services
from players import services as player_services
from players.models import Player
from tournaments import services
from tournaments.models import Round, Tournament

pytestmark = pytest.mark.django_db
RU = {"Accept-Language": "ru-RU,ru;q=0.9"}
#: A knockout match code where a name belongs: in a table cell or as an SVG text.
CODE = re.compile(r">(W\d+-\d+|L\d+-\d+|3RD|GF2?)<")


@pytest.fixture(autouse=True)
def empty_cache() -> None:
    cache.clear()


def _get(client: Client, url: str, **headers: str) -> str:
    answer = client.get(url, headers=headers)
    assert answer.status_code == 200, (url, answer.status_code)
    return answer.content.decode()


def _url(t: Tournament, tail: str = "") -> str:
    return f"/tournaments/{t.club.slug}/{t.slug}/{tail}"


def _release(t: Tournament) -> None:
    """Publish every paired round (what the director's release does)."""
    Round.objects.filter(tournament=t, released_at__isnull=True).update(
        released_at=timezone.now())


def test_knockout_pages_name_the_matches_in_words(
        client: Client, make_tournament: Callable[..., Any], play_round: Any) -> None:
    cup = make_tournament("knockout", entrants=4, third_place_match=True)
    play_round(cup)
    play_round(cup)  # the final and the third-place match
    overview = _get(client, _url(cup))
    assert CODE.findall(overview) == []
    for name in ("Semi-final 1", "Semi-final 2", "Final", "Third-place match"):
        assert f'<td class="match">{name}</td>' in _get(client, _url(cup, "rounds/2/")) \
            or f'<td class="match">{name}</td>' in _get(client, _url(cup, "rounds/1/"))
        assert f'class="match-id">{name}</text>' in overview
        assert f'<span class="match-name">{name}</span>' in overview  # the phone's list
    assert CODE.findall(_get(client, _url(cup, "rounds/2/"))) == []
    russian = _get(client, _url(cup), **RU)
    assert 'class="match-id">Финал</text>' in russian
    assert '<span class="match-name">Матч за третье место</span>' in russian
    assert "Чемпион" in russian


def test_the_bracket_list_puts_the_champion_and_the_final_first(
        client: Client, make_tournament: Callable[..., Any], play_round: Any) -> None:
    cup = make_tournament("knockout", entrants=8)
    for _ in range(3):
        play_round(cup)
    page = _get(client, _url(cup))
    listed = page[page.index('class="bracket-list'):page.index('class="figure-scroll"')]
    champion = cup.entrants.get(seed=1).name  # the first side of each board wins
    assert re.search(r'class="champion-line">Champion: <strong><a [^>]+>'
                     + re.escape(champion), listed)
    headings = re.findall(r"<h3>([^<]+)</h3>", listed)
    assert headings == ["Round 3", "Round 2", "Round 1"]
    names = re.findall(r'<span class="match-name">([^<]+)</span>', listed)
    assert names[0] == "Final" and names[1:3] == ["Semi-final 1", "Semi-final 2"]
    assert names[3:] == [f"Quarter-final {n}" for n in range(1, 5)]


def test_double_elimination_names_both_brackets_and_the_grand_final(
        client: Client, make_tournament: Callable[..., Any], play_round: Any) -> None:
    cup = make_tournament("double_elimination", entrants=8)
    play_round(cup)
    page = _get(client, _url(cup))
    assert CODE.findall(page) == []
    assert 'class="match-id">Winners&#x27; quarter-final 2</text>' in page
    # open slots say where their entrants come from, by the matches' names
    assert "Loser of Winners&#x27; semi-final 1" in page
    listed = page[page.index('class="bracket-list'):page.index('class="figure-scroll"')]
    assert "<h3>Still to play</h3>" in listed and "Grand final" in listed
    round_one = _get(client, _url(cup, "rounds/1/"))
    assert '<td class="match">Winners&#x27; quarter-final 1</td>' in round_one


def test_the_admin_and_the_pages_share_the_match_names(
        make_tournament: Callable[..., Any], play_round: Any) -> None:
    from tournaments.dashboard import tournament_overview
    from tournaments.selectors import match_names

    cup = make_tournament("knockout", entrants=4, third_place_match=True)
    play_round(cup)
    play_round(cup)
    with translation.override("en"):
        overview = tournament_overview(cup)
        names = match_names(cup)
    assert [summary.stages for summary in overview.rounds] == [
        (names["W1-1"], names["W1-2"]), (names["W2-1"], names["3RD"])]
    assert names["W2-1"] == "Final" and names["3RD"] == "Third-place match"


def _pairs_event(organizer: Any, club: Any, teams: int = 4, name: str = "Pairs night",
                 rounds: int = 1) -> tuple[Tournament, list[Player]]:
    people = [Player.objects.create(display_name=f"{name} member {i}", club=club)
              for i in range(2 * teams)]
    event = services.tournament_create(actor=organizer, club=club, name=name,
                                       game="kazambi-pairs", format="round_robin",
                                       match_format={"kind": "best_of", "games": 3})
    for index in range(teams):
        team = player_services.team_create(
            actor=organizer, name=f"{name} {'ABCDEFGH'[index]}", club=club,
            members=people[2 * index:2 * index + 2], joined_on=dt.date(2020, 1, 1))
        services.entrant_register(actor=organizer, tournament=event, team=team,
                                  rating=1600 - index)
    event = services.tournament_start(actor=organizer, tournament=event)
    for _ in range(rounds):
        round_ = services.round_pair_next(actor=organizer, tournament=event, release=True)
        for pairing in round_.pairings.exclude(entrant_b=None):
            match_services.match_result_record(actor=organizer, pairing=pairing,
                                               score=MatchScore(2, 1, 0),
                                               expected_version=pairing.version)
    _release(event)
    return event, people


def test_team_event_shows_members_under_team_names_with_links(
        client: Client, club_a: Any, organizer: Any) -> None:
    event, people = _pairs_event(organizer, club_a)
    team = event.entrants.get(seed=1).team
    assert team is not None
    team_link = f'href="{_url(event, f"teams/{team.pk}/")}"'
    for page in (_get(client, _url(event)), _get(client, _url(event, "rounds/1/"))):
        section = page[page.index('class="standings"'):] if 'class="standings"' in page \
            else page[page.index('class="pairings'):]
        assert team_link in section
        members = re.search(team_link + r'>[^<]+</a>(?:\s*<small class="side-facts">[^<]*'
                            r'</small>)?\s*<small class="members">(.*?)</small>', section)
        assert members is not None
        for person in people[:2]:
            assert f'href="/players/{person.pk}/">{person.display_name}</a>' in members[1]


def test_a_team_has_its_page_with_members_results_and_games(
        client: Client, club_a: Any, organizer: Any) -> None:
    event, people = _pairs_event(organizer, club_a, rounds=2)
    entrant = event.entrants.get(seed=1)
    assert entrant.team is not None
    page = _get(client, _url(event, f"teams/{entrant.team_id}/"))
    assert f"<h1>{entrant.team.name}</h1>" in page
    for person in people[:2]:
        assert f'<a href="/players/{person.pk}/">{person.display_name}</a>' in page
    results = page[page.index('id="matches-heading"'):]
    assert results.count("<li>") == 2  # two rounds played
    assert "Round 1, board" in results and "Round 2, board" in results
    assert re.search(r'<a href="/tournaments/[^"]+/teams/\d+/">Pairs night [A-D]</a>', results)
    games = re.findall(r'<a href="/games/(\d+)/" class="game-(win|loss)">(win|loss)</a>',
                       results)
    assert len(games) == 6  # 2–1 in each round: three games each
    russian = _get(client, _url(event, f"teams/{entrant.team_id}/"), **RU)
    assert "Состав" in russian and "Тур 1, доска" in russian
    assert client.get(_url(event, "teams/999999/")).status_code == 404


def test_a_team_page_shows_released_rounds_only(
        client: Client, club_a: Any, organizer: Any) -> None:
    event, _ = _pairs_event(organizer, club_a)
    round_two = services.round_pair_next(actor=organizer, tournament=event, release=False)
    assert round_two.released_at is None  # a draft: the director has not published it
    entrant = event.entrants.get(seed=1)
    page = _get(client, _url(event, f"teams/{entrant.team_id}/"))
    assert "Round 1, board" in page and "Round 2, board" not in page
    _release(event)
    assert "Round 2, board" in _get(client, _url(event, f"teams/{entrant.team_id}/"))


def test_a_member_change_refreshes_the_team_and_tournament_pages(
        client: Client, club_a: Any, organizer: Any) -> None:
    event, _ = _pairs_event(organizer, club_a)
    entrant = event.entrants.get(seed=1)
    assert entrant.team is not None
    team_url = _url(event, f"teams/{entrant.team_id}/")
    first = client.get(team_url)
    etag = first["ETag"]
    assert "Newcomer" not in first.content.decode()
    assert client.get(team_url, headers={"If-None-Match": etag}).status_code == 304
    newcomer = Player.objects.create(display_name="Newcomer Nell", club=club_a)
    player_services.team_add_member(actor=organizer, team=entrant.team, player=newcomer)
    answer = client.get(team_url, headers={"If-None-Match": etag})
    assert answer.status_code == 200 and "Newcomer Nell" in answer.content.decode()
    assert "Newcomer Nell" in _get(client, _url(event))  # under the team in the standings


def _count(client: Client, url: str) -> int:
    cache.clear()
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_team_pages_read_members_in_a_fixed_number_of_queries(
        client: Client, club_a: Any, organizer: Any) -> None:
    small, _ = _pairs_event(organizer, club_a, teams=4, name="Small pairs", rounds=1)
    large, _ = _pairs_event(organizer, club_a, teams=8, name="Large pairs", rounds=3)

    def urls(event: Tournament) -> list[str]:
        team = event.entrants.get(seed=1).team_id
        return [_url(event), _url(event, "rounds/1/"), _url(event, f"teams/{team}/")]

    assert [_count(client, url) for url in urls(small)] == \
        [_count(client, url) for url in urls(large)]
