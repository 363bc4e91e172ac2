"""The games of a match: one row per game played on a pairing's board.

The matches services are the only writers of these rows (``tests/unit/test_layout.py``).
The table keeps its first name, ``games_game``: the model moved here from ``games``.
"""

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

    Games come in the order they were played: round, board, then ``number``. Games
    implied by a typed match score have ``order_recorded`` False: they are stored in a
    canonical order (draws, then alternating wins, the winner's deciding win last), and
    pages say the order was not recorded.
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
    forfeit_reason = models.CharField(
        max_length=1000, blank=True,
        help_text="Why a bot game was forfeited: the bot's fault, with the line that caused "
        "it (a crash, an illegal move, a timeout...).",
    )
    score_detail = models.JSONField(
        null=True, blank=True, help_text="Stolbiki column points and sums, from the record."
    )
    move_count = models.PositiveIntegerField(null=True, blank=True)
    clock_left = models.JSONField(
        null=True, blank=True, help_text="Seconds left on each seat's clock at the end."
    )
    played_at = models.DateTimeField()
    order_recorded = models.BooleanField(
        default=True,
        help_text="False for the games implied by a typed match score: who won how many "
        "is known, the order they were played in is not.",
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "games_game"
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
