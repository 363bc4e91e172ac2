"""A game clock on a phone: one session per board and game, and every tap it sent.

Taps are idempotent by (session, sequence): a phone that was offline resends what it
queued, and a tap already stored is not stored twice. The server replays the taps
through the pure clock (games.clocks.control) and keeps each tap's time used and time
left; the per-move record is ``ClockSession.record``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from core.bounds import MAX_MATCH_GAMES
from games.clocks.control import MAX_ADDED_MS

#: The most taps one session keeps (a long game is a few hundred).
MAX_TAPS_PER_SESSION = 2000
#: The most taps one request may send.
MAX_TAPS_PER_REQUEST = 500


class TapKind(models.TextChoices):
    START = "start", _("start")
    MOVE = "move", _("move")
    PAUSE = "pause", _("pause")
    RESUME = "resume", _("resume")
    ADD_TIME = "add_time", _("add time")
    FLAG = "flag", _("flag")
    RESIGN = "resign", _("resign")
    DRAW = "draw", _("draw agreed")


class Finish(models.TextChoices):
    NONE = "", _("not finished")
    FLAG = "flag", _("flag fall")
    RESIGN = "resign", _("resignation")
    DRAW = "draw", _("draw agreed")


class ClockSession(models.Model):
    """The clock of game ``game_number`` of the match on ``pairing``; side 0 is entrant A."""

    pairing = models.ForeignKey("tournaments.Pairing", on_delete=models.CASCADE,
                                related_name="clock_sessions", verbose_name=_("pairing"))
    game_number = models.PositiveSmallIntegerField(_("game number"))
    setting = models.CharField(_("time control"), max_length=100)
    odds = models.CharField(_("time odds"), max_length=100, blank=True, help_text=_(
        "Side B's time control when it differs from side A's (empty: the same)."))
    opened_by_user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                       null=True, blank=True, related_name="+",
                                       verbose_name=_("opened by (organizer)"))
    opened_by_link = models.ForeignKey("playerlinks.EntrantLink", on_delete=models.SET_NULL,
                                       null=True, blank=True, related_name="clock_sessions",
                                       verbose_name=_("opened by (private link)"))
    follow_token = models.CharField(_("follow token"), max_length=43, unique=True,
                                    editable=False)
    runner = models.CharField(_("phone running the clock"), max_length=40, blank=True,
                              editable=False, help_text=_(
                                  "The phone whose taps the clock takes; another phone follows "
                                  "it until it takes the clock over."))
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    finish = models.CharField(_("finish"), max_length=8, choices=Finish.choices, blank=True,
                              default=Finish.NONE)
    winner_side = models.PositiveSmallIntegerField(_("winner side"), null=True, blank=True,
                                                   help_text=_("Empty for a draw."))
    record = models.JSONField(_("move times"), default=list, blank=True, help_text=_(
        "Per move: side, time used and time left (ms)."))
    agreed_a = models.BooleanField(_("side A agreed"), default=False)
    agreed_b = models.BooleanField(_("side B agreed"), default=False)
    confirmed_at = models.DateTimeField(_("result confirmed at"), null=True, blank=True)
    confirmed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                     null=True, blank=True, related_name="+",
                                     verbose_name=_("result confirmed by"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("clock session")
        verbose_name_plural = _("clock sessions")
        ordering = ["pairing", "game_number"]
        constraints = [
            models.UniqueConstraint(fields=["pairing", "game_number"],
                                    name="one_clock_per_board_game",
                                    violation_error_message=_(
                                        "This game of the board already has a clock.")),
            models.CheckConstraint(condition=Q(game_number__gte=1,
                                               game_number__lte=MAX_MATCH_GAMES),
                                   name="clock_game_number_range"),
            models.CheckConstraint(condition=Q(winner_side__isnull=True)
                                   | Q(winner_side__in=[0, 1]),
                                   name="clock_winner_side_0_or_1"),
            models.CheckConstraint(
                condition=Q(finish__in=["", Finish.DRAW], winner_side__isnull=True)
                | (Q(finish__in=[Finish.FLAG, Finish.RESIGN]) & Q(winner_side__isnull=False)),
                name="clock_finish_has_winner"),
            models.CheckConstraint(
                condition=Q(confirmed_at__isnull=True) | ~Q(finish=""),
                name="clock_confirmed_only_when_finished"),
        ]

    def __str__(self) -> str:
        return f"{self.pairing} · {self.game_number}"

    @property
    def is_finished(self) -> bool:
        return bool(self.finish)


class ClockTap(models.Model):
    session = models.ForeignKey(ClockSession, on_delete=models.CASCADE, related_name="taps",
                                verbose_name=_("clock session"))
    sequence = models.PositiveIntegerField(_("sequence number"))
    seat = models.PositiveSmallIntegerField(_("side"))
    kind = models.CharField(_("kind"), max_length=8, choices=TapKind.choices)
    at_ms = models.BigIntegerField(_("phone time (ms)"))
    amount_ms = models.PositiveIntegerField(_("time added (ms)"), default=0)
    used_ms = models.BigIntegerField(_("time used (ms)"), null=True, blank=True)
    left_ms = models.BigIntegerField(_("time left (ms)"), null=True, blank=True)
    received_at = models.DateTimeField(_("received at"), auto_now_add=True)

    class Meta:
        verbose_name = _("clock tap")
        verbose_name_plural = _("clock taps")
        ordering = ["session", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["session", "sequence"], name="one_tap_per_sequence"),
            models.CheckConstraint(condition=Q(sequence__gte=1,
                                               sequence__lte=MAX_TAPS_PER_SESSION),
                                   name="clock_tap_sequence_range"),
            models.CheckConstraint(condition=Q(seat__in=[0, 1]), name="clock_tap_seat_0_or_1"),
            models.CheckConstraint(condition=Q(amount_ms__lte=MAX_ADDED_MS),
                                   name="clock_tap_amount_range"),
            models.CheckConstraint(condition=Q(kind__in=TapKind.values), name="clock_tap_kind"),
        ]

    def __str__(self) -> str:
        return f"{self.session_id} #{self.sequence} {self.kind}"
