"""Every write that changes what a tournament's public page shows moves its version on, so
the page cached under the old version is never served again and pollers get the new one:
team members joining or leaving, team, player and club renames, withdrawals, requested
byes. Through the services, and through a plain save as the admin's forms do (the
triggers of ``tournaments.freshness`` bump the version whatever writes the row; committed
writes of every kind: ``test_freshness.py``)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from players import services as player_services
from players.models import Player, Team, TeamMembership
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_cache() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


class Watched:
    """A tournament page seen once (cached, with its ETag), to compare after a write."""

    def __init__(self, client: Client, tournament: Tournament) -> None:
        self.client = client
        self.tournament = tournament
        self.url = f"/tournaments/{tournament.club.slug}/{tournament.slug}/"
        first = client.get(self.url)
        assert first.status_code == 200
        self.etag = first["ETag"]
        self.version = self._version()
        assert client.get(self.url, HTTP_IF_NONE_MATCH=self.etag).status_code == 304

    def _version(self) -> int:
        return int(Tournament.objects.values_list("version", flat=True)
                   .get(pk=self.tournament.pk))

    def page(self, url: str | None = None, *, bumped: bool = True) -> str:
        """The page after the write: the poller's old tag no longer matches (``bumped``:
        because the write bumped the tournament's version)."""
        assert self._version() > self.version or not bumped, "the write did not bump it"
        answer = self.client.get(url or self.url, HTTP_IF_NONE_MATCH=self.etag)
        assert answer.status_code == 200, answer.status_code
        assert answer["ETag"] != self.etag
        return answer.content.decode()


@pytest.fixture
def team_event(club_a: Any, organizer: Any) -> tuple[Tournament, list[Team], list[Player]]:
    people = [Player.objects.create(display_name=f"Member {i}", club=club_a) for i in range(5)]
    event = services.tournament_create(actor=organizer, club=club_a, name="Pairs night",
                                       game="kazambi-pairs", format="round_robin")
    teams = []
    for index in range(2):
        team = player_services.team_create(actor=organizer, name=f"Team {index}", club=club_a,
                                           members=people[2 * index: 2 * index + 2],
                                           joined_on=dt.date(2020, 1, 1))
        services.entrant_register(actor=organizer, tournament=event, team=team)
        teams.append(team)
    event = services.tournament_start(actor=organizer, tournament=event)
    return event, teams, people


def _teams_section(page: str) -> str:
    return page[page.index('id="teams-heading"'):]


def test_a_member_joining_a_team(client: Client, organizer: Any, team_event: Any) -> None:
    event, teams, people = team_event
    watched = Watched(client, event)
    assert people[4].display_name not in _teams_section(client.get(watched.url).content.decode())
    player_services.team_add_member(actor=organizer, team=teams[0], player=people[4])
    assert people[4].display_name in _teams_section(watched.page())


def test_a_member_leaving_a_team(client: Client, organizer: Any, team_event: Any) -> None:
    """Leaving before the event (a correction of the dates) takes the member off the list."""
    event, teams, people = team_event
    membership = TeamMembership.objects.get(team=teams[1], player=people[3])
    watched = Watched(client, event)
    membership.joined_on, membership.left_on = dt.date(2019, 1, 1), dt.date(2019, 6, 1)
    membership.save()  # as the team admin's membership inline does
    section = _teams_section(watched.page())
    assert people[2].display_name in section and people[3].display_name not in section


def test_a_member_removed_today(client: Client, organizer: Any, team_event: Any) -> None:
    event, teams, people = team_event
    watched = Watched(client, event)
    player_services.team_remove_member(actor=organizer, team=teams[0], player=people[0])
    assert people[0].display_name in _teams_section(watched.page())  # a member during it


def test_a_team_renamed(client: Client, organizer: Any, team_event: Any) -> None:
    event, teams, _people = team_event
    watched = Watched(client, event)
    player_services.team_update(actor=organizer, team=teams[0], name="The Renamed")
    assert "The Renamed" in watched.page()


