"""Thin API views for games: list and detail (with the record), adding a game to a
pairing's match, and clock advice."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.decorators import action, api_view
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from core.engine_messages import engine_error_message
from core.errors import ApplicationError
from core.ids import is_id
from games.clocks.control import format_clock_text
from games.clocks.errors import ClockError
from games.series.format import MatchFormat, MatchScore
from matches import clock_services, selectors
from matches.api import serializers as s
from matches.services.games import game_entry_record
from matches.services.results import match_result_record
from players.api.base import ReadViewSet
from tournaments.api import serializers as ts
from tournaments.api import views as tournament_views
from tournaments.models import Pairing, Round


def _int_param(request: Request, name: str) -> int | None:
    value = request.query_params.get(name)
    if value in (None, ""):
        return None
    if not is_id(str(value)):
        raise ApplicationError(_("%(name)s must be a whole number, not %(value)r.")
                               % {"name": name, "value": value}, field=name)
    return int(str(value))


@extend_schema(tags=["games"], parameters=[
    OpenApiParameter("tournament", int), OpenApiParameter("pairing", int),
    OpenApiParameter("player", int),
])
class GameViewSet(ReadViewSet):
    """Games of matches; filter by ``tournament``, ``pairing`` or ``player``."""

    queryset = selectors.game_list()
    serializer_class = s.GameOutput
    filter_backends: list[Any] = []

    def get_queryset(self) -> Any:
        return selectors.games_filtered(
            tournament=_int_param(self.request, "tournament"),
            pairing=_int_param(self.request, "pairing"),
            player=_int_param(self.request, "player"),
        )

    def get_serializer_class(self) -> Any:
        return s.GameDetailOutput if self.action == "retrieve" else s.GameOutput


def _etag(pairing: Pairing) -> str:
    return f'"{pairing.version}"'


def _if_match_version(request: Request) -> int | None:
    header = request.headers.get("If-Match", "").strip()
    if not header:
        return None
    text = header.removeprefix("W/").strip('"')
    try:
        return int(text)
    except ValueError:
        raise ApplicationError(_("If-Match must be the pairing's ETag (like \"3\"), not "
                                 "%(header)r.") % {"header": header},
                               field="version") from None


class PairingGamesView(APIView):
    """GET: the games of a pairing's match (ETag: the pairing version). POST: add the next
    game (organizers of the club; send ``version`` or If-Match, a stale one gets 409)."""

    pagination_class: Any = api_settings.DEFAULT_PAGINATION_CLASS

    @extend_schema(tags=["games"], responses=s.GameDetailOutput(many=True))
    def get(self, request: Request, pk: int) -> Response:
        pairing = get_object_or_404(Pairing, pk=pk)
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(selectors.games_filtered(pairing=pairing.pk),
                                           request, view=self)
        response = paginator.get_paginated_response(s.GameDetailOutput(page, many=True).data)
        response["ETag"] = _etag(pairing)
        return response

    @extend_schema(tags=["games"], request=s.GameInput, responses={201: s.GameRecordedOutput})
    def post(self, request: Request, pk: int) -> Response:
        pairing = get_object_or_404(Pairing.objects.select_related("round__tournament__club"),
                                    pk=pk)
        data = s.GameInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        version = values.get("version") or _if_match_version(request)
        if version is None:
            raise ApplicationError(_("Send the pairing version you saw (field version, or an "
                                     "If-Match header with the ETag)."), field="version")
        recorded = game_entry_record(
            actor=request.user, pairing=pairing, expected_version=version,
            result=values.get("result"), termination=values["termination"],
            record=values.get("record"), clock_left=values.get("clock_left"),
        )
        pairing.refresh_from_db()
        game = selectors.game_list().get(pk=recorded.game.pk)
        body = {"game": s.GameDetailOutput(game).data, "score": str(recorded.score),
                "match_decided": recorded.match_decided, "version": pairing.version,
                "warning": recorded.warning}
        response = Response(body, status=status.HTTP_201_CREATED)
        response["ETag"] = _etag(pairing)
        return response


@extend_schema(tags=["games"], responses=OpenApiResponse(description=_lazy("Clock advice")))
@api_view(["GET"])
def round_clock_advice(request: Request, pk: int) -> Response:
    """Advice for a round's time slot and its tournament's game and match format."""
    round_ = get_object_or_404(Round.objects.select_related("tournament"), pk=pk)
    advice = clock_services.round_clock_advice(round_)
    return Response({"round": round_.pk, "slot_minutes": advice.slot_minutes,
                     "current": advice.current,
                     **clock_services.advice_as_dict(advice.advice, advice.moves),
                     **clock_services.round_advice_extra(round_)})


@extend_schema(tags=["games"], parameters=[s.ClockAdviceQuery],
               responses=OpenApiResponse(description=_lazy("Clock advice")))
@api_view(["GET"])
def clock_advice(request: Request) -> Response:
    """Advice for any game, match format (``ft3/9``, ``bo5``...) and time slot; under
    ``measured``, a clock (``clock``, else the advised one) judged on the games measured
    on the phone clock for ``boards`` boards (``fallback``: too few, the estimate stands)."""
    query = s.ClockAdviceQuery(data=request.query_params)
    query.is_valid(raise_exception=True)
    values = query.validated_data
    options = values.get("options") or {}
    if not isinstance(options, dict):
        raise ApplicationError(_("options must be a JSON object."), field="options")
    from games.engines import ENGINE_NAMES, get_engine

    if values["game"] not in ENGINE_NAMES:
        raise ApplicationError(_("Unknown game %(game)r; choose one of %(games)s.") % {
            "game": values["game"], "games": ", ".join(ENGINE_NAMES)}, field="game")
    try:
        options = get_engine(values["game"]).options(**options)
    except (TypeError, ValueError) as error:
        raise ApplicationError(engine_error_message(error), field="options") from None
    clock = values.get("clock") or ""
    if clock:
        try:
            clock = format_clock_text(clock)
        except ClockError as error:
            raise ApplicationError(engine_error_message(error), field="clock") from None
    advice, moves = clock_services.clock_advice(
        game=values["game"], options=options, match_format=values["match_format"],
        slot_minutes=values["slot_minutes"])
    answer = clock_services.advice_as_dict(advice, moves)
    question = clock_services.AdviceQuestion(
        game=values["game"], options=options, clock=clock or answer["setting"],
        boards=values.get("boards") or 1,
        games_per_match=MatchFormat.parse(values["match_format"]).max_games_needed() or 1)
    return Response({"game": values["game"], "match_format": values["match_format"],
                     "slot_minutes": values["slot_minutes"], **answer,
                     **clock_services.advice_extra(question)})


@extend_schema(tags=["tournaments"])
class PairingViewSet(tournament_views.PairingViewSet):
    """Boards of rounds (a match in progress with its games so far); ``POST result/``
    records or corrects a board's match result."""

    queryset = selectors.pairings_with_games()
    serializer_class = s.PairingProgressOutput

    def get_queryset(self) -> Any:
        return selectors.pairings_with_games(viewer=self.request.user)

    @extend_schema(request=ts.ResultInput, responses=s.PairingResultOutput)
    @action(detail=True, methods=["post"])
    def result(self, request: Request, pk: str) -> Response:
        data = self._parse_result(request)
        score = (MatchScore(data["wins_a"], data["wins_b"], data.get("draws", 0))
                 if "wins_a" in data else None)
        recorded = match_result_record(
            actor=request.user, pairing=self.get_object(), expected_version=data["version"],
            score=score, outcome=data.get("outcome"),
        )
        fresh = self.get_queryset().get(pk=recorded.pairing.pk)
        return Response({"pairing": s.PairingProgressOutput(fresh).data,
                         "warning": recorded.warning})

    def _parse_result(self, request: Request) -> dict[str, Any]:
        serializer = ts.ResultInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)
