from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from core.bounds import MAX_ROUNDS, MAX_TIEBREAKS
from players.models import Club, Player, Team
from tournaments.models import (
    REQUESTABLE_BYES,
    Entrant,
    FirstColour,
    Outcome,
    Pairing,
    Round,
    Tournament,
)
from tournaments.services.tournaments import individual_formats


class TournamentOutput(serializers.ModelSerializer[Tournament]):
    club_name = serializers.CharField(source="club.name", read_only=True)
    entrant_count = serializers.IntegerField(read_only=True, default=None)

    class Meta:
        model = Tournament
        fields = [
            "id", "club", "club_name", "name", "slug", "game", "game_options", "entrant_kind",
            "format", "match_format", "points_win", "points_draw", "points_loss", "points_bye",
            "tiebreaks", "rated", "clock", "rounds_planned", "third_place_match",
            "grand_final_reset", "first_colour", "baku_acceleration", "starts_on", "ends_on",
            "chief_arbiter", "release_pairings_at_once", "status", "entrant_count",
            "created_at", "updated_at",
        ]


class TournamentInput(serializers.Serializer[Tournament]):
    club = serializers.PrimaryKeyRelatedField(queryset=Club.objects.all())
    name = serializers.CharField(max_length=160)
    #: the model field's choices (names with their labels): one "game" enum in the schema
    game = serializers.ChoiceField(choices=list(Tournament._meta.get_field("game").choices or []))
    format = serializers.ChoiceField(choices=individual_formats())
    game_options = serializers.JSONField(required=False)
    match_format = serializers.JSONField(required=False, help_text=_('"ft3/9" or an object'))
    points_win = serializers.DecimalField(max_digits=5, decimal_places=2, required=False)
    points_draw = serializers.DecimalField(max_digits=5, decimal_places=2, required=False)
    points_loss = serializers.DecimalField(max_digits=5, decimal_places=2, required=False)
    points_bye = serializers.DecimalField(max_digits=5, decimal_places=2, required=False)
    tiebreaks = serializers.ListField(child=serializers.CharField(max_length=40),
                                      max_length=MAX_TIEBREAKS, required=False)
    rated = serializers.BooleanField(required=False)
    clock = serializers.CharField(max_length=40, required=False, allow_blank=True)
    rounds_planned = serializers.IntegerField(min_value=1, max_value=MAX_ROUNDS, required=False,
                                              allow_null=True)
    third_place_match = serializers.BooleanField(required=False)
    grand_final_reset = serializers.BooleanField(required=False)
    first_colour = serializers.ChoiceField(choices=FirstColour.choices, required=False)
    baku_acceleration = serializers.BooleanField(required=False)
    starts_on = serializers.DateField(required=False, allow_null=True)
    ends_on = serializers.DateField(required=False, allow_null=True)
    chief_arbiter = serializers.CharField(max_length=120, required=False, allow_blank=True)
    release_pairings_at_once = serializers.BooleanField(required=False)


class EntrantOutput(serializers.ModelSerializer[Entrant]):
    name = serializers.CharField(read_only=True)

    class Meta:
        model = Entrant
        fields = ["id", "name", "player", "team", "seed", "rating", "joined_round",
                  "withdrawn_from_round"]


class RegisterInput(serializers.Serializer[Entrant]):
    player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all(), required=False)
    team = serializers.PrimaryKeyRelatedField(queryset=Team.objects.all(), required=False)
    rating = serializers.IntegerField(
        required=False, min_value=0, max_value=4000,
        help_text=_("Rating at entry; by default the player's (or the team's mean) club rating "
                  "in the game's family, 0 when unrated."))
    late_byes = serializers.ChoiceField(
        choices=["zero", "half_point"], required=False, default="zero",
        help_text=_("A late entrant's rounds already paired: absent (zero) or half-point byes."))


class WithdrawInput(serializers.Serializer[Entrant]):
    entrant = serializers.PrimaryKeyRelatedField(queryset=Entrant.objects.all())
    from_round = serializers.IntegerField(min_value=1, required=False)


class ByeInput(serializers.Serializer[Entrant]):
    entrant = serializers.PrimaryKeyRelatedField(queryset=Entrant.objects.all())
    round_number = serializers.IntegerField(min_value=1)
    kind = serializers.ChoiceField(choices=[k.value for k in REQUESTABLE_BYES],
                                   default="half_point")


