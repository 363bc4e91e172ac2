"""Check-in: a window before a round; by link, kiosk or director; closing it makes the
missing absent (a Swiss gives them zero-point byes, so the pairing leaves them out)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied

from core.errors import ApplicationError
from playerlinks import checkins, selectors, services
from playerlinks.models import CheckIn, CheckInWindow
from tournaments import services as tournament_services
from tournaments.history import describe, events
from tournaments.models import RequestedBye

pytestmark = pytest.mark.django_db


def _seeded(event: Any) -> list[Any]:
    return list(event.entrants.select_related("player", "team", "tournament").order_by("seed"))


def test_closing_check_in_makes_the_missing_absent_in_a_swiss(make_event: Any,
                                                              organizer: Any) -> None:
    event = make_event("swiss", entrants=5, rounds_planned=3)
    first, second, third, fourth, fifth = _seeded(event)
    services.links_issue_missing(actor=organizer, tournament=event)
    window = checkins.check_in_window_open(actor=organizer, tournament=event)
    assert window.round_number == 1 and window.is_open

    link = first.links.get()
    done = checkins.check_in_by_link(link=link)
    assert (done.entrant, done.round_number) == (first, 1)
    assert checkins.check_in_by_link(link=link).check_in == done.check_in  # twice: harmless
    checkins.check_in_by_kiosk(actor=organizer, tournament=event, code=str(second.seed))
    token = services.link_reissue(actor=organizer, link=third.links.get())[1]
    checkins.check_in_by_kiosk(actor=organizer, tournament=event,
                               code=f"https://club.example/p/{token}/")
    checkins.check_in_by_director(actor=organizer, entrant=fourth)
    board = selectors.check_in_board(event)
    assert board.counts == (4, 1) and board.missing == [fifth]
    assert {c.method for _e, c in board.checked_in} == {"link", "kiosk", "director"}

    with pytest.raises(ApplicationError, match="still open"):
        tournament_services.round_pair_next(actor=organizer, tournament=event, release=True)

    absent = checkins.check_in_window_close(actor=organizer, window=window)
    assert absent == [fifth]
    bye = RequestedBye.objects.get()
    assert (bye.entrant, bye.round_number, bye.kind) == (fifth, 1, "zero")
    round_ = tournament_services.round_pair_next(actor=organizer, tournament=event,
                                                 release=True)
    paired = {p.entrant_a_id for p in round_.pairings.all()} | {
        p.entrant_b_id for p in round_.pairings.all()}
    assert first.pk in paired and fifth.pk in paired  # the absent one: on a zero bye
    assert round_.pairings.get(entrant_a=fifth).bye_kind == "zero"
    lines = [describe(line) for line in events(event, kind=checkins.CHECK_IN_CLOSED)]
    assert lines == [f"Check-in for round 1 closed: 1 absent, not paired (zero-point bye): "
                     f"{fifth.name}."]
    assert events(event, kind=checkins.CHECK_IN_OPENED).count() == 1


def test_round_robin_check_in_records_the_missing_only(make_event: Any, organizer: Any) -> None:
    event = make_event("round_robin", entrants=4)
    window = checkins.check_in_window_open(actor=organizer, tournament=event, round_number=1)
    absent = checkins.check_in_window_close(actor=organizer, window=window)
    assert len(absent) == 4 and not RequestedBye.objects.exists()
    assert "4 missing" in describe(events(event, kind=checkins.CHECK_IN_CLOSED).get())


def test_windows_follow_the_rounds(make_event: Any, organizer: Any) -> None:
    event = make_event("swiss", entrants=4, rounds_planned=3)
    with pytest.raises(ApplicationError, match="the next round to pair, round 1"):
        checkins.check_in_window_open(actor=organizer, tournament=event, round_number=2)
    window = checkins.check_in_window_open(actor=organizer, tournament=event)
    with pytest.raises(ApplicationError, match="already opened"):
        checkins.check_in_window_open(actor=organizer, tournament=event)
    for entrant in _seeded(event):
        checkins.check_in_by_director(actor=organizer, entrant=entrant)
    assert checkins.check_in_window_close(actor=organizer, window=window) == []
    with pytest.raises(ApplicationError, match="already closed"):
        checkins.check_in_window_close(actor=organizer, window=window)
    tournament_services.round_pair_next(actor=organizer, tournament=event, release=True)
    with pytest.raises(ApplicationError, match="before round 1 only|only before round 1"):
        checkins.check_in_window_open(actor=organizer, tournament=event)
    checkins.link_settings_update(actor=organizer, tournament=event, check_in_every_round=True)
    assert checkins.check_in_window_open(actor=organizer, tournament=event).round_number == 2
    with pytest.raises(ApplicationError, match="already paired"):
        checkins.check_in_window_open(actor=organizer, tournament=event, round_number=1)


def test_undo_while_open_only(make_event: Any, organizer: Any) -> None:
    event = make_event("swiss", entrants=4, rounds_planned=3)
    entrant = _seeded(event)[0]
    window = checkins.check_in_window_open(actor=organizer, tournament=event)
    done = checkins.check_in_by_director(actor=organizer, entrant=entrant).check_in
    checkins.check_in_undo(actor=organizer, check_in=done)
    assert not CheckIn.objects.exists()
    done = checkins.check_in_by_director(actor=organizer, entrant=entrant).check_in
    checkins.check_in_window_close(actor=organizer, window=window)
    with pytest.raises(ApplicationError, match="closed"):
        checkins.check_in_undo(actor=organizer, check_in=done)
    assert CheckIn.objects.count() == 1


def test_nothing_without_an_open_window(make_event: Any, organizer: Any) -> None:
    event = make_event("swiss", entrants=2, rounds_planned=3)
    services.links_issue_missing(actor=organizer, tournament=event)
    with pytest.raises(ApplicationError, match="not open"):
        checkins.check_in_by_link(link=event.entrants.first().links.get())
    assert not CheckIn.objects.exists()


@pytest.mark.parametrize("code", ["", "99", "9" * 40, "abc", "\x00", "1\x00", "a" * 32,
                                  "x" * 5000, "/p/" + "A" * 32 + "/", "-1", "１"])
def test_the_kiosk_refuses_bad_codes(make_event: Any, organizer: Any, code: str) -> None:
    event = make_event("swiss", entrants=3, rounds_planned=3)
    checkins.check_in_window_open(actor=organizer, tournament=event)
    with pytest.raises(ApplicationError) as caught:
        checkins.check_in_by_kiosk(actor=organizer, tournament=event, code=code)
    assert caught.value.field == "code"
    assert not CheckIn.objects.exists()


def test_the_kiosk_refuses_another_tournaments_link(make_event: Any, organizer: Any) -> None:
    event = make_event("swiss", entrants=2, rounds_planned=3)
    other = make_event("swiss", entrants=2, rounds_planned=3)
    _link, token = services.link_issue(actor=organizer, entrant=other.entrants.first())
    checkins.check_in_window_open(actor=organizer, tournament=event)
    with pytest.raises(ApplicationError, match="not a live link of this tournament"):
        checkins.check_in_by_kiosk(actor=organizer, tournament=event, code=token)
    assert not CheckIn.objects.exists()


def test_revoked_link_checks_nobody_in(make_event: Any, organizer: Any) -> None:
    event = make_event("swiss", entrants=2, rounds_planned=3)
    link, token = services.link_issue(actor=organizer, entrant=event.entrants.first())
    checkins.check_in_window_open(actor=organizer, tournament=event)
    services.link_revoke(actor=organizer, link=link)
    with pytest.raises(ApplicationError, match="no longer works"):
        checkins.check_in_by_link(link=link)
    with pytest.raises(ApplicationError):
        checkins.check_in_by_kiosk(actor=organizer, tournament=event, code=token)
    assert not CheckIn.objects.exists()


def test_other_clubs_organizers_change_nothing(make_event: Any, organizer: Any,
                                               club_b: Any) -> None:
    event = make_event("swiss", entrants=2, rounds_planned=3)
    stranger = club_b.organizers.get()
    with pytest.raises(PermissionDenied):
        checkins.check_in_window_open(actor=stranger, tournament=event)
    window = checkins.check_in_window_open(actor=organizer, tournament=event)
    entrant = event.entrants.first()
    for call in (lambda: checkins.check_in_by_director(actor=stranger, entrant=entrant),
                 lambda: checkins.check_in_by_kiosk(actor=stranger, tournament=event,
                                                    code=str(entrant.seed)),
                 lambda: checkins.check_in_window_close(actor=stranger, window=window),
                 lambda: checkins.link_settings_update(actor=stranger, tournament=event,
                                                       check_in_every_round=True)):
        with pytest.raises(PermissionDenied):
            call()
    assert not CheckIn.objects.exists() and CheckInWindow.objects.get().is_open


def test_a_window_closes_itself_at_its_planned_time(make_event: Any, organizer: Any) -> None:
    import datetime as dt

    from django.utils import timezone

    from playerlinks.tasks import close_due_check_ins_task

    event = make_event("swiss", entrants=4, rounds_planned=3)
    first, second, third, fourth = _seeded(event)
    services.links_issue_missing(actor=organizer, tournament=event)
    closes = timezone.now() + dt.timedelta(minutes=10)
    window = checkins.check_in_window_open(actor=organizer, tournament=event, closes_at=closes)
    checkins.check_in_by_link(link=first.links.get())
    assert checkins.check_in_windows_close_due() == []  # not yet

    late = closes + dt.timedelta(seconds=1)
    past = timezone.now() - dt.timedelta(seconds=1)  # as if ten minutes passed
    CheckInWindow.objects.filter(pk=window.pk).update(opens_at=past - dt.timedelta(minutes=10),
                                                      closes_at=past)
    with pytest.raises(ApplicationError, match="Check-in closed at"):
        checkins.check_in_by_link(link=second.links.get())
    with pytest.raises(ApplicationError, match="Check-in closed at"):
        checkins.check_in_by_kiosk(actor=organizer, tournament=event, code=str(second.seed))
    checkins.check_in_by_director(actor=organizer, entrant=second)  # the director still may

    assert close_due_check_ins_task() == 1
    window.refresh_from_db()
    assert window.closed_at is not None
    assert set(RequestedBye.objects.values_list("entrant_id", flat=True)) == {third.pk,
                                                                             fourth.pk}
    assert checkins.check_in_windows_close_due(now=late) == []  # closed once

