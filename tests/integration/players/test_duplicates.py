"""Issue 34, broken 2: duplicate players. Adding "Anna Kowalska" twice saved silently; the
organizer could not delete the unplayed copy (403); a superuser deleting a played player
read "doesn't have permission to delete: rating, rating change". Now: a warning with a
confirm step, organizers delete unplayed players of their club, a refusal says why in
words, and two copies merge."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client

from core.errors import ApplicationError
from games.series.format import MatchScore
from matches import services as match_services
from players.models import Player, Team, TeamMembership
from ratings.models import Rating
from ratings.player_services import player_delete, player_merge
from tests.worlds import tournament_of
from tournaments import services

pytestmark = pytest.mark.django_db


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _add_form(club: Any, name: str, **extra: Any) -> dict[str, Any]:
    return {"display_name": name, "club": club.pk, "bot_kind": "", "bot_settings": "{}",
            "installed_bot": "", "fide_id": "", "birth_year": "", "sex": "",
            "federation": "", "title": "", **extra}


def _played(organizer: Any, club: Any, players: list[Player], name: str = "Spring") -> Any:
    tournament = tournament_of(organizer, club, players, name=name, game="kazambi",
                               format="round_robin", start=True)
    round_ = services.round_pair_next(actor=organizer, tournament=tournament)
    for pairing in round_.pairings.filter(outcome="pending"):
        match_services.result_record(actor=organizer, pairing=pairing,
                                     score=MatchScore(1, 0, 0), expected_version=pairing.version)
    return tournament


def test_adding_a_likely_duplicate_asks_to_confirm(club_a: Any, organizer: Any) -> None:
    Player.objects.create(display_name="Anna Kowalska", club=club_a)
    client = _client(organizer)
    page = client.post("/admin/players/player/add/",
                       _add_form(club_a, "anna   KOWALSKA")).content.decode()
    assert "Alpha Club already has Anna Kowalska (#" in page
    assert Player.objects.count() == 1
    response = client.post("/admin/players/player/add/",
                           _add_form(club_a, "anna   KOWALSKA", same_person_confirmed="on"))
    assert response.status_code == 302, response.context["adminform"].form.errors
    assert Player.objects.count() == 2


def test_organizer_deletes_an_unplayed_player_of_the_club(club_a: Any, club_b: Any,
                                                          organizer: Any) -> None:
    copy = Player.objects.create(display_name="Anna Kowalska", club=club_a)
    other = Player.objects.create(display_name="Bo", club=club_b)
    client = _client(organizer)
    assert client.get(f"/admin/players/player/{copy.pk}/delete/").status_code == 200
    response = client.post(f"/admin/players/player/{copy.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not Player.objects.filter(pk=copy.pk).exists()
    assert client.get(f"/admin/players/player/{other.pk}/delete/").status_code == 403


def test_a_played_player_is_refused_in_words(club_a: Any, organizer: Any,
                                             admin_user: Any) -> None:
    people = [Player.objects.create(display_name=name, club=club_a)
              for name in ("Anna Kowalska", "Bo", "Cy", "Di")]
    _played(organizer, club_a, people)
    assert Rating.objects.filter(player=people[0]).exists()
    with pytest.raises(ApplicationError, match=r"Anna Kowalska played 1 game in 1 "
                                               r"tournament; merge or keep\."):
        player_delete(actor=organizer, player=people[0])
    response = _client(admin_user).get(f"/admin/players/player/{people[0].pk}/delete/",
                                       follow=True)
    page = response.content.decode()
    assert "permission to delete" not in page
    assert "Anna Kowalska played 1 game in 1 tournament; merge or keep." in page
    assert Player.objects.filter(pk=people[0].pk).exists()


def test_merge_moves_entries_games_and_memberships_and_rebuilds_ratings(
        club_a: Any, organizer: Any) -> None:
    keep = Player.objects.create(display_name="Anna Kowalska", club=club_a)
    copy = Player.objects.create(display_name="anna kowalska", club=club_a, fide_id="123",
                                 birth_year=1990)
    others = [Player.objects.create(display_name=n, club=club_a) for n in ("Bo", "Cy", "Di")]
    _played(organizer, club_a, [keep, *others[:1]], name="Winter")
    spring = _played(organizer, club_a, [copy, *others], name="Spring")
    team = Team.objects.create(name="Rooks", club=club_a)
    TeamMembership.objects.create(team=team, player=copy, joined_on=dt.date(2026, 1, 1))
    rating_before = Rating.objects.get(player=keep, family="kazambi").games
    merged = player_merge(actor=organizer, keep=keep, remove=copy)
    assert not Player.objects.filter(pk=copy.pk).exists()
    assert spring.entrants.filter(player=keep).exists()
    assert team.memberships.get().player == keep
    assert (merged.fide_id, merged.birth_year) == ("123", 1990)
    assert rating_before == 1
    assert Rating.objects.get(player=keep, family="kazambi").games == 2  # Winter and Spring



def test_merge_refuses_two_players_of_one_tournament(club_a: Any, organizer: Any) -> None:
    keep = Player.objects.create(display_name="Anna Kowalska", club=club_a)
    copy = Player.objects.create(display_name="Anna  Kowalska", club=club_a)
    _played(organizer, club_a, [keep, copy], name="Spring")
    with pytest.raises(ApplicationError, match="both entered in Spring"):
        player_merge(actor=organizer, keep=keep, remove=copy)
    client = _client(organizer)
    page = client.post("/admin/players/player/merge/",
                       {"a": keep.pk, "b": copy.pk, "keep": keep.pk}).content.decode()
    assert "Not merged:" in page and "both entered in Spring" in page
    assert Player.objects.filter(pk=copy.pk).exists()
