"""Writes of the phone clock: open a board's clock, store taps (idempotently), the
players' agreement with a flag, a resignation or an agreed draw, and the director's
confirmation, which records the game and its measured times through the one writer of
games (matches.services: ``game_record`` and ``game_times_attach``).

Who may use a clock: the organizers of the tournament's club (``actor``), or the holder
of a live private link (``link``) to one of the board's two entrants.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.engine_messages import engine_error_message, game_label
from core.errors import ApplicationError, ConflictError
from games.clocks.control import (
    MAX_ADDED_MS,
    GameClock,
    Tap,
    TapOutcome,
    controls_for,
    game_control_text,
)
from games.clocks.control import TapKind as PureTapKind
from games.clocks.errors import ClockError
from games.engines import game_facts
from matches.models import Game, Termination
from matches.services.games import game_record
from matches.services.times import game_times_attach
from phoneclock.models import (
    MAX_TAPS_PER_REQUEST,
    MAX_TAPS_PER_SESSION,
    ClockSession,
    ClockTap,
    Finish,
    TapKind,
)
from playerlinks.models import EntrantLink
from players.permissions import Actor, SystemActor, actor_user, ensure_can_manage_club
from tournaments.models import Outcome, Pairing, Status
from tournaments.selectors import match_format_of, round_clock

#: Phone timestamps are milliseconds since 1970: anything past this is not a time.
MAX_AT_MS = 2**53
#: A phone names itself with a random id it keeps (the page makes 32 hex digits).
PHONE_ID = re.compile(r"[A-Za-z0-9_-]{8,40}")


class OtherPhoneError(ConflictError):
    """The clock runs on another phone: this one follows it, or takes it over."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.code = "other_phone"


def ensure_may_use(*, actor: Actor | None, link: EntrantLink | None, pairing: Pairing) -> None:
    """The club's organizers, or a live link to one of the board's entrants."""
    if link is not None:
        if not link.is_live or link.entrant_id not in (pairing.entrant_a_id,
                                                       pairing.entrant_b_id):
            raise ApplicationError(_("This private link is not for this board."),
                                   field="link")
        return
    ensure_can_manage_club(actor, pairing.round.tournament.club)


def link_side(link: EntrantLink, pairing: Pairing) -> int:
    return 0 if link.entrant_id == pairing.entrant_a_id else 1


def session_controls(session: ClockSession) -> tuple[Any, Any]:
    return controls_for(session.setting, session.odds)


@transaction.atomic
def session_open(*, actor: Actor | None, link: EntrantLink | None = None, pairing: Pairing,
                 game_number: int) -> ClockSession:
    """The clock of game ``game_number`` on ``pairing``: the one already opened, or a new
    one with the round's clock setting for that game."""
    pairing = Pairing.objects.select_related("round__tournament__club").get(pk=pairing.pk)
    ensure_may_use(actor=actor, link=link, pairing=pairing)
    tournament = pairing.round.tournament
    if not pairing.round.is_released:
        raise ApplicationError(_("Round %(round)d is a draft: release it before starting "
                                 "clocks.") % {"round": pairing.round.number}, field="round")
    if pairing.entrant_b_id is None:
        raise ApplicationError(_("Board %(board)d is a bye: it has no game to clock.")
                               % {"board": pairing.board}, field="pairing")
    most = match_format_of(tournament).max_games_needed() or 1
    if isinstance(game_number, bool) or not isinstance(game_number, int) \
            or not 1 <= game_number <= most:
        raise ApplicationError(_("The game number must be from 1 to %(most)d.")
                               % {"most": most}, field="game")
    found = ClockSession.objects.filter(pairing=pairing, game_number=game_number).first()
    if found is not None:
        return found
    if tournament.status != Status.RUNNING:
        raise ApplicationError(_("Clocks run while the tournament runs."), field="status")
    text = round_clock(pairing.round)
    if not text:
        raise ApplicationError(_("Round %(round)d has no clock setting: set the tournament's "
                                 "or the round's clock first.") % {"round": pairing.round.number},
                               field="clock")
    try:
        first, second = game_control_text(text, game_number)
    except ClockError as error:
        raise ApplicationError(engine_error_message(error), field="clock") from None
    session, _created = ClockSession.objects.get_or_create(
        pairing=pairing, game_number=game_number,
        defaults={"setting": first, "odds": second, "opened_by_user": actor_user(actor),
                  "opened_by_link": link, "follow_token": secrets.token_urlsafe(32)},
    )
    return session


