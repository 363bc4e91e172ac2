"""The admin's round page says what it wrote.

Before: saving the page with nothing changed, or with only boards that another director
had saved meanwhile (nothing written), said "The round ... was changed successfully." and
logged a change."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.admin.models import LogEntry
from django.test import Client

from tests.integration.otb.test_round_admin import round_post, row, url_of
from tournaments.models import Pairing, ResultChange, Round
from tournaments.services import round_pair_next

pytestmark = pytest.mark.django_db


@pytest.fixture
def round_(make_event: Any, organizer: Any) -> Round:
    tournament = make_event("round_robin", entrants=4, match_format="bo3")
    return round_pair_next(actor=organizer, tournament=tournament, release=True)


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _boards(round_: Round) -> list[Pairing]:
    return list(round_.pairings.exclude(entrant_b=None).order_by("board"))


def _round_logs(round_: Round) -> int:
    return LogEntry.objects.filter(object_id=str(round_.pk),
                                   content_type__model="round").count()


def test_a_save_with_nothing_changed_says_so(round_: Round, organizer: Any) -> None:
    one, two = _boards(round_)
    page = _client(organizer).post(url_of(round_), round_post(round_, [row(one), row(two)]),
                                   follow=True).content.decode()
    assert "changed successfully" not in page
    assert "Nothing was changed." in page
    assert _round_logs(round_) == 0


def test_a_save_that_met_another_director_only_writes_nothing(
        round_: Round, organizer: Any, club_a: Any, make_user: Any) -> None:
    one, _two = _boards(round_)
    bob = make_user("bob_director")
    club_a.organizers.add(bob)
    _client(bob).post(url_of(round_), round_post(round_, [row(one, 2, 0)]))
    logs = _round_logs(round_)
    page = _client(organizer).post(url_of(round_), round_post(round_, [
        row(one, 0, 2, version=1)]), follow=True).content.decode()
    assert "another director saved a result" in page
    assert "changed successfully" not in page
    assert _round_logs(round_) == logs
    assert ResultChange.objects.count() == 1  # bob's only


def test_a_save_that_writes_still_says_it(round_: Round, organizer: Any) -> None:
    one, _two = _boards(round_)
    page = _client(organizer).post(url_of(round_), round_post(round_, [row(one, 2, 1)]),
                                   follow=True).content.decode()
    assert "Saved board 1." in page
    assert "Nothing was changed." not in page
    assert _round_logs(round_) == 1
