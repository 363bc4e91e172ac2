"""Tournaments, their entrants, rounds, pairings and results.

Every invariant that a single row (or a unique set of rows) can express is a database
constraint; services check the rest (and everything, with clear messages, before writing).
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Lower
from django.utils.text import format_lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.bounds import MAX_MATCH_GAMES, MAX_ROUNDS
from core.game_fields import GameNameField
from games.engines import ENGINE_NAMES, game_facts
from players.models import Club, Player, Team
from tournaments.systems import TournamentSystem, system_of

#: Games always played by teams (Stolbiki depends on its team size): from the game facts.
TEAM_GAMES = tuple(name for name in ENGINE_NAMES if game_facts(name).team_game is True)


class Format(models.TextChoices):
    ROUND_ROBIN = "round_robin", _("Round robin")
    DOUBLE_ROUND_ROBIN = "double_round_robin", _("Double round robin")
    SWISS = "swiss", _("Swiss (FIDE Dutch)")
    KNOCKOUT = "knockout", _("Knockout")
    DOUBLE_ELIMINATION = "double_elimination", _("Double elimination")
    # Team matches on boards: a league division's board tournament (leagues.Division).
    TEAM_ROUND_ROBIN = "team_round_robin", _("Team round robin")
    TEAM_DOUBLE_ROUND_ROBIN = "team_double_round_robin", _("Team double round robin")
    TEAM_SWISS = "team_swiss", _("Team Swiss")
    TEAM_KNOCKOUT = "team_knockout", _("Team knockout")


class Status(models.TextChoices):
    DRAFT = "draft", _("Draft")
    REGISTRATION = "registration", _("Registration open")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")


class FirstColour(models.TextChoices):
    """Who moves first in round 1 of a Swiss: the top seed, the other, or drawn by lot when
    round 1 is paired (the draw is then stored as one of the other two)."""

    WHITE = "white", _("Top seed moves first")
    BLACK = "black", _("Top seed moves second")
    LOT = "lot", _("Drawn by lot at the pairing of round 1")


class PrizeTies(models.TextChoices):
    """How players tied on points share prizes (``tournaments.prizes``)."""

    HORT = "hort", _("Hort system (half shared, half by tie-break)")
    SPLIT = "split", _("Split equally")
    TIEBREAK = "tiebreak", _("Decided by tie-breaks")


class EntrantKind(models.TextChoices):
    PLAYERS = "players", _("Players")
    TEAMS = "teams", _("Teams")


class Tournament(models.Model):
    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.PROTECT, related_name="tournaments",
    )
    name = models.CharField(_("name"), max_length=160)
    slug = models.SlugField(_("slug"), max_length=160)
    game = GameNameField(_("game"), max_length=32, names=ENGINE_NAMES)
    game_options = models.JSONField(_("game options"), default=dict, blank=True)
    entrant_kind = models.CharField(_("entrant kind"),
        max_length=10, choices=EntrantKind.choices, default=EntrantKind.PLAYERS,
        help_text=_("Derived from the game and its options by the services."),
    )
    format = models.CharField(_("format"), max_length=24, choices=Format.choices)
    match_format = models.JSONField(_("match format"), default=dict, blank=True)
    points_win = models.DecimalField(
        _("points for a win"), max_digits=5, decimal_places=2, default=Decimal("1"),
    )
    points_draw = models.DecimalField(
        _("points for a draw"), max_digits=5, decimal_places=2, default=Decimal("0.5"),
    )
    points_loss = models.DecimalField(
        _("points for a loss"), max_digits=5, decimal_places=2, default=Decimal("0"),
    )
    points_bye = models.DecimalField(
        _("points for a bye"), max_digits=5, decimal_places=2, default=Decimal("1"),
    )
    tiebreaks = models.JSONField(_("tie-breaks"), default=list, blank=True)
    rated = models.BooleanField(_("rated"), default=True)
    clock = models.CharField(
        _("clock"), max_length=40, blank=True, help_text=_('For example "15+10".'),
    )
    rounds_planned = models.PositiveSmallIntegerField(_("rounds planned"), null=True, blank=True)
    third_place_match = models.BooleanField(_("third-place match"), default=False)
    grand_final_reset = models.BooleanField(_("grand final reset"), default=True)
    first_colour = models.CharField(
        _("first move in round 1"), max_length=8, choices=FirstColour.choices,
        default=FirstColour.WHITE,
        help_text=_("Swiss: the top seed's colour in round 1 (TRF XXC white1 or black1)."),
    )
    baku_acceleration = models.BooleanField(
        _("Baku acceleration"), default=False,
        help_text=_("Swiss: the top half gets virtual points in the first rounds (FIDE "
                    "C.04.5.1); needs loss 0 and a draw worth half a win."),
    )
    release_pairings_at_once = models.BooleanField(
        _("release pairings at once"), default=False,
        help_text=_("Publish each round as soon as it is paired (a small club night); "
                    "otherwise a new round is a draft until the director releases it."),
    )
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.DRAFT,
    )
    starts_on = models.DateField(_("start date"), null=True, blank=True)
    ends_on = models.DateField(_("end date"), null=True, blank=True)
    chief_arbiter = models.CharField(
        _("chief arbiter"), max_length=120, blank=True,
        help_text=_("Written in the TRF export (its 102 line)."))
    venue = models.CharField(
        _("venue"), max_length=200, blank=True,
        help_text=_("Where the rounds are played: shown to players, in calendars and in print."))
    entry_fee = models.DecimalField(
        _("entry fee"), max_digits=8, decimal_places=2, default=Decimal(0),
        help_text=_("Due from each new entrant (0: free)."))
    prize_ties = models.CharField(
        _("prize ties"), max_length=10, choices=PrizeTies.choices, default=PrizeTies.SPLIT,
        help_text=_("How players tied on points share the prizes of the places they hold."))
    currency = models.CharField(
        _("currency"), max_length=3, blank=True,
        help_text=_('Of the entry fee and the cash prizes, as a code: "EUR", "KES"...'))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("created by"), on_delete=models.SET_NULL,
        null=True, blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    #: Bumped by every write to a row the tournament's pages show, by database triggers
    #: (``tournaments.freshness``): cached standings and ETags derive from it.
    version = models.PositiveIntegerField(_("version"), default=1, editable=False)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
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
                violation_error_message=_("Points must satisfy win >= draw >= loss >= 0."),
            ),
            models.CheckConstraint(
                condition=Q(starts_on__isnull=True) | Q(ends_on__isnull=True)
                | Q(ends_on__gte=F("starts_on")),
                name="tournament_ends_after_start",
                violation_error_message=_("A tournament ends on or after its start date."),
            ),
            models.CheckConstraint(condition=Q(entry_fee__gte=0),
                                   name="tournament_entry_fee_not_negative"),
            models.CheckConstraint(condition=Q(prize_ties__in=PrizeTies.values),
                                   name="tournament_prize_ties_known"),
            models.CheckConstraint(condition=Q(currency="") | Q(currency__regex=r"^[A-Z]{3}$"),
                                   name="tournament_currency_code",
                                   violation_error_message=_(
                                       "A currency is a code of three capital letters.")),
            models.CheckConstraint(
                condition=Q(rounds_planned__isnull=True) | Q(rounds_planned__gte=1),
                name="tournament_rounds_planned_positive",
            ),
            models.CheckConstraint(
                condition=Q(rounds_planned__isnull=True) | Q(rounds_planned__lte=MAX_ROUNDS),
                name="tournament_rounds_planned_bounded",
                violation_error_message=format_lazy(_("A tournament has at most {limit} rounds."),
                                                    limit=MAX_ROUNDS),
            ),
            models.CheckConstraint(
                condition=Q(third_place_match=False) | Q(format=Format.KNOCKOUT),
                name="tournament_third_place_only_knockout",
                violation_error_message=_("A third-place match exists only in a knockout."),
            ),
            models.CheckConstraint(
                condition=Q(first_colour__in=FirstColour.values),
                name="tournament_first_colour_known",
            ),
            models.CheckConstraint(
                condition=Q(baku_acceleration=False) | Q(format=Format.SWISS),
                name="tournament_baku_only_swiss",
                violation_error_message=_("Baku acceleration exists only in a Swiss."),
            ),
            models.CheckConstraint(
                condition=~Q(game__in=TEAM_GAMES) | Q(entrant_kind=EntrantKind.TEAMS),
                name="tournament_pairs_games_have_teams",
                violation_error_message=_("Pairs games are played by teams."),
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def system(self) -> TournamentSystem:
        """Its tournament system (``tournaments.systems``): every format rule is there."""
        return system_of(self.format)


class Entrant(models.Model):
    """A player or a team entered in a tournament."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="entrants",
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT, null=True, blank=True,
        related_name="entries"
    )
    team = models.ForeignKey(
        Team, verbose_name=_("team"), on_delete=models.PROTECT, null=True, blank=True,
        related_name="entries"
    )
    seed = models.PositiveIntegerField(_("seed"), null=True, blank=True)
    rating = models.IntegerField(
        _("rating"), default=0, help_text=_("Rating at entry, for pairing order."),
    )
    joined_round = models.PositiveSmallIntegerField(_("joined in round"), default=1)
    fee_due = models.DecimalField(_("fee due"), max_digits=8, decimal_places=2, default=Decimal(0))
    fee_paid = models.DecimalField(
        _("fee paid"), max_digits=8, decimal_places=2, default=Decimal(0))
    withdrawn_from_round = models.PositiveSmallIntegerField(
        _("withdrawn from round"), null=True, blank=True,
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("entrant")
        verbose_name_plural = _("entrants")
        ordering = ["tournament", "seed", "id"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(player__isnull=False) & Q(team__isnull=True))
                | (Q(player__isnull=True) & Q(team__isnull=False)),
                name="entrant_player_xor_team",
                violation_error_message=_("An entrant is either a player or a team."),
            ),
            models.UniqueConstraint(
                fields=["tournament", "player"], condition=Q(player__isnull=False),
                name="entrant_player_once",
                violation_error_message=_("This player is already entered."),
            ),
            models.UniqueConstraint(
                fields=["tournament", "team"], condition=Q(team__isnull=False),
                name="entrant_team_once",
                violation_error_message=_("This team is already entered."),
            ),
            models.UniqueConstraint(
                fields=["tournament", "seed"], condition=Q(seed__isnull=False),
                name="entrant_seed_unique",
            ),
            models.CheckConstraint(condition=Q(joined_round__gte=1), name="entrant_joins_round_1"),
            models.CheckConstraint(condition=Q(fee_due__gte=0) & Q(fee_paid__gte=0),
                                   name="entrant_fees_not_negative"),
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
    PAIRED = "paired", _("Paired")
    FINISHED = "finished", _("Finished")


