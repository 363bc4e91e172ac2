"""The games of a match: one row per game played on a pairing's board.

The matches services are the only writers of these rows (``tests/unit/test_layout.py``).
The table keeps its first name, ``games_game``: the model moved here from ``games``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.bounds import MAX_MATCH_GAMES
from core.game_fields import GameNameField
from games.engines import ENGINE_NAMES


class Termination(models.TextChoices):
    NORMAL = "normal", _("Played to the end")
    TIME_FORFEIT = "time_forfeit", _("Time forfeit (flag fell)")
    FORFEIT = "forfeit", _("Forfeit")
    ADJUDICATED = "adjudicated", _("Adjudicated")


class Game(models.Model):
    """Game ``number`` (1-based) of the match on ``pairing``.

    Sides: 0 is the pairing's entrant A, 1 is entrant B. ``first_side`` is the side that
    moved first (Kugamai: that held the low doubles), alternating through the match.
    A stored ``record`` (docs/rules/records.md) lists side 0's seats first.

    Games come in the order they were played: round, board, then ``number``. Games
    implied by a typed match score have ``order_recorded`` False: they are stored in a
    canonical order (draws, then alternating wins, the winner's deciding win last), and
    pages say the order was not recorded.
    """

    pairing = models.ForeignKey(
        "tournaments.Pairing", on_delete=models.CASCADE, related_name="games",
        verbose_name=_("pairing"),
    )
    number = models.PositiveSmallIntegerField(_("number"))
    game = GameNameField(_("game"), max_length=32, names=ENGINE_NAMES)
    options = models.JSONField(_("options"), default=dict, blank=True)
    first_side = models.PositiveSmallIntegerField(_("first side"))
    deal_seed = models.BigIntegerField(_("deal seed"), null=True, blank=True)
    record = models.JSONField(_("record"), null=True, blank=True)
    winner_side = models.PositiveSmallIntegerField(_("winner side"), null=True, blank=True)
    termination = models.CharField(
        _("termination"), max_length=16, choices=Termination.choices,
        default=Termination.NORMAL,
    )
    forfeit_reason = models.CharField(
        _("forfeit reason"), max_length=1000, blank=True,
        help_text=_("Why a bot game was forfeited: the bot's fault, with the line that "
                    "caused it (a crash, an illegal move, a timeout...)."),
    )
    score_detail = models.JSONField(
        _("score detail"), null=True, blank=True,
        help_text=_("Stolbiki column points and sums, from the record."),
    )
    move_count = models.PositiveIntegerField(_("move count"), null=True, blank=True)
    clock_left = models.JSONField(
        _("clock left"), null=True, blank=True,
        help_text=_("Seconds left on each seat's clock at the end."),
    )
    move_times = models.JSONField(
        _("move times"), null=True, blank=True,
        help_text=_("Per move, in the order played: seconds used and seconds left on the "
                    "mover's clock (measured on the phone clock)."),
    )
    played_at = models.DateTimeField(_("played at"))
    order_recorded = models.BooleanField(
        _("order recorded"),
        default=True,
        help_text=_("False for the games implied by a typed match score: who won how many "
                    "is known, the order they were played in is not."),
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+", verbose_name=_("recorded by"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        db_table = "games_game"
        ordering = ["pairing", "number"]
        constraints = [
            models.UniqueConstraint(fields=["pairing", "number"], name="game_number_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="game_number_positive"),
            models.CheckConstraint(condition=Q(number__lte=MAX_MATCH_GAMES),
                                   name="game_number_bounded"),
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
        return gettext("%(pairing)s game %(number)d") % {"pairing": self.pairing,
                                                          "number": self.number}
