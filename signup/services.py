"""Writes of the sign-up (its only writer): settings, signing up, accepting, declining,
withdrawing and the waiting list moving up.

Each service validates everything first, then writes in one transaction under the
tournament's row lock (``lock_tournament``), so two sign-ups racing for the last place
are counted one after the other, and a refused step leaves nothing behind.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.bounds import MAX_ENTRANTS
from core.errors import ApplicationError
from core.parsers import check_storable
from playerlinks import tokens
from playerlinks.models import EntrantLink
from playerlinks.services import link_issue
from players.models import FIRST_BIRTH_YEAR, Player, Sex
from players.permissions import SYSTEM, Actor, actor_user, ensure_can_manage_club
from players.selectors import folded_name, players_named_alike
from players.services import check_name, player_create
from signup import history_kinds as kinds
from signup import selectors
from signup.keys import signup_key
from signup.models import (
    ENTRY_FIELDS,
    MAX_NAME,
    MAX_NOTE,
    MAX_RATING_CLAIM,
    Acceptance,
    SignUp,
    SignUpSettings,
    SignUpStatus,
)
from tournaments.history import record
from tournaments.models import Entrant, EntrantKind, Status, Tournament
from tournaments.services.entrants import (
    club_ratings,
    entrant_register,
    entrant_remove,
    entrant_withdraw,
)
from tournaments.services.tournaments import lock_tournament

_SETTINGS_FIELDS = frozenset({
    "is_open", "opens_at", "closes_at", "cap", "waitlist", "acceptance", "message",
    *(f"ask_{name}" for name in ENTRY_FIELDS)})

def window_text(code: str) -> str:
    texts = {
        "closed": _("The sign-up for this tournament is closed."),
        "started": _("The tournament has started: the sign-up is closed."),
        "not_yet": _("The sign-up has not opened yet."),
        "over": _("The sign-up has closed."),
    }
    return texts.get(code, texts["closed"])


# -- settings ------------------------------------------------------------------------------


@transaction.atomic
def signup_settings_update(*, actor: Actor, tournament: Tournament,
                           **fields: Any) -> SignUpSettings:
    """Create or change the sign-up settings of ``tournament`` (organizers of its club)."""
    ensure_can_manage_club(actor, tournament.club)
    unknown = set(fields) - _SETTINGS_FIELDS
    if unknown:
        raise ApplicationError(_("Unknown field %(name)r.") % {"name": sorted(unknown)[0]},
                               field=sorted(unknown)[0])
    if tournament.entrant_kind != EntrantKind.PLAYERS:
        raise ApplicationError(_("The public sign-up is for tournaments of single players."),
                               field="is_open")
    tournament = lock_tournament(tournament)
    found = SignUpSettings.objects.filter(tournament=tournament).first() or \
        SignUpSettings(tournament=tournament)
    for name, value in fields.items():
        setattr(found, name, value)
    check_storable(found.message, field="message")
    if found.cap is not None and (isinstance(found.cap, bool) or not isinstance(found.cap, int)
                                  or not 1 <= found.cap <= MAX_ENTRANTS):
        raise ApplicationError(_("The cap is a whole number from 1 to %(most)d (or empty: as "
                                 "many as the format takes).") % {"most": MAX_ENTRANTS},
                               field="cap")
    if found.acceptance not in Acceptance.values:
        raise ApplicationError(_("Choose automatic acceptance or acceptance by the "
                                 "organizer."), field="acceptance")
    if found.opens_at and found.closes_at and found.closes_at <= found.opens_at:
        raise ApplicationError(_("The sign-up closes after it opens."), field="closes_at")
    try:
        found.full_clean(exclude=["tournament"])
    except ValidationError as error:
        field, messages = next(iter(error.message_dict.items()))
        raise ApplicationError(messages[0], field=None if field == "__all__" else field) \
            from None
    found.save()
    return found


# -- signing up ------------------------------------------------------------------------------


def _text(value: Any, field: str, limit: int) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ApplicationError(_("This field is a text."), field=field)
    check_storable(value, field=field)
    value = value.strip()
    if len(value) > limit:
        raise ApplicationError(_("At most %(limit)d characters, not %(length)d.")
                               % {"limit": limit, "length": len(value)}, field=field)
    return value


def _number(value: Any, field: str, low: int, high: int) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, str):
        check_storable(value, field=field)
        text = value.strip()
        if not (text.isascii() and text.isdigit() and len(text) <= 6):
            raise ApplicationError(_("A whole number from %(low)d to %(high)d, please.")
                                   % {"low": low, "high": high}, field=field)
        value = int(text)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ApplicationError(_("A whole number from %(low)d to %(high)d, please.")
                               % {"low": low, "high": high}, field=field)
    return value


def clean_entry(found: SignUpSettings, name: Any, fields: Mapping[str, Any]) -> dict[str, Any]:
    """The sign-up's values checked and cleaned; the first problem raises, naming its
    field. Asked fields are required, except a rating and a note."""
    if not isinstance(name, str):
        raise ApplicationError(_("Enter your name."), field="name")
    check_storable(name, field="name")
    name = " ".join(name.split())
    if not name:
        raise ApplicationError(_("Enter your name."), field="name")
    if len(name) > MAX_NAME:
        raise ApplicationError(_("A name has at most %(limit)d characters, not %(length)d.")
                               % {"limit": MAX_NAME, "length": len(name)}, field="name")
    check_name(name, field="name")
    for key in fields:
        if key not in ENTRY_FIELDS:
            raise ApplicationError(_("Unknown field %(name)r.") % {"name": str(key)[:40]},
                                   field=str(key)[:40])
        if not found.asks(key) and fields[key] not in (None, ""):
            raise ApplicationError(_("This sign-up does not ask for this."), field=key)
    this_year = timezone.localdate().year
    values: dict[str, Any] = {"name": name, "folded_name": folded_name(name)}
    values["birth_year"] = _number(fields.get("birth_year"), "birth_year", FIRST_BIRTH_YEAR,
                                   this_year)
    sex = _text(fields.get("sex"), "sex", 1).lower()
    if sex not in ("", *Sex.values):
        raise ApplicationError(_("Choose m or w."), field="sex")
    values["sex"] = sex
    federation = _text(fields.get("federation"), "federation", 3).upper()
    if federation and not (len(federation) == 3 and federation.isascii()
                           and federation.isalpha()):
        raise ApplicationError(_("Three letters, for example POL."), field="federation")
    values["federation"] = federation
    email = _text(fields.get("email"), "email", 254)
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise ApplicationError(_("Enter a valid e-mail address."), field="email") from None
    values["email"] = email
    values["rating_claim"] = _number(fields.get("rating_claim"), "rating_claim", 0,
                                     MAX_RATING_CLAIM)
    values["note"] = _text(fields.get("note"), "note", MAX_NOTE)
    for key in ("birth_year", "sex", "federation", "email"):
        if found.asks(key) and values[key] in (None, ""):
            raise ApplicationError(_("This field is required."), field=key)
    return values


def likely_player(tournament: Tournament, name: str, birth_year: int | None) -> Player | None:
    """The club's player this person most likely is (same name, case and spacing aside,
    and no other birth year): the sign-up is matched to them instead of a new player."""
    for player in players_named_alike(tournament.club, name):
        if birth_year is None or player.birth_year is None or player.birth_year == birth_year:
            return player
    return None


@transaction.atomic
def sign_up(*, tournament: Tournament, name: Any, fields: Mapping[str, Any] | None = None,
            now: dt.datetime | None = None) -> tuple[SignUp, str]:
    """Sign a person up for ``tournament`` (anyone: no account). Returns the sign-up and
    its private status token (shown once, as a link). Accepted at once when the
    acceptance is automatic and a place is free; pending for the organizer otherwise;
    waitlisted when the cap is reached (refused when there is no waiting list)."""
    tournament = lock_tournament(tournament)
    found = selectors.settings_of(tournament)
    problem = selectors.window_problem(found, tournament, now)
    if problem is not None or found is None:
        raise ApplicationError(window_text(problem or "closed"), field="tournament",
                               code="signup_closed")
    values = clean_entry(found, name, dict(fields or {}))
    if SignUp.objects.filter(tournament=tournament, folded_name=values["folded_name"],
                             status__in=[s.value for s in _live()]).exists():
        raise ApplicationError(_("%(name)s has already signed up for this tournament.")
                               % {"name": values["name"]}, field="name", code="twice")
    player = likely_player(tournament, values["name"], values["birth_year"])
    if player is not None:
        if tournament.entrants.filter(player=player).exists():
            raise ApplicationError(_("%(name)s is already entered in this tournament.")
                                   % {"name": values["name"]}, field="name", code="twice")
        if SignUp.objects.filter(tournament=tournament, player=player,
                                 status__in=[s.value for s in _live()]).exists():
            raise ApplicationError(_("%(name)s has already signed up for this tournament.")
                                   % {"name": values["name"]}, field="name", code="twice")
    full = selectors.places_taken(tournament) >= selectors.cap_of(found, tournament)
    if full and not found.waitlist:
        raise ApplicationError(_("The tournament is full."), field="tournament", code="full")
    nonce = tokens.new_nonce()
    token = tokens.token_for(signup_key(), nonce)
    signup = SignUp(tournament=tournament, player=player, nonce=nonce,
                    token_hash=tokens.token_hash(token), **values)
    signup.status = SignUpStatus.WAITLISTED if full else SignUpStatus.PENDING
    # The fields' own checks; the constraints are the database's (each checked above with
    # its message, and a twin that commits first is the IntegrityError below), not asked
    # again one query each (bench/bench_signup.py: 92 -> 72 queries an accepted sign-up,
    # 32 -> 12 a waitlisted one).
    signup.full_clean(exclude=["tournament", "player", "entrant", "decided_by"],
                      validate_unique=False, validate_constraints=False)
    try:
        with transaction.atomic():
            signup.save()
    except IntegrityError:  # a twin sign-up committed between the check and the save
        raise ApplicationError(_("%(name)s has already signed up for this tournament.")
                               % {"name": values["name"]}, field="name", code="twice") from None
    record(tournament, kinds.SIGNED_UP, actor=None, name=signup.name,
           status=signup.status, matched=player is not None)
    if not full and _accepted_by_itself(found, signup):
        _accept(SYSTEM, signup, tournament)
    return signup, token


def _accepted_by_itself(found: SignUpSettings | None, signup: SignUp) -> bool:
    """Automatic acceptance, except for a sign-up matched to a player the club already
    has: a name typed on a public form must not hand a stranger that player's entry and
    private link, so the organizer decides."""
    return (found is not None and found.acceptance == Acceptance.AUTO
            and signup.player_id is None)


def _live() -> tuple[SignUpStatus, ...]:
    return (SignUpStatus.PENDING, SignUpStatus.ACCEPTED, SignUpStatus.WAITLISTED)


# -- decisions -----------------------------------------------------------------------------


def _locked(signup: SignUp) -> tuple[SignUp, Tournament]:
    tournament = lock_tournament(signup.tournament)
    return SignUp.objects.select_for_update().get(pk=signup.pk), tournament


def _accept(actor: Actor, signup: SignUp, tournament: Tournament) -> None:
    """Enter the sign-up: its player (created when none was matched), the entrant with
    the fee due, and the player's private link."""
    player = signup.player
    created = player is None
    if player is None:
        player = player_create(
            actor=SYSTEM, display_name=signup.name, club=tournament.club,
            birth_year=signup.birth_year, sex=signup.sex, federation=signup.federation)
        if signup.email:  # not among player_create's fields; checked on signing up
            player.email = signup.email
            player.save(update_fields=["email"])
    elif actor is not SYSTEM:  # an organizer accepted the match: blank details filled in
        changed = []
        for name in ("email", "birth_year", "sex", "federation"):
            if getattr(player, name) in (None, "") and getattr(signup, name) not in (None, ""):
                setattr(player, name, getattr(signup, name))
                changed.append(name)
        if changed:
            player.save(update_fields=[*changed, "updated_at"])
    rating = None
    if signup.rating_claim is not None and (
            created or ("player", player.pk) not in club_ratings(tournament, [player])):
        rating = signup.rating_claim
    entrant = entrant_register(actor=SYSTEM, tournament=tournament, player=player,
                               rating=rating)
    link_issue(actor=SYSTEM, entrant=entrant, player=player)
    signup.player, signup.entrant = player, entrant
    signup.status = SignUpStatus.ACCEPTED
    signup.decided_at = timezone.now()
    signup.decided_by = actor_user(actor)
    signup.save(update_fields=["player", "entrant", "status", "decided_at", "decided_by"])
    record(tournament, kinds.ACCEPTED, actor=actor, name=signup.name,
           new_player=created)


