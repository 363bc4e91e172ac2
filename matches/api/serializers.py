from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.bounds import MAX_CLOCK_SECONDS
from core.errors import ApplicationError
from matches.models import Game, Termination
from matches.selectors import pairing_progress, record_for_reader
from matches.services.results import parse_game_record
from matches.texts import progress_text
from tournaments.api.serializers import PairingOutput
from tournaments.models import Pairing


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
    record = serializers.SerializerMethodField(
        help_text=_("The game record (docs/rules/records.md); a bot's info lines only for the "
                    "organizers of the tournament's club."))

    class Meta(GameOutput.Meta):
        fields = [*GameOutput.Meta.fields, "record", "move_times"]

    @extend_schema_field(serializers.JSONField(allow_null=True))
    def get_record(self, game: Game) -> dict[str, Any] | None:
        request = self.context.get("request")
        return record_for_reader(game, getattr(request, "user", None))


class GameInput(serializers.Serializer[Game]):
    version = serializers.IntegerField(
        min_value=1, required=False,
        help_text=_("The pairing version you saw (or send it as an If-Match header)."))
    result = serializers.ChoiceField(choices=["a", "b", "draw"], required=False,
                                     allow_null=True)
    termination = serializers.ChoiceField(choices=Termination.choices,
                                          default=Termination.NORMAL)
    record = serializers.JSONField(required=False, allow_null=True,
                                   help_text=_("A game record (docs/rules/records.md)."))
    clock_left = serializers.ListField(
        child=serializers.FloatField(min_value=0, max_value=MAX_CLOCK_SECONDS),
        max_length=6, required=False, allow_null=True,
        help_text=_("Seconds left on each seat's clock (at most one number per seat)."))

    def validate_record(self, value: Any) -> Any:
        if isinstance(value, str):
            try:
                return parse_game_record(value)
            except ApplicationError as error:
                raise serializers.ValidationError(error.message) from None
        if value is not None and not isinstance(value, dict):
            raise serializers.ValidationError(gettext("The game record must be a JSON object."))
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
    clock = serializers.CharField(
        required=False, default="", allow_blank=True, max_length=40,
        help_text=_('A clock to judge on the games measured on the phone clock ("15+10"); '
                    "empty: the advised one."))
    boards = serializers.IntegerField(
        required=False, default=1, min_value=1, max_value=1000,
        help_text=_("Boards in a round, for the measured round length."))


class MatchProgressOutput(serializers.Serializer[Any]):
    wins_a = serializers.IntegerField(help_text=_("Games won by A so far."))
    wins_b = serializers.IntegerField(help_text=_("Games won by B so far."))
    draws = serializers.IntegerField()
    games = serializers.IntegerField(help_text=_("Games recorded so far."))
    next_game = serializers.IntegerField(
        allow_null=True, help_text=_("The game being played; null while the match waits for "
                                     "its result (a level knockout match for its tie-break)."))
    text = serializers.CharField(
        help_text=_('As the public pages say it: "1–1, game 3 playing" (in the language of '
                    'the request).'))


class PairingProgressOutput(PairingOutput):
    """A board, and while its match is in progress the games so far (null otherwise)."""

    progress = serializers.SerializerMethodField()

    class Meta(PairingOutput.Meta):
        fields = [*PairingOutput.Meta.fields, "progress"]

    @extend_schema_field(MatchProgressOutput(allow_null=True))
    def get_progress(self, pairing: Pairing) -> dict[str, Any] | None:
        progress = pairing_progress(pairing)
        if progress is None:
            return None
        return {**progress.as_dict(), "text": progress_text(progress)}


class PairingResultOutput(serializers.Serializer[Pairing]):
    pairing = PairingProgressOutput(read_only=True)
    warning = serializers.CharField(read_only=True)
