"""Leagues: teams of clubs meeting board against board over a season.

A league (run by the organizers of one or several clubs) has seasons; a season has
divisions; a division pairs its teams by a team system of ``tournaments.systems``
(``pairs_teams``). Each team match is played on ``League.boards`` boards, each board one
match series of the league's format. The boards are ordinary pairings of the division's
*board tournament* (``Division.tournament``: its entrants are the players), so results,
games, ratings, reports, clocks and print all go through the one writer of each; the team
layer here groups them into team matches and reads the season table from them.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from core.bounds import MAX_ROUNDS
from core.game_fields import GameNameField
from games.engines import ENGINE_NAMES
from players.models import Club, Player, Team
from tournaments.models import Pairing, Round, Tournament

#: The most boards a team match has, and players a team's season roster holds.
MAX_BOARDS = 16
MAX_ROSTER = 40
#: The longest a lineup deadline may be set before a match (two weeks, in hours).
MAX_DEADLINE_HOURS = 14 * 24
MAX_RATING_TOLERANCE = 1000


class LineupRule(models.TextChoices):
    FIXED = "fixed", _("Fixed order declared at the start")
    RATING = "rating", _("By rating, within a tolerance")


class TeamSystem(models.TextChoices):
    TEAM_ROUND_ROBIN = "team_round_robin", _("Team round robin")
    TEAM_DOUBLE_ROUND_ROBIN = "team_double_round_robin", _("Team double round robin")
    TEAM_SWISS = "team_swiss", _("Team Swiss")
    TEAM_KNOCKOUT = "team_knockout", _("Team knockout")


class SeasonStatus(models.TextChoices):
    PLANNING = "planning", pgettext_lazy("season status", "Planning")
    RUNNING = "running", pgettext_lazy("season status", "Running")
    FINISHED = "finished", pgettext_lazy("season status", "Finished")


class Side(models.TextChoices):
    NONE = "", pgettext_lazy("forfeit side", "Nobody")
    HOME = "home", pgettext_lazy("forfeit side", "Home team")
    AWAY = "away", pgettext_lazy("forfeit side", "Away team")
    BOTH = "both", pgettext_lazy("forfeit side", "Both teams")


class Movement(models.TextChoices):
    STAYS = "", pgettext_lazy("season movement", "Stays")
    PROMOTED = "promoted", pgettext_lazy("season movement", "Promoted")
    RELEGATED = "relegated", pgettext_lazy("season movement", "Relegated")


class League(models.Model):
    name = models.CharField(_("name"), max_length=160)
    slug = models.SlugField(_("slug"), max_length=160, unique=True)
    host = models.ForeignKey(
        Club, verbose_name=_("host club"), on_delete=models.PROTECT, related_name="hosted_leagues",
        help_text=_("The club whose board tournaments hold the league's games."))
    clubs = models.ManyToManyField(
        Club, verbose_name=_("managing clubs"), related_name="leagues", blank=True,
        help_text=_("Organizers of these clubs (and of the host) manage the league."))
    game = GameNameField(_("game"), max_length=32, names=ENGINE_NAMES)
    game_options = models.JSONField(_("game options"), default=dict, blank=True)
    match_format = models.JSONField(
        _("board match format"), default=dict, blank=True,
        help_text=_("Each board is one match series of this format (best of 3, say)."))
    boards = models.PositiveSmallIntegerField(_("boards"), default=4)
    lineup_rule = models.CharField(_("lineup rule"), max_length=12, choices=LineupRule.choices,
                                   default=LineupRule.FIXED)
    rating_tolerance = models.PositiveSmallIntegerField(
        _("rating tolerance"), default=0,
        help_text=_("Under the rating rule: how far above a higher-rated team mate a player "
                    "may sit."))
    lineup_deadline_hours = models.PositiveSmallIntegerField(
        _("lineup deadline (hours before the match)"), default=24)
    match_points_win = models.PositiveSmallIntegerField(_("match points for a win"), default=2)
    match_points_draw = models.PositiveSmallIntegerField(_("match points for a draw"), default=1)
    match_points_loss = models.PositiveSmallIntegerField(_("match points for a loss"), default=0)
    tiebreaks = models.JSONField(_("tie-breaks"), default=list, blank=True)
    rated = models.BooleanField(_("rated"), default=True)
    clock = models.CharField(_("clock"), max_length=60, blank=True, default="")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("created by"), on_delete=models.SET_NULL,
        null=True, blank=True, related_name="+")
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("league")
        verbose_name_plural = _("leagues")
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(condition=Q(boards__gte=1) & Q(boards__lte=MAX_BOARDS),
                                   name="league_boards_bounded"),
            models.CheckConstraint(condition=Q(rating_tolerance__lte=MAX_RATING_TOLERANCE),
                                   name="league_rating_tolerance_bounded"),
            models.CheckConstraint(condition=Q(lineup_deadline_hours__lte=MAX_DEADLINE_HOURS),
                                   name="league_deadline_bounded"),
            models.CheckConstraint(
                condition=Q(match_points_win__gte=F("match_points_draw"))
                & Q(match_points_draw__gte=F("match_points_loss")),
                name="league_match_points_ordered"),
            models.CheckConstraint(condition=Q(lineup_rule__in=LineupRule.values),
                                   name="league_lineup_rule_known"),
        ]

    def __str__(self) -> str:
        return self.name


class Season(models.Model):
    league = models.ForeignKey(League, verbose_name=_("league"), on_delete=models.CASCADE,
                               related_name="seasons")
    number = models.PositiveSmallIntegerField(_("number"))
    name = models.CharField(_("name"), max_length=80)
    starts_on = models.DateField(_("start date"), null=True, blank=True)
    ends_on = models.DateField(_("end date"), null=True, blank=True)
    status = models.CharField(_("status"), max_length=12, choices=SeasonStatus.choices,
                              default=SeasonStatus.PLANNING)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["league", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["league", "number"], name="season_number_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="season_number_positive"),
            models.CheckConstraint(condition=Q(status__in=SeasonStatus.values),
                                   name="season_status_known"),
            models.CheckConstraint(
                condition=Q(starts_on__isnull=True) | Q(ends_on__isnull=True)
                | Q(ends_on__gte=F("starts_on")), name="season_dates_ordered"),
        ]

    def __str__(self) -> str:
        return f"{self.league} {self.name}"


class Division(models.Model):
    """A season's division: its teams, its team system and its board tournament."""

    season = models.ForeignKey(Season, verbose_name=_("season"), on_delete=models.CASCADE,
                               related_name="divisions")
    name = models.CharField(_("name"), max_length=80)
    level = models.PositiveSmallIntegerField(
        _("level"), default=1, help_text=_("1 is the top division; promotion moves up a level."))
    system = models.CharField(_("system"), max_length=32, choices=TeamSystem.choices,
                              default=TeamSystem.TEAM_DOUBLE_ROUND_ROBIN)
    rounds_planned = models.PositiveSmallIntegerField(_("rounds planned"), null=True, blank=True)
    promote = models.PositiveSmallIntegerField(_("teams promoted"), default=0)
    relegate = models.PositiveSmallIntegerField(_("teams relegated"), default=0)
    tournament = models.OneToOneField(
        Tournament, verbose_name=_("board tournament"), on_delete=models.PROTECT, null=True,
        blank=True, related_name="league_division",
        help_text=_("Holds the division's board games (made when the season starts)."))

    class Meta:
        verbose_name = _("division")
        verbose_name_plural = _("divisions")
        ordering = ["season", "level", "name"]
        constraints = [
            models.UniqueConstraint(fields=["season", "name"], name="division_name_once"),
            models.CheckConstraint(condition=Q(level__gte=1), name="division_level_positive"),
            models.CheckConstraint(condition=Q(system__in=TeamSystem.values),
                                   name="division_system_known"),
            models.CheckConstraint(
                condition=Q(rounds_planned__isnull=True)
                | (Q(rounds_planned__gte=1) & Q(rounds_planned__lte=MAX_ROUNDS)),
                name="division_rounds_bounded"),
        ]

    def __str__(self) -> str:
        return f"{self.season} {self.name}"