@transaction.atomic
def signup_accept(*, actor: Actor, signup: SignUp) -> SignUp:
    """The organizer accepts a pending sign-up (or takes one off the waiting list above
    the cap: the organizer decides)."""
    ensure_can_manage_club(actor, signup.tournament.club)
    signup, tournament = _locked(signup)
    if signup.status not in (SignUpStatus.PENDING, SignUpStatus.WAITLISTED):
        raise ApplicationError(_("%(name)s is %(status)s: only a pending or waiting sign-up "
                                 "can be accepted.") % {
            "name": signup.name, "status": signup.get_status_display().lower()},
            field="status")
    if tournament.status not in selectors.OPEN_STATUSES:
        raise ApplicationError(_("The tournament has started: enter late entrants on its "
                                 "entrants page."), field="status")
    try:
        with transaction.atomic():
            _accept(actor, signup, tournament)
    except ApplicationError as error:
        raise ApplicationError(_("%(name)s: %(problem)s") % {
            "name": signup.name, "problem": error.message}, field=error.field) from None
    return signup


@transaction.atomic
def signup_decline(*, actor: Actor, signup: SignUp) -> SignUp:
    """The organizer declines a pending or waiting sign-up; the place it held goes to the
    first on the waiting list."""
    ensure_can_manage_club(actor, signup.tournament.club)
    signup, tournament = _locked(signup)
    if signup.status not in (SignUpStatus.PENDING, SignUpStatus.WAITLISTED):
        raise ApplicationError(_("%(name)s is %(status)s: only a pending or waiting sign-up "
                                 "can be declined.") % {
            "name": signup.name, "status": signup.get_status_display().lower()},
            field="status")
    held = signup.status == SignUpStatus.PENDING
    signup.status = SignUpStatus.DECLINED
    signup.decided_at = timezone.now()
    signup.decided_by = actor_user(actor)
    signup.save(update_fields=["status", "decided_at", "decided_by"])
    record(tournament, kinds.DECLINED, actor=actor, name=signup.name)
    if held:
        waitlist_move_up(tournament)
    return signup


