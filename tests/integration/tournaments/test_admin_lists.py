"""The hall's lists in the admin: printable, draft rounds included, linked from the
dashboard and the round page; visitors are sent to the login."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.series.format import MatchScore
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def swiss(make_tournament: Any, play_round: Any, organizer: Any) -> Tournament:
    t = make_tournament("swiss", entrants=5, rounds_planned=3, tiebreaks=["buchholz"])
    play_round(t)
    play_round(t, lambda p: MatchScore(0, 1))
    services.round_pair_next(actor=organizer, tournament=t, release=False)  # round 3: a draft
    return t


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_dashboard_and_round_page_link_the_lists(swiss: Tournament, organizer: Any) -> None:
    client = _client(organizer)
    dashboard = client.get(reverse("admin:tournaments_tournament_dashboard", args=[swiss.pk]))
    page = dashboard.content.decode()
    for name in ("starting_list", "standings_after", "wall_chart"):
        assert reverse(f"admin:tournaments_tournament_{name}", args=[swiss.pk]) in page
    assert reverse("admin:tournaments_tournament_by_name", args=[swiss.pk, 3]) in page
    round_ = swiss.rounds.get(number=3)
    round_page = client.get(reverse("admin:tournaments_round_change", args=[round_.pk]))
    assert reverse("admin:tournaments_tournament_by_name", args=[swiss.pk, 3]) in \
        round_page.content.decode()


def test_printable_lists_show_the_draft_round(swiss: Tournament, organizer: Any) -> None:
    client = _client(organizer)
    by_name = client.get(reverse("admin:tournaments_tournament_by_name", args=[swiss.pk, 3]))
    assert by_name.status_code == 200
    assert "Draft: this round is not public yet." in by_name.content.decode()
    chart = client.get(reverse("admin:tournaments_tournament_wall_chart", args=[swiss.pk]))
    assert chart.status_code == 200
    assert chart.content.decode().count('<th class="num">3</th>') == 1  # round 3's column
    for after in ("1", "2"):
        url = reverse("admin:tournaments_tournament_standings_after", args=[swiss.pk])
        answer = client.get(url, {"after": after})
        assert answer.status_code == 200
        assert f"Standings after round {after}" in answer.content.decode()
    url = reverse("admin:tournaments_tournament_standings_after", args=[swiss.pk])
    assert client.get(url, {"after": "3"}).status_code == 404  # no results yet
    assert client.get(url, {"after": "x"}).status_code == 404
    starting = client.get(reverse("admin:tournaments_tournament_starting_list",
                                  args=[swiss.pk]))
    assert starting.status_code == 200


def test_visitors_are_sent_to_the_login(swiss: Tournament) -> None:
    """Draft rounds show here: only the admin's users (as on the dashboard) read them."""
    answer = Client().get(reverse("admin:tournaments_tournament_by_name", args=[swiss.pk, 3]))
    assert answer.status_code == 302 and "/login/" in answer["Location"]


def test_another_clubs_organizer_reads_no_draft(swiss: Tournament, club_b: Any) -> None:
    """Organizers may look at other clubs' events in the admin, as the public would: a draft
    round stays the host's until it is released."""
    client = _client(club_b.organizers.get())
    by_name = client.get(reverse("admin:tournaments_tournament_by_name", args=[swiss.pk, 3]))
    assert by_name.status_code == 404
    chart = client.get(reverse("admin:tournaments_tournament_wall_chart", args=[swiss.pk]))
    assert chart.status_code == 200
    assert '<th class="num">3</th>' not in chart.content.decode()


def test_a_round_number_that_is_not_a_number_is_not_found(swiss: Tournament,
                                                           organizer: Any) -> None:
    url = reverse("admin:tournaments_tournament_standings_after", args=[swiss.pk])
    for after in ("²", "-1", "9" * 30):
        assert _client(organizer).get(url, {"after": after}).status_code == 404
