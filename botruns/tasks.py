"""Celery tasks: thin wrappers that call the bot-tournament services.

A game's task is acknowledged late (after the game is recorded) and re-queued if its
worker dies; its time limits come from the run (``botruns.services._publish``). A copy
that finds another worker's live lease on its game asks again when the lease runs out; one
interrupted by a lost database connection asks again after a second.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task

from botruns import services as bot_tournaments

#: Times a copy asks again while another worker's lease is live (each after the lease's
#: time left: a lease lives only while its game runs, so this bounds nothing in practice).
MAX_LEASE_WAITS = 100


@shared_task(name="games.play_bot_game", bind=True, acks_late=True, reject_on_worker_lost=True,
             max_retries=MAX_LEASE_WAITS)
def play_bot_game_task(self: Any, pairing_id: int, number: int) -> str:
    played = bot_tournaments.bot_game_play(pairing_id, number)
    if played.retry_in is not None:  # another worker's lease, or a lost database connection
        raise self.retry(countdown=played.retry_in)
    return played.status


@shared_task(name="games.resend_stuck_bot_games")
def resend_stuck_bot_games_task() -> int:
    return bot_tournaments.bot_games_resend_stuck()
