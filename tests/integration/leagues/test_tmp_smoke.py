from __future__ import annotations
import datetime as dt
from typing import Any
import pytest
from django.test import Client
from django.utils import timezone
from leagues.models import *  # noqa
from playerlinks import tokens
from playerlinks.lookup import link_key
from players.models import Player, Team

pytestmark = pytest.mark.django_db


def test_smoke(club_a: Any, organizer: Any) -> None:
    league = League.objects.create(name="L", slug="l", host=club_a, game="kugamai", boards=4)
    season = Season.objects.create(league=league, number=1, name="2027", status="running")
    div = Division.objects.create(season=season, name="First", system="team_round_robin")
    sts = []
    for n in (1, 2):
        team = Team.objects.create(club=club_a, name=f"Team {n}")
        squad = [Player.objects.create(display_name=f"T{n} p{i}", club=club_a) for i in range(5)]
        st = SeasonTeam.objects.create(season=season, division=div, team=team, captain=squad[0], seed=n)
        for i, p in enumerate(squad):
            RosterEntry.objects.create(season=season, season_team=st, player=p, order=i + 1, reserve=i == 4)
        sts.append(st)
    now = timezone.now()
    m = TeamMatch.objects.create(division=div, round_number=1, home=sts[0], away=sts[1], starts_at=now + dt.timedelta(days=3), venue="Hall", lineup_deadline=now + dt.timedelta(days=2))
    TeamMatch.objects.create(division=div, round_number=2, home=sts[1], away=sts[0])
    nonce = tokens.new_nonce(); token = tokens.token_for(link_key(), nonce)
    CaptainLink.objects.create(season_team=sts[0], player=sts[0].captain, nonce=nonce, token_hash=tokens.token_hash(token))
    c = Client()
    r = c.get(f"/league/captain/{token}/")
    open("/tmp/captmp/page.html", "w").write(r.content.decode())
    assert r.status_code == 200
    c.post(f"/league/captain/{token}/language/", {"language": "ru"})
    r = c.get(f"/league/captain/{token}/")
    open("/tmp/captmp/page_ru.html", "w").write(r.content.decode())
    c2 = Client(); c2.force_login(organizer)
    r = c2.get(f"/admin/leagues/season/{season.pk}/captain-links/")
    open("/tmp/captmp/admin.html", "w").write(r.content.decode())
    assert r.status_code == 200
    r = c2.get(f"/admin/leagues/season/{season.pk}/change/")
    assert r.status_code == 200, r.status_code
    assert "captain-links" in r.content.decode()