def released_filter(path: str = "") -> Q:
    """The one definition of "a released round" (null ``released_at`` is a draft that only
    organizers see); ``path`` reaches the round from another model (``"round__"``)."""
    return Q(**{f"{path}released_at__isnull": False})


class RoundQuerySet(models.QuerySet["Round"]):
    def released(self) -> RoundQuerySet:
        """Rounds the public may see: every page, feed and API answer for non-organizers
        reads rounds through this."""
        return self.filter(released_filter())


class PairingQuerySet(models.QuerySet["Pairing"]):
    def released(self) -> PairingQuerySet:
        """Boards of released rounds only (see :meth:`RoundQuerySet.released`)."""
        return self.filter(released_filter("round__"))


class Round(models.Model):
    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="rounds",
    )
    number = models.PositiveSmallIntegerField(_("number"))
    status = models.CharField(_("status"),
        max_length=10, choices=RoundStatus.choices, default=RoundStatus.PAIRED
    )
    clock = models.CharField(
        _("clock"), max_length=40, blank=True, help_text=_("Overrides the tournament's."),
    )
    time_slot_minutes = models.PositiveIntegerField(_("time slot (minutes)"), null=True, blank=True)
    starts_at = models.DateTimeField(
        _("starts at"), null=True, blank=True,
        help_text=_("When the round's games begin: told to players, calendars and check-in."))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    released_at = models.DateTimeField(
        _("released at"), null=True, blank=True,
        help_text=_("When the director published the pairings; until then the round is a "
                    "draft that only organizers see."),
    )

    objects = RoundQuerySet.as_manager()

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
            models.CheckConstraint(condition=Q(number__lte=MAX_ROUNDS),
                                   name="round_number_bounded"),
        ]

    def __str__(self) -> str:
        return gettext("%(tournament)s round %(number)d") % {"tournament": self.tournament,
                                                             "number": self.number}

    @property
    def is_released(self) -> bool:
        return self.released_at is not None


