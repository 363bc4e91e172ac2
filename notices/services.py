"""Notices: e-mails to players about their own boards and deadlines (the only writer of
Notice and NoticePreference), and a club's embed settings.

A notice is planned (a row made, its text rendered in the player's language) in one
transaction and sent by a Celery task after it commits. The row is unique per
``(kind, subject_key, player, digest)`` where the digest is of what the message tells,
so planning again changes nothing; the sending task claims the row (pending -> sending)
with one UPDATE, so two copies of a task never both send it.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.db.models import F
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.errors import ApplicationError
from games.series.format import MatchScore
from notices.models import EmbedSettings, Notice, NoticeKind, NoticePreference, NoticeStatus
from notices.origins import OriginError, normalise_origins
from playerlinks import events as link_events
from playerlinks.models import EntrantLink
from playerlinks.services import link_holders, link_token
from players.models import Club, Player
from players.permissions import Actor, ensure_can_manage_club
from reporting import events as report_events
from tournaments import events
from tournaments.lists import alphabetical_pairings
from tournaments.models import Entrant, Outcome, Pairing, Round, Tournament

log = logging.getLogger(__name__)

_OPT_OUT_SALT = "notices.opt-out"
LANGUAGE_CODES = [code for code, _name in settings.LANGUAGES]


# -- preferences and the opt-out link ----------------------------------------------------------


def opt_out_token(player: Player) -> str:
    """The signed token of ``player``'s opt-out link (no login needed; SECRET_KEY signs)."""
    return signing.dumps(player.pk, salt=_OPT_OUT_SALT, compress=False)


