"""A recorded game's analysis: every move annotated by games.analysis, run by a worker."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from matches.models import Game


class AnalysisStatus(models.TextChoices):
    QUEUED = "queued", _("queued")
    RUNNING = "running", _("running")
    DONE = "done", _("done")
    PARTIAL = "partial", _("partial")  # stopped by the per-game time cap
    FAILED = "failed", _("failed")


class GameAnalysis(models.Model):
    """One analysis per game. ``result`` is :meth:`games.analysis.GameReport.as_dict`
    once ``status`` is done; ``moves_done`` of ``moves_total`` is its progress."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="analysis")
    status = models.CharField(
        max_length=8, choices=AnalysisStatus.choices, default=AnalysisStatus.QUEUED
    )
    iterations = models.PositiveIntegerField()
    seed = models.BigIntegerField(default=0)
    moves_done = models.PositiveIntegerField(default=0)
    moves_total = models.PositiveIntegerField(default=0)
    result = models.JSONField(null=True, blank=True)
    message = models.TextField(blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("game analysis")
        verbose_name_plural = _("game analyses")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(moves_done__lte=models.F("moves_total")),
                name="analysis_progress_within_total",
            ),
        ]

    def __str__(self) -> str:
        return f"analysis of {self.game_id} ({self.status})"