class ByeKind(models.TextChoices):
    NONE = "", _("No bye")
    PAIRING_ALLOCATED = "pairing_allocated", _("Pairing-allocated bye")
    HALF_POINT = "half_point", _("Half-point bye (requested)")
    ZERO = "zero", _("Zero-point bye (requested or absent)")
    FULL_POINT = "full_point", _("Full-point bye (requested)")


REQUESTABLE_BYES = (ByeKind.HALF_POINT, ByeKind.ZERO, ByeKind.FULL_POINT)


class Outcome(models.TextChoices):
    PENDING = "pending", _("Pending")
    A_WINS = "a_wins", _("A wins")
    B_WINS = "b_wins", _("B wins")
    DRAW = "draw", _("Draw")
    A_FORFEIT_WIN = "a_forfeit_win", _("A wins by forfeit")
    B_FORFEIT_WIN = "b_forfeit_win", _("B wins by forfeit")
    DOUBLE_FORFEIT = "double_forfeit", _("Double forfeit")
    BYE = "bye", _("Bye")


PLAYED_OUTCOMES = (Outcome.A_WINS, Outcome.B_WINS, Outcome.DRAW)
FORFEIT_OUTCOMES = (Outcome.A_FORFEIT_WIN, Outcome.B_FORFEIT_WIN, Outcome.DOUBLE_FORFEIT)


