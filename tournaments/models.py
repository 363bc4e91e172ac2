"""Tournaments, their entrants, rounds, pairings and results.

Every invariant that a single row (or a unique set of rows) can express is a database
constraint; services check the rest (and everything, with clear messages, before writing).
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from games.engines import ENGINE_NAMES, game_facts
from players.models import Club, Player, Team

#: Games always played by teams (Stolbiki depends on its team size): from the game facts.
TEAM_GAMES = tuple(name for name in ENGINE_NAMES if game_facts(name).team_game is True)


class Format(models.TextChoices):
    ROUND_ROBIN = "round_robin", "Round robin"
    DOUBLE_ROUND_ROBIN = "double_round_robin", "Double round robin"
    SWISS = "swiss", "Swiss (FIDE Dutch)"
    KNOCKOUT = "knockout", "Knockout"
    DOUBLE_ELIMINATION = "double_elimination", "Double elimination"


ROUND_ROBIN_FORMATS = (Format.ROUND_ROBIN, Format.DOUBLE_ROUND_ROBIN)
KNOCKOUT_FORMATS = (Format.KNOCKOUT, Format.DOUBLE_ELIMINATION)


class Status(models.TextChoices):
    DRAFT = "draft", "Draft"
    REGISTRATION = "registration", "Registration open"
    RUNNING = "running", "Running"
    FINISHED = "finished", "Finished"


class EntrantKind(models.TextChoices):
    PLAYERS = "players", "Players"
    TEAMS = "teams", "Teams"


class Tournament(models.Model):
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="tournaments")
    name = models.CharField(max_length=160)
    slug = models.SlugField(max_length=160)
    game = models.CharField(max_length=32, choices=[(name, name) for name in ENGINE_NAMES])
    game_options = models.JSONField(default=dict, blank=True)
    entrant_kind = models.CharField(
        max_length=10, choices=EntrantKind.choices, default=EntrantKind.PLAYERS,
        help_text="Derived from the game and its options by the services.",
    )
    format = models.CharField(max_length=24, choices=Format.choices)
    match_format = models.JSONField(default=dict, blank=True)
    points_win = models.DecimalField(max_digits=5, decimal_places=2, default=Decimal("1"))
    points_draw = models.DecimalField(max_digits=5, decimal_places=2, default=Decimal("0.5"))
    points_loss = models.DecimalField(max_digits=5, decimal_places=2, default=Decimal("0"))
    points_bye = models.DecimalField(max_digits=5, decimal_places=2, default=Decimal("1"))
    tiebreaks = models.JSONField(default=list, blank=True)
    rated = models.BooleanField(default=True)
    clock = models.CharField(max_length=40, blank=True, help_text='For example "15+10".')
    rounds_planned = models.PositiveSmallIntegerField(null=True, blank=True)
    third_place_match = models.BooleanField(default=False)
    grand_final_reset = models.BooleanField(default=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DRAFT)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    #: Bumped by every write that changes results, games, rounds or entrants
    #: (``tournaments.cache.tournament_changed``): cached standings and ETags derive from it.
    version = models.PositiveIntegerField(default=1, editable=False)

    class Meta:
        ordering = ["-created_at", "id"]
        indexes = [models.Index(fields=["club", "status"])]
        constraints = [
            models.UniqueConstraint(fields=["club", "slug"], name="tournament_slug_unique_in_club"),
            models.CheckConstraint(condition=~Q(name=""), name="tournament_name_not_empty"),
            models.CheckConstraint(
                condition=Q(game__in=ENGINE_NAMES), name="tournament_game_known"
            ),
            models.CheckConstraint(
                condition=Q(format__in=Format.values), name="tournament_format_known"
            ),
            models.CheckConstraint(
                condition=Q(status__in=Status.values), name="tournament_status_known"
            ),
            models.CheckConstraint(
                condition=Q(points_win__gte=F("points_draw"))
                & Q(points_draw__gte=F("points_loss"))
                & Q(points_loss__gte=0) & Q(points_bye__gte=0),
                name="tournament_points_ordered",
                violation_error_message="Points must satisfy win >= draw >= loss >= 0.",
            ),
            models.CheckConstraint(
                condition=Q(rounds_planned__isnull=True) | Q(rounds_planned__gte=1),
                name="tournament_rounds_planned_positive",
            ),
            models.CheckConstraint(
                condition=Q(third_place_match=False) | Q(format=Format.KNOCKOUT),
                name="tournament_third_place_only_knockout",
                violation_error_message="A third-place match exists only in a knockout.",
            ),
            models.CheckConstraint(
                condition=~Q(game__in=TEAM_GAMES) | Q(entrant_kind=EntrantKind.TEAMS),
                name="tournament_pairs_games_have_teams",
                violation_error_message="Pairs games are played by teams.",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_round_robin(self) -> bool:
        return self.format in ROUND_ROBIN_FORMATS

    @property
    def is_knockout(self) -> bool:
        return self.format in KNOCKOUT_FORMATS


class Entrant(models.Model):
    """A player or a team entered in a tournament."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="entries"
    )
    team = models.ForeignKey(
        Team, on_delete=models.PROTECT, null=True, blank=True, related_name="entries"
    )
    seed = models.PositiveIntegerField(null=True, blank=True)
    rating = models.IntegerField(default=0, help_text="Rating at entry, for pairing order.")
    joined_round = models.PositiveSmallIntegerField(default=1)
    withdrawn_from_round = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "seed", "id"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(player__isnull=False) & Q(team__isnull=True))
                | (Q(player__isnull=True) & Q(team__isnull=False)),
                name="entrant_player_xor_team",
                violation_error_message="An entrant is either a player or a team.",
            ),
            models.UniqueConstraint(
                fields=["tournament", "player"], condition=Q(player__isnull=False),
                name="entrant_player_once",
                violation_error_message="This player is already entered.",
            ),
            models.UniqueConstraint(
                fields=["tournament", "team"], condition=Q(team__isnull=False),
                name="entrant_team_once",
                violation_error_message="This team is already entered.",
            ),
            models.UniqueConstraint(
                fields=["tournament", "seed"], condition=Q(seed__isnull=False),
                name="entrant_seed_unique",
            ),
            models.CheckConstraint(condition=Q(joined_round__gte=1), name="entrant_joins_round_1"),
            models.CheckConstraint(
                condition=Q(withdrawn_from_round__isnull=True)
                | Q(withdrawn_from_round__gte=F("joined_round")),
                name="entrant_withdraws_after_joining",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        if self.player_id is not None:
            return self.player.display_name if self.player else ""
        return self.team.name if self.team else ""

    def plays_in(self, round_number: int) -> bool:
        if round_number < self.joined_round:
            return False
        return self.withdrawn_from_round is None or round_number < self.withdrawn_from_round


class RoundStatus(models.TextChoices):
    PAIRED = "paired", "Paired"
    FINISHED = "finished", "Finished"


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(
        max_length=10, choices=RoundStatus.choices, default=RoundStatus.PAIRED
    )
    clock = models.CharField(max_length=40, blank=True, help_text="Overrides the tournament's.")
    time_slot_minutes = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"


class ByeKind(models.TextChoices):
    NONE = "", "No bye"
    PAIRING_ALLOCATED = "pairing_allocated", "Pairing-allocated bye"
    HALF_POINT = "half_point", "Half-point bye (requested)"
    ZERO = "zero", "Zero-point bye (requested or absent)"
    FULL_POINT = "full_point", "Full-point bye (requested)"


REQUESTABLE_BYES = (ByeKind.HALF_POINT, ByeKind.ZERO, ByeKind.FULL_POINT)


class Outcome(models.TextChoices):
    PENDING = "pending", "Pending"
    A_WINS = "a_wins", "A wins"
    B_WINS = "b_wins", "B wins"
    DRAW = "draw", "Draw"
    A_FORFEIT_WIN = "a_forfeit_win", "A wins by forfeit"
    B_FORFEIT_WIN = "b_forfeit_win", "B wins by forfeit"
    DOUBLE_FORFEIT = "double_forfeit", "Double forfeit"
    BYE = "bye", "Bye"


PLAYED_OUTCOMES = (Outcome.A_WINS, Outcome.B_WINS, Outcome.DRAW)
FORFEIT_OUTCOMES = (Outcome.A_FORFEIT_WIN, Outcome.B_FORFEIT_WIN, Outcome.DOUBLE_FORFEIT)


class Pairing(models.Model):
    """One board of a round: entrant A moves first in the match's first game."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="pairings")
    board = models.PositiveSmallIntegerField()
    entrant_a = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="+")
    entrant_b = models.ForeignKey(
        Entrant, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    bye_kind = models.CharField(max_length=20, choices=ByeKind.choices, blank=True, default="")
    bracket_match = models.CharField(
        max_length=12, blank=True, default="", help_text="Knockout bracket match id (W1-1...)."
    )
    wins_a = models.PositiveSmallIntegerField(default=0)
    wins_b = models.PositiveSmallIntegerField(default=0)
    draws = models.PositiveSmallIntegerField(default=0)
    outcome = models.CharField(max_length=16, choices=Outcome.choices, default=Outcome.PENDING)
    version = models.PositiveIntegerField(default=1)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["round", "board"]
        constraints = [
            models.UniqueConstraint(fields=["round", "board"], name="pairing_board_unique"),
            models.UniqueConstraint(
                fields=["round", "bracket_match"], condition=~Q(bracket_match=""),
                name="pairing_bracket_match_once_per_round",
            ),
            models.CheckConstraint(condition=Q(board__gte=1), name="pairing_board_positive"),
            models.CheckConstraint(
                condition=~Q(entrant_a=F("entrant_b")), name="pairing_not_against_self"
            ),
            models.CheckConstraint(
                condition=(Q(entrant_b__isnull=True) & ~Q(bye_kind="") & Q(outcome=Outcome.BYE))
                | (Q(entrant_b__isnull=False) & Q(bye_kind="") & ~Q(outcome=Outcome.BYE)),
                name="pairing_bye_iff_no_opponent",
                violation_error_message="A bye has no opponent, and only a bye has none.",
            ),
            models.CheckConstraint(
                condition=Q(outcome__in=Outcome.values), name="pairing_outcome_known"
            ),
            models.CheckConstraint(
                condition=Q(outcome__in=PLAYED_OUTCOMES)
                | (Q(wins_a=0) & Q(wins_b=0) & Q(draws=0)),
                name="pairing_score_only_when_played",
                violation_error_message="Only a played match has a game score.",
            ),
            models.CheckConstraint(
                condition=~Q(outcome=Outcome.A_WINS) | Q(wins_a__gte=F("wins_b")),
                name="pairing_a_wins_score",
            ),
            models.CheckConstraint(
                condition=~Q(outcome=Outcome.B_WINS) | Q(wins_b__gte=F("wins_a")),
                name="pairing_b_wins_score",
            ),
            models.CheckConstraint(
                condition=~Q(outcome=Outcome.DRAW) | Q(wins_a=F("wins_b")),
                name="pairing_draw_score_level",
            ),
            models.CheckConstraint(condition=Q(version__gte=1), name="pairing_version_positive"),
        ]

    def __str__(self) -> str:
        opponent = self.entrant_b if self.entrant_b_id else "bye"
        return f"R{self.round.number} B{self.board}: {self.entrant_a} - {opponent}"

    @property
    def has_result(self) -> bool:
        return self.outcome != Outcome.PENDING


class RoundEntry(models.Model):
    """An entrant's seat in a round: at most one per round, by database constraint."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="entries")
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="round_entries")
    pairing = models.ForeignKey(Pairing, on_delete=models.CASCADE, related_name="entries")

    class Meta:
        verbose_name_plural = "round entries"
        constraints = [
            models.UniqueConstraint(fields=["round", "entrant"], name="entrant_once_per_round"),
        ]

    def __str__(self) -> str:
        return f"{self.entrant} in round {self.round.number}"


