"""Players (people and bots), clubs and teams."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), max_length=120, unique=True)
    organizers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="organized_clubs", blank=True,
        verbose_name=_("organizers"),
    )
    rating_settings = models.JSONField(
        _("rating settings"), default=dict, blank=True,
        help_text=_("Overrides of the rating system defaults."),
    )
    open_entries = models.BooleanField(
        _("open entries"),
        default=False,
        help_text=_("Organizers of other clubs may enter this club's players and teams in "
                    "their tournaments, and its players in their teams."),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(Lower("name"), name="club_name_unique_ci"),
        ]

    def __str__(self) -> str:
        return self.name


class BotKind(models.TextChoices):
    """A built-in bot (its settings in ``bot_settings``) or ``installed``: a program
    installed in the workers' bots directory (``BOTS_DIR``), named by ``installed_bot``."""

    RANDOM = "random", _("Random")
    GREEDY = "greedy", _("Greedy heuristics")
    MCTS = "mcts", _("Monte Carlo tree search")
    SOLVER = "solver", _("Exact solver")
    INSTALLED = "installed", _("Installed program")


class Sex(models.TextChoices):
    """TRF's sex column: ``m`` or ``w``."""

    MALE = "m", _("Male")
    FEMALE = "w", _("Female")


class Title(models.TextChoices):
    """The titles a TRF player line carries (FIDE's, columns 11-13); none is blank."""

    GM = "GM", _("Grandmaster")
    IM = "IM", _("International Master")
    FM = "FM", _("FIDE Master")
    CM = "CM", _("Candidate Master")
    WGM = "WGM", _("Woman Grandmaster")
    WIM = "WIM", _("Woman International Master")
    WFM = "WFM", _("Woman FIDE Master")
    WCM = "WCM", _("Woman Candidate Master")


#: The earliest birth year a player may have; the latest is this year.
FIRST_BIRTH_YEAR = 1900


class Player(models.Model):
    display_name = models.CharField(_("display name"), max_length=120)
    club = models.ForeignKey(
        Club, on_delete=models.PROTECT, related_name="players", null=True, blank=True,
        verbose_name=_("club"),
    )
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        related_name="player",
        null=True,
        blank=True,
        verbose_name=_("user"),
    )
    is_bot = models.BooleanField(_("bot"), default=False)
    bot_kind = models.CharField(_("bot kind"), max_length=20, choices=BotKind.choices,
                                blank=True)
    bot_settings = models.JSONField(_("bot settings"), default=dict, blank=True)
    installed_bot = models.CharField(
        _("installed bot"), max_length=64, blank=True,
        help_text=_("An installed bot's name (its manifest's), for the kind 'Installed "
                    "program': a program in the bots directory (BOTS_DIR) of the web host "
                    "and of every worker."),
    )
    email = models.EmailField(
        _("e-mail"), blank=True,
        help_text=_("For this player's pairings and reminders; never shown on public pages."))
    fide_id = models.CharField(_("FIDE ID"), max_length=20, blank=True)
    birth_year = models.PositiveSmallIntegerField(_("birth year"), null=True, blank=True)
    sex = models.CharField(_("sex"), max_length=1, choices=Sex.choices, blank=True)
    federation = models.CharField(
        _("federation"), max_length=3, blank=True,
        help_text=_("Three capital letters: a FIDE federation (POL, GER) or a town's code."))
    title = models.CharField(_("title"), max_length=3, choices=Title.choices, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["display_name", "id"]
        indexes = [models.Index(fields=["club", "display_name"])]
        constraints = [
            models.CheckConstraint(
                condition=(Q(is_bot=True) & ~Q(bot_kind=""))
                | (Q(is_bot=False) & Q(bot_kind="")),
                name="player_bot_kind_iff_bot",
                violation_error_message=_("A bot needs a bot kind, and only a bot has one."),
            ),
            models.CheckConstraint(
                condition=(Q(bot_kind=BotKind.INSTALLED) & ~Q(installed_bot=""))
                | (~Q(bot_kind=BotKind.INSTALLED) & Q(installed_bot="")),
                name="player_installed_bot_iff_installed_kind",
                violation_error_message=_("An installed bot needs the name of the "
                                          "program, and only an installed bot has one."),
            ),
            models.CheckConstraint(
                condition=Q(is_bot=False) | Q(user__isnull=True),
                name="player_bot_has_no_user",
                violation_error_message=_("A bot cannot be linked to a user account."),
            ),
            models.CheckConstraint(
                condition=~Q(display_name=""), name="player_display_name_not_empty"
            ),
            models.CheckConstraint(
                condition=Q(birth_year__isnull=True) | Q(birth_year__gte=FIRST_BIRTH_YEAR),
                name="player_birth_year_plausible",
                violation_error_message=_("A birth year is 1900 or later."),
            ),
            models.CheckConstraint(condition=Q(sex__in=["", *Sex.values]),
                                   name="player_sex_known"),
            models.CheckConstraint(condition=Q(title__in=["", *Title.values]),
                                   name="player_title_known"),
            models.CheckConstraint(condition=Q(federation="") | Q(federation__regex=r"^[A-Z]{3}$"),
                                   name="player_federation_three_letters",
                                   violation_error_message=_("A federation is three capital "
                                                             "letters, for example POL.")),
        ]

    def __str__(self) -> str:
        if self.is_bot:
            return gettext("%(name)s (bot)") % {"name": self.display_name}
        return self.display_name


class Team(models.Model):
    name = models.CharField(_("name"), max_length=120)
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="teams",
                             verbose_name=_("club"))
    players = models.ManyToManyField(Player, through="TeamMembership", related_name="teams",
                                     verbose_name=_("players"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint("club", Lower("name"), name="team_name_unique_in_club"),
        ]

    def __str__(self) -> str:
        return self.name


class TeamMembership(models.Model):
    """A player's membership of a team from ``joined_on`` until ``left_on`` (open if null)."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="memberships",
                             verbose_name=_("team"))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="memberships",
                               verbose_name=_("player"))
    joined_on = models.DateField(_("joined on"))
    left_on = models.DateField(_("left on"), null=True, blank=True)

    class Meta:
        verbose_name = _("team membership")
        verbose_name_plural = _("team memberships")
        ordering = ["team", "joined_on"]
        constraints = [
            models.CheckConstraint(
                condition=Q(left_on__isnull=True) | Q(left_on__gte=models.F("joined_on")),
                name="membership_leaves_after_joining",
                violation_error_message=_("A member cannot leave before joining."),
            ),
            models.UniqueConstraint(
                fields=["team", "player"],
                condition=Q(left_on__isnull=True),
                name="one_open_membership_per_player_and_team",
                violation_error_message=_("This player is already a current member of the "
                                          "team."),
            ),
        ]

    def __str__(self) -> str:
        return gettext("%(player)s in %(team)s") % {"player": self.player, "team": self.team}
