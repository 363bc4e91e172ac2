"""Rating pools: each player's current rating and how every rated game changed it.

The tables keep their first names (``players_rating``, ``players_ratingchange``).
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from core.game_fields import GameNameField
from games.engines import GAME_FAMILY
from players.models import Club, Player

# --- Ratings (issue 6) ----------------------------------------------------------------
# A rating pool is a club and a game family (games.engines.GAME_FAMILY): every Kazambi form
# (pairs and misère included) shares the "kazambi" pool, Kugamai and Stolbiki have their own.
# Both tables are derived data: ``manage.py recompute_ratings`` rebuilds them from the games.

RATING_FAMILIES: tuple[str, ...] = tuple(sorted(set(GAME_FAMILY.values())))


class RatingSystem(models.TextChoices):
    GLICKO2 = "glicko2", _("Glicko-2")
    ELO = "elo", _("Elo (FIDE)")


class Rating(models.Model):
    """A player's current rating in one pool (a club and a game family).

    Glicko-2 ratings have a deviation ``rd`` and a ``volatility``; Elo ratings have neither.
    ``is_provisional`` is computed when the rating is written, from the club's settings.
    """

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings",
                               verbose_name=_("player"))
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="ratings",
                             verbose_name=_("club"))
    family = GameNameField(_("game family"), max_length=16, names=RATING_FAMILIES)
    system = models.CharField(_("rating system"), max_length=10, choices=RatingSystem.choices)
    rating = models.FloatField(_("rating"))
    rd = models.FloatField(_("RD"), null=True, blank=True,
                           help_text=_("Rating deviation (Glicko-2)."))
    volatility = models.FloatField(_("volatility"), null=True, blank=True)
    peak_rating = models.FloatField(
        _("peak rating"), help_text=_("Highest rating reached (the Elo 2400 rule)."))
    games = models.PositiveIntegerField(_("games"), default=0)
    last_played_at = models.DateTimeField(_("last played at"), null=True, blank=True)
    is_provisional = models.BooleanField(_("provisional"), default=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        db_table = "players_rating"
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
                violation_error_message=_("Glicko-2 ratings have a deviation and a "
                                          "volatility; Elo ratings have neither."),
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
        Player, on_delete=models.CASCADE, related_name="rating_changes", db_index=False,
        verbose_name=_("player"),
    )
    game = models.ForeignKey(
        "matches.Game", on_delete=models.CASCADE, related_name="rating_changes", db_index=False,
        verbose_name=_("game"),
    )
    # The club of the game's tournament, copied so a pool's rows are found without joins.
    # No database constraint: it would cost a trigger check per row of a recompute for a
    # value the game already fixes (Django still cascades club deletions).
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="rating_changes", db_index=False,
        db_constraint=False, verbose_name=_("club"),
    )
    family = GameNameField(_("game family"), max_length=16, names=RATING_FAMILIES)
    rating_before = models.FloatField(_("rating before"))
    rating_after = models.FloatField(_("rating after"))
    rd_before = models.FloatField(_("RD before"), null=True, blank=True)
    rd_after = models.FloatField(_("RD after"), null=True, blank=True)
    volatility_after = models.FloatField(_("volatility after"), null=True, blank=True)
    played_at = models.DateTimeField(_("played at"))

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        db_table = "players_ratingchange"
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


class ClubRatingSettings(Club):
    """A club as the ratings app sees it: its rating settings, which its organizers change
    in the admin through ``club_rating_settings_update`` (checked, then the club's pools
    rebuilt), never by editing the club row."""

    class Meta:
        proxy = True
        verbose_name = _("club rating settings")
        verbose_name_plural = _("club rating settings")
