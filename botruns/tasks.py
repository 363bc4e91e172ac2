"""Celery tasks: thin wrappers that call the bot-tournament services."""

from __future__ import annotations

from celery import shared_task

from botruns import services as bot_tournaments


@shared_task(name="games.play_bot_game", acks_late=True, reject_on_worker_lost=True)
def play_bot_game_task(pairing_id: int, number: int) -> str:
    return bot_tournaments.bot_game_play(pairing_id, number).status


@shared_task(name="games.resend_stuck_bot_games")
def resend_stuck_bot_games_task() -> int:
    return bot_tournaments.bot_games_resend_stuck()