def _field(index: int, name: str) -> str:
    return f"taps[{index}].{name}"


def _int(value: Any, low: int, high: int, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ApplicationError(_("%(field)s must be a whole number from %(low)d to %(high)d.")
                               % {"field": field, "low": low, "high": high}, field=field)
    return value


def _clean(index: int, raw: Any) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise ApplicationError(_("Each tap is an object with seq, seat, kind and at."),
                               field=f"taps[{index}]")
    kind = raw.get("kind")
    if not isinstance(kind, str) or kind not in TapKind.values:
        raise ApplicationError(_("%(field)s must be one of %(kinds)s.")
                               % {"field": _field(index, "kind"),
                                  "kinds": ", ".join(TapKind.values)},
                               field=_field(index, "kind"))
    return {
        "sequence": _int(raw.get("seq"), 1, MAX_TAPS_PER_SESSION, _field(index, "seq")),
        "seat": _int(raw.get("seat"), 0, 1, _field(index, "seat")),
        "kind": kind,
        "at_ms": _int(raw.get("at"), 0, MAX_AT_MS, _field(index, "at")),
        "amount_ms": _int(raw.get("amount", 0), 0, MAX_ADDED_MS, _field(index, "amount")),
    }


def _same(tap: ClockTap, clean: dict[str, Any]) -> bool:
    return all(getattr(tap, key) == value for key, value in clean.items())


@transaction.atomic
def taps_record(*, actor: Actor | None, link: EntrantLink | None = None,
                session: ClockSession, taps: Sequence[Any], phone: str = "",
                take_over: bool = False) -> ClockSession:
    """Store ``taps`` (dicts: seq, seat, kind, at, amount) and replay the session.

    A tap already stored under its sequence number is skipped when it is the same, and
    refused when it differs; a tap the clock cannot take (a move out of turn, time going
    back, a flag that has not fallen) refuses the whole batch: nothing is written.

    ``phone`` names the phone sending (its own random id): the first phone runs the
    clock, and another one is refused (:class:`OtherPhoneError`: it follows) unless it
    ``take_over`` the clock, after its user confirmed. No ``phone``: no such check.
    """
    if not isinstance(phone, str) or (phone and not PHONE_ID.fullmatch(phone)):
        raise ApplicationError(_("phone must be 8 to 40 letters, digits, \"-\" or \"_\"."),
                               field="phone")
    if not isinstance(take_over, bool):
        raise ApplicationError(_("take_over must be true or false."), field="take_over")
    if not isinstance(taps, list | tuple):
        raise ApplicationError(_("taps must be a list."), field="taps")
    if len(taps) > MAX_TAPS_PER_REQUEST:
        raise ApplicationError(_("At most %(most)d taps per request, not %(count)d.")
                               % {"most": MAX_TAPS_PER_REQUEST, "count": len(taps)},
                               field="taps")
    cleaned = [_clean(index, raw) for index, raw in enumerate(taps)]
    session = (ClockSession.objects.select_for_update(of=("self",))
               .select_related("pairing__round__tournament__club").get(pk=session.pk))
    ensure_may_use(actor=actor, link=link, pairing=session.pairing)
    if phone and session.runner != phone:
        if session.runner and not take_over:
            raise OtherPhoneError(_("This clock runs on another phone: this phone follows it "
                                    "until you take the clock over."))
        session.runner = phone
        session.save(update_fields=["runner"])
    game = session.pairing.round.tournament.game
    for index, clean in enumerate(cleaned):
        if clean["kind"] == TapKind.DRAW and not game_facts(game).draws_possible:
            raise ApplicationError(_("%(game)s has no draws: the clock cannot end this game "
                                     "drawn.") % {"game": game_label(game)},
                                   field=_field(index, "kind"))
    stored = {tap.sequence: tap for tap in session.taps.all()}
    new: dict[int, dict[str, Any]] = {}
    for index, clean in enumerate(cleaned):
        sequence = clean["sequence"]
        known = stored.get(sequence)
        if known is not None:
            if not _same(known, clean):
                raise ConflictError(_("Tap %(seq)d is already stored with other values (another "
                                      "phone runs this clock?).") % {"seq": sequence})
            continue
        if sequence in new and new[sequence] != clean:
            raise ApplicationError(_("Tap %(seq)d is sent twice with different values.")
                                   % {"seq": sequence}, field=_field(index, "seq"))
        new[sequence] = clean
    if len(stored) + len(new) > MAX_TAPS_PER_SESSION:
        raise ApplicationError(_("A clock keeps at most %(most)d taps.")
                               % {"most": MAX_TAPS_PER_SESSION}, field="taps")
    if not new:
        return session
    if session.confirmed_at is not None:
        raise ApplicationError(_("This game's result is confirmed: the clock takes no more "
                                 "taps."), field="taps")
    created = [ClockTap(session=session, **clean) for clean in new.values()]
    everything = {**stored, **{tap.sequence: tap for tap in created}}
    replayed = _replay(session, everything)
    ClockTap.objects.bulk_create(created)
    changed = [tap for tap in stored.values() if tap.sequence in replayed]
    for tap in changed:
        tap.used_ms, tap.left_ms = replayed[tap.sequence].used_ms, replayed[tap.sequence].left_ms
    if changed:
        ClockTap.objects.bulk_update(changed, ["used_ms", "left_ms"])
    session.save()
    return session


def _replay(session: ClockSession, taps: dict[int, ClockTap]) -> dict[int, TapOutcome]:
    """Run the contiguous taps 1, 2, ... through the clock; fill each tap's figures and the
    session's record and finish. A gap waits for the missing taps."""
    try:
        clock = GameClock(session_controls(session))
    except ClockError as error:
        raise ApplicationError(engine_error_message(error), field="setting") from None
    outcomes: dict[int, TapOutcome] = {}
    record: list[dict[str, int]] = []
    sequence = 1
    while sequence in taps:
        tap = taps[sequence]
        try:
            outcome = clock.apply(Tap(PureTapKind(tap.kind), tap.seat, tap.at_ms, tap.amount_ms))
        except ClockError as error:
            raise ApplicationError(_("Tap %(seq)d: %(problem)s")
                                   % {"seq": sequence, "problem": engine_error_message(error)},
                                   field="taps") from None
        tap.used_ms, tap.left_ms = outcome.used_ms, outcome.left_ms
        outcomes[sequence] = outcome
        if tap.kind == TapKind.MOVE and outcome.move:
            record.append({"side": tap.seat, "move": outcome.move, "used_ms": outcome.used_ms,
                           "left_ms": outcome.left_ms})
        elif clock.finished == "flag" and tap.kind in (TapKind.MOVE, TapKind.FLAG):
            record.append({"side": tap.seat, "move": clock.moves[tap.seat] + 1,
                           "used_ms": outcome.used_ms, "left_ms": 0, "flag": 1})
        if tap.kind == TapKind.START and session.started_at is None:
            session.started_at = timezone.now()
        sequence += 1
    session.record = record
    if clock.finished and not session.finish:
        session.finish = Finish(clock.finished)
        session.winner_side = None if clock.loser is None else 1 - clock.loser
        session.finished_at = timezone.now()
    return outcomes


def final_left_ms(session: ClockSession) -> list[int]:
    """Each side's time left when the session's clock stopped (its taps replayed)."""
    clock = GameClock(session_controls(session))
    for tap in session.taps.order_by("sequence"):
        try:
            clock.apply(Tap(PureTapKind(tap.kind), tap.seat, tap.at_ms, tap.amount_ms))
        except ClockError:
            break
    return list(clock.left)


def session_move_times(session: ClockSession) -> list[list[float]]:
    """The session's moves as ``Game.move_times``: [seconds used, seconds left] each (a
    flag's unfinished move is no move)."""
    return [[entry["used_ms"] / 1000, entry["left_ms"] / 1000] for entry in session.record
            if not entry.get("flag")]


@transaction.atomic
def session_agree(*, link: EntrantLink, session: ClockSession) -> ClockSession:
    """A player (through a private link) agrees with the result the clock pre-filled (a
    flag, a resignation or a draw agreed at the board)."""
    session = (ClockSession.objects.select_for_update(of=("self",))
               .select_related("pairing__round__tournament").get(pk=session.pk))
    ensure_may_use(actor=None, link=link, pairing=session.pairing)
    if not session.is_finished:
        raise ApplicationError(_("The game is not over on the clock."), field="finish")
    if link_side(link, session.pairing) == 0:
        session.agreed_a = True
    else:
        session.agreed_b = True
    session.save(update_fields=["agreed_a", "agreed_b"])
    if session.agreed_a and session.agreed_b and session.confirmed_at is None:
        try:
            with transaction.atomic():
                session = session_result_confirm(actor=BOTH_PLAYERS, session=session)
        except ApplicationError:
            pass  # an earlier game of the match waits for the director: this one with it
    return session


class BothPlayers(SystemActor):
    """The actor of a clock's result that both players agreed to on their phones."""

    username = "both players (clock)"

    def __str__(self) -> str:
        return "both players (clock)"


BOTH_PLAYERS = BothPlayers()


@transaction.atomic
def session_result_confirm(*, actor: Actor, session: ClockSession) -> ClockSession:
    """The director (or both players) confirms the clock's result: a flag, a resignation
    or a draw agreed at the board. The game is recorded through ``game_record`` in the
    order the clock played the match (earlier games first: each must be confirmed on the
    clock or already entered), and the clock's times are attached to it; a board whose
    result is already in keeps it (the clock never corrects a result), and the game
    already entered for this number only gets the times."""
    session = (ClockSession.objects.select_for_update(of=("self",))
               .select_related("pairing__round__tournament__club").get(pk=session.pk))
    pairing = session.pairing
    ensure_can_manage_club(actor, pairing.round.tournament.club)
    if not session.is_finished:
        raise ApplicationError(_("The game is not over on the clock: nothing to confirm."),
                               field="finish")
    if session.confirmed_at is not None:
        raise ApplicationError(_("This result is already confirmed."), field="confirmed_at")
    earlier = list(ClockSession.objects.filter(pairing=pairing, game_number__lt=session.game_number,
                                               confirmed_at__isnull=False)
                   .order_by("game_number"))
    entered = set(Game.objects.filter(pairing=pairing).values_list("number", flat=True))
    ready = entered | {other.game_number for other in earlier}
    if not set(range(1, session.game_number)) <= ready:
        raise ApplicationError(_("Confirm games 1 to %(before)d of this match on the clock "
                                 "first.") % {"before": session.game_number - 1},
                               field="game_number")
    session.confirmed_at, session.confirmed_by = timezone.now(), actor_user(actor)
    session.save(update_fields=["confirmed_at", "confirmed_by"])
    for confirmed in earlier:
        _record_game(actor, pairing, confirmed, times_for_entered=False)
    _record_game(actor, pairing, session, times_for_entered=True)
    return session


_TERMINATIONS = {Finish.FLAG: Termination.TIME_FORFEIT, Finish.RESIGN: Termination.NORMAL,
                 Finish.DRAW: Termination.NORMAL}


def _record_game(actor: Actor, pairing: Pairing, session: ClockSession, *,
                 times_for_entered: bool) -> None:
    """The confirmed ``session``'s game, recorded while the board waits for its result,
    with the clock's times attached (once: a game with times keeps them). A game already
    entered gets the times when ``times_for_entered``."""
    pairing.refresh_from_db()
    game = Game.objects.filter(pairing=pairing, number=session.game_number).first()
    if game is not None and not times_for_entered:
        return
    if game is None:
        if pairing.outcome != Outcome.PENDING \
                or pairing.games.count() != session.game_number - 1:
            return
        result = {0: "a", 1: "b", None: "draw"}[session.winner_side]
        game = game_record(actor=actor, pairing=pairing, result=result,
                           termination=_TERMINATIONS[Finish(session.finish)],
                           number=session.game_number).game
    if game.move_times is None and session.record:
        game_times_attach(actor=actor, game=game, move_times=session_move_times(session),
                          clock_left=[ms / 1000 for ms in final_left_ms(session)])
