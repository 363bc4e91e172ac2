"""Private links: how a player acts for themselves at an event without an account."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from players.models import Player
from tournaments.models import Entrant, Tournament


class EntrantLinkQuerySet(models.QuerySet["EntrantLink"]):
    def live(self) -> EntrantLinkQuerySet:
        return self.filter(revoked_at__isnull=True)


class EntrantLink(models.Model):
    """One person's private link to one entry: a player entrant has one, a partnership entrant
    one per member. Revoking stops it at once; re-issuing makes a new row with a new token."""

    entrant = models.ForeignKey(
        Entrant, verbose_name=_("entrant"), on_delete=models.CASCADE, related_name="links")
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="event_links",
        help_text=_("Who holds the link: the entrant's player, or one member of its team."))
    nonce = models.CharField(_("nonce"), max_length=64, unique=True, editable=False)
    token_hash = models.CharField(_("token hash"), max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("created by"), on_delete=models.SET_NULL,
        null=True, blank=True, related_name="+")
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    last_used_at = models.DateTimeField(_("last used at"), null=True, blank=True)

    objects = EntrantLinkQuerySet.as_manager()

    class Meta:
        verbose_name = _("private link")
        verbose_name_plural = _("private links")
        ordering = ["entrant", "player", "-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["entrant", "player"], condition=Q(revoked_at__isnull=True),
                name="one_live_link_per_entrant_player",
                violation_error_message=_("This player already has a live link to this entry."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.entrant.tournament})"

    @property
    def is_live(self) -> bool:
        return self.revoked_at is None


class LinkSettings(models.Model):
    """A tournament's settings for players at the event (one row, made when first changed)."""

    tournament = models.OneToOneField(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE,
        related_name="link_settings")
    check_in_every_round = models.BooleanField(
        _("check in before every round"), default=False,
        help_text=_("Off: players check in once, before round 1. On: before each round."))

    class Meta:
        verbose_name = _("players' link settings")
        verbose_name_plural = _("players' link settings")

    def __str__(self) -> str:
        return str(self.tournament)


class CheckInWindow(models.Model):
    """When players may check in for a round. Closing it makes those not checked in absent
    for that round."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE,
        related_name="check_in_windows")
    round_number = models.PositiveSmallIntegerField(_("round number"))
    opens_at = models.DateTimeField(_("opens at"))
    closes_at = models.DateTimeField(_("closes at"), null=True, blank=True,
                                     help_text=_("When it is planned to close (told to players)."))
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("opened by"), on_delete=models.SET_NULL,
        null=True, blank=True, related_name="+")

    class Meta:
        verbose_name = _("check-in window")
        verbose_name_plural = _("check-in windows")
        ordering = ["tournament", "round_number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "round_number"],
                                    name="check_in_window_once_per_round"),
            models.CheckConstraint(condition=Q(round_number__gte=1) & Q(round_number__lte=999),
                                   name="check_in_window_round_positive"),
            models.CheckConstraint(
                condition=Q(closes_at__isnull=True) | Q(closes_at__gte=models.F("opens_at")),
                name="check_in_window_closes_after_opening"),
            models.CheckConstraint(
                condition=Q(closed_at__isnull=True) | Q(closed_at__gte=models.F("opens_at")),
                name="check_in_window_closed_after_opening"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} R{self.round_number}"

    @property
    def is_open(self) -> bool:
        return self.closed_at is None


class CheckInMethod(models.TextChoices):
    LINK = "link", _("private link")
    KIOSK = "kiosk", _("kiosk")
    DIRECTOR = "director", _("director")


class CheckIn(models.Model):
    """An entrant present for a round."""

    entrant = models.ForeignKey(
        Entrant, verbose_name=_("entrant"), on_delete=models.CASCADE, related_name="check_ins")
    round_number = models.PositiveSmallIntegerField(_("round number"))
    at = models.DateTimeField(_("at"), auto_now_add=True)
    method = models.CharField(_("method"), max_length=10, choices=CheckInMethod.choices)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("by"), on_delete=models.SET_NULL,
        null=True, blank=True, related_name="+")
    link = models.ForeignKey(
        EntrantLink, verbose_name=_("private link"), on_delete=models.SET_NULL, null=True,
        blank=True, related_name="+")

    class Meta:
        verbose_name = _("check-in")
        verbose_name_plural = _("check-ins")
        ordering = ["round_number", "at"]
        constraints = [
            models.UniqueConstraint(fields=["entrant", "round_number"],
                                    name="check_in_once_per_entrant_round"),
            models.CheckConstraint(condition=Q(method__in=CheckInMethod.values),
                                   name="check_in_method_known"),
            models.CheckConstraint(condition=Q(round_number__gte=1),
                                   name="check_in_round_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.entrant} R{self.round_number}"