def test_a_member_renamed(client: Client, organizer: Any, team_event: Any) -> None:
    event, _teams, people = team_event
    watched = Watched(client, event)
    player_services.player_update(actor=organizer, player=people[1], display_name="Zed Newname")
    assert "Zed Newname" in _teams_section(watched.page())


def test_a_player_renamed(client: Client, organizer: Any, make_tournament: Callable[..., Any],
                          play_round: Any) -> None:
    event = make_tournament("round_robin", entrants=4)
    play_round(event)
    entrant = event.entrants.select_related("player").order_by("seed").first()
    watched = Watched(client, event)
    player_services.player_update(actor=organizer, player=entrant.player,
                                  display_name="Renamed Player")
    assert watched.page().count("Renamed Player") == 2  # standings, the round's table
    assert "Renamed Player" in watched.page(watched.url + "table/")  # the crosstable


def test_a_player_renamed_in_the_admin(client: Client, make_tournament: Callable[..., Any]
                                       ) -> None:
    event = make_tournament("round_robin", entrants=4)
    player = event.entrants.select_related("player").first().player
    watched = Watched(client, event)
    player.display_name = "Saved By A Form"
    player.save()
    assert "Saved By A Form" in watched.page()


def test_other_player_fields_leave_the_version_alone(make_tournament: Callable[..., Any]
                                                     ) -> None:
    event = make_tournament("round_robin", entrants=4)
    version = Tournament.objects.get(pk=event.pk).version
    Player.objects.filter(entries__tournament=event).update(fide_id="123")
    assert Tournament.objects.get(pk=event.pk).version == version


def test_a_club_renamed(client: Client, organizer: Any, club_a: Any,
                        make_tournament: Callable[..., Any]) -> None:
    event = make_tournament("round_robin", entrants=4)
    watched = Watched(client, event)
    player_services.club_update(actor=organizer, club=club_a, name="Omega Club")
    assert "Omega Club" in watched.page(bumped=False)  # the club is part of the page's state


def test_a_club_slug_changed_moves_the_page(client: Client, club_a: Any,
                                            make_tournament: Callable[..., Any]) -> None:
    event = make_tournament("round_robin", entrants=4)
    watched = Watched(client, event)
    club_a.slug = "omega"
    club_a.save()
    assert client.get(watched.url).status_code == 404
    assert "round_robin cup" in watched.page(f"/tournaments/omega/{event.slug}/", bumped=False)


def test_an_entrant_withdrawn(client: Client, organizer: Any,
                              make_tournament: Callable[..., Any], play_round: Any) -> None:
    swiss = make_tournament("swiss", entrants=6, rounds_planned=4, tiebreaks=[])
    play_round(swiss)
    entrant = swiss.entrants.order_by("seed").last()
    watched = Watched(client, swiss)
    services.entrant_withdraw(actor=organizer, entrant=entrant)
    assert f"{entrant.name}</a> <small class=\"withdrawn\">withdrawn from round 2</small>" in \
        watched.page()


def test_a_bye_requested(client: Client, organizer: Any, make_tournament: Callable[..., Any],
                         play_round: Any) -> None:
    swiss = make_tournament("swiss", entrants=6, rounds_planned=4, tiebreaks=[])
    play_round(swiss)
    entrant = swiss.entrants.order_by("seed").first()
    watched = Watched(client, swiss)
    services.bye_request(actor=organizer, entrant=entrant, round_number=3)
    page = watched.page()
    section = page[page.index('id="byes-heading"'):]
    assert f"<strong>Round 3:</strong> {entrant.name} ({entrant.seed}), half-point bye" \
        in section
    # once round 3 is paired the bye is in its table, no longer announced
    play_round(swiss)
    play_round(swiss)
    assert 'id="byes-heading"' not in client.get(watched.url).content.decode()


def test_an_entrant_row_saved_directly(client: Client, make_tournament: Callable[..., Any]
                                       ) -> None:
    event = make_tournament("swiss", entrants=4, rounds_planned=3, tiebreaks=[])
    entrant = event.entrants.order_by("seed").first()
    watched = Watched(client, event)
    entrant.withdrawn_from_round = 1
    entrant.save()
    assert "withdrawn from round 1" in watched.page()
