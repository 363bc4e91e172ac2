"""Checks of bot tournaments with the installed test bots (tests/data/bots): inline and
on Celery workers alike."""

from __future__ import annotations

from typing import Any

from matches.models import Game

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
    lines are in its games' records, move by move, and kept from the API's anonymous
    readers."""
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
        body = api.get(f"/api/games/{game.pk}/").json()  # anonymous: no info lines
        assert "info" not in body["record"] and body["forfeit_reason"] == ""
        assert body["record"]["moves"] == game.record["moves"]
        page = api.get(f"/games/{game.pk}/")  # the viewer replays a record with info lines
        assert page.status_code == 200 and page.context["error"] == ""
        assert len(page.context["steps"]) == game.move_count + 1
