"""The tournament's History page in the admin: its organizers read the event newest first,
by round and by kind, in their language; nobody else reads it. The pairing page's result
log and Django's own object history say the same in words."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.series import MatchScore
from matches.services import match_result_record
from tournaments import services
from tournaments.history import EventKind, record

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _default_language_after() -> Iterator[None]:
    with translation.override(settings.LANGUAGE_CODE):
        yield


@pytest.fixture
def played(make_tournament: Any, organizer: Any, play_round: Any) -> Any:
    """A Swiss with round 1 played, board 1 corrected, and round 2 paired."""
    tournament = make_tournament("swiss", entrants=4, rounds_planned=3)
    round_ = play_round(tournament)
    board = round_.pairings.get(board=1)
    match_result_record(actor=organizer, pairing=board, expected_version=board.version,
                        score=MatchScore(0, 1))
    services.round_pair_next(actor=organizer, tournament=tournament)
    return tournament


def events_url(tournament: Any, **query: Any) -> str:
    url = reverse("admin:tournaments_tournament_events", args=[tournament.pk])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def texts(page: Any) -> list[str]:
    html = page.content.decode()
    return [row.split('<td class="tt-what">', 1)[1].split("</td>", 1)[0]
            for row in html.split('<tr class="tt-event"')[1:]]


def test_the_organizer_reads_the_event_newest_first(client: Client, organizer: Any,
                                                    played: Any) -> None:
    client.force_login(organizer)
    page = client.get(events_url(played))
    assert page.status_code == 200
    lines = texts(page)
    assert lines[:2] == ["Round 2 released.", "Round 2 paired (2 boards)."]
    assert "Board 1: 1-0 → 0-1 (1 Player 1 – 3 Player 3)." in lines[2]
    assert lines[-1] == "Tournament swiss cup created (Kugamai, Swiss (FIDE Dutch))."
    assert "alice" in page.content.decode()
    assert "{&#x27;" not in page.content.decode() and "{'" not in page.content.decode()


def test_filters_by_round_and_kind(client: Client, organizer: Any, played: Any) -> None:
    client.force_login(organizer)
    first_round = texts(client.get(events_url(played, round=1)))
    assert first_round[-1] == "Round 1 paired (2 boards)."
    assert all("Round 2" not in line for line in first_round)
    changed = texts(client.get(events_url(played, kind=EventKind.RESULT_CHANGED)))
    assert changed == ["Board 1: 1-0 → 0-1 (1 Player 1 – 3 Player 3)."]
    unknown = texts(client.get(events_url(played, kind="no_such_kind")))
    assert len(unknown) == len(texts(client.get(events_url(played))))


def test_pages_of_fifty(client: Client, organizer: Any, make_tournament: Any) -> None:
    tournament = make_tournament("round_robin", entrants=2)
    for number in range(60):
        record(tournament, EventKind.ROUND_RELEASED, actor=organizer, round_number=number + 1)
    client.force_login(organizer)
    first = client.get(events_url(tournament))
    assert len(texts(first)) == 50 and texts(first)[0] == "Round 60 released."
    assert "?page=2" in first.content.decode()
    second = texts(client.get(events_url(tournament, page=2)))
    assert second[0] == "Round 10 released."


def test_in_russian(client: Client, organizer: Any, played: Any) -> None:
    client.force_login(organizer)
    page = client.get(events_url(played), HTTP_ACCEPT_LANGUAGE="ru")
    lines = texts(page)
    assert lines[:2] == ["Тур 2 опубликован.", "Жеребьёвка тура 2 проведена (2 доски)."]
    assert "Доска 1: 1-0 → 0-1 (1 Player 1 – 3 Player 3)." in lines[2]
    assert "Что произошло" in page.content.decode()


def test_only_the_clubs_organizers(client: Client, played: Any, club_b: Any,
                                   make_user: Any) -> None:
    client.force_login(club_b.organizers.get())
    assert client.get(events_url(played)).status_code == 403
    client.force_login(make_user("visitor", is_staff=True))
    assert client.get(events_url(played)).status_code in (302, 403)
    client.logout()
    assert client.get(events_url(played)).status_code == 302  # to the login page


def test_links_to_it(client: Client, organizer: Any, played: Any) -> None:
    client.force_login(organizer)
    url = events_url(played)
    dashboard = client.get(reverse("admin:tournaments_tournament_dashboard",
                                   args=[played.pk])).content.decode()
    assert f'href="{url}"' in dashboard
    settings_form = client.get(reverse("admin:tournaments_tournament_change",
                                       args=[played.pk])).content.decode()
    assert f'href="{url}"' in settings_form
    django_history = client.get(reverse("admin:tournaments_tournament_history",
                                        args=[played.pk])).content.decode()
    assert f'href="{url}"' in django_history


def test_the_pairing_page_result_log_says_it_in_words(client: Client, organizer: Any,
                                                       played: Any) -> None:
    client.force_login(organizer)
    board = played.rounds.get(number=1).pairings.get(board=1)
    html = client.get(reverse("admin:tournaments_pairing_change",
                              args=[board.pk])).content.decode()
    assert "1-0 → 0-1" in html and "no result → 1-0" in html
    assert "&#x27;outcome&#x27;" not in html and "'outcome'" not in html
    log = client.get(reverse("admin:tournaments_resultchange_changelist")).content.decode()
    assert "1-0 → 0-1" in log and "&#x27;outcome&#x27;" not in log