@transaction.atomic
def signup_withdraw(*, signup: SignUp) -> SignUp:
    """The applicant withdraws (from the status page). An accepted entry is taken back
    before the start (withdrawn from the next round once running); a place freed goes to
    the first on the waiting list."""
    signup, tournament = _locked(signup)
    if signup.status not in _live():
        raise ApplicationError(_("This sign-up is already %(status)s.") % {
            "status": signup.get_status_display().lower()}, field="status")
    if tournament.status == Status.FINISHED:
        raise ApplicationError(_("The tournament is finished."), field="status")
    before = signup.status
    entrant = signup.entrant
    signup.status = SignUpStatus.WITHDRAWN
    signup.save(update_fields=["status"])
    record(tournament, kinds.WITHDRAWN, actor=None, name=signup.name, was=before)
    if entrant is not None:
        EntrantLink.objects.live().filter(entrant=entrant).update(revoked_at=timezone.now())
        if tournament.status in selectors.OPEN_STATUSES:
            entrant_remove(actor=SYSTEM, entrant=entrant)  # its event moves the list up
        elif entrant.withdrawn_from_round is None:
            entrant_withdraw(actor=SYSTEM, entrant=entrant)
    elif before == SignUpStatus.PENDING:
        waitlist_move_up(tournament)
    return signup


