"""Players' result reports: every submission kept, and each tournament's reporting settings."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from playerlinks.models import EntrantLink
from reporting.board import Kind
from tournaments.models import Entrant, Outcome, Pairing, Tournament


class ReportKind(models.TextChoices):
    SCORE = Kind.SCORE.value, _("Match score")
    GAMES = Kind.GAMES.value, _("Game by game")
    NO_SHOW = Kind.NO_SHOW.value, _("Opponent did not show")


CLAIMED_OUTCOMES = (Outcome.A_WINS, Outcome.B_WINS, Outcome.DRAW, Outcome.A_FORFEIT_WIN,
                    Outcome.B_FORFEIT_WIN)


class ResultReport(models.Model):
    """One submission from a player's private link about their board. Never changed or
    deleted: a side's latest submission is its claim, earlier ones stay as they were."""

    pairing = models.ForeignKey(Pairing, verbose_name=_("board"), on_delete=models.CASCADE,
                                related_name="reports")
    link = models.ForeignKey(EntrantLink, verbose_name=_("private link"),
                             on_delete=models.PROTECT, related_name="reports")
    entrant = models.ForeignKey(Entrant, verbose_name=_("side"), on_delete=models.PROTECT,
                                related_name="+")
    submitted_at = models.DateTimeField(_("submitted at"), auto_now_add=True)
    address = models.GenericIPAddressField(_("address"), null=True, blank=True)
    kind = models.CharField(_("kind"), max_length=16, choices=ReportKind.choices)
    outcome = models.CharField(_("claimed outcome"), max_length=20,
                               choices=[(o.value, o.label) for o in CLAIMED_OUTCOMES])
    wins_a = models.PositiveSmallIntegerField(_("games won by A"), default=0)
    wins_b = models.PositiveSmallIntegerField(_("games won by B"), default=0)
    draws = models.PositiveSmallIntegerField(_("drawn games"), default=0)
    winners = models.JSONField(_("game winners"), default=list, blank=True,
                               help_text=_("Game by game: a, b or draw, in order."))

    class Meta:
        verbose_name = _("result report")
        verbose_name_plural = _("result reports")
        ordering = ["pairing", "-submitted_at", "-id"]
        indexes = [models.Index(fields=["pairing", "entrant", "-id"],
                                name="report_latest_per_side")]
        constraints = [
            models.CheckConstraint(condition=Q(kind__in=[k.value for k in Kind]),
                                   name="report_kind_known"),
            models.CheckConstraint(
                condition=Q(outcome__in=CLAIMED_OUTCOMES), name="report_outcome_claimable"),
            models.CheckConstraint(
                condition=~Q(kind=Kind.NO_SHOW)
                | (Q(outcome__in=[Outcome.A_FORFEIT_WIN, Outcome.B_FORFEIT_WIN])
                   & Q(wins_a=0, wins_b=0, draws=0)),
                name="report_no_show_is_a_forfeit"),
            models.CheckConstraint(
                condition=Q(kind=Kind.NO_SHOW)
                | Q(outcome__in=[Outcome.A_WINS, Outcome.B_WINS, Outcome.DRAW]),
                name="report_played_outcome"),
            models.CheckConstraint(
                condition=Q(kind=Kind.GAMES) | Q(winners=[]), name="report_winners_of_games"),
        ]

    def __str__(self) -> str:
        return f"{self.pairing} · {self.entrant} · {self.submitted_at:%Y-%m-%d %H:%M}"

    @property
    def side(self) -> int:
        return 0 if self.entrant_id == self.pairing.entrant_a_id else 1

    @property
    def result(self) -> tuple[str, int, int, int]:
        return (self.outcome, self.wins_a, self.wins_b, self.draws)


class ReportingSettings(models.Model):
    """Whether players report results from their links, and whether agreed reports are
    recorded without the director (a tournament without a row: on, director confirms)."""

    tournament = models.OneToOneField(Tournament, verbose_name=_("tournament"),
                                      on_delete=models.CASCADE, related_name="reporting")
    enabled = models.BooleanField(_("players report results"), default=True)
    auto_confirm = models.BooleanField(
        _("record agreed results automatically"), default=False,
        help_text=_("When both sides report the same result it is recorded at once; "
                    "otherwise the director confirms agreed boards."))

    class Meta:
        verbose_name = _("reporting settings")
        verbose_name_plural = _("reporting settings")

    def __str__(self) -> str:
        return str(self.tournament)
