"""Public sign-up: an organizer opens it per tournament; people sign up, are accepted (at
once or by the organizer), waitlisted when the cap is reached, and move up in order."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from core.bounds import MAX_ENTRANTS
from players.models import FIRST_BIRTH_YEAR, Player, Sex
from tournaments.models import Entrant, Tournament

#: The longest name, note and message kept (a name is a player's display name).
MAX_NAME = 120
MAX_NOTE = 500
MAX_MESSAGE = 2000
MAX_RATING_CLAIM = 4000


class Acceptance(models.TextChoices):
    AUTO = "auto", _("Automatic")
    ORGANIZER = "organizer", _("By the organizer")


class SignUpStatus(models.TextChoices):
    PENDING = "pending", pgettext_lazy("sign-up status", "Pending")
    ACCEPTED = "accepted", pgettext_lazy("sign-up status", "Accepted")
    WAITLISTED = "waitlisted", pgettext_lazy("sign-up status", "On the waiting list")
    DECLINED = "declined", pgettext_lazy("sign-up status", "Declined")
    WITHDRAWN = "withdrawn", pgettext_lazy("sign-up status", "Withdrawn")


#: The statuses of a sign-up still in the running (one per person and tournament).
LIVE_STATUSES = (SignUpStatus.PENDING, SignUpStatus.ACCEPTED, SignUpStatus.WAITLISTED)

#: The entry fields an organizer may ask for, in the form's order.
ENTRY_FIELDS = ("birth_year", "sex", "federation", "email", "rating_claim", "note")


class SignUpSettings(models.Model):
    """A tournament's public sign-up: whether and when it is open, its cap, the waiting
    list, who accepts and which entry fields are asked."""

    tournament = models.OneToOneField(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE,
        related_name="signup_settings")
    is_open = models.BooleanField(
        _("open"), default=False,
        help_text=_("The sign-up page takes entries (between the opening and closing times, "
                    "when given)."))
    opens_at = models.DateTimeField(_("opens at"), null=True, blank=True)
    closes_at = models.DateTimeField(_("closes at"), null=True, blank=True)
    cap = models.PositiveIntegerField(
        _("cap"), null=True, blank=True,
        help_text=_("Most entrants (empty: as many as the format takes)."))
    waitlist = models.BooleanField(
        _("waiting list"), default=True,
        help_text=_("Once the cap is reached, later sign-ups wait in order for a place."))
    acceptance = models.CharField(
        _("acceptance"), max_length=12, choices=Acceptance.choices, default=Acceptance.AUTO)
    ask_birth_year = models.BooleanField(_("ask the birth year"), default=False)
    ask_sex = models.BooleanField(_("ask the sex"), default=False)
    ask_federation = models.BooleanField(_("ask the federation or town"), default=False)
    ask_email = models.BooleanField(_("ask the e-mail"), default=False)
    ask_rating_claim = models.BooleanField(_("ask a rating"), default=False)
    ask_note = models.BooleanField(_("ask a note"), default=False)
    message = models.TextField(
        _("message"), max_length=MAX_MESSAGE, blank=True,
        help_text=_("Shown above the sign-up form."))
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("sign-up settings")
        verbose_name_plural = _("sign-up settings")
        constraints = [
            models.CheckConstraint(
                condition=Q(opens_at__isnull=True) | Q(closes_at__isnull=True)
                | Q(closes_at__gt=F("opens_at")),
                name="signup_closes_after_opening",
                violation_error_message=_("The sign-up closes after it opens.")),
            models.CheckConstraint(
                condition=Q(cap__isnull=True) | (Q(cap__gte=1) & Q(cap__lte=MAX_ENTRANTS)),
                name="signup_cap_bounded",
                violation_error_message=_("The cap is from 1 to %(most)d.")
                % {"most": MAX_ENTRANTS}),
            models.CheckConstraint(condition=Q(acceptance__in=Acceptance.values),
                                   name="signup_acceptance_known"),
        ]

    def __str__(self) -> str:
        return str(self.tournament)

    def asks(self, name: str) -> bool:
        return bool(getattr(self, f"ask_{name}"))

    @property
    def asked(self) -> tuple[str, ...]:
        return tuple(name for name in ENTRY_FIELDS if self.asks(name))


class SignUp(models.Model):
    """One person's sign-up for one tournament, with what they entered."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE,
        related_name="signups")
    name = models.CharField(_("name"), max_length=MAX_NAME)
    folded_name = models.CharField(_("name for comparison"), max_length=MAX_NAME,
                                   editable=False)
    birth_year = models.PositiveSmallIntegerField(_("birth year"), null=True, blank=True)
    sex = models.CharField(_("sex"), max_length=1, choices=Sex.choices, blank=True)
    federation = models.CharField(_("federation or town"), max_length=3, blank=True)
    email = models.EmailField(_("e-mail"), blank=True)
    rating_claim = models.PositiveSmallIntegerField(_("rating given"), null=True, blank=True)
    note = models.TextField(_("note"), max_length=MAX_NOTE, blank=True)
    status = models.CharField(_("status"), max_length=12, choices=SignUpStatus.choices,
                              default=SignUpStatus.PENDING)
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.SET_NULL, null=True, blank=True,
        related_name="signups",
        help_text=_("The club's player this sign-up is (matched by name, or created on "
                    "acceptance)."))
    entrant = models.ForeignKey(
        Entrant, verbose_name=_("entrant"), on_delete=models.SET_NULL, null=True, blank=True,
        related_name="signups")
    nonce = models.CharField(_("nonce"), max_length=64, unique=True, editable=False)
    token_hash = models.CharField(_("token hash"), max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(_("signed up at"), auto_now_add=True)
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("decided by"), on_delete=models.SET_NULL,
        null=True, blank=True, related_name="+")

    class Meta:
        verbose_name = _("sign-up")
        verbose_name_plural = _("sign-ups")
        ordering = ["tournament", "created_at", "id"]
        indexes = [models.Index(fields=["tournament", "status", "created_at"])]
        constraints = [
            models.CheckConstraint(condition=Q(status__in=SignUpStatus.values),
                                   name="signup_status_known"),
            models.CheckConstraint(condition=~Q(name="") & ~Q(folded_name=""),
                                   name="signup_name_not_empty"),
            models.UniqueConstraint(
                fields=["tournament", "folded_name"], condition=Q(status__in=LIVE_STATUSES),
                name="signup_once_per_name",
                violation_error_message=_("This name has already signed up.")),
            models.UniqueConstraint(
                fields=["tournament", "player"],
                condition=Q(status__in=LIVE_STATUSES) & Q(player__isnull=False),
                name="signup_once_per_player",
                violation_error_message=_("This player has already signed up.")),
            models.CheckConstraint(
                condition=Q(entrant__isnull=True)
                | Q(status__in=[SignUpStatus.ACCEPTED, SignUpStatus.WITHDRAWN]),
                name="signup_entrant_only_when_accepted"),
            models.CheckConstraint(
                condition=Q(birth_year__isnull=True) | Q(birth_year__gte=FIRST_BIRTH_YEAR),
                name="signup_birth_year_plausible"),
            models.CheckConstraint(condition=Q(sex__in=["", *Sex.values]),
                                   name="signup_sex_known"),
            models.CheckConstraint(condition=Q(federation="") | Q(federation__regex=r"^[A-Z]{3}$"),
                                   name="signup_federation_three_letters"),
            models.CheckConstraint(
                condition=Q(rating_claim__isnull=True) | Q(rating_claim__lte=MAX_RATING_CLAIM),
                name="signup_rating_claim_bounded"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.tournament})"
