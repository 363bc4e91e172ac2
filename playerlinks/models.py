"""Private links: how a player acts for themselves at an event without an account."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from players.models import Player
from tournaments.models import Entrant


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
