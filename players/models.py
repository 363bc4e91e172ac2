"""Players (people and bots), clubs and teams."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower

from games.engines import GAME_FAMILY


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
    RANDOM = "random", "Random"
    GREEDY = "greedy", "Greedy heuristics"
    MCTS = "mcts", "Monte Carlo tree search"
    SOLVER = "solver", "Exact solver"


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


# --- Ratings (issue 6) ----------------------------------------------------------------
# A rating pool is a club and a game family (games.engines.GAME_FAMILY): every Kazambi form
# (pairs and misère included) shares the "kazambi" pool, Kugamai and Stolbiki have their own.
# Both tables are derived data: ``manage.py recompute_ratings`` rebuilds them from the games.

RATING_FAMILIES: tuple[str, ...] = tuple(sorted(set(GAME_FAMILY.values())))


class RatingSystem(models.TextChoices):
    GLICKO2 = "glicko2", "Glicko-2"
    ELO = "elo", "Elo (FIDE)"


class Rating(models.Model):
    """A player's current rating in one pool (a club and a game family).

    Glicko-2 ratings have a deviation ``rd`` and a ``volatility``; Elo ratings have neither.
    ``is_provisional`` is computed when the rating is written, from the club's settings.
    """

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="ratings")
    family = models.CharField(max_length=16, choices=[(f, f) for f in RATING_FAMILIES])
    system = models.CharField(max_length=10, choices=RatingSystem.choices)
    rating = models.FloatField()
    rd = models.FloatField(null=True, blank=True)
    volatility = models.FloatField(null=True, blank=True)
    peak_rating = models.FloatField(help_text="Highest rating reached (the Elo 2400 rule).")
    games = models.PositiveIntegerField(default=0)
    last_played_at = models.DateTimeField(null=True, blank=True)
    is_provisional = models.BooleanField(default=True)

    class Meta:
        ordering = ["club", "family", "-rating", "player"]
        indexes = [models.Index(fields=["club", "family", "-rating"])]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "club", "family"], name="rating_once_per_pool"
            ),
            models.CheckConstraint(
                condition=Q(family__in=RATING_FAMILIES), name="rating_family_known"
            ),
            models.CheckConstraint(
                condition=(Q(system=RatingSystem.GLICKO2) & Q(rd__gt=0) & Q(volatility__gt=0))
                | (Q(system=RatingSystem.ELO) & Q(rd__isnull=True) & Q(volatility__isnull=True)),
                name="rating_deviation_iff_glicko2",
                violation_error_message="Glicko-2 ratings have a deviation and a volatility; "
                "Elo ratings have neither.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.rating:.0f} ({self.family}, {self.club})"


class RatingChange(models.Model):
    """How one game changed one player's rating: a game changes a rating exactly once.

    Few indexes, because a recompute rewrites 200,000 rows per 100,000 games: the unique
    ``(game, player)`` index serves lookups by game, ``(player, family, played_at)`` those
    by player; a pool's rows are deleted with a scan.
    """

    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="rating_changes", db_index=False
    )
    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, related_name="rating_changes", db_index=False
    )
    # The club of the game's tournament, copied so a pool's rows are found without joins.
    # No database constraint: it would cost a trigger check per row of a recompute for a
    # value the game already fixes (Django still cascades club deletions).
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="rating_changes", db_index=False,
        db_constraint=False,
    )
    family = models.CharField(max_length=16, choices=[(f, f) for f in RATING_FAMILIES])
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    rd_before = models.FloatField(null=True, blank=True)
    rd_after = models.FloatField(null=True, blank=True)
    volatility_after = models.FloatField(null=True, blank=True)
    played_at = models.DateTimeField()

    class Meta:
        ordering = ["played_at", "game_id"]
        indexes = [models.Index(fields=["player", "family", "played_at"])]
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="rating_change_once_per_game"),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.rating_before:.0f} -> {self.rating_after:.0f}"

    @property
    def delta(self) -> float:
        return self.rating_after - self.rating_before
