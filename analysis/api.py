"""API: ``POST /api/analysis/`` (a position, answered now) and
``/api/games/{id}/analysis/`` (a whole game's stored analysis: GET reads it with its
progress, POST starts it)."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from analysis import selectors, services
from analysis.models import GameAnalysis
from config.login_guard import client_address
from matches.models import Game


class PositionInput(serializers.Serializer[Any]):
    state = serializers.JSONField(required=False,
                                  help_text=_("A state document (docs/rules/records.md)."))
    record = serializers.JSONField(required=False,
                                   help_text=_("A game record (docs/rules/records.md)."))
    move = serializers.IntegerField(
        required=False, min_value=0, help_text=_("With a record: the position after this "
                                                 "many moves (0 is the start)."))
    iterations = serializers.IntegerField(
        default=services.POSITION_ITERATIONS, min_value=1,
        max_value=services.MAX_POSITION_ITERATIONS)
    seed = serializers.IntegerField(default=0, min_value=0, max_value=services.MAX_SEED)


class PositionAnalysisView(APIView):
    """Every legal move's value for the side to move: exact (Kugamai, Kazambi endgames),
    MCTS win rates with visits (Kazambi before its endgame), expected column points
    (Stolbiki). Anyone may ask, without signing in (and so without a CSRF token), on a
    small CPU budget shared per client address and over the site (429 with Retry-After
    when spent); organizers and staff, signed in, get a larger one."""

    permission_classes = [AllowAny]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "analysis"

    @extend_schema(request=PositionInput, responses={200: dict, 429: dict}, tags=["analysis"])
    def post(self, request: Request) -> Response:
        data = PositionInput(data=request.data)
        data.is_valid(raise_exception=True)
        return Response(services.position_analysis(
            actor=request.user, address=client_address(request), **data.validated_data))


class GameAnalysisOutput(serializers.ModelSerializer[GameAnalysis]):
    progress = serializers.SerializerMethodField()

    class Meta:
        model = GameAnalysis
        fields = ["id", "game", "status", "iterations", "seed", "moves_done", "moves_total",
                  "progress", "message", "result", "created_at", "started_at", "finished_at"]

    def get_progress(self, analysis: GameAnalysis) -> float:
        return round(selectors.progress(analysis), 4)


class GameAnalysisInput(serializers.Serializer[Any]):
    iterations = serializers.IntegerField(
        default=services.GAME_ITERATIONS, min_value=1, max_value=services.MAX_GAME_ITERATIONS)
    seed = serializers.IntegerField(default=0, min_value=0, max_value=services.MAX_SEED)


class GameAnalysisView(APIView):
    """A recorded game's analysis, every move annotated (blunders in the exact sense,
    with the better move). Anyone reads it; organizers of the game's club and staff
    start it."""

    def get_permissions(self) -> list[Any]:
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    @extend_schema(responses={200: GameAnalysisOutput}, tags=["analysis"])
    def get(self, request: Request, pk: int) -> Response:
        analysis = get_object_or_404(GameAnalysis, game_id=pk)
        return Response(GameAnalysisOutput(analysis).data)

    @extend_schema(request=GameAnalysisInput,
                   responses={200: GameAnalysisOutput, 202: GameAnalysisOutput},
                   tags=["analysis"])
    def post(self, request: Request, pk: int) -> Response:
        game = get_object_or_404(
            Game.objects.select_related("pairing__round__tournament__club"), pk=pk)
        data = GameAnalysisInput(data=request.data)
        data.is_valid(raise_exception=True)
        analysis, queued = services.game_analysis_start(
            actor=request.user, game=game, **data.validated_data)
        analysis.refresh_from_db()
        return Response(GameAnalysisOutput(analysis).data,
                        status=status.HTTP_202_ACCEPTED if queued else status.HTTP_200_OK)
