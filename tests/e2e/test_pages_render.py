"""Every public page renders for a club with finished and running tournaments (Django's
test client, no browser): status 200 and the expected content. The club is committed data
(see conftest), read without a test transaction."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.e2e.data import ClubData


@pytest.fixture
def data(club_data: ClubData, unblocked: None) -> ClubData:
    return club_data


def _get(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


def _url(tournament: Any) -> str:
    return reverse("pages:tournament-detail", args=[tournament.club.slug, tournament.slug])


def test_home_and_list(client: Client, data: ClubData) -> None:
    home = _get(client, "/")
    assert data.round_robin.name in home and data.running is not None
    assert data.running.name in home
    listing = _get(client, "/tournaments/?game=stolbiki")
    assert data.swiss.name in listing and data.round_robin.name not in listing
    assert data.knockout.name in _get(client, "/tournaments/?status=finished")


def test_round_robin_page_has_standings_legend_and_crosstable(client: Client,
                                                             data: ClubData) -> None:
    page = _get(client, _url(data.round_robin))
    assert 'class="standings"' in page and 'class="crosstable"' not in page
    assert '<abbr title="Sonneborn-Berger">SB</abbr>' in page
    assert "<dt>WIN</dt><dd>Number of wins</dd>" in page
    table = _get(client, _url(data.round_robin) + "table/")
    assert 'class="crosstable"' in table and '>Crosstable</a>' in page


def test_swiss_page_has_round_by_round(client: Client, data: ClubData) -> None:
    page = _get(client, _url(data.swiss))
    assert "Buchholz Cut-1" in page and 'class="round-by-round"' not in page
    assert '>Round by round</a>' in page
    assert 'class="round-by-round"' in _get(client, _url(data.swiss) + "table/")


def test_every_round_has_its_page(client: Client, data: ClubData) -> None:
    for tournament in (data.round_robin, data.swiss, data.knockout):
        numbers = list(tournament.rounds.values_list("number", flat=True))
        assert numbers
        for number in numbers:
            page = _get(client, _url(tournament) + f"rounds/{number}/")
            assert f"Round {number} pairings and results" in page
        assert client.get(_url(tournament) + f"rounds/{max(numbers) + 1}/").status_code == 404
    assert client.get(_url(data.knockout) + "table/").status_code == 404


def test_knockout_page_draws_the_bracket_with_its_champion(client: Client,
                                                          data: ClubData) -> None:
    page = _get(client, _url(data.knockout))
    assert '<svg xmlns="http://www.w3.org/2000/svg"' in page
    assert "Champion: " in page and "Losers&#x27; bracket" in page


def test_live_endpoints(client: Client, data: ClubData) -> None:
    assert data.running is not None
    url = reverse("pages:tournament-live", args=[data.club.slug, data.running.slug])
    payload = client.get(url).json()
    assert payload["status"] == "running"
    assert payload["progress"]["games_done"] >= 2  # the browser tests may play more
    assert 0 < payload["progress"]["percent"] < 100
    fragment = _get(client, reverse("pages:tournament-results",
                                    args=[data.club.slug, data.running.slug]))
    assert "<html" not in fragment and "Round 1" in fragment
    assert 'id="live"' in _get(client, _url(data.running))


@pytest.mark.parametrize("game", ["kugamai", "kazambi", "stolbiki"])
def test_game_viewer_embeds_every_step(client: Client, data: ClubData, game: str) -> None:
    tournament = {"kugamai": data.round_robin, "kazambi": data.knockout,
                  "stolbiki": data.swiss}[game]
    recorded = data.game_of(tournament, game)
    page = _get(client, reverse("pages:game-detail", args=[recorded.pk]))
    assert recorded.record is not None
    assert page.count('class="step"') == len(recorded.record["moves"]) + 1
    assert 'id="game-documents"' in page


def test_player_page_and_leaderboard(client: Client, data: ClubData) -> None:
    entrant = data.round_robin.entrants.select_related("player").first()
    assert entrant is not None and entrant.player is not None
    player = entrant.player
    page = _get(client, reverse("pages:player-detail", args=[player.pk]))
    assert player.display_name in page and "Recent games" in page
    board = _get(client, reverse("pages:leaderboard", args=["kugamai"]) + "?club=riverside")
    assert 'class="badge bot"' in board


@pytest.mark.django_db
def test_unknown_pages_are_404_with_a_way_back(client: Client) -> None:
    for url in ("/tournaments/riverside/no-such-cup/", "/leaderboards/chess/",
                "/games/999999/"):
        answer = client.get(url)
        assert answer.status_code == 404
        assert "There is no such page" in answer.content.decode()
        assert 'href="/"' in answer.content.decode()


def test_team_event_shows_its_members(client: Client, data: ClubData) -> None:
    assert data.teams is not None
    page = _get(client, _url(data.teams))
    assert 'id="teams-heading"' in page
    for entrant in data.teams.entrants.select_related("team"):
        assert entrant.team is not None and entrant.team.name in page
        for player in entrant.team.players.all():
            assert player.display_name in page