class SeasonTeam(models.Model):
    """A club's team entered in one division of one season (``players.Team`` keeps it
    across seasons)."""

    season = models.ForeignKey(Season, verbose_name=_("season"), on_delete=models.CASCADE,
                               related_name="teams")
    division = models.ForeignKey(Division, verbose_name=_("division"), on_delete=models.CASCADE,
                                 related_name="teams")
    team = models.ForeignKey(Team, verbose_name=_("team"), on_delete=models.PROTECT,
                             related_name="season_entries")
    captain = models.ForeignKey(Player, verbose_name=_("captain"), on_delete=models.SET_NULL,
                                null=True, blank=True, related_name="captained_teams")
    seed = models.PositiveSmallIntegerField(_("seed"), null=True, blank=True)
    withdrawn_from_round = models.PositiveSmallIntegerField(
        _("withdrawn from round"), null=True, blank=True)
    final_rank = models.PositiveSmallIntegerField(_("final rank"), null=True, blank=True)
    movement = models.CharField(_("movement"), max_length=12, choices=Movement.choices,
                                blank=True, default=Movement.STAYS)

    class Meta:
        verbose_name = _("season team")
        verbose_name_plural = _("season teams")
        ordering = ["division", "seed", "team__name"]
        constraints = [
            models.UniqueConstraint(fields=["season", "team"], name="season_team_once"),
            models.UniqueConstraint(fields=["division", "seed"], condition=Q(seed__isnull=False),
                                    name="season_team_seed_once"),
            models.CheckConstraint(condition=Q(movement__in=Movement.values),
                                   name="season_team_movement_known"),
        ]

    def __str__(self) -> str:
        return str(self.team)


