"""Lineup deadline reminders: each captain whose team has no lineup yet for a match whose
deadline is near is e-mailed once (their captain's link in it), in their language."""

from __future__ import annotations

import datetime as dt
import logging

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.template.loader import render_to_string
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _

from leagues.captain_selectors import link_path
from leagues.history import EventKind, record
from leagues.links import captain_link_token
from leagues.models import (
    CaptainLink,
    LeagueEvent,
    Lineup,
    MatchBoard,
    SeasonStatus,
    SeasonTeam,
    TeamMatch,
)
from notices.services import opt_out_url, recipients

log = logging.getLogger(__name__)


def reminder_window() -> dt.timedelta:
    return dt.timedelta(hours=float(getattr(settings, "LEAGUE_LINEUP_REMINDER_HOURS", 24)))


def _due_matches(now: dt.datetime) -> list[TeamMatch]:
    """Scheduled, unpaired, not forfeited matches of running seasons whose lineup
    deadline falls within the reminder window from ``now``."""
    return list(TeamMatch.objects.filter(
        division__season__status=SeasonStatus.RUNNING, forfeit="", away__isnull=False,
        starts_at__isnull=False, lineup_deadline__gt=now,
        lineup_deadline__lte=now + reminder_window(),
    ).exclude(Exists(MatchBoard.objects.filter(match=OuterRef("pk"))))
        .select_related("division__season__league", "home__team", "home__captain",
                        "away__team", "away__captain").order_by("lineup_deadline", "pk"))


def _reminded(match: TeamMatch, team: SeasonTeam) -> bool:
    return LeagueEvent.objects.filter(kind=EventKind.LINEUP_REMINDER_SENT,
                                      data__match=match.pk, data__team_id=team.pk).exists()


def _message(match: TeamMatch, team: SeasonTeam, language: str) -> EmailMessage:
    captain = team.captain
    assert captain is not None
    link = CaptainLink.objects.live().filter(season_team=team, player=captain).first()
    # the console mailer prints whole messages to the worker's log, past the log masking
    backend = str(settings.MAILERS.get("default", {}).get("BACKEND", ""))
    printed = backend.endswith(".console.EmailBackend")
    url = (settings.SITE_URL + link_path(captain_link_token(link))
           if link is not None and not printed else "")
    league = match.division.season.league
    opponent = match.away if team.pk == match.home_id else match.home
    assert opponent is not None and match.lineup_deadline is not None
    with translation.override(language):
        when = formats.date_format(timezone.localtime(match.lineup_deadline),
                                   "DATETIME_FORMAT")
        body = render_to_string("leagues/email/lineup_reminder.txt", {
            "captain": captain, "team": team.team.name, "opponent": opponent.team.name,
            "league": league.name, "round": match.round_number, "when": when, "url": url,
            "opt_out_url": opt_out_url(captain)})
        subject = _("%(league)s, round %(round)s: your team's lineup is due") % {
            "league": league.name, "round": match.round_number}
    return EmailMessage(subject=" ".join(subject.split())[:200], body=body,
                        to=[captain.email],
                        headers={"List-Unsubscribe": f"<{opt_out_url(captain)}>",
                                 "Content-Language": language})


def lineup_reminders_send(*, now: dt.datetime | None = None) -> int:
    """E-mail the captain of every team without a lineup for a match whose deadline is
    within ``LEAGUE_LINEUP_REMINDER_HOURS``: once per match and team (a LeagueEvent
    "lineup_reminder_sent" records it). Captains without an e-mail address, bots and those
    who opted out of e-mails are skipped. Returns how many were sent."""
    now = now or timezone.now()
    sent = 0
    for match in _due_matches(now):
        assert match.away is not None
        for team in (match.home, match.away):
            if team.captain is None:
                continue
            found = recipients([team.captain])
            if not found:
                continue
            with transaction.atomic():
                TeamMatch.objects.select_for_update().filter(pk=match.pk).first()
                if (_reminded(match, team)
                        or Lineup.objects.filter(match=match, team=team).exists()):
                    continue
                try:
                    _message(match, team, found[0].language).send()
                except Exception:  # smtplib.SMTPException, OSError: tried again next run
                    log.exception("lineup reminder for match %s, team %s failed",
                                  match.pk, team.pk)
                    continue
                record(match.division.season.league, EventKind.LINEUP_REMINDER_SENT,
                       season=match.division.season, name="reminders", match=match.pk,
                       team_id=team.pk, team=team.team.name, round=match.round_number,
                       home=match.home.team.name, away=match.away.team.name)
                sent += 1
    return sent
