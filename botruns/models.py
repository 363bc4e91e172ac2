"""Bot tournaments played by Celery workers: the run, and one row per game sent.

The tables keep their first names (``games_botrun``, ``games_botgametask``).
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q


class BotRunStatus(models.TextChoices):
    RUNNING = "running", "Running"
    FINISHED = "finished", "Finished"
    FAILED = "failed", "Failed"


class BotRun(models.Model):
    """A bot tournament being played by Celery workers."""

    tournament = models.OneToOneField(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="bot_run"
    )
    seed = models.BigIntegerField(default=0, help_text="Deals and bots derive their seeds from it.")
    move_seconds = models.FloatField(
        null=True, blank=True, help_text="A bot that thinks longer on one move forfeits."
    )
    game_timeout_seconds = models.PositiveIntegerField(
        default=300, help_text="A game not recorded this long after it was sent is sent again."
    )
    inline = models.BooleanField(
        default=False, help_text="Played in one process by the command, not sent to workers."
    )
    status = models.CharField(
        max_length=10, choices=BotRunStatus.choices, default=BotRunStatus.RUNNING
    )
    message = models.TextField(blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "games_botrun"
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=BotRunStatus.values), name="bot_run_status_known"
            ),
        ]

    def __str__(self) -> str:
        return f"bot run of {self.tournament}"


class BotGameTask(models.Model):
    """A game sent to the workers: one row per (pairing, game number), so a game is sent
    once and re-sent only by the stuck-game check."""

    run = models.ForeignKey(BotRun, on_delete=models.CASCADE, related_name="tasks")
    pairing = models.ForeignKey(
        "tournaments.Pairing", on_delete=models.CASCADE, related_name="bot_tasks"
    )
    number = models.PositiveSmallIntegerField()
    sent_at = models.DateTimeField()
    attempts = models.PositiveSmallIntegerField(default=1)
    done_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "games_botgametask"
        constraints = [
            models.UniqueConstraint(fields=["pairing", "number"], name="bot_task_once"),
        ]
        indexes = [models.Index(fields=["run", "done_at", "sent_at"])]

    def __str__(self) -> str:
        return f"{self.pairing} game {self.number}"