class RequestedBye(models.Model):
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="requested_byes")
    round_number = models.PositiveSmallIntegerField()
    kind = models.CharField(
        max_length=20, choices=[(k.value, k.label) for k in REQUESTABLE_BYES],
        default=ByeKind.HALF_POINT,
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["entrant", "round_number"]
        constraints = [
            models.UniqueConstraint(
                fields=["entrant", "round_number"], name="one_bye_request_per_round"
            ),
            models.CheckConstraint(
                condition=Q(round_number__gte=1), name="bye_request_round_positive"
            ),
            models.CheckConstraint(
                condition=Q(kind__in=[k.value for k in REQUESTABLE_BYES]),
                name="bye_request_kind_known",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.entrant}: {self.get_kind_display()} in round {self.round_number}"


class ForbiddenPairing(models.Model):
    """Two entrants who must not meet (stored with the lower entrant id first)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="forbidden_pairings"
    )
    entrant_low = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="+")
    entrant_high = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "entrant_low", "entrant_high"],
                name="forbidden_pairing_once",
            ),
            models.CheckConstraint(
                condition=Q(entrant_low__lt=F("entrant_high")),
                name="forbidden_pairing_ordered",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.entrant_low} must not meet {self.entrant_high}"


class ResultChange(models.Model):
    """An entry in the log of result changes (one per recorded or corrected result)."""

    pairing = models.ForeignKey(Pairing, on_delete=models.CASCADE, related_name="changes")
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )
    changed_at = models.DateTimeField(auto_now_add=True)
    before = models.JSONField()
    after = models.JSONField()
    warning = models.TextField(blank=True)

    class Meta:
        ordering = ["-changed_at", "-id"]

    def __str__(self) -> str:
        return f"{self.pairing}: {self.before} -> {self.after}"
