from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command

from botruns import selectors as bot_runs
from botruns import services as bot_tournaments
from botruns.models import BotGameTask
from core.errors import ApplicationError
from matches.models import Game
from players.models import Player
from tournaments.models import Outcome, Pairing, Status

pytestmark = pytest.mark.django_db


def results_of(tournament: Any) -> list[tuple[int, int, str, int, int, int]]:
    return list(
        Pairing.objects.filter(round__tournament=tournament)
        .order_by("round__number", "board")
        .values_list("round__number", "board", "outcome", "wins_a", "wins_b", "draws")
    )


def test_round_robin_of_bots_plays_to_the_end(make_event: Any, organizer: Any) -> None:
    tournament = make_event(entrants=5, bots="random",
                            match_format={"kind": "best_of", "games": 3})
    run = bot_tournaments.bot_tournament_start(actor=organizer, tournament=tournament,
                                               seed=7, inline=True)
    bot_tournaments.bot_run_inline(run)
    tournament.refresh_from_db()
    assert run.status == "finished"
    assert tournament.status == Status.FINISHED
    assert tournament.rounds.count() == 5
    assert not Pairing.objects.filter(round__tournament=tournament,
                                      outcome=Outcome.PENDING).exists()
    assert BotGameTask.objects.filter(run=run, done_at=None).count() == 0
    assert Game.objects.filter(pairing__round__tournament=tournament).count() == \
        BotGameTask.objects.filter(run=run).count()
    progress = bot_runs.bot_run_progress(run)
    assert progress.games_done == progress.games_total
    assert progress.rounds_done == progress.rounds_total == 5


def test_same_seed_same_results(make_event: Any, organizer: Any) -> None:
    outcomes = []
    for _ in range(2):
        tournament = make_event(format="knockout", entrants=8, bots="greedy",
                                match_format={"kind": "first_to", "games": 2, "max_games": 5})
        run = bot_tournaments.bot_tournament_start(actor=organizer, tournament=tournament,
                                                   seed=3, inline=True)
        bot_tournaments.bot_run_inline(run)
        assert run.status == "finished", run.message
        outcomes.append(results_of(tournament))
    assert outcomes[0] == outcomes[1]


def test_redelivered_game_is_not_recorded_twice(make_event: Any, organizer: Any) -> None:
    tournament = make_event(entrants=2, bots="random",
                            match_format={"kind": "fixed", "games": 2})
    run = bot_tournaments.bot_tournament_start(actor=organizer, tournament=tournament,
                                               seed=1, inline=True)
    task = BotGameTask.objects.get(run=run)
    first = bot_tournaments.bot_game_play(task.pairing_id, task.number)
    again = bot_tournaments.bot_game_play(task.pairing_id, task.number)
    assert (first.status, again.status) == ("recorded", "duplicate")
    assert Game.objects.filter(pairing_id=task.pairing_id, number=1).count() == 1


def test_only_bots_can_play(make_event: Any, organizer: Any) -> None:
    tournament = make_event(entrants=3)
    with pytest.raises(ApplicationError, match="all bots"):
        bot_tournaments.bot_tournament_start(actor=organizer, tournament=tournament)


def test_a_failing_bot_forfeits_and_the_tournament_goes_on(make_event: Any,
                                                          organizer: Any) -> None:
    tournament = make_event(entrants=2, bots="mcts",
                            match_format={"kind": "single", "games": 1})
    run = bot_tournaments.bot_tournament_start(actor=organizer, tournament=tournament,
                                               inline=True)
    # settings the checks refuse, in a row written behind the services' back mid-run
    Player.objects.filter(entries__tournament=tournament, entries__seed=1).update(
        bot_settings={"no_such_setting": 1})
    bot_tournaments.bot_run_inline(run)
    game = Game.objects.get(pairing__round__tournament=tournament)
    assert game.termination == "forfeit"
    assert run.status == "finished"


def test_command_runs_inline(make_event: Any, capsys: Any) -> None:
    tournament = make_event(entrants=4, bots="random")
    call_command("run_bot_tournament", str(tournament.pk), "--inline", "--seed", "2")
    assert "finished" in capsys.readouterr().out