class RosterEntry(models.Model):
    """A player of a team's season roster, in the declared board order; reserves after the
    regulars. One team per player and season."""

    season = models.ForeignKey(Season, verbose_name=_("season"), on_delete=models.CASCADE,
                               related_name="roster_entries")
    season_team = models.ForeignKey(SeasonTeam, verbose_name=_("team"),
                                    on_delete=models.CASCADE, related_name="roster")
    player = models.ForeignKey(Player, verbose_name=_("player"), on_delete=models.PROTECT,
                               related_name="roster_entries")
    order = models.PositiveSmallIntegerField(_("order"))
    reserve = models.BooleanField(_("reserve"), default=False)
    added_at = models.DateTimeField(_("added at"), auto_now_add=True)

    class Meta:
        verbose_name = _("roster entry")
        verbose_name_plural = _("roster entries")
        ordering = ["season_team", "order"]
        constraints = [
            models.UniqueConstraint(fields=["season", "player"],
                                    name="roster_one_team_per_season",
                                    violation_error_message=_(
                                        "A player plays for one team in a season.")),
            models.UniqueConstraint(fields=["season_team", "order"], name="roster_order_once"),
            models.CheckConstraint(condition=Q(order__gte=1) & Q(order__lte=MAX_ROSTER),
                                   name="roster_order_bounded"),
        ]

    def __str__(self) -> str:
        return f"{self.season_team}: {self.order}. {self.player}"


class TeamMatch(models.Model):
    """Two teams meeting in a round of a division (``away`` None: a bye)."""

    division = models.ForeignKey(Division, verbose_name=_("division"), on_delete=models.CASCADE,
                                 related_name="matches")
    round_number = models.PositiveSmallIntegerField(_("round"))
    leg = models.PositiveSmallIntegerField(_("leg"), default=1)
    home = models.ForeignKey(SeasonTeam, verbose_name=_("home team"), on_delete=models.PROTECT,
                             related_name="home_matches")
    away = models.ForeignKey(SeasonTeam, verbose_name=_("away team"), on_delete=models.PROTECT,
                             null=True, blank=True, related_name="away_matches")
    bracket_match = models.CharField(_("bracket match"), max_length=12, blank=True, default="")
    starts_at = models.DateTimeField(_("starts at"), null=True, blank=True)
    venue = models.CharField(_("venue"), max_length=200, blank=True, default="")
    lineup_deadline = models.DateTimeField(_("lineup deadline"), null=True, blank=True)
    board_round = models.ForeignKey(
        Round, verbose_name=_("board round"), on_delete=models.PROTECT, null=True, blank=True,
        related_name="team_matches",
        help_text=_("The board tournament's round holding this match's boards."))
    forfeit = models.CharField(
        _("whole-match forfeit"), max_length=4, choices=Side.choices, blank=True,
        default=Side.NONE)
    winner = models.ForeignKey(
        SeasonTeam, verbose_name=_("winner (knockout tie-break)"), on_delete=models.PROTECT,
        null=True, blank=True, related_name="+",
        help_text=_("A level knockout match decided by lot after the board count."))
    version = models.PositiveIntegerField(_("version"), default=1)

    class Meta:
        verbose_name = _("team match")
        verbose_name_plural = _("team matches")
        ordering = ["division", "round_number", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["division", "round_number", "home"],
                                    name="team_match_home_once_per_round"),
            models.UniqueConstraint(fields=["division", "round_number", "away"],
                                    condition=Q(away__isnull=False),
                                    name="team_match_away_once_per_round"),
            models.CheckConstraint(condition=~Q(home=F("away")), name="team_match_not_self"),
            models.CheckConstraint(condition=Q(round_number__gte=1)
                                   & Q(round_number__lte=MAX_ROUNDS),
                                   name="team_match_round_bounded"),
            models.CheckConstraint(condition=Q(leg__in=(1, 2)), name="team_match_leg_known"),
            models.CheckConstraint(condition=Q(forfeit__in=Side.values),
                                   name="team_match_forfeit_known"),
            models.CheckConstraint(condition=Q(away__isnull=False) | Q(forfeit=""),
                                   name="team_match_bye_not_forfeited"),
        ]

    def __str__(self) -> str:
        away = self.away if self.away_id else _("bye")
        return f"R{self.round_number}: {self.home} - {away}"