class Pairing(models.Model):
    """One board of a round: entrant A moves first in the match's first game."""

    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="pairings",
    )
    board = models.PositiveSmallIntegerField(_("board"))
    entrant_a = models.ForeignKey(
        Entrant, verbose_name=_("entrant A"), on_delete=models.PROTECT, related_name="+",
    )
    entrant_b = models.ForeignKey(
        Entrant, verbose_name=_("entrant B"), on_delete=models.PROTECT, null=True, blank=True,
        related_name="+"
    )
    bye_kind = models.CharField(
        _("bye kind"), max_length=20, choices=ByeKind.choices, blank=True, default="",
    )
    bracket_match = models.CharField(_("bracket match"),
        max_length=12, blank=True, default="", help_text=_("Knockout bracket match id (W1-1...).")
    )
    wins_a = models.PositiveSmallIntegerField(_("wins of A"), default=0)
    wins_b = models.PositiveSmallIntegerField(_("wins of B"), default=0)
    draws = models.PositiveSmallIntegerField(_("draws"), default=0)
    outcome = models.CharField(
        _("outcome"), max_length=16, choices=Outcome.choices, default=Outcome.PENDING,
    )
    version = models.PositiveIntegerField(_("version"), default=1)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("updated by"), on_delete=models.SET_NULL,
        null=True, blank=True,
        related_name="+",
    )
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    objects = PairingQuerySet.as_manager()

    class Meta:
        verbose_name = _("pairing")
        verbose_name_plural = _("pairings")
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
                violation_error_message=_("A bye has no opponent, and only a bye has none."),
            ),
            models.CheckConstraint(
                condition=Q(outcome__in=Outcome.values), name="pairing_outcome_known"
            ),
            models.CheckConstraint(
                condition=Q(outcome__in=PLAYED_OUTCOMES)
                | (Q(wins_a=0) & Q(wins_b=0) & Q(draws=0)),
                name="pairing_score_only_when_played",
                violation_error_message=_("Only a played match has a game score."),
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
            models.CheckConstraint(
                condition=Q(wins_a__lte=MAX_MATCH_GAMES - F("wins_b") - F("draws")),
                name="pairing_games_bounded",
                violation_error_message=format_lazy(_("A match has at most {limit} games."),
                                                    limit=MAX_MATCH_GAMES),
            ),
        ]

    def __str__(self) -> str:
        opponent = self.entrant_b if self.entrant_b_id else gettext("bye")
        return gettext("R%(round)d B%(board)d: %(a)s - %(b)s") % {
            "round": self.round.number, "board": self.board, "a": self.entrant_a, "b": opponent}

    @property
    def has_result(self) -> bool:
        return self.outcome != Outcome.PENDING


