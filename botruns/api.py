"""API for bot tournaments: start one, follow its progress."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.routers import SimpleRouter

from botruns import selectors as bot_runs
from botruns import services as bot_tournaments
from botruns.models import DEFAULT_GAME_SECONDS, BotRun
from core.bounds import (
    MAX_GAME_SECONDS,
    MAX_MOVE_SECONDS,
    MAX_RESEND_SECONDS,
    MIN_GAME_SECONDS,
    MIN_RESEND_SECONDS,
)
from players.api.base import ReadViewSet
from tournaments.models import Tournament


class ProgressOutput(serializers.Serializer[Any]):
    status = serializers.CharField()
    games_done = serializers.IntegerField()
    games_total = serializers.IntegerField()
    rounds_done = serializers.IntegerField()
    rounds_total = serializers.IntegerField(allow_null=True)
    games_per_second = serializers.FloatField()
    eta_seconds = serializers.FloatField(allow_null=True)


class BotRunOutput(serializers.ModelSerializer[BotRun]):
    progress = serializers.SerializerMethodField()

    class Meta:
        model = BotRun
        fields = ["id", "tournament", "seed", "move_seconds", "game_seconds",
                  "game_timeout_seconds", "status", "message", "started_at", "finished_at",
                  "progress"]

    @extend_schema(responses=ProgressOutput)
    def get_progress(self, run: BotRun) -> dict[str, Any]:
        known = self.context.get("progress", {}).get(run.pk)
        return (known or bot_runs.bot_run_progress(run)).as_dict()


class BotRunInput(serializers.Serializer[BotRun]):
    tournament = serializers.PrimaryKeyRelatedField(queryset=Tournament.objects.all())
    seed = serializers.IntegerField(default=0, min_value=0, max_value=2**63 - 1)
    move_seconds = serializers.FloatField(required=False, allow_null=True, min_value=0.01,
                                          max_value=MAX_MOVE_SECONDS)
    game_seconds = serializers.IntegerField(default=DEFAULT_GAME_SECONDS,
                                            min_value=MIN_GAME_SECONDS,
                                            max_value=MAX_GAME_SECONDS)
    game_timeout_seconds = serializers.IntegerField(default=300, min_value=MIN_RESEND_SECONDS,
                                                    max_value=MAX_RESEND_SECONDS)


@extend_schema(tags=["bot tournaments"])
class BotRunViewSet(ReadViewSet):
    """Bot tournaments played by the Celery workers, with their progress."""

    queryset = BotRun.objects.select_related("tournament").order_by("-started_at")
    serializer_class = BotRunOutput
    filterset_fields = ["status", "tournament"]

    def list(self, request: Request) -> Response:
        """The runs of a page with their progress, read for the whole page at once."""
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        runs = list(page) if page is not None else list(self.filter_queryset(
            self.get_queryset()))
        context = {**self.get_serializer_context(),
                   "progress": bot_runs.bot_runs_progress(runs)}
        data = BotRunOutput(runs, many=True, context=context).data
        return self.get_paginated_response(data) if page is not None else Response(data)

    @extend_schema(request=BotRunInput, responses={201: BotRunOutput})
    def create(self, request: Request) -> Response:
        data = BotRunInput(data=request.data)
        data.is_valid(raise_exception=True)
        run = bot_tournaments.bot_tournament_start(actor=request.user, **data.validated_data)
        return Response(self.get_serializer(run).data, status=status.HTTP_201_CREATED)


router = SimpleRouter()
router.register("bot-runs", BotRunViewSet, basename="bot-run")
urlpatterns = router.urls