class Lineup(models.Model):
    """A team's lineup for one match, in board order."""

    match = models.ForeignKey(TeamMatch, verbose_name=_("match"), on_delete=models.CASCADE,
                              related_name="lineups")
    team = models.ForeignKey(SeasonTeam, verbose_name=_("team"), on_delete=models.CASCADE,
                             related_name="lineups")
    submitted_at = models.DateTimeField(_("submitted at"))
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("submitted by"), on_delete=models.SET_NULL,
        null=True, blank=True, related_name="+")
    submitted_by_name = models.CharField(_("submitted by (name)"), max_length=150, blank=True)
    late = models.BooleanField(
        _("late"), default=False,
        help_text=_("Submitted after the deadline and accepted by a league manager."))
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("late change accepted by"),
        on_delete=models.SET_NULL, null=True, blank=True, related_name="+")

    class Meta:
        verbose_name = _("lineup")
        verbose_name_plural = _("lineups")
        constraints = [
            models.UniqueConstraint(fields=["match", "team"], name="lineup_once_per_team"),
        ]

    def __str__(self) -> str:
        return f"{self.match}: {self.team}"


class LineupBoard(models.Model):
    """One board of a lineup (no player: the board is left empty, a board forfeit; a
    partner: the second player of a partnership board)."""

    lineup = models.ForeignKey(Lineup, verbose_name=_("lineup"), on_delete=models.CASCADE,
                               related_name="boards")
    board = models.PositiveSmallIntegerField(_("board"))
    player = models.ForeignKey(Player, verbose_name=_("player"), on_delete=models.PROTECT,
                               null=True, blank=True, related_name="+")
    partner = models.ForeignKey(Player, verbose_name=_("partner"), on_delete=models.PROTECT,
                                null=True, blank=True, related_name="+")

    class Meta:
        verbose_name = _("lineup board")
        verbose_name_plural = _("lineup boards")
        ordering = ["lineup", "board"]
        constraints = [
            models.UniqueConstraint(fields=["lineup", "board"], name="lineup_board_once"),
            models.UniqueConstraint(fields=["lineup", "player"], condition=Q(player__isnull=False),
                                    name="lineup_player_once"),
            models.CheckConstraint(condition=Q(board__gte=1) & Q(board__lte=MAX_BOARDS),
                                   name="lineup_board_bounded"),
            models.CheckConstraint(condition=Q(partner__isnull=True) | Q(player__isnull=False),
                                   name="lineup_partner_needs_player"),
            models.CheckConstraint(condition=~Q(partner=F("player")),
                                   name="lineup_partner_not_player"),
        ]

    def __str__(self) -> str:
        return f"{self.lineup}: {self.board}. {self.player or '-'}"