class RoundEntry(models.Model):
    """An entrant's seat in a round: at most one per round, by database constraint."""

    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="entries",
    )
    entrant = models.ForeignKey(
        Entrant, verbose_name=_("entrant"), on_delete=models.CASCADE, related_name="round_entries",
    )
    pairing = models.ForeignKey(
        Pairing, verbose_name=_("pairing"), on_delete=models.CASCADE, related_name="entries",
    )

    class Meta:
        verbose_name = _("round entry")
        verbose_name_plural = _("round entries")
        constraints = [
            models.UniqueConstraint(fields=["round", "entrant"], name="entrant_once_per_round"),
        ]

    def __str__(self) -> str:
        return gettext("%(entrant)s in round %(round)d") % {"entrant": self.entrant,
                                                            "round": self.round.number}


class RequestedBye(models.Model):
    entrant = models.ForeignKey(
        Entrant, verbose_name=_("entrant"), on_delete=models.CASCADE, related_name="requested_byes",
    )
    round_number = models.PositiveSmallIntegerField(_("round number"))
    kind = models.CharField(_("kind"),
        max_length=20, choices=[(k.value, k.label) for k in REQUESTABLE_BYES],
        default=ByeKind.HALF_POINT,
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("requested bye")
        verbose_name_plural = _("requested byes")
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
        return gettext("%(entrant)s: %(kind)s in round %(round)d") % {
            "entrant": self.entrant, "kind": self.get_kind_display(), "round": self.round_number}


class ForbiddenPairing(models.Model):
    """Two entrants who must not meet (stored with the lower entrant id first)."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE,
        related_name="forbidden_pairings"
    )
    entrant_low = models.ForeignKey(
        Entrant, verbose_name=_("entrant"), on_delete=models.CASCADE, related_name="+",
    )
    entrant_high = models.ForeignKey(
        Entrant, verbose_name=_("other entrant"), on_delete=models.CASCADE, related_name="+",
    )

    class Meta:
        verbose_name = _("forbidden pairing")
        verbose_name_plural = _("forbidden pairings")
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
        return gettext("%(entrant)s must not meet %(other)s") % {
            "entrant": self.entrant_low, "other": self.entrant_high}


class ResultChange(models.Model):
    """An entry in the log of result changes (one per recorded or corrected result)."""

    pairing = models.ForeignKey(
        Pairing, verbose_name=_("pairing"), on_delete=models.CASCADE, related_name="changes",
    )
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("changed by"), on_delete=models.SET_NULL,
        null=True, blank=True,
        related_name="+",
    )
    changed_at = models.DateTimeField(_("changed at"), auto_now_add=True)
    before = models.JSONField(_("before"))
    after = models.JSONField(_("after"))
    warning = models.TextField(_("warning"), blank=True)

    class Meta:
        verbose_name = _("result change")
        verbose_name_plural = _("result changes")
        ordering = ["-changed_at", "-id"]

    def __str__(self) -> str:
        return gettext("%(pairing)s: %(change)s") % {"pairing": self.pairing,
                                                      "change": self.change_text()}

    def change_text(self) -> str:
        """``1-2 → 2-1``, in words as the tournament's history shows it."""
        from tournaments.history import result_text

        a = self.pairing.entrant_a.name
        b = self.pairing.entrant_b.name if self.pairing.entrant_b is not None else ""
        return f"{result_text(self.before, a, b)} → {result_text(self.after, a, b)}"


class TournamentEvent(models.Model):
    """One line of a tournament's history: what happened, to which round and board, who did
    it and when. ``data`` holds language-neutral facts (names, numbers, codes); the line is
    worded in the reader's language when shown (``tournaments.history.describe``)."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE,
        related_name="events",
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("by"), on_delete=models.SET_NULL,
        null=True, blank=True, related_name="+",
    )
    actor_name = models.CharField(_("by (name)"), max_length=150, blank=True)
    kind = models.CharField(_("kind"), max_length=40)
    round_number = models.PositiveSmallIntegerField(_("round"), null=True, blank=True)
    board = models.PositiveSmallIntegerField(_("board"), null=True, blank=True)
    data = models.JSONField(_("data"), default=dict, blank=True)

    class Meta:
        verbose_name = _("history entry")
        verbose_name_plural = _("history")
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["tournament", "-at", "-id"], name="event_tournament_at")]

    def __str__(self) -> str:
        from tournaments.history import describe
        return describe(self)


class PrizeKind(models.TextChoices):
    """Who a prize group is for (``tournaments.prizes``' categories)."""

    OVERALL = "overall", _("Everyone (overall)")
    RATING_BAND = "rating_band", _("Rating band")
    JUNIORS = "juniors", _("Juniors (born in or after a year)")
    WOMEN = "women", _("Women")
    UNRATED = "unrated", _("Unrated players")
    CLUB = "club", _("Members of a club")
    FEDERATION = "federation", _("Federation")
    TITLE = "title", _("Title")


class PrizeGroup(models.Model):
    """A group of prizes (overall, or a category), in the tournament's order of importance:
    between prizes of equal value the group listed first wins."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE,
        related_name="prize_groups")
    name = models.CharField(_("name"), max_length=80)
    order = models.PositiveSmallIntegerField(_("order"))
    kind = models.CharField(_("for"), max_length=12, choices=PrizeKind.choices,
                            default=PrizeKind.OVERALL)
    rating_min = models.PositiveSmallIntegerField(_("rating from"), null=True, blank=True)
    rating_max = models.PositiveSmallIntegerField(_("rating up to"), null=True, blank=True)
    born_in_or_after = models.PositiveSmallIntegerField(
        _("born in or after"), null=True, blank=True)
    club = models.ForeignKey(Club, verbose_name=_("club"), on_delete=models.PROTECT,
                             null=True, blank=True, related_name="+")
    federation = models.CharField(_("federation"), max_length=3, blank=True)
    title = models.CharField(_("title"), max_length=3, blank=True)

    class Meta:
        verbose_name = _("prize group")
        verbose_name_plural = _("prize groups")
        ordering = ["tournament", "order", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "order"],
                                    name="prize_group_order_unique"),
            models.UniqueConstraint("tournament", Lower("name"),
                                    name="prize_group_name_unique",
                                    violation_error_message=_(
                                        "This tournament already has a prize group of that "
                                        "name.")),
            models.CheckConstraint(condition=~Q(name=""), name="prize_group_name_not_empty"),
            models.CheckConstraint(condition=Q(kind__in=PrizeKind.values),
                                   name="prize_group_kind_known"),
            models.CheckConstraint(
                condition=~Q(kind=PrizeKind.RATING_BAND)
                | Q(rating_min__isnull=False) | Q(rating_max__isnull=False),
                name="prize_group_band_bounded"),
            models.CheckConstraint(
                condition=Q(rating_min__isnull=True) | Q(rating_max__isnull=True)
                | Q(rating_max__gte=F("rating_min")),
                name="prize_group_band_ordered"),
            models.CheckConstraint(
                condition=~Q(kind=PrizeKind.JUNIORS) | Q(born_in_or_after__isnull=False),
                name="prize_group_juniors_year"),
            models.CheckConstraint(condition=~Q(kind=PrizeKind.CLUB) | Q(club__isnull=False),
                                   name="prize_group_club_named"),
            models.CheckConstraint(
                condition=~Q(kind=PrizeKind.FEDERATION) | Q(federation__regex=r"^[A-Z]{3}$"),
                name="prize_group_federation_named"),
            models.CheckConstraint(condition=~Q(kind=PrizeKind.TITLE) | ~Q(title=""),
                                   name="prize_group_title_named"),
        ]

    def __str__(self) -> str:
        return self.name


class Prize(models.Model):
    """One place of a prize group: cash, a non-cash item, or both; ``value`` ranks it
    against other groups' prizes (default: the cash)."""

    group = models.ForeignKey(PrizeGroup, verbose_name=_("prize group"),
                              on_delete=models.CASCADE, related_name="prizes")
    place = models.PositiveSmallIntegerField(_("place"))
    cash = models.DecimalField(_("cash"), max_digits=10, decimal_places=2, default=Decimal(0))
    item = models.CharField(_("item"), max_length=120, blank=True,
                            help_text=_("A non-cash prize: a trophy, a clock, a book."))
    value = models.DecimalField(
        _("value"), max_digits=10, decimal_places=2, null=True, blank=True,
        help_text=_("Ranks the prize against other groups' (empty: the cash)."))

    class Meta:
        verbose_name = _("prize")
        verbose_name_plural = _("prizes")
        ordering = ["group", "place"]
        constraints = [
            models.UniqueConstraint(fields=["group", "place"], name="prize_place_unique"),
            models.CheckConstraint(condition=Q(place__gte=1), name="prize_place_positive"),
            models.CheckConstraint(condition=Q(cash__gte=0), name="prize_cash_not_negative"),
            models.CheckConstraint(condition=Q(value__isnull=True) | Q(value__gte=0),
                                   name="prize_value_not_negative"),
            models.CheckConstraint(condition=Q(cash__gt=0) | ~Q(item=""),
                                   name="prize_cash_or_item",
                                   violation_error_message=_("A prize needs cash or an item.")),
        ]

    def __str__(self) -> str:
        return gettext("%(group)s, place %(place)d") % {"group": self.group, "place": self.place}


class PairingJobStatus(models.TextChoices):
    QUEUED = "queued", _("queued")
    RUNNING = "running", _("pairing now")
    DONE = "done", _("done")
    FAILED = "failed", _("failed")


#: A job in these states holds its tournament: a second request shows it instead.
PAIRING_JOB_ACTIVE = (PairingJobStatus.QUEUED, PairingJobStatus.RUNNING)


class PairingJob(models.Model):
    """A next round paired by a worker (big Swiss events): its state, read by any web
    process for the admin's progress page."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE,
        related_name="pairing_jobs",
    )
    round_number = models.PositiveSmallIntegerField(_("round"))
    status = models.CharField(_("status"), max_length=10, choices=PairingJobStatus.choices,
                              default=PairingJobStatus.QUEUED)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("requested by"), on_delete=models.SET_NULL,
        null=True, blank=True, related_name="+",
    )
    requested_at = models.DateTimeField(_("requested at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    error = models.TextField(_("error"), blank=True)

    class Meta:
        verbose_name = _("pairing job")
        verbose_name_plural = _("pairing jobs")
        ordering = ["-requested_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament"], condition=Q(status__in=["queued", "running"]),
                name="pairing_job_one_active_per_tournament",
            ),
            models.CheckConstraint(
                condition=Q(status__in=["queued", "running", "done", "failed"]),
                name="pairing_job_status_known",
            ),
        ]

    def __str__(self) -> str:
        return gettext("%(tournament)s: round %(round)d (%(status)s)") % {
            "tournament": self.tournament, "round": self.round_number,
            "status": self.get_status_display()}