class ForbidInput(serializers.Serializer[Entrant]):
    entrant_a = serializers.PrimaryKeyRelatedField(queryset=Entrant.objects.all())
    entrant_b = serializers.PrimaryKeyRelatedField(queryset=Entrant.objects.all())


class PairingOutput(serializers.ModelSerializer[Pairing]):
    round_number = serializers.IntegerField(source="round.number", read_only=True)
    entrant_a_name = serializers.CharField(source="entrant_a.name", read_only=True)
    entrant_b_name = serializers.SerializerMethodField()

    class Meta:
        model = Pairing
        fields = ["id", "round", "round_number", "board", "entrant_a", "entrant_a_name",
                  "entrant_b", "entrant_b_name", "bye_kind", "bracket_match", "wins_a",
                  "wins_b", "draws", "outcome", "version", "updated_at"]

    def get_entrant_b_name(self, pairing: Pairing) -> str | None:
        return pairing.entrant_b.name if pairing.entrant_b is not None else None


class RoundOutput(serializers.ModelSerializer[Round]):
    pairings = PairingOutput(many=True, read_only=True)

    class Meta:
        model = Round
        fields = ["id", "tournament", "number", "status", "clock", "time_slot_minutes",
                  "created_at", "released_at", "pairings"]


class ResultInput(serializers.Serializer[Pairing]):
    version = serializers.IntegerField(min_value=1)
    wins_a = serializers.IntegerField(min_value=0, required=False)
    wins_b = serializers.IntegerField(min_value=0, required=False)
    draws = serializers.IntegerField(min_value=0, required=False, default=0)
    outcome = serializers.ChoiceField(
        choices=[v for v in Outcome.values if v != Outcome.BYE], required=False
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("wins_a" in attrs) != ("wins_b" in attrs):
            raise serializers.ValidationError({"wins_b": [gettext("Give both wins_a and wins_b.")]})
        return attrs


class ResultOutput(serializers.Serializer[Pairing]):
    pairing = PairingOutput(read_only=True)
    warning = serializers.CharField(read_only=True)


# -- standings and tables: typed, so that the OpenAPI schema describes them ---------------


class EntrantRefOutput(serializers.Serializer[Any]):
    entrant = serializers.IntegerField(allow_null=True)
    name = serializers.CharField(allow_null=True)
    seed = serializers.IntegerField(allow_null=True)
    rating = serializers.IntegerField(allow_null=True)


class StandingsRowOutput(EntrantRefOutput):
    rank = serializers.IntegerField(allow_null=True,
                                    help_text=_("Shared by tied entrants; null while still in "
                                    "a knockout."))
    points = serializers.FloatField(help_text=_("Points (knockout: matches won)."))
    tiebreaks = serializers.DictField(child=serializers.FloatField(allow_null=True),
                                      help_text=_("Tie-break key -> value, in the "
                                      "tournament's order."))


class StandingsOutput(serializers.Serializer[Any]):
    after_round = serializers.IntegerField(help_text=_("The last round with every result in."))
    tiebreaks = serializers.ListField(child=serializers.CharField())
    rows = StandingsRowOutput(many=True)
    bracket = serializers.JSONField(required=False, help_text=_("Knockouts: the bracket."))


class CrosstableGameOutput(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    result = serializers.CharField(help_text=_("1, ½, 0, +, -, or a bye letter (B, F, H, Z)."))
    points = serializers.FloatField()
    first_move = serializers.BooleanField(allow_null=True)


class CrosstableRowOutput(serializers.Serializer[Any]):
    entrant = EntrantRefOutput()
    rank = serializers.IntegerField(allow_null=True)
    points = serializers.FloatField()
    cells = serializers.ListField(
        child=serializers.ListField(child=CrosstableGameOutput(), allow_null=True),
        help_text=_("One cell per column entrant: the games between the two (null: none)."))
    byes = CrosstableGameOutput(many=True)


class CrosstableOutput(serializers.Serializer[Any]):
    after_round = serializers.IntegerField()
    entrants = EntrantRefOutput(many=True)
    rows = CrosstableRowOutput(many=True)
