"""Lock scope: a tournament's writers lock its row, not its club's.

``lock_tournament`` once took ``select_for_update()`` with ``select_related("club")`` and no
``of=``, which locks the club row too: every write of every tournament of a club waited
for the one in progress. Here one thread holds a tournament's lock while another writes a
second tournament of the same club under a one-second ``lock_timeout``: it goes through at
once. A rename of the club waited too (the pages' triggers bumped the version of each of
its tournaments, whose pages show its name): the pages now key on the club's name and slug
themselves, and the rename touches no tournament row.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.db import connection, transaction

from tournaments import services
from tournaments.services.tournaments import lock_tournament

pytestmark = pytest.mark.django_db(transaction=True)


def _hold_lock(tournament: Any, locked: threading.Event, release: threading.Event,
               errors: list[BaseException]) -> None:
    try:
        with transaction.atomic():
            lock_tournament(tournament)
            locked.set()
            release.wait(timeout=30)
    except BaseException as error:  # reported to the test
        errors.append(error)
        locked.set()
    finally:
        connection.close()


def test_two_tournaments_of_one_club_do_not_wait_on_each_other(club_a: Any) -> None:
    alice = club_a.organizers.get()
    first = services.tournament_create(actor=alice, club=club_a, name="First cup",
                                       game="kugamai", format="round_robin")
    second = services.tournament_create(actor=alice, club=club_a, name="Second cup",
                                        game="kugamai", format="round_robin")
    locked, release = threading.Event(), threading.Event()
    errors: list[BaseException] = []
    holder = threading.Thread(target=_hold_lock, args=(first, locked, release, errors))
    holder.start()
    try:
        assert locked.wait(timeout=10)
        assert not errors, errors
        started = time.monotonic()
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '1s'")
            services.tournament_update(actor=alice, tournament=second, name="Second cup II")
            services.tournament_open_registration(actor=alice, tournament=second)
        waited = time.monotonic() - started
    finally:
        release.set()
        holder.join(timeout=30)
    assert not errors, errors
    assert waited < 1.0
    second.refresh_from_db()
    assert (second.name, second.status) == ("Second cup II", "registration")


def test_the_same_tournament_still_waits(club_a: Any) -> None:
    """The lock still serialises the writers of one tournament."""
    from django.db.utils import OperationalError

    alice = club_a.organizers.get()
    cup = services.tournament_create(actor=alice, club=club_a, name="Only cup",
                                     game="kugamai", format="round_robin")
    locked, release = threading.Event(), threading.Event()
    errors: list[BaseException] = []
    holder = threading.Thread(target=_hold_lock, args=(cup, locked, release, errors))
    holder.start()
    try:
        assert locked.wait(timeout=10)
        with pytest.raises(OperationalError, match="lock timeout"), transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '300ms'")
            services.tournament_update(actor=alice, tournament=cup, name="Renamed")
    finally:
        release.set()
        holder.join(timeout=30)
    assert not errors, errors


def test_a_club_rename_does_not_wait_for_a_tournament_being_written(club_a: Any) -> None:
    from players import services as player_services

    alice = club_a.organizers.get()
    cup = services.tournament_create(actor=alice, club=club_a, name="Busy cup",
                                     game="kugamai", format="round_robin")
    locked, release = threading.Event(), threading.Event()
    errors: list[BaseException] = []
    holder = threading.Thread(target=_hold_lock, args=(cup, locked, release, errors))
    holder.start()
    try:
        assert locked.wait(timeout=10)
        assert not errors, errors
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '1s'")
            player_services.club_update(actor=alice, club=club_a, name="Omega Club")
            club_a.slug = "omega"
            club_a.save(update_fields=["slug"])
    finally:
        release.set()
        holder.join(timeout=30)
    assert not errors, errors
    club_a.refresh_from_db()
    assert (club_a.name, club_a.slug) == ("Omega Club", "omega")