class MatchBoard(models.Model):
    """One board of a team match as played: its pairing in the board tournament, or a
    board forfeit when a side left it empty (no pairing then)."""

    match = models.ForeignKey(TeamMatch, verbose_name=_("match"), on_delete=models.CASCADE,
                              related_name="boards")
    board = models.PositiveSmallIntegerField(_("board"))
    pairing = models.OneToOneField(
        Pairing, verbose_name=_("pairing"), on_delete=models.PROTECT, null=True, blank=True,
        related_name="team_board")
    home_moves_first = models.BooleanField(_("home team moves first"))
    empty = models.CharField(
        _("left empty by"), max_length=4, choices=Side.choices, blank=True, default=Side.NONE)

    class Meta:
        verbose_name = _("match board")
        verbose_name_plural = _("match boards")
        ordering = ["match", "board"]
        constraints = [
            models.UniqueConstraint(fields=["match", "board"], name="match_board_once"),
            models.CheckConstraint(condition=Q(board__gte=1) & Q(board__lte=MAX_BOARDS),
                                   name="match_board_bounded"),
            models.CheckConstraint(condition=Q(empty__in=Side.values),
                                   name="match_board_empty_known"),
            models.CheckConstraint(
                condition=(Q(empty="") & Q(pairing__isnull=False))
                | (~Q(empty="") & Q(pairing__isnull=True)),
                name="match_board_pairing_iff_played"),
        ]

    def __str__(self) -> str:
        return f"{self.match}: {self.board}"


class Availability(models.Model):
    """A rostered player's availability for one round, marked by the captain."""

    season_team = models.ForeignKey(SeasonTeam, verbose_name=_("team"),
                                    on_delete=models.CASCADE, related_name="availability")
    player = models.ForeignKey(Player, verbose_name=_("player"), on_delete=models.CASCADE,
                               related_name="+")
    round_number = models.PositiveSmallIntegerField(_("round"))
    available = models.BooleanField(_("available"))
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("availability")
        verbose_name_plural = _("availability")
        constraints = [
            models.UniqueConstraint(fields=["season_team", "player", "round_number"],
                                    name="availability_once"),
            models.CheckConstraint(condition=Q(round_number__gte=1)
                                   & Q(round_number__lte=MAX_ROUNDS),
                                   name="availability_round_bounded"),
        ]

    def __str__(self) -> str:
        return f"{self.season_team} {self.player} R{self.round_number}: {self.available}"


class CaptainLinkQuerySet(models.QuerySet["CaptainLink"]):
    def live(self) -> CaptainLinkQuerySet:
        return self.filter(revoked_at__isnull=True)


class CaptainLink(models.Model):
    """A captain's private link to their team's season (lineups, availability, reserves);
    tokens as ``playerlinks`` makes them: derived from the nonce, stored as a hash."""

    season_team = models.ForeignKey(SeasonTeam, verbose_name=_("team"),
                                    on_delete=models.CASCADE, related_name="captain_links")
    player = models.ForeignKey(Player, verbose_name=_("captain"), on_delete=models.CASCADE,
                               related_name="+")
    nonce = models.CharField(_("nonce"), max_length=64, unique=True, editable=False)
    token_hash = models.CharField(_("token hash"), max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("created by"), on_delete=models.SET_NULL,
        null=True, blank=True, related_name="+")
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    last_used_at = models.DateTimeField(_("last used at"), null=True, blank=True)

    objects = CaptainLinkQuerySet.as_manager()

    class Meta:
        verbose_name = _("captain's link")
        verbose_name_plural = _("captain's links")
        constraints = [
            models.UniqueConstraint(fields=["season_team"], condition=Q(revoked_at__isnull=True),
                                    name="one_live_captain_link_per_team"),
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.season_team})"


class LeagueEvent(models.Model):
    """One line of a league's log (late lineups accepted, forfeits, movements...), worded
    when read, like ``tournaments.history``."""

    league = models.ForeignKey(League, verbose_name=_("league"), on_delete=models.CASCADE,
                               related_name="events")
    season = models.ForeignKey(Season, verbose_name=_("season"), on_delete=models.CASCADE,
                               null=True, blank=True, related_name="events")
    at = models.DateTimeField(_("at"), auto_now_add=True)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("by"),
                              on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    actor_name = models.CharField(_("by (name)"), max_length=150, blank=True)
    kind = models.CharField(_("kind"), max_length=40)
    data = models.JSONField(_("data"), default=dict, blank=True)

    class Meta:
        verbose_name = _("league event")
        verbose_name_plural = _("league events")
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.league} {self.kind}"
