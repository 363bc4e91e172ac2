"""The games of a match: one row per game played on a pairing's board."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from games.engines import ENGINE_NAMES


class Termination(models.TextChoices):
    NORMAL = "normal", "Played to the end"
    TIME_FORFEIT = "time_forfeit", "Time forfeit (flag fell)"
    FORFEIT = "forfeit", "Forfeit"
    ADJUDICATED = "adjudicated", "Adjudicated"


class Game(models.Model):
    """Game ``number`` (1-based) of the match on ``pairing``.

    Sides: 0 is the pairing's entrant A, 1 is entrant B. ``first_side`` is the side that
    moved first (Kugamai: that held the low doubles), alternating through the match.
    A stored ``record`` (GAMES.md section 5) lists side 0's seats first.
    """

    pairing = models.ForeignKey(
        "tournaments.Pairing", on_delete=models.CASCADE, related_name="games"
    )
    number = models.PositiveSmallIntegerField()
    game = models.CharField(max_length=32, choices=[(name, name) for name in ENGINE_NAMES])
    options = models.JSONField(default=dict, blank=True)
    first_side = models.PositiveSmallIntegerField()
    deal_seed = models.BigIntegerField(null=True, blank=True)
    record = models.JSONField(null=True, blank=True)
    winner_side = models.PositiveSmallIntegerField(null=True, blank=True)
    termination = models.CharField(
        max_length=16, choices=Termination.choices, default=Termination.NORMAL
    )
    score_detail = models.JSONField(
        null=True, blank=True, help_text="Stolbiki column points and sums, from the record."
    )
    move_count = models.PositiveIntegerField(null=True, blank=True)
    clock_left = models.JSONField(
        null=True, blank=True, help_text="Seconds left on each seat's clock at the end."
    )
    played_at = models.DateTimeField()
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pairing", "number"]
        constraints = [
            models.UniqueConstraint(fields=["pairing", "number"], name="game_number_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="game_number_positive"),
            models.CheckConstraint(condition=Q(first_side__in=(0, 1)), name="game_first_side"),
            models.CheckConstraint(
                condition=Q(winner_side__isnull=True) | Q(winner_side__in=(0, 1)),
                name="game_winner_side",
            ),
            models.CheckConstraint(
                condition=Q(termination__in=Termination.values), name="game_termination_known"
            ),
            models.CheckConstraint(
                condition=Q(game__in=ENGINE_NAMES), name="game_name_known"
            ),
        ]
        indexes = [models.Index(fields=["game", "played_at"])]

    def __str__(self) -> str:
        return f"{self.pairing} game {self.number}"


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
        constraints = [
            models.UniqueConstraint(fields=["pairing", "number"], name="bot_task_once"),
        ]
        indexes = [models.Index(fields=["run", "done_at", "sent_at"])]

    def __str__(self) -> str:
        return f"{self.pairing} game {self.number}"