# -- the waiting list --------------------------------------------------------------------------


def waitlist_move_up(tournament: Tournament) -> list[SignUp]:
    """While places are free, the first on the waiting list moves up: accepted when the
    acceptance is automatic, pending for the organizer otherwise. Call inside the
    tournament's transaction. A move the tournament refuses (it started, say) is left
    for the organizer, and the caller's step still happens."""
    found = selectors.settings_of(tournament)
    moved: list[SignUp] = []
    if tournament.status not in selectors.OPEN_STATUSES and not (
            tournament.status == Status.RUNNING and tournament.system.late_entries):
        return moved
    cap = selectors.cap_of(found, tournament)
    while selectors.places_taken(tournament) < cap:
        first = selectors.waiting_list(tournament).select_for_update().first()
        if first is None:
            break
        try:
            with transaction.atomic():
                first.status = SignUpStatus.PENDING
                first.save(update_fields=["status"])
                record(tournament, kinds.MOVED_UP, actor=None, name=first.name)
                if _accepted_by_itself(found, first):
                    _accept(SYSTEM, first, tournament)
        except ApplicationError:
            break
        moved.append(first)
    return moved


def entrant_left(*, tournament_id: int, entrant_id: int | None = None,
                 player_id: int | None = None) -> list[SignUp]:
    """An entrant withdrew or was removed: its accepted sign-up (if any) is marked
    withdrawn, and the waiting list moves up. A tournament without sign-ups costs one
    query."""
    if not SignUp.objects.filter(tournament_id=tournament_id).exists():
        return []
    tournament = lock_tournament(Tournament.objects.get(pk=tournament_id))
    accepted = SignUp.objects.select_for_update().filter(
        tournament=tournament, status=SignUpStatus.ACCEPTED)
    if entrant_id is not None and Entrant.objects.filter(pk=entrant_id).exists():
        accepted = accepted.filter(entrant_id=entrant_id)
    elif player_id is not None:
        accepted = accepted.filter(player_id=player_id)
    else:
        accepted = accepted.none()
    for signup in accepted:
        signup.status = SignUpStatus.WITHDRAWN
        signup.save(update_fields=["status"])
        record(tournament, kinds.WITHDRAWN, actor=None, name=signup.name,
               was=SignUpStatus.ACCEPTED)
    return waitlist_move_up(tournament)
