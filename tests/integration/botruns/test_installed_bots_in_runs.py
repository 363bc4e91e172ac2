"""Installed bots in bot tournaments, exactly as built-in ones: a fault (a crash, an
illegal move, a timeout) loses that game by forfeit with its reason on the game, the run
goes on, and a bot's info lines reach the game record and the API."""

from __future__ import annotations

from typing import Any

import pytest

from botruns import services as bot_tournaments
from botruns.models import BotGameTask
from core.errors import ApplicationError
from matches.models import Game
from matches.services.games import game_record
from tests.integration.installed_bots import check_installed_bots_played
from tournaments.models import Outcome, Pairing
from tournaments.services import round_pair_next

pytestmark = pytest.mark.django_db

def test_installed_bots_in_an_inline_knockout(make_event: Any, organizer: Any, api: Any,
                                              installed_bots_dir: Any) -> None:
    tournament = make_event(
        format="knockout", entrants=8, bots="random",
        installed={0: "chatty", 1: "crasher", 2: "illegal", 3: "sluggish"},
        match_format={"kind": "first_to", "games": 2, "max_games": 5})
    run = bot_tournaments.bot_tournament_start(actor=organizer, tournament=tournament,
                                               seed=5, move_seconds=1.0, inline=True)
    bot_tournaments.bot_run_inline(run)
    assert run.status == "finished", run.message
    assert not Pairing.objects.filter(round__tournament=tournament,
                                      outcome=Outcome.PENDING).exists()
    assert Game.objects.filter(pairing__round__tournament=tournament).count() == \
        BotGameTask.objects.filter(run=run).count()
    check_installed_bots_played(tournament, api)


def test_a_game_played_to_the_end_has_no_forfeit_reason(make_event: Any,
                                                        organizer: Any) -> None:
    tournament = make_event(entrants=2, match_format={"kind": "fixed", "games": 2})
    pairing = round_pair_next(actor=organizer, tournament=tournament, release=True).pairings.get()
    with pytest.raises(ApplicationError, match="has no forfeit reason"):
        game_record(actor=organizer, pairing=pairing, result="a", forfeit_reason="crash")
    assert not Game.objects.exists()
