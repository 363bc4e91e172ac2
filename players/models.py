"""Players (people and bots), clubs and teams."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower


class Club(models.Model):
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=120, unique=True)
    organizers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="organized_clubs", blank=True
    )
    rating_settings = models.JSONField(
        default=dict, blank=True, help_text="Overrides of the rating system defaults."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(Lower("name"), name="club_name_unique_ci"),
        ]

    def __str__(self) -> str:
        return self.name


class BotKind(models.TextChoices):
    """A built-in bot (its settings in ``bot_settings``) or ``installed``: a program
    installed in the workers' bots directory (``BOTS_DIR``), named by ``installed_bot``."""

    RANDOM = "random", "Random"
    GREEDY = "greedy", "Greedy heuristics"
    MCTS = "mcts", "Monte Carlo tree search"
    SOLVER = "solver", "Exact solver"
    INSTALLED = "installed", "Installed program"


class Player(models.Model):
    display_name = models.CharField(max_length=120)
    club = models.ForeignKey(
        Club, on_delete=models.PROTECT, related_name="players", null=True, blank=True
    )
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        related_name="player",
        null=True,
        blank=True,
    )
    is_bot = models.BooleanField(default=False)
    bot_kind = models.CharField(max_length=20, choices=BotKind.choices, blank=True)
    bot_settings = models.JSONField(default=dict, blank=True)
    installed_bot = models.CharField(
        max_length=64, blank=True,
        help_text="An installed bot's name (its manifest's), for the kind 'Installed "
        "program': a program in the bots directory (BOTS_DIR) of the web host and of "
        "every worker.",
    )
    fide_id = models.CharField(max_length=20, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["display_name", "id"]
        indexes = [models.Index(fields=["club", "display_name"])]
        constraints = [
            models.CheckConstraint(
                condition=(Q(is_bot=True) & ~Q(bot_kind=""))
                | (Q(is_bot=False) & Q(bot_kind="")),
                name="player_bot_kind_iff_bot",
                violation_error_message="A bot needs a bot kind, and only a bot has one.",
            ),
            models.CheckConstraint(
                condition=(Q(bot_kind=BotKind.INSTALLED) & ~Q(installed_bot=""))
                | (~Q(bot_kind=BotKind.INSTALLED) & Q(installed_bot="")),
                name="player_installed_bot_iff_installed_kind",
                violation_error_message="An installed bot needs the name of the program, "
                "and only an installed bot has one.",
            ),
            models.CheckConstraint(
                condition=Q(is_bot=False) | Q(user__isnull=True),
                name="player_bot_has_no_user",
                violation_error_message="A bot cannot be linked to a user account.",
            ),
            models.CheckConstraint(
                condition=~Q(display_name=""), name="player_display_name_not_empty"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.display_name} (bot)" if self.is_bot else self.display_name


class Team(models.Model):
    name = models.CharField(max_length=120)
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="teams")
    players = models.ManyToManyField(Player, through="TeamMembership", related_name="teams")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint("club", Lower("name"), name="team_name_unique_in_club"),
        ]

    def __str__(self) -> str:
        return self.name


class TeamMembership(models.Model):
    """A player's membership of a team from ``joined_on`` until ``left_on`` (open if null)."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="memberships")
    joined_on = models.DateField()
    left_on = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["team", "joined_on"]
        constraints = [
            models.CheckConstraint(
                condition=Q(left_on__isnull=True) | Q(left_on__gte=models.F("joined_on")),
                name="membership_leaves_after_joining",
                violation_error_message="A member cannot leave before joining.",
            ),
            models.UniqueConstraint(
                fields=["team", "player"],
                condition=Q(left_on__isnull=True),
                name="one_open_membership_per_player_and_team",
                violation_error_message="This player is already a current member of the team.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.team}"
