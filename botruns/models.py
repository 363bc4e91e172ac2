"""Bot tournaments played by Celery workers: the run, and one row per game sent.

The tables keep their first names (``games_botrun``, ``games_botgametask``).
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.text import format_lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.bounds import (
    MAX_GAME_SECONDS,
    MAX_MOVE_SECONDS,
    MAX_RESEND_SECONDS,
    MIN_GAME_SECONDS,
    MIN_RESEND_SECONDS,
)

#: The default longest game of a bot run (seconds).
DEFAULT_GAME_SECONDS = 900


class BotRunStatus(models.TextChoices):
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")
    FAILED = "failed", _("Failed")


class BotRun(models.Model):
    """A bot tournament being played by Celery workers."""

    tournament = models.OneToOneField(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="bot_run",
        verbose_name=_("tournament"),
    )
    seed = models.BigIntegerField(_("seed"), default=0,
                                  help_text=_("Deals and bots derive their seeds from it."))
    move_seconds = models.FloatField(
        _("seconds per move"), null=True, blank=True,
        help_text=format_lazy(_("A bot that thinks longer on one move forfeits (at most "
                                "{limit} s; left empty, {limit} s)."),
                              limit=f"{MAX_MOVE_SECONDS:g}"),
    )
    game_seconds = models.PositiveIntegerField(
        _("seconds per game"),
        default=DEFAULT_GAME_SECONDS,
        help_text=format_lazy(_("The longest one game may last: when it runs out, the side "
                                "to move loses on time ({low} to {high} s)."),
                              low=MIN_GAME_SECONDS, high=MAX_GAME_SECONDS),
    )
    game_timeout_seconds = models.PositiveIntegerField(
        _("seconds before a game is sent again"),
        default=300, help_text=_("A game sent this long ago and never started by a worker is "
                                 "sent again (its message was lost)."),
    )
    inline = models.BooleanField(
        _("inline"), default=False,
        help_text=_("Played in one process by the command, not sent to workers."),
    )
    status = models.CharField(
        _("status"), max_length=10, choices=BotRunStatus.choices, default=BotRunStatus.RUNNING
    )
    message = models.TextField(_("message"), blank=True)
    started_at = models.DateTimeField(_("started at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("bot run")
        verbose_name_plural = _("bot runs")
        db_table = "games_botrun"
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=BotRunStatus.values), name="bot_run_status_known"
            ),
            models.CheckConstraint(
                condition=Q(move_seconds__isnull=True)
                | (Q(move_seconds__gt=0) & Q(move_seconds__lte=MAX_MOVE_SECONDS)),
                name="bot_run_move_seconds_bounded",
            ),
            models.CheckConstraint(
                condition=Q(game_seconds__gte=MIN_GAME_SECONDS)
                & Q(game_seconds__lte=MAX_GAME_SECONDS),
                name="bot_run_game_seconds_bounded",
            ),
            models.CheckConstraint(
                condition=Q(game_timeout_seconds__gte=MIN_RESEND_SECONDS)
                & Q(game_timeout_seconds__lte=MAX_RESEND_SECONDS),
                name="bot_run_game_timeout_bounded",
            ),
        ]

    def __str__(self) -> str:
        return gettext("bot run of %(tournament)s") % {"tournament": self.tournament}


class BotGameTask(models.Model):
    """A game sent to the workers: one row per (pairing, game number), so a game is sent
    once and re-sent only by the stuck-game check."""

    run = models.ForeignKey(BotRun, on_delete=models.CASCADE, related_name="tasks",
                            verbose_name=_("bot run"))
    pairing = models.ForeignKey(
        "tournaments.Pairing", on_delete=models.CASCADE, related_name="bot_tasks",
        verbose_name=_("pairing"),
    )
    number = models.PositiveSmallIntegerField(_("game number"))
    #: None while the game waits for its club's share of the workers (BOT_GAMES_PER_CLUB).
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=1)
    done_at = models.DateTimeField(_("done at"), null=True, blank=True)
    #: The worker playing the game ("host:pid" of its pool process) holds a lease that the
    #: game renews while it runs; a lease that ran out means the game was lost.
    worker = models.CharField(_("worker"), max_length=200, blank=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    lease_until = models.DateTimeField(_("lease until"), null=True, blank=True)
    #: Times a started game was lost (its worker died, or it ran past its time limit).
    losses = models.PositiveSmallIntegerField(_("losses"), default=0)

    class Meta:
        verbose_name = _("bot game task")
        verbose_name_plural = _("bot game tasks")
        db_table = "games_botgametask"
        constraints = [
            models.UniqueConstraint(fields=["pairing", "number"], name="bot_task_once"),
        ]
        indexes = [models.Index(fields=["run", "done_at", "sent_at"])]

    def __str__(self) -> str:
        return gettext("%(pairing)s game %(number)d") % {"pairing": self.pairing,
                                                          "number": self.number}
