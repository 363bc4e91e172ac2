"""Thin API views: parse with an input serializer, call a service or a selector, answer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from core.errors import ApplicationError
from core.ids import IdFilterSet
from players.api.base import ReadViewSet
from tournaments import cache as tournament_cache
from tournaments import selectors, services
from tournaments.api import serializers as s
from tournaments.etags import etag_matches
from tournaments.models import Entrant, Tournament


class TournamentFilter(IdFilterSet):
    class Meta:
        model = Tournament
        fields = {"club": ["exact"], "game": ["exact"], "status": ["exact"],
                  "format": ["exact"]}


def _own_entrant(entrant: Entrant, tournament: Tournament, field: str = "entrant") -> Entrant:
    if entrant.tournament_id != tournament.pk:
        raise ApplicationError(_("This entrant belongs to another tournament."), field=field)
    return entrant


@extend_schema(tags=["tournaments"])
class TournamentViewSet(ReadViewSet):
    queryset = selectors.tournament_list()
    serializer_class = s.TournamentOutput
    input_serializer = s.TournamentInput
    filterset_class = TournamentFilter
    search_fields = ["name", "club__name"]
    ordering_fields = ["name", "created_at", "status"]

    def _parse(self, serializer_class: type[Any], request: Request) -> dict[str, Any]:
        serializer = serializer_class(data=request.data)
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)

    def _fresh(self, tournament: Tournament, code: int = status.HTTP_200_OK) -> Response:
        return self.answer(self.get_queryset().get(pk=tournament.pk), code)

    @extend_schema(request=s.TournamentInput, responses={201: s.TournamentOutput})
    def create(self, request: Request) -> Response:
        data = self.parse(request)
        tournament = services.tournament_create(
            actor=request.user, club=data.pop("club"), name=data.pop("name"),
            game=data.pop("game"), format=data.pop("format"), **data,
        )
        return self._fresh(tournament, status.HTTP_201_CREATED)

    @extend_schema(request=s.TournamentInput, responses=s.TournamentOutput)
    def partial_update(self, request: Request, pk: str) -> Response:
        data = self.parse(request, partial=True)
        tournament = self.get_object()
        if "club" in data and data.pop("club") != tournament.club:
            raise ApplicationError(_("A tournament cannot move to another club."), field="club")
        tournament = services.tournament_update(actor=request.user, tournament=tournament,
                                                **data)
        return self._fresh(tournament)

    @extend_schema(request=None, responses=s.TournamentOutput)
    @action(detail=True, methods=["post"], url_path="open-registration")
    def open_registration(self, request: Request, pk: str) -> Response:
        return self._fresh(services.tournament_open_registration(
            actor=request.user, tournament=self.get_object()))

    @extend_schema(request=None, responses=s.TournamentOutput)
    @action(detail=True, methods=["post"])
    def start(self, request: Request, pk: str) -> Response:
        return self._fresh(services.tournament_start(actor=request.user,
                                                     tournament=self.get_object()))

    @extend_schema(request=None, responses=s.TournamentOutput)
    @action(detail=True, methods=["post"])
    def finish(self, request: Request, pk: str) -> Response:
        return self._fresh(services.tournament_finish(actor=request.user,
                                                      tournament=self.get_object()))

    @extend_schema(request=None, responses={201: s.RoundOutput})
    @action(detail=True, methods=["post"], url_path="pair-next-round")
    def pair_next_round(self, request: Request, pk: str) -> Response:
        round_ = services.round_pair_next(actor=request.user, tournament=self.get_object())
        fresh = selectors.round_list(drafts=True).get(pk=round_.pk)
        return Response(s.RoundOutput(fresh).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.RegisterInput, responses={201: s.EntrantOutput})
    @action(detail=True, methods=["post"])
    def register(self, request: Request, pk: str) -> Response:
        data = self._parse(s.RegisterInput, request)
        entrant = services.entrant_register(actor=request.user, tournament=self.get_object(),
                                            **data)
        return Response(s.EntrantOutput(entrant).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.WithdrawInput, responses=s.EntrantOutput)
    @action(detail=True, methods=["post"])
    def withdraw(self, request: Request, pk: str) -> Response:
        data = self._parse(s.WithdrawInput, request)
        entrant = _own_entrant(data["entrant"], self.get_object())
        entrant = services.entrant_withdraw(actor=request.user, entrant=entrant,
                                            from_round=data.get("from_round"))
        return Response(s.EntrantOutput(entrant).data)

    @extend_schema(request=s.ByeInput, responses={201: None})
    @action(detail=True, methods=["post"], url_path="request-bye")
    def request_bye(self, request: Request, pk: str) -> Response:
        data = self._parse(s.ByeInput, request)
        entrant = _own_entrant(data["entrant"], self.get_object())
        bye = services.bye_request(actor=request.user, entrant=entrant,
                                   round_number=data["round_number"], kind=data["kind"])
        return Response({"entrant": entrant.pk, "round_number": bye.round_number,
                         "kind": bye.kind}, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.ForbidInput, responses={201: None})
    @action(detail=True, methods=["post"], url_path="forbid-pairing")
    def forbid_pairing(self, request: Request, pk: str) -> Response:
        data = self._parse(s.ForbidInput, request)
        tournament = self.get_object()
        services.forbid_pairing(
            actor=request.user, tournament=tournament,
            entrant_a=_own_entrant(data["entrant_a"], tournament, "entrant_a"),
            entrant_b=_own_entrant(data["entrant_b"], tournament, "entrant_b"),
        )
        return Response({"entrant_a": data["entrant_a"].pk, "entrant_b": data["entrant_b"].pk},
                        status=status.HTTP_201_CREATED)

    def _page(self, items: Any, serializer_class: type[Any]) -> Response:
        """One page of a nested list (``?page=``), like every other list of the API."""
        page = self.paginate_queryset(items)
        return self.get_paginated_response(serializer_class(page, many=True).data)

    @extend_schema(responses=s.EntrantOutput(many=True))
    @action(detail=True, methods=["get"], filter_backends=[])
    def entrants(self, request: Request, pk: str) -> Response:
        return self._page(selectors.entrant_list(self.get_object()), s.EntrantOutput)

    @extend_schema(responses=s.RoundOutput(many=True))
    @action(detail=True, methods=["get"], filter_backends=[])
    def rounds(self, request: Request, pk: str) -> Response:
        return self._page(selectors.round_list(self.get_object(), viewer=request.user),
                          s.RoundOutput)

    def _tagged(self, request: Request, kind: str,
                read: Callable[[Tournament], dict[str, Any]]) -> Response:
        """``read(tournament)`` (cached under its version) with an ETag, or a 304 when the
        client's If-None-Match names the current one."""
        tournament = self.get_object()
        etag = tournament_cache.etag(tournament, f"api-{kind}-{request.accepted_renderer.format}")
        if etag_matches(request.headers.get("If-None-Match"), etag):
            response = Response(status=status.HTTP_304_NOT_MODIFIED)
        else:
            response = Response(read(tournament))
        response["ETag"] = etag
        response["Cache-Control"] = "no-cache"
        return response

    @extend_schema(responses=s.StandingsOutput)
    @action(detail=True, methods=["get"])
    def standings(self, request: Request, pk: str) -> Response:
        return self._tagged(request, "standings",
                            lambda t: s.StandingsOutput(tournament_cache.standings(t)).data)

    @extend_schema(responses=s.CrosstableOutput)
    @action(detail=True, methods=["get"])
    def crosstable(self, request: Request, pk: str) -> Response:
        return self._tagged(request, "crosstable",
                            lambda t: s.CrosstableOutput(tournament_cache.crosstable(t)).data)

    @extend_schema(responses=OpenApiResponse(description=_lazy("Round-by-round table")))
    @action(detail=True, methods=["get"], url_path="round-by-round")
    def round_by_round(self, request: Request, pk: str) -> Response:
        return self._tagged(request, "round-by-round", tournament_cache.round_by_round)

    @extend_schema(responses=OpenApiResponse(description="CSV text"))
    @action(detail=True, methods=["get"], url_path=r"standings\.csv")
    def standings_csv(self, request: Request, pk: str) -> HttpResponse:
        tournament = self.get_object()
        response = HttpResponse(selectors.standings_csv(tournament),
                                content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{tournament.slug}.csv"'
        return response

    @extend_schema(responses=OpenApiResponse(description="TRF-16 text"))
    @action(detail=True, methods=["get"], url_path=r"export\.trf")
    def export_trf(self, request: Request, pk: str) -> HttpResponse:
        tournament = self.get_object()
        response = HttpResponse(selectors.tournament_trf(tournament),
                                content_type="text/plain; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{tournament.slug}.trf"'
        return response


@extend_schema(tags=["tournaments"])
class RoundViewSet(ReadViewSet):
    queryset = selectors.round_list()
    serializer_class = s.RoundOutput
    filterset_fields = ["tournament", "status"]

    def get_queryset(self) -> Any:
        """Released rounds; a club's organizers see its drafts too."""
        return selectors.round_list(viewer=self.request.user)

    @extend_schema(request=None, responses=s.RoundOutput)
    @action(detail=True, methods=["post"])
    def release(self, request: Request, pk: str) -> Response:
        """Publish a draft round: public pages and the API show it, its boards take
        results."""
        round_ = services.round_release(actor=request.user, round_=self.get_object())
        return self.answer(selectors.round_list(drafts=True).get(pk=round_.pk))

    @extend_schema(request=None, responses={200: None})
    @action(detail=True, methods=["post"])
    def unpair(self, request: Request, pk: str) -> Response:
        """Delete the last round's pairings while it has no result (pair it again next)."""
        round_ = self.get_object()
        boards = services.round_unpair(actor=request.user, round_=round_)
        return Response({"round": round_.number, "boards_removed": boards})


@extend_schema(tags=["tournaments"])
class PairingViewSet(ReadViewSet):
    queryset = selectors.pairing_list()
    serializer_class = s.PairingOutput
    filterset_fields = ["round", "outcome"]

    def get_queryset(self) -> Any:
        """Boards of released rounds; a club's organizers see its drafts' boards too."""
        return selectors.pairing_list(viewer=self.request.user)
