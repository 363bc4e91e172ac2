from __future__ import annotations

from typing import Any

from rest_framework import serializers

from config.errors import ApplicationError
from matches.models import Game, Termination
from matches.services.results import parse_game_record


class GameOutput(serializers.ModelSerializer[Game]):
    tournament = serializers.IntegerField(source="pairing.round.tournament_id", read_only=True)
    round_number = serializers.IntegerField(source="pairing.round.number", read_only=True)
    board = serializers.IntegerField(source="pairing.board", read_only=True)

    class Meta:
        model = Game
        fields = ["id", "tournament", "pairing", "round_number", "board", "number", "game",
                  "options", "first_side", "winner_side", "termination", "forfeit_reason",
                  "order_recorded", "score_detail", "move_count", "clock_left", "played_at",
                  "created_at"]


class GameDetailOutput(GameOutput):
    class Meta(GameOutput.Meta):
        fields = [*GameOutput.Meta.fields, "record"]


class GameInput(serializers.Serializer[Game]):
    version = serializers.IntegerField(
        min_value=1, required=False,
        help_text="The pairing version you saw (or send it as an If-Match header).")
    result = serializers.ChoiceField(choices=["a", "b", "draw"], required=False,
                                     allow_null=True)
    termination = serializers.ChoiceField(choices=Termination.choices,
                                          default=Termination.NORMAL)
    record = serializers.JSONField(required=False, allow_null=True,
                                   help_text="A game record (GAMES.md section 5).")
    clock_left = serializers.ListField(child=serializers.FloatField(min_value=0),
                                       required=False, allow_null=True)

    def validate_record(self, value: Any) -> Any:
        if isinstance(value, str):
            try:
                return parse_game_record(value)
            except ApplicationError as error:
                raise serializers.ValidationError(error.message) from None
        if value is not None and not isinstance(value, dict):
            raise serializers.ValidationError("The game record must be a JSON object.")
        return value


class GameRecordedOutput(serializers.Serializer[Any]):
    game = GameDetailOutput(read_only=True)
    score = serializers.CharField(read_only=True)
    match_decided = serializers.BooleanField(read_only=True)
    version = serializers.IntegerField(read_only=True)
    warning = serializers.CharField(read_only=True)


class ClockAdviceQuery(serializers.Serializer[Any]):
    game = serializers.CharField()
    match_format = serializers.CharField(default="single")
    slot_minutes = serializers.FloatField(min_value=1, max_value=24 * 60)  # a day
    options = serializers.JSONField(required=False, default=dict)
