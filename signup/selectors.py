"""Reads for the sign-up: its settings, whether it is open, places and the waiting list."""

from __future__ import annotations

import datetime as dt

from django.db.models import Count, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from core.bounds import MAX_ENTRANTS, MAX_ROUNDS
from playerlinks import tokens
from signup.keys import signup_key
from signup.models import SignUp, SignUpSettings, SignUpStatus
from tournaments.models import Status, Tournament

#: Tournament statuses in which a sign-up may be open.
OPEN_STATUSES = (Status.DRAFT, Status.REGISTRATION)


def settings_of(tournament: Tournament) -> SignUpSettings | None:
    return SignUpSettings.objects.filter(tournament=tournament).first()


def window_problem(found: SignUpSettings | None, tournament: Tournament,
                   now: dt.datetime | None = None) -> str | None:
    """Why the sign-up of ``tournament`` takes no entries now (a code), or None."""
    if found is None or not found.is_open:
        return "closed"
    if tournament.status not in OPEN_STATUSES:
        return "started"
    now = now or timezone.now()
    if found.opens_at is not None and now < found.opens_at:
        return "not_yet"
    if found.closes_at is not None and now >= found.closes_at:
        return "over"
    return None


def is_open(tournament: Tournament) -> bool:
    return window_problem(settings_of(tournament), tournament) is None


def cap_of(found: SignUpSettings | None, tournament: Tournament) -> int:
    """The most entrants: the sign-up's cap, never more than the format takes."""
    most = tournament.system.max_entrants(MAX_ENTRANTS, MAX_ROUNDS)  # as the format takes
    if found is None or found.cap is None:
        return most
    return min(found.cap, most)


def places_taken(tournament: Tournament) -> int:
    """Entrants still playing, plus sign-ups waiting for the organizer (they hold a
    place)."""
    entrants = tournament.entrants.filter(withdrawn_from_round__isnull=True).count()
    pending = SignUp.objects.filter(tournament=tournament, status=SignUpStatus.PENDING).count()
    return entrants + pending


def waiting_list(tournament: Tournament) -> QuerySet[SignUp]:
    return SignUp.objects.filter(tournament=tournament,
                                 status=SignUpStatus.WAITLISTED).order_by("created_at", "id")


def waitlist_place(signup: SignUp) -> int | None:
    """1 for the first on the waiting list; None when not on it."""
    if signup.status != SignUpStatus.WAITLISTED:
        return None
    ahead = waiting_list(signup.tournament).filter(created_at__lt=signup.created_at).count()
    same = waiting_list(signup.tournament).filter(created_at=signup.created_at,
                                                  id__lt=signup.pk).count()
    return ahead + same + 1


def with_waitlist_places(signups: QuerySet[SignUp]) -> QuerySet[SignUp]:
    """``signups`` with ``waitlist_ahead`` (how many wait before each) read in the same
    query: a list of sign-ups shows every place without a count per row."""
    ahead = (SignUp.objects.filter(tournament=OuterRef("tournament"),
                                   status=SignUpStatus.WAITLISTED)
             .filter(Q(created_at__lt=OuterRef("created_at"))
                     | Q(created_at=OuterRef("created_at"), id__lt=OuterRef("pk")))
             .order_by().values("tournament").annotate(count=Count("pk")).values("count"))
    return signups.annotate(waitlist_ahead=Coalesce(Subquery(ahead), 0))


def signup_from_token(token: str) -> SignUp | None:
    """The sign-up of a status token, or None (unknown and malformed alike)."""
    if not isinstance(token, str) or not tokens.looks_like_token(token):
        return None
    return (SignUp.objects.select_related("tournament__club", "entrant", "player")
            .filter(token_hash=tokens.token_hash(token)).first())


def status_token(signup: SignUp) -> str:
    """The status token of ``signup``, recomputed (for the organizer to pass on)."""
    return tokens.token_for(signup_key(), signup.nonce)


def open_signups(tournament: Tournament) -> QuerySet[SignUp]:
    """The sign-ups waiting for a decision or a place: pending first, then the waiting
    list, each in sign-up order."""
    return SignUp.objects.filter(
        tournament=tournament, status__in=[SignUpStatus.PENDING, SignUpStatus.WAITLISTED],
    ).order_by("-status", "created_at", "id")


def counts(tournament: Tournament) -> dict[str, int]:
    found = {status: 0 for status in SignUpStatus.values}
    for status in SignUp.objects.filter(tournament=tournament).values_list("status", flat=True):
        found[status] += 1
    return found
