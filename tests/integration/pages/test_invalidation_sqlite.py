"""The embedded default (SQLite) gets the same version triggers as PostgreSQL: a scratch
SQLite database migrated in a subprocess, then renames, membership changes, a round, a
result, a game deleted and the tournament's own row written in raw SQL bump the versions
of the tournaments that show them, and nothing else does."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

SCRIPT = """
import datetime as dt
from django.contrib.auth import get_user_model
from django.db import connection
from games.series.format import MatchScore
from matches.models import Game
from matches.services import results as ms
from players import services as ps
from players.models import Club, Player, TeamMembership
from tournaments import services as ts
from tournaments.models import Tournament

user = get_user_model().objects.create_user("org", password="pw")
club = Club.objects.create(name="Lite Club", slug="lite")
club.organizers.add(user)
other = Club.objects.create(name="Other Club", slug="other")
other.organizers.add(user)
people = [Player.objects.create(display_name=f"P{i}", club=club) for i in range(5)]
solo = ts.tournament_create(actor=user, club=club, name="Solo", game="kugamai",
                            format="round_robin")
for p in people[:2]:
    ts.entrant_register(actor=user, tournament=solo, player=p)
pairs = ts.tournament_create(actor=user, club=club, name="Pairs", game="kazambi-pairs",
                             format="round_robin")
team = ps.team_create(actor=user, name="T", club=club, members=people[2:4],
                      joined_on=dt.date(2020, 1, 1))
ts.entrant_register(actor=user, tournament=pairs, team=team)

def versions():
    return dict(Tournament.objects.values_list("name", "version"))

steps = []
def step(name, action):
    before = versions()
    action()
    after = versions()
    steps.append((name, sorted(k for k in after if after[k] > before[k])))

step("player renamed", lambda: ps.player_update(actor=user, player=people[0],
                                                display_name="P0 renamed"))
step("member renamed", lambda: ps.player_update(actor=user, player=people[2],
                                                display_name="P2 renamed"))
step("other field", lambda: Player.objects.filter(pk=people[0].pk).update(fide_id="9"))
step("member added", lambda: ps.team_add_member(actor=user, team=team, player=people[4]))
step("membership saved", lambda: TeamMembership.objects.filter(team=team).update(
    joined_on=dt.date(2019, 1, 1)))
step("team renamed", lambda: ps.team_update(actor=user, team=team, name="T2"))
step("club renamed", lambda: ps.club_update(actor=user, club=club, name="Lite Club 2"))
step("other club renamed", lambda: ps.club_update(actor=user, club=other, name="O2"))
solo = ts.tournament_start(actor=user, tournament=solo)
step("round paired", lambda: ts.round_pair_next(actor=user, tournament=solo, release=True))
board = solo.rounds.get().pairings.get()
step("result", lambda: ms.match_result_record(actor=user, pairing=board,
                                              score=MatchScore(1, 0, 0),
                                              expected_version=board.version))
step("game deleted", lambda: Game.objects.filter(pairing=board).delete())
step("tournament row", lambda: connection.cursor().execute(
    "UPDATE tournaments_tournament SET rounds_planned = 5 WHERE name = 'Pairs'"))
from pages.selectors import page_state
state = page_state("lite", solo.slug).state  # the page's own query, on SQLite
fresh = Tournament.objects.get(pk=solo.pk)
assert (state.version, state.saved_at) == (fresh.version, fresh.updated_at.isoformat())
import json
print(json.dumps(dict(steps)))
"""

EXPECTED = {
    "player renamed": ["Solo"], "member renamed": ["Pairs"], "other field": [],
    "member added": ["Pairs"], "membership saved": ["Pairs"], "team renamed": ["Pairs"],
    # a club's name and slug are read with the page's state: no tournament row is written
    "club renamed": [], "other club renamed": [],
    "round paired": ["Solo"], "result": ["Solo"], "game deleted": ["Solo"],
    "tournament row": ["Pairs"],
}


@pytest.mark.slow
def test_sqlite_triggers_bump_the_versions(tmp_path: Path) -> None:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings",
           "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "DEBUG": "true",
           "SECRET_KEY": "sqlite-trigger-test-" + "x" * 40,
           "CELERY_BROKER_URL": "memory://", "CACHE_URL": "locmemcache://",
           "VAR_DIR": str(tmp_path)}

    def manage(*args: str) -> str:
        done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-3000:]
        return done.stdout

    manage("migrate", "--noinput", "-v0")
    out = manage("shell", "-c", SCRIPT)
    assert json.loads(out.strip().splitlines()[-1]) == EXPECTED
