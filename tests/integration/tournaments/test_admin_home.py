"""The admin home's "My tournaments": the organizer's clubs' unfinished tournaments, newest
first, each with its next step and a link to its dashboard; a sentence when there are none."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _home(user: Any, language: str = "en") -> str:
    client = Client()
    client.force_login(user)
    response = client.get("/admin/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def _desk(page: str) -> str:
    found = re.search(r'<div class="module tt-desk" id="my-tournaments">(.*?)</div>', page,
                      re.S)
    assert found, "the admin home has no My tournaments block"
    return found.group(1)


def test_the_home_lists_my_clubs_unfinished_tournaments_with_their_next_step(
        organizer: Any, club_b: Any, make_tournament: Any, play_round: Any) -> None:
    running = make_tournament("round_robin", entrants=4)
    play_round(running)
    services.round_pair_next(actor=organizer, tournament=running)
    finished = make_tournament("round_robin", entrants=2)
    play_round(finished)
    services.tournament_finish(actor=organizer, tournament=finished)
    waiting = make_tournament("swiss", entrants=1, start=False, rounds_planned=3)
    Tournament.objects.filter(pk=waiting.pk).update(name="Newest Swiss")
    make_tournament("round_robin", entrants=2, club=club_b, actor=club_b.organizers.get())

    desk = _desk(_home(organizer))
    names = re.findall(r'<a href="/admin/tournaments/tournament/(\d+)/dashboard/">', desk)
    assert names == [str(waiting.pk), str(running.pk)]  # newest first; no finished, no club B
    assert "Enter the results of round 2" in desk
    assert "Enter the players (at least two), then start." in desk
    assert "Beta Club" not in desk


def test_the_home_says_when_there_is_nothing_to_run(organizer: Any) -> None:
    desk = _desk(_home(organizer, "ru"))
    assert "Мои турниры" in _home(organizer, "ru")
    assert "<table" not in desk and "Нет открытых" in desk
