"""Lineup deadline reminders: a captain whose team has no lineup yet is e-mailed once when
the deadline is near (their link in it, in their language); not for a team whose lineup is
in, not after the deadline, not without an e-mail address."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core import mail

from leagues import services
from leagues.models import LeagueEvent
from leagues.tasks import lineup_reminders_task
from notices.models import NoticePreference
from players.models import Player
from tests.integration.leagues.test_captain_pages import World, _world

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(organizer: Any, club_a: Any, settings: Any) -> World:
    settings.MAILERS = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}
    settings.LEAGUE_LINEUP_REMINDER_HOURS = 24
    mail.outbox = []
    made = _world(organizer, club_a)
    for team in made.teams:
        captain = _captain(team)
        captain.email = f"captain{team.pk}@example.org"
        captain.save(update_fields=["email"])
    return made


def _captain(team: Any) -> Player:
    assert team is not None and team.captain is not None
    return team.captain  # type: ignore[no-any-return]


def _before_deadline(world: World, hours: float) -> dt.datetime:
    assert world.match.lineup_deadline is not None
    return world.match.lineup_deadline - dt.timedelta(hours=hours)


def test_each_captain_without_a_lineup_is_reminded_once(world: World) -> None:
    assert services.lineup_reminders_send(now=_before_deadline(world, 30)) == 0  # too early
    mine, theirs = world.match.home, world.match.away
    assert theirs is not None
    services.lineup_submit(actor=world.organizer, match=world.match, team=theirs,
                           boards=world.players[theirs.pk][:4])
    now = _before_deadline(world, 2)
    sent = services.lineup_reminders_send(now=now)
    round_one = {m.to[0] for m in mail.outbox}
    assert _captain(mine).email in round_one and _captain(theirs).email not in round_one
    assert sent == len(mail.outbox) >= 1
    message = next(m for m in mail.outbox if m.to == [_captain(world.mine).email])
    assert world.url in message.body  # the captain's own link
    assert "round 1" in message.subject and "Team" in message.body
    assert services.lineup_reminders_send(now=now) == 0  # once per match and team
    assert services.lineup_reminders_send(now=now + dt.timedelta(minutes=10)) == 0
    assert len(mail.outbox) == sent
    assert LeagueEvent.objects.filter(kind="lineup_reminder_sent").count() == sent


def test_not_after_the_deadline_and_not_without_an_address(world: World) -> None:
    assert services.lineup_reminders_send(now=_before_deadline(world, -1)) == 0
    for team in world.teams:
        _captain(team).email = ""
        _captain(team).save(update_fields=["email"])
    assert services.lineup_reminders_send(now=_before_deadline(world, 1)) == 0
    assert mail.outbox == []
    assert not LeagueEvent.objects.filter(kind="lineup_reminder_sent").exists()


def test_in_the_captains_language_and_by_the_beat_task(world: World, settings: Any) -> None:
    NoticePreference.objects.create(player=_captain(world.mine), language="ru")
    assert services.lineup_reminders_send(now=_before_deadline(world, 1)) >= 1
    message = next(m for m in mail.outbox if m.to == [_captain(world.mine).email])
    assert "Состав" in message.subject or "состав" in message.subject
    assert "league-lineup-reminders" in settings.CELERY_BEAT_SCHEDULE
    assert lineup_reminders_task.name == "leagues.lineup_reminders"
    assert lineup_reminders_task() == 0  # now: the deadline is two days off
