"""Installed bots in bot tournaments, exactly as built-in ones: a fault (a crash, an
illegal move, a timeout) loses that game by forfeit with its reason on the game, the run
goes on, and a bot's info lines reach the game record and the API."""

from __future__ import annotations

from typing import Any

import pytest

from botruns import services as bot_tournaments
from botruns.models import BotGameTask
from config.errors import ApplicationError
from matches.models import Game
from matches.services.games import game_record
from tournaments.models import Outcome, Pairing
from tournaments.services import round_pair_next

pytestmark = pytest.mark.django_db

FAULTY = {"crasher": ("forfeit", "the bot exited with status 3"),
          "illegal": ("forfeit", "played an illegal move"),
          "sluggish": ("time_forfeit", "within 1.00 s: no answer in time")}


def games_of(player_name: str, tournament: Any) -> list[tuple[Game, int]]:
    """The games ``player_name`` played, each with its side."""
    found = []
    for game in Game.objects.filter(pairing__round__tournament=tournament).select_related(
            "pairing__entrant_a__player", "pairing__entrant_b__player"):
        for side, entrant in enumerate((game.pairing.entrant_a, game.pairing.entrant_b)):
            player = entrant.player if entrant is not None else None
            if player is not None and player.display_name == player_name:
                found.append((game, side))
    return found


def check_installed_bots_played(tournament: Any, api: Any) -> None:
    """Every game of a faulty bot is a forfeit it lost, with its reason; chatty's info
    lines are in its games' records, move by move, and in the API's game detail."""
    for name, (termination, reason) in FAULTY.items():
        games = games_of(name, tournament)
        assert len(games) == 2, name  # a first-to-2 lost 0-2 in round 1
        for game, side in games:
            assert (game.termination, game.winner_side, game.record) == (
                termination, 1 - side, None), (name, game.forfeit_reason)
            assert f"({name})" in game.forfeit_reason and reason in game.forfeit_reason
            body = api.get(f"/api/games/{game.pk}/").json()
            assert body["forfeit_reason"] == game.forfeit_reason
    chatty = games_of("chatty", tournament)
    assert chatty
    for game, _side in chatty:
        assert game.termination == "normal" and game.forfeit_reason == ""
        assert game.record is not None
        info = game.record["info"]
        assert len(info) == len(game.record["moves"]) == game.move_count
        mine = [lines for number, lines in enumerate(info) if lines]
        assert mine and all(lines[0].startswith("depth 1 nodes ") for lines in mine)
        assert [int(lines[1].split()[-1]) for lines in mine] == list(range(1, len(mine) + 1))
        body = api.get(f"/api/games/{game.pk}/").json()
        assert body["record"]["info"] == info and body["forfeit_reason"] == ""
        page = api.get(f"/games/{game.pk}/")  # the viewer replays a record with info lines
        assert page.status_code == 200 and page.context["error"] == ""
        assert len(page.context["steps"]) == game.move_count + 1


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
    pairing = round_pair_next(actor=organizer, tournament=tournament).pairings.get()
    with pytest.raises(ApplicationError, match="has no forfeit reason"):
        game_record(actor=organizer, pairing=pairing, result="a", forfeit_reason="crash")
    assert not Game.objects.exists()
