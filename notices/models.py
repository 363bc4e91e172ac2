"""What was sent to whom (Notice), each player's language and opt-out (NoticePreference),
and where a club's embeds may be framed (EmbedSettings)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from players.models import Club, Player
from tournaments.models import Tournament


class NoticePreference(models.Model):
    """A player's language for e-mails and whether they want none (the opt-out link of
    every e-mail sets it without a login)."""

    player = models.OneToOneField(
        Player, verbose_name=_("player"), on_delete=models.CASCADE,
        related_name="notice_preference")
    language = models.CharField(_("language"), max_length=10, choices=settings.LANGUAGES,
                                default=settings.LANGUAGE_CODE)
    opted_out = models.BooleanField(_("opted out"), default=False,
                                    help_text=_("Sends this player no e-mail."))
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("notice preference")
        verbose_name_plural = _("notice preferences")
        constraints = [
            models.CheckConstraint(
                condition=Q(language__in=[code for code, _name in settings.LANGUAGES]),
                name="notice_preference_language_known"),
        ]

    def __str__(self) -> str:
        return str(self.player)


class NoticeKind(models.TextChoices):
    PAIRING = "pairing", _("Pairing")
    CHECK_IN = "check_in", _("Check-in open")
    RESULT_TO_CONFIRM = "result_to_confirm", _("Result to confirm")
    LINEUP_DEADLINE = "lineup_deadline", _("Lineup deadline")


class NoticeStatus(models.TextChoices):
    PENDING = "pending", _("Waiting to be sent")
    SENDING = "sending", _("Being sent")
    SENT = "sent", _("Sent")
    FAILED = "failed", _("Failed (retrying)")
    GAVE_UP = "gave_up", _("Failed")
    UNKNOWN = "unknown", _("Unknown (worker lost while sending)")


class Notice(models.Model):
    """One e-mail to one player about one thing. The row is made before sending and
    claimed (pending -> sending) by one worker only, so a message is never sent twice:
    ``(kind, subject, player, digest)`` is unique, and the digest is of what it tells."""

    kind = models.CharField(_("kind"), max_length=20, choices=NoticeKind.choices)
    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE,
        related_name="notices")
    round_number = models.PositiveSmallIntegerField(_("round"), null=True, blank=True)
    subject_key = models.CharField(
        _("about"), max_length=80,
        help_text=_("What it is about: a round's release, a pairing, a deadline."))
    player = models.ForeignKey(Player, verbose_name=_("player"), on_delete=models.CASCADE,
                               related_name="notices")
    email = models.EmailField(_("e-mail"), max_length=254)
    language = models.CharField(_("language"), max_length=10)
    digest = models.CharField(_("digest"), max_length=64)
    subject = models.CharField(_("subject"), max_length=200)
    body = models.TextField(_("body"))
    status = models.CharField(_("status"), max_length=10, choices=NoticeStatus.choices,
                              default=NoticeStatus.PENDING)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    error = models.TextField(_("last error"), blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    claimed_at = models.DateTimeField(_("claimed at"), null=True, blank=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)

    class Meta:
        verbose_name = _("notice")
        verbose_name_plural = _("notices")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["kind", "subject_key", "player", "digest"],
                                    name="notice_once_per_content"),
            models.CheckConstraint(condition=Q(kind__in=NoticeKind.values),
                                   name="notice_kind_known"),
            models.CheckConstraint(condition=Q(status__in=NoticeStatus.values),
                                   name="notice_status_known"),
            models.CheckConstraint(condition=~Q(status=NoticeStatus.SENT)
                                   | Q(sent_at__isnull=False), name="notice_sent_has_time"),
        ]
        indexes = [models.Index(fields=["tournament", "kind", "round_number", "player"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.player} <{self.email}>"


class EmbedSettings(models.Model):
    """The origins (scheme://host[:port]) allowed to frame a club's embeds; none: no
    site may frame them."""

    club = models.OneToOneField(Club, verbose_name=_("club"), on_delete=models.CASCADE,
                                related_name="embed_settings")
    origins = models.JSONField(
        _("allowed origins"), default=list, blank=True,
        help_text=_("The sites that may show the club's embeds, one origin each, "
                    "such as https://club.example.org."))
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("embed settings")
        verbose_name_plural = _("embed settings")

    def __str__(self) -> str:
        return str(self.club)
