"""What a bot prints as ``info`` is bounded, and only the club's organizers read it.

Before: every info line a bot sent (up to a megabyte a move) was stored with the game and
shown to anyone at ``GET /api/games/{id}/``; a bot that read a secret could publish it
there (tests/reliability/test_bot_reach.py shows it can no longer read one).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from games.bots.process.driver import INFO_CHARS_KEPT, INFO_LINES_KEPT
from games.series.referee import INFO_CHARS_PER_GAME, BotSpec
from matches.models import Game
from tests.unit.protocol.helpers import play

ROOT = Path(__file__).resolve().parents[2]

FLOOD = f'''
import random, sys
sys.path.insert(0, {str(ROOT)!r})
from games.bots.protocol.client import ClientBot, serve
from games.engines import get_engine


class Flood(ClientBot):
    name = "Flood"

    def new_game(self, game):
        self.rng = random.Random(game.seed)

    def choose(self, observation, go):
        for number in range(200):
            self.info(f"string {{number}} " + "x" * 5000)
        engine = get_engine(self.game.game)
        return str(self.rng.choice(engine.legal_moves(engine.from_dict(observation))))


sys.exit(serve(Flood()))
'''


def test_a_bot_s_info_lines_are_bounded_in_count_and_length(tmp_path: Path) -> None:
    program = tmp_path / "flood.py"
    program.write_text(FLOOD)
    tmp_path.chmod(0o755)  # a jailed bot of a root worker runs under a user id of its own
    outcome = play(BotSpec.program([sys.executable, str(program)]))
    assert outcome.termination == "normal", outcome.reason
    mine = [lines for lines in outcome.info if lines]
    assert len(mine) >= 2
    for lines in mine:
        assert len(lines) <= INFO_LINES_KEPT
        assert all(len(line) <= INFO_CHARS_KEPT for line in lines)
    assert sum(len(line) for lines in outcome.info for line in lines) <= INFO_CHARS_PER_GAME
    assert len(outcome.info) == len(outcome.record["moves"])  # a list per move, some empty


def test_info_lines_are_for_the_club_s_organizers(world: Any, as_user: Any, api: Any,
                                                  club_b: Any, admin_user: Any) -> None:
    info = [["depth 1 nodes 20 score 0", "string SECRET_KEY=abc"]]
    Game.objects.filter(pk=world.game.pk).update(
        record={"game": "kugamai", "moves": ["x"], "info": info})
    url = f"/api/games/{world.game.pk}/"
    body = api.get(url).json()
    assert "info" not in body["record"] and body["record"]["moves"] == ["x"]
    assert "info" not in as_user(club_b.organizers.get()).get(url).json()["record"]
    assert as_user(world.club.organizers.get()).get(url).json()["record"]["info"] == info
    assert as_user(admin_user).get(url).json()["record"]["info"] == info