def player_from_opt_out_token(token: str) -> Player | None:
    if not isinstance(token, str) or len(token) > 200 or "\x00" in token:
        return None
    try:
        pk = signing.loads(token, salt=_OPT_OUT_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(pk, int) or isinstance(pk, bool):
        return None
    return Player.objects.filter(pk=pk).first()


def opt_out_url(player: Player) -> str:
    return settings.SITE_URL + reverse("notices:opt-out", args=[opt_out_token(player)])


@transaction.atomic
def preference_opt_out(*, token: str, opted_out: bool = True) -> Player:
    """Stop (or, with ``opted_out=False``, restart) e-mails to the player the signed token
    names: the link in every e-mail, no login."""
    player = player_from_opt_out_token(token)
    if player is None:
        raise ApplicationError(_("This link is not valid."), field="token")
    preference, _created = NoticePreference.objects.select_for_update().get_or_create(
        player=player)
    preference.opted_out = opted_out
    preference.save(update_fields=["opted_out", "updated_at"])
    return player


@transaction.atomic
def preference_update(*, actor: Actor, player: Player, language: str | None = None,
                      opted_out: bool | None = None) -> NoticePreference:
    """An organizer of the player's club sets their e-mail language or opt-out."""
    if player.club_id is None:
        raise ApplicationError(_("Only a club's players have notice settings."), field="player")
    ensure_can_manage_club(actor, player.club)
    if language is not None and language not in LANGUAGE_CODES:
        raise ApplicationError(_("Choose one of: %(languages)s.") % {
            "languages": ", ".join(LANGUAGE_CODES)}, field="language")
    if opted_out is not None and not isinstance(opted_out, bool):
        raise ApplicationError(_("Say yes or no."), field="opted_out")
    preference, _created = NoticePreference.objects.select_for_update().get_or_create(
        player=player)
    if language is not None:
        preference.language = language
    if opted_out is not None:
        preference.opted_out = opted_out
    preference.full_clean()
    preference.save()
    return preference


# -- embed settings ----------------------------------------------------------------------------


@transaction.atomic
def embed_settings_update(*, actor: Actor, club: Club, origins: Sequence[str]) -> EmbedSettings:
    """The origins that may frame ``club``'s embeds (replacing the old list)."""
    ensure_can_manage_club(actor, club)
    if isinstance(origins, str) or not isinstance(origins, (list, tuple)):
        raise ApplicationError(_("Give a list of origins."), field="origins")
    try:
        cleaned = normalise_origins(origins)
    except OriginError as error:
        raise ApplicationError(
            _("%(origin)s is not an origin like https://club.example.org (%(reason)s).")
            % {"origin": error.origin, "reason": error.reason}, field="origins") from None
    embed, _created = EmbedSettings.objects.select_for_update().get_or_create(club=club)
    embed.origins = cleaned
    embed.save()
    return embed


# -- planning notices --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Recipient:
    player: Player
    language: str


def recipients(players: Iterable[Player]) -> list[Recipient]:
    """Those of ``players`` who get e-mail: people with an address who did not opt out,
    each in their language (one query for the preferences)."""
    people = [p for p in players if p.email and not p.is_bot]
    prefs = {p.player_id: p for p in NoticePreference.objects.filter(
        player__in=[p.pk for p in people])}
    out = []
    seen: set[int] = set()
    for player in people:
        pref = prefs.get(player.pk)
        if (pref is not None and pref.opted_out) or player.pk in seen:
            continue
        seen.add(player.pk)
        out.append(Recipient(player, pref.language if pref else settings.LANGUAGE_CODE))
    return out


def digest_of(facts: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(facts, sort_keys=True, default=str).encode()).hexdigest()


def _when(moment: dt.datetime | None) -> str:
    if moment is None:
        return ""
    return formats.date_format(timezone.localtime(moment), "DATETIME_FORMAT")


def _page_url(name: str, *args: Any) -> str:
    return settings.SITE_URL + reverse(name, args=args)


def _plan(kind: str, tournament: Tournament, round_number: int | None, subject_key: str,
          recipient: Recipient, facts: dict[str, Any], template: str,
          subject: Any, context: dict[str, Any], *, changes_only: bool = False) -> int | None:
    """Make the notice row (rendered in the recipient's language) unless the same message
    exists; with ``changes_only``, also unless the player's latest notice of this kind and
    round tells the same. Returns the new row's id."""
    digest = digest_of({"kind": kind, **facts})
    player = recipient.player
    if changes_only:
        latest = (Notice.objects.filter(kind=kind, tournament=tournament,
                                        round_number=round_number, player=player)
                  .order_by("-created_at", "-id").values_list("digest", flat=True).first())
        if latest == digest:
            return None
    with translation.override(recipient.language):
        text = render_to_string(template, {
            **context, "player": player, "tournament": tournament,
            "opt_out_url": opt_out_url(player)})
        title = str(subject) % {"tournament": tournament.name, "round": round_number or ""}
    title = " ".join(title.split())  # one header line, whatever a name holds
    try:
        with transaction.atomic():
            notice = Notice.objects.create(
                kind=kind, tournament=tournament, round_number=round_number,
                subject_key=subject_key, player=player, email=player.email,
                language=recipient.language, digest=digest, subject=title[:200], body=text)
    except IntegrityError:
        return None  # this very message was planned before: never twice
    return notice.pk


def _queue(ids: list[int], subject_key: str | None = None) -> None:
    """Send the planned notices once their rows are committed, and any still pending of
    ``subject_key`` (planned by a task whose worker died before it queued them: the claim
    makes a second copy harmless)."""
    if subject_key is not None:
        ids = ids + list(Notice.objects.filter(subject_key=subject_key,
                                               status=NoticeStatus.PENDING)
                         .exclude(pk__in=ids).values_list("pk", flat=True))
    if not ids:
        return
    from notices.tasks import send_notice_task  # tasks import services: not at the top

    def send() -> None:
        for pk in ids:
            send_notice_task.delay(pk)

    transaction.on_commit(send)


def on_round_released(event: events.RoundReleased) -> None:
    """A released round's notices are planned after its transaction commits."""
    from notices.tasks import notify_round_task

    transaction.on_commit(lambda: notify_round_task.delay(event.round_id))


def on_claim_awaits_opponent(event: report_events.ClaimAwaitsOpponent) -> None:
    """A player reported their board: the opponent is asked to confirm, with the claim."""
    pairing = Pairing.objects.get(pk=event.pairing_id)
    notify_result_to_confirm(pairing, Entrant.objects.get(pk=event.opponent_id),
                             claim=(event.outcome, MatchScore(event.wins_a, event.wins_b,
                                                              event.draws)))


def on_check_in_opened(event: link_events.CheckInOpened) -> None:
    """Check-in opened: its notices are planned in the same transaction (sent after it)."""
    notify_check_in_open(Tournament.objects.get(pk=event.tournament_id), event.round_number)


@transaction.atomic
def notify_round_released(round_id: int) -> list[int]:
    """Each player of a released round gets their own board: the board, the opponent, who
    moves first, the time and the place; a player whose own board, opponent, colour and
    time are unchanged since their last notice of this round gets nothing. Returns the
    notices planned (sent after the commit)."""
    round_ = (Round.objects.select_related("tournament__club").filter(pk=round_id)
              .released().first())
    if round_ is None:
        return []
    tournament = round_.tournament
    listing = alphabetical_pairings(tournament, round_.number, public=True)
    if listing is None:
        return []
    rows = [row for row in listing["rows"]
            if row["player_id"] is not None and row["status"] != "absent"]
    players = Player.objects.in_bulk([row["player_id"] for row in rows])
    wanted = {r.player.pk: r for r in recipients(players.values())}
    ids = []
    round_url = _page_url("pages:tournament-round", tournament.club.slug, tournament.slug,
                          round_.number)
    for row in rows:
        recipient = wanted.get(row["player_id"])
        if recipient is None:
            continue
        with translation.override(settings.LANGUAGE_CODE):  # the digest: one language
            bye_code = str(row["bye"])
        facts = {"board": row["board"], "status": row["status"], "bye": bye_code,
                 "opponent": row["opponent"], "moves_first": row["moves_first"],
                 "team": row["team"], "starts_at": round_.starts_at,
                 "venue": tournament.venue}
        context = {**facts, "bye": row["bye"], "round": round_, "when": "", "url": round_url}
        with translation.override(recipient.language):
            context["when"] = _when(round_.starts_at)
        pk = _plan(NoticeKind.PAIRING, tournament, round_.number, f"round:{round_.pk}",
                   recipient, facts, "notices/email/pairing.txt",
                   gettext_lazy("%(tournament)s, round %(round)s: your board"), context,
                   changes_only=True)
        if pk is not None:
            ids.append(pk)
    _queue(ids, f"round:{round_.pk}")
    return ids


def _entrant_players(entrant: Entrant) -> list[Player]:
    return link_holders(entrant)


@transaction.atomic
def notify_check_in_open(tournament: Tournament, round_number: int) -> list[int]:
    """Check-in for round ``round_number`` opened: each player still in (a team's members)
    is told, once."""
    round_ = tournament.rounds.filter(number=round_number).first()
    starts_at = round_.starts_at if round_ is not None else None
    people: list[Player] = []
    for entrant in tournament.entrants.select_related("player", "team", "tournament"):
        if entrant.plays_in(round_number):
            people += _entrant_players(entrant)
    ids = []
    for recipient in recipients(people):
        with translation.override(recipient.language):
            when = _when(starts_at)
        facts = {"round": round_number, "starts_at": starts_at, "venue": tournament.venue}
        pk = _plan(NoticeKind.CHECK_IN, tournament, round_number,
                   f"checkin:{tournament.pk}:{round_number}", recipient, facts,
                   "notices/email/check_in.txt",
                   gettext_lazy("%(tournament)s, round %(round)s: check-in is open"),
                   {"round_number": round_number, "when": when, "venue": tournament.venue,
                    "url": _page_url("pages:tournament-detail", tournament.club.slug,
                                     tournament.slug)})
        if pk is not None:
            ids.append(pk)
    _queue(ids, f"checkin:{tournament.pk}:{round_number}")
    return ids


@transaction.atomic
def notify_result_to_confirm(pairing: Pairing, entrant: Entrant,
                             claim: tuple[str, MatchScore] | None = None) -> list[int]:
    """A result of ``pairing`` waits for ``entrant``'s confirmation: its player (a team's
    members) is told, once per result. ``claim`` (outcome, score): the opponent's report
    while the board is still open; each holder's own report page is linked."""
    pairing = Pairing.objects.select_related("round__tournament__club", "entrant_a__player",
                                             "entrant_a__team", "entrant_b__player",
                                             "entrant_b__team").get(pk=pairing.pk)
    if entrant.pk not in (pairing.entrant_a_id, pairing.entrant_b_id):
        raise ApplicationError(_("This entrant does not play on this board."), field="entrant")
    tournament = pairing.round.tournament
    opponent = pairing.entrant_b if entrant.pk == pairing.entrant_a_id else pairing.entrant_a
    claimed_outcome, claimed = claim or (pairing.outcome, MatchScore(
        pairing.wins_a, pairing.wins_b, pairing.draws))
    score = f"{claimed.wins_a + claimed.draws / 2:g}-{claimed.wins_b + claimed.draws / 2:g}"
    report_pages = {link.player_id: _page_url("reporting:report", link_token(link))
                    for link in EntrantLink.objects.live().filter(entrant=entrant)}
    ids = []
    for recipient in recipients(_entrant_players(entrant)):
        facts = {"pairing": pairing.pk, "outcome": claimed_outcome, "score": score,
                 "version": pairing.version}
        with translation.override(recipient.language):
            outcome = str(Outcome(claimed_outcome).label)
        pk = _plan(NoticeKind.RESULT_TO_CONFIRM, tournament, pairing.round.number,
                   f"confirm:{pairing.pk}", recipient, facts,
                   "notices/email/result_to_confirm.txt",
                   gettext_lazy("%(tournament)s, round %(round)s: please confirm your result"),
                   {"board": pairing.board, "round_number": pairing.round.number,
                    "opponent": opponent.name if opponent else "", "score": score,
                    "outcome": outcome,
                    "url": report_pages.get(recipient.player.pk) or _page_url(
                        "pages:tournament-round", tournament.club.slug, tournament.slug,
                        pairing.round.number)})
        if pk is not None:
            ids.append(pk)
    _queue(ids, f"confirm:{pairing.pk}")
    return ids


@transaction.atomic
def notify_lineup_deadline(tournament: Tournament, entrant: Entrant, round_number: int,
                           deadline: dt.datetime, captains: Sequence[Player]) -> list[int]:
    """A team's lineup for round ``round_number`` is due by ``deadline``: its captains are
    told, once per deadline."""
    if entrant.tournament_id != tournament.pk or entrant.team_id is None:
        raise ApplicationError(_("Lineups belong to the tournament's team entrants."),
                               field="entrant")
    if timezone.is_naive(deadline):
        raise ApplicationError(_("Give the deadline with its time zone."), field="deadline")
    ids = []
    for recipient in recipients(captains):
        with translation.override(recipient.language):
            when = _when(deadline)
        facts = {"entrant": entrant.pk, "round": round_number, "deadline": deadline}
        pk = _plan(NoticeKind.LINEUP_DEADLINE, tournament, round_number,
                   f"lineup:{entrant.pk}:{round_number}", recipient, facts,
                   "notices/email/lineup_deadline.txt",
                   gettext_lazy("%(tournament)s, round %(round)s: your team's lineup"),
                   {"team": entrant.name, "round_number": round_number, "when": when,
                    "url": _page_url("pages:tournament-detail", tournament.club.slug,
                                     tournament.slug)})
        if pk is not None:
            ids.append(pk)
    _queue(ids, f"lineup:{entrant.pk}:{round_number}")
    return ids


# -- sending -----------------------------------------------------------------------------------


class SendFailed(Exception):
    """The mail server refused or could not be reached: the task retries."""


def notice_claim(notice_id: int) -> Notice | None:
    """Take the notice for sending (pending or failed -> sending) in one UPDATE: None when
    another worker has it, or it was sent."""
    claimed = Notice.objects.filter(
        pk=notice_id, status__in=[NoticeStatus.PENDING, NoticeStatus.FAILED],
    ).update(status=NoticeStatus.SENDING, claimed_at=timezone.now(),
             attempts=F("attempts") + 1)
    if not claimed:
        return None
    return Notice.objects.select_related("player").get(pk=notice_id)


def notice_send(notice_id: int) -> str:
    """Send one claimed notice; ``"sent"``, or ``"skipped"`` (another worker has it, it
    was sent, or its player opted out since). Raises SendFailed for a retry."""
    notice = notice_claim(notice_id)
    if notice is None:
        return "skipped"
    if NoticePreference.objects.filter(player=notice.player_id, opted_out=True).exists():
        Notice.objects.filter(pk=notice.pk).update(status=NoticeStatus.GAVE_UP,
                                                   error="opted out before sending")
        return "skipped"
    message = EmailMessage(
        subject=notice.subject, body=notice.body, to=[notice.email],
        headers={"List-Unsubscribe": f"<{opt_out_url(notice.player)}>",
                 "Content-Language": notice.language,
                 "X-Notice-Id": str(notice.pk)})
    try:
        message.send()
    except Exception as error:  # smtplib.SMTPException, OSError, timeouts
        Notice.objects.filter(pk=notice.pk).update(status=NoticeStatus.FAILED,
                                                   error=f"{type(error).__name__}: {error}"[:2000])
        raise SendFailed(str(error)) from error
    Notice.objects.filter(pk=notice.pk).update(status=NoticeStatus.SENT,
                                               sent_at=timezone.now(), error="")
    return "sent"


def notices_mark_lost(*, older_than_seconds: float) -> int:
    """Notices claimed longer ago than this and still "being sent" (their worker died
    while talking to the mail server) become "unknown": the admin's log shows them for a
    deliberate resend. Returns how many."""
    cutoff = timezone.now() - dt.timedelta(seconds=older_than_seconds)
    return Notice.objects.filter(status=NoticeStatus.SENDING, claimed_at__lt=cutoff).update(
        status=NoticeStatus.UNKNOWN)


def notice_give_up(notice_id: int) -> None:
    Notice.objects.filter(pk=notice_id, status=NoticeStatus.FAILED).update(
        status=NoticeStatus.GAVE_UP)


@transaction.atomic
def notices_resend(*, actor: Actor, notices: Iterable[Notice]) -> int:
    """The admin's deliberate "send again" (a notice that failed, or whose worker was lost
    while sending): back to pending and queued. Returns how many."""
    ids = []
    for notice in notices:
        ensure_can_manage_club(actor, notice.tournament.club)
        if notice.status in (NoticeStatus.GAVE_UP, NoticeStatus.UNKNOWN, NoticeStatus.SENDING,
                             NoticeStatus.FAILED):
            ids.append(notice.pk)
    Notice.objects.filter(pk__in=ids).update(status=NoticeStatus.PENDING)
    _queue(ids)
    return len(ids)
