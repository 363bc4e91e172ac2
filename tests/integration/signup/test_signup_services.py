"""The sign-up services: cap and waiting list in order, moving up when a place frees,
the club's player matched instead of a second one, the window, twice refused, and bad
input refused by field with nothing written."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from core.errors import ApplicationError
from playerlinks.models import EntrantLink
from players.models import Player
from signup import selectors, services
from signup.models import SignUp, SignUpStatus
from tournaments import services as tournament_services
from tournaments.models import Entrant, Tournament, TournamentEvent

pytestmark = pytest.mark.django_db


def _names(count: int, start: int = 1) -> list[str]:
    return [f"Runner {number:02d}" for number in range(start, start + count)]


def _nothing_written(tournament: Any) -> tuple[int, int, int, int]:
    return (SignUp.objects.filter(tournament=tournament).count(), Entrant.objects.filter(
        tournament=tournament).count(), Player.objects.count(),
        TournamentEvent.objects.filter(tournament=tournament).count())


def test_twenty_one_for_twenty_places_the_last_waits_and_moves_up(open_event: Any,
                                                                  organizer: Any) -> None:
    tournament = open_event(cap=20)
    made = [services.sign_up(tournament=tournament, name=name)[0] for name in _names(21)]
    assert [s.status for s in made[:20]] == [SignUpStatus.ACCEPTED] * 20
    last = SignUp.objects.get(pk=made[20].pk)
    assert last.status == SignUpStatus.WAITLISTED and last.entrant is None
    assert selectors.waitlist_place(last) == 1
    assert tournament.entrants.count() == 20
    # every accepted entrant has a private link
    assert EntrantLink.objects.live().filter(entrant__tournament=tournament).count() == 20

    # the applicant withdraws through the status page: the 21st moves up, accepted
    services.signup_withdraw(signup=made[3])
    last.refresh_from_db()
    assert last.status == SignUpStatus.ACCEPTED and last.entrant is not None
    assert tournament.entrants.count() == 20
    assert not tournament.entrants.filter(player__display_name="Runner 04").exists()
    kinds = list(TournamentEvent.objects.filter(tournament=tournament)
                 .values_list("kind", flat=True))
    assert "signup_moved_up" in kinds and "signup_withdrawn" in kinds


def test_the_waiting_list_moves_up_in_order_when_entrants_withdraw_or_are_removed(
        open_event: Any, organizer: Any) -> None:
    tournament = open_event(cap=2)
    first, second = (services.sign_up(tournament=tournament, name=n)[0] for n in _names(2))
    waiting = [services.sign_up(tournament=tournament, name=n)[0] for n in _names(3, 3)]
    assert [selectors.waitlist_place(s) for s in waiting] == [1, 2, 3]
    first.refresh_from_db()
    assert first.entrant is not None
    # an organizer removing the entrant before the start
    tournament_services.entrant_remove(actor=organizer, entrant=first.entrant)
    statuses = {s.name: s.status for s in SignUp.objects.filter(tournament=tournament)}
    assert statuses["Runner 01"] == SignUpStatus.WITHDRAWN
    assert statuses["Runner 03"] == SignUpStatus.ACCEPTED
    assert statuses["Runner 04"] == SignUpStatus.WAITLISTED
    # an organizer withdrawing an entrant (the tournaments' event)
    second.refresh_from_db()
    assert second.entrant is not None
    tournament_services.entrant_withdraw(actor=organizer, entrant=second.entrant)
    statuses = {s.name: s.status for s in SignUp.objects.filter(tournament=tournament)}
    assert statuses["Runner 02"] == SignUpStatus.WITHDRAWN
    assert statuses["Runner 04"] == SignUpStatus.ACCEPTED
    assert statuses["Runner 05"] == SignUpStatus.WAITLISTED
    assert selectors.waitlist_place(SignUp.objects.get(name="Runner 05")) == 1


def test_organizer_acceptance_holds_places_and_declining_moves_the_list_up(
        open_event: Any, organizer: Any, club_b: Any) -> None:
    tournament = open_event(cap=2, acceptance="organizer")
    a, b, c = (services.sign_up(tournament=tournament, name=n)[0] for n in _names(3))
    assert [a.status, b.status, c.status] == ["pending", "pending", "waitlisted"]
    assert tournament.entrants.count() == 0
    services.signup_accept(actor=organizer, signup=a)
    a.refresh_from_db()
    assert a.status == "accepted" and a.decided_by == organizer
    services.signup_decline(actor=organizer, signup=b)
    c.refresh_from_db()
    assert c.status == "pending"  # moved up, the organizer still decides
    with pytest.raises(PermissionDenied):
        services.signup_accept(actor=club_b.organizers.get(), signup=c)
    with pytest.raises(ApplicationError) as refused:
        services.signup_decline(actor=organizer, signup=a)
    assert refused.value.field == "status"


def test_the_club_player_of_the_same_name_is_matched_not_created_twice(
        open_event: Any, club_a: Any, organizer: Any) -> None:
    known = Player.objects.create(display_name="Anna Kowalska", club=club_a, birth_year=1990)
    tournament = open_event(ask_email=True)
    signup, _token = services.sign_up(tournament=tournament, name="  anna   KOWALSKA ",
                                      fields={"email": "anna@example.org"})
    signup.refresh_from_db()
    # a name typed on a public form does not take over the club's player by itself: even
    # with automatic acceptance the organizer decides, and nothing of the player changes
    assert (signup.status, signup.player, signup.entrant) == ("pending", known, None)
    known.refresh_from_db()
    assert known.email == ""
    services.signup_accept(actor=organizer, signup=signup)
    signup.refresh_from_db()
    assert signup.entrant is not None
    assert signup.player == known and signup.entrant.player == known
    assert Player.objects.filter(display_name__iexact="anna kowalska").count() == 1
    known.refresh_from_db()
    assert known.email == "anna@example.org"  # a blank field filled, nothing overwritten
    # another birth year is another person
    tournament2 = open_event(ask_birth_year=True)
    other, _ = services.sign_up(tournament=tournament2, name="Anna Kowalska",
                                fields={"birth_year": "2001"})
    other.refresh_from_db()
    assert other.player != known


def test_fee_due_and_the_rating_given(open_event: Any, organizer: Any) -> None:
    tournament = open_event(ask_rating_claim=True)
    Tournament.objects.filter(pk=tournament.pk).update(entry_fee=Decimal("12.50"))
    signup, _ = services.sign_up(tournament=tournament, name="Bea",
                                 fields={"rating_claim": "1650"})
    signup.refresh_from_db()
    assert signup.entrant is not None
    assert signup.entrant.fee_due == Decimal("12.50")
    assert signup.entrant.rating == 1650


def test_signing_up_twice_is_refused(open_event: Any, organizer: Any) -> None:
    tournament = open_event()
    services.sign_up(tournament=tournament, name="Carl Berg")
    before = _nothing_written(tournament)
    for name in ("Carl Berg", "carl  berg", "CARL BERG"):
        with pytest.raises(ApplicationError) as refused:
            services.sign_up(tournament=tournament, name=name)
        assert refused.value.field == "name"
    assert _nothing_written(tournament) == before
    # an entrant entered by the organizer is matched and refused too
    player = Player.objects.create(display_name="Dora", club=tournament.club)
    tournament_services.entrant_register(actor=organizer, tournament=tournament, player=player)
    with pytest.raises(ApplicationError, match="already entered"):
        services.sign_up(tournament=tournament, name="Dora")


def test_closed_window_and_started_tournament_refuse(open_event: Any, organizer: Any) -> None:
    now = timezone.now()
    tournament = open_event(opens_at=now + dt.timedelta(hours=1),
                            closes_at=now + dt.timedelta(days=1))
    with pytest.raises(ApplicationError, match="not opened yet"):
        services.sign_up(tournament=tournament, name="Early")
    with pytest.raises(ApplicationError, match="closed"):
        services.sign_up(tournament=tournament, name="Late", now=now + dt.timedelta(days=2))
    services.sign_up(tournament=tournament, name="On time", now=now + dt.timedelta(hours=2))
    services.signup_settings_update(actor=organizer, tournament=tournament, is_open=False)
    with pytest.raises(ApplicationError, match="closed"):
        services.sign_up(tournament=tournament, name="Shut", now=now + dt.timedelta(hours=2))
    assert SignUp.objects.filter(tournament=tournament).count() == 1


def test_full_without_a_waiting_list_is_refused(open_event: Any) -> None:
    tournament = open_event(cap=1, waitlist=False)
    services.sign_up(tournament=tournament, name="One")
    with pytest.raises(ApplicationError, match="full"):
        services.sign_up(tournament=tournament, name="Two")


@pytest.mark.parametrize(("name", "fields", "field"), [
    ("", {}, "name"),
    ("   ", {}, "name"),
    ("Ann\x00a", {}, "name"),
    ("x" * 100_000, {}, "name"),
    ("Ann\u200b", {}, None),  # shown as "Ann": accepted (see below)
    ("Ann", {"email": "not-an-address"}, "email"),
    ("Ann", {"email": ""}, "email"),
    ("Ann", {"birth_year": "1800"}, "birth_year"),
    ("Ann", {"birth_year": "9" * 5000}, "birth_year"),
    ("Ann", {"birth_year": "19\x0090"}, "birth_year"),
    ("Ann", {"sex": "x"}, "sex"),
    ("Ann", {"federation": "P1L"}, "federation"),
    ("Ann", {"rating_claim": "-5"}, "rating_claim"),
    ("Ann", {"rating_claim": "99999"}, "rating_claim"),
    ("Ann", {"note": "y" * 100_000}, "note"),
    ("Ann", {"note": "ok\x00"}, "note"),
    ("Ann", {"admin": "1"}, "admin"),
])
def test_bad_fields_are_named_and_nothing_is_written(open_event: Any, name: str,
                                                     fields: dict[str, str],
                                                     field: str | None) -> None:
    tournament = open_event(ask_email=True, ask_birth_year=True, ask_sex=True,
                            ask_federation=True, ask_rating_claim=True, ask_note=True)
    good = {"email": "a@example.org", "birth_year": "1990", "sex": "w", "federation": "POL"}
    before = _nothing_written(tournament)
    if field is None:
        services.sign_up(tournament=tournament, name=name, fields={**good, **fields})
        return
    with pytest.raises(ApplicationError) as refused:
        services.sign_up(tournament=tournament, name=name, fields={**good, **fields})
    assert refused.value.field == field
    assert _nothing_written(tournament) == before


def test_fields_not_asked_are_refused(open_event: Any) -> None:
    tournament = open_event()
    with pytest.raises(ApplicationError) as refused:
        services.sign_up(tournament=tournament, name="Eve", fields={"email": "e@example.org"})
    assert refused.value.field == "email"


def test_settings_are_checked(open_event: Any, organizer: Any, club_b: Any) -> None:
    tournament = open_event()
    cases: list[tuple[dict[str, Any], str]] = [({"cap": 0}, "cap"), ({"cap": 10**9}, "cap"),
                          ({"acceptance": "maybe"}, "acceptance"),
                          ({"message": "a\x00"}, "message"), ({"colour": "red"}, "colour")]
    for fields, field in cases:
        with pytest.raises(ApplicationError) as refused:
            services.signup_settings_update(actor=organizer, tournament=tournament, **fields)
        assert refused.value.field == field, fields
    now = timezone.now()
    with pytest.raises(ApplicationError):
        services.signup_settings_update(actor=organizer, tournament=tournament, opens_at=now,
                                        closes_at=now - dt.timedelta(hours=1))
    with pytest.raises(PermissionDenied):
        services.signup_settings_update(actor=club_b.organizers.get(), tournament=tournament,
                                        is_open=False)


def test_a_status_token_finds_only_its_sign_up(open_event: Any,
                                               django_assert_num_queries: Any) -> None:
    tournament = open_event()
    signup, token = services.sign_up(tournament=tournament, name="Finn")
    assert selectors.signup_from_token(token) == signup
    assert selectors.status_token(signup) == token
    assert token not in (signup.nonce, signup.token_hash)
    with django_assert_num_queries(0):
        for bad in ("", "x" * 31, token + "x", token[:-1] + "\x00"):
            assert selectors.signup_from_token(bad) is None
