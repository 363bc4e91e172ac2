"""Thin API views: parse with an input serializer, call a service, answer with an output one."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from core.errors import ApplicationError
from core.ids import IdFilterSet
from players import selectors, services
from players.api import serializers as s
from players.api.base import ReadViewSet
from players.models import Player


class PlayerFilter(IdFilterSet):
    class Meta:
        model = Player
        fields = {"club": ["exact"], "is_bot": ["exact"], "bot_kind": ["exact"]}


@extend_schema(tags=["clubs"])
class ClubViewSet(ReadViewSet):
    queryset = selectors.club_list()
    serializer_class = s.ClubOutput
    input_serializer = s.ClubInput
    search_fields = ["name"]
    ordering_fields = ["name", "created_at"]

    @extend_schema(request=s.ClubInput, responses={201: s.ClubOutput})
    def create(self, request: Request) -> Response:
        data = self.parse(request)
        data.pop("rating_settings", None)
        club = services.club_create(actor=request.user, **data)
        return self.answer(self.get_queryset().get(pk=club.pk), status.HTTP_201_CREATED)

    @extend_schema(request=s.ClubInput, responses=s.ClubOutput)
    def partial_update(self, request: Request, pk: str) -> Response:
        data = self.parse(request, partial=True)
        if "rating_settings" in data:
            raise ApplicationError(_(
                "Rating settings change with PUT /api/clubs/{id}/rating-settings/, which "
                "rebuilds the club's ratings."), field="rating_settings")
        club = services.club_update(actor=request.user, club=self.get_object(), **data)
        return self.answer(self.get_queryset().get(pk=club.pk))


@extend_schema(tags=["players"])
class PlayerViewSet(ReadViewSet):
    queryset = selectors.player_list()
    serializer_class = s.PlayerOutput
    input_serializer = s.PlayerInput
    filterset_class = PlayerFilter
    search_fields = ["display_name", "club__name"]
    ordering_fields = ["display_name", "created_at"]

    @extend_schema(request=s.PlayerInput, responses={201: s.PlayerOutput})
    def create(self, request: Request) -> Response:
        data = self.parse(request)
        player = services.player_create(
            actor=request.user, display_name=data.pop("display_name"),
            club=data.pop("club", None), **data,
        )
        return self.answer(player, status.HTTP_201_CREATED)

    @extend_schema(request=s.PlayerInput, responses=s.PlayerOutput)
    def partial_update(self, request: Request, pk: str) -> Response:
        player = services.player_update(
            actor=request.user, player=self.get_object(), **self.parse(request, partial=True)
        )
        return self.answer(player)

    @extend_schema(responses=s.InstalledBotOutput(many=True), filters=False)
    @action(detail=False, methods=["get"], url_path="installed-bots", pagination_class=None,
            filter_backends=[])
    def installed_bots(self, request: Request) -> Response:
        """The bots installed in the web host's bots directory, which a bot player of the
        kind 'installed' may name (the workers need the same directory)."""
        return Response(s.InstalledBotOutput(selectors.installed_bots(), many=True).data)


@extend_schema(tags=["teams"])
class TeamViewSet(ReadViewSet):
    queryset = selectors.team_list()
    serializer_class = s.TeamOutput
    input_serializer = s.TeamInput
    filterset_fields = ["club"]
    search_fields = ["name"]
    ordering_fields = ["name", "created_at"]

    @extend_schema(request=s.TeamInput, responses={201: s.TeamOutput})
    def create(self, request: Request) -> Response:
        data = self.parse(request)
        if "members" in data:
            data["members"] = selectors.players_by_ids(data["members"])
        team = services.team_create(actor=request.user, **data)
        return self.answer(self.get_queryset().get(pk=team.pk), status.HTTP_201_CREATED)

    @extend_schema(request=s.TeamUpdateInput, responses=s.TeamOutput)
    def partial_update(self, request: Request, pk: str) -> Response:
        data = self.parse(request, partial=True, input_serializer=s.TeamUpdateInput)
        team = services.team_update(actor=request.user, team=self.get_object(),
                                    name=data.get("name"))
        return self.answer(self.get_queryset().get(pk=team.pk))

    @extend_schema(request=s.TeamMemberInput, responses=s.TeamOutput)
    @action(detail=True, methods=["post"], url_path="add-member")
    def add_member(self, request: Request, pk: str) -> Response:
        data = s.TeamMemberInput(data=request.data)
        data.is_valid(raise_exception=True)
        team = self.get_object()
        services.team_add_member(actor=request.user, team=team,
                                 player=data.validated_data["player"],
                                 joined_on=data.validated_data.get("date"))
        return self.answer(self.get_queryset().get(pk=team.pk))

    @extend_schema(request=s.TeamMemberInput, responses=s.TeamOutput)
    @action(detail=True, methods=["post"], url_path="remove-member")
    def remove_member(self, request: Request, pk: str) -> Response:
        data = s.TeamMemberInput(data=request.data)
        data.is_valid(raise_exception=True)
        team = self.get_object()
        services.team_remove_member(actor=request.user, team=team,
                                    player=data.validated_data["player"],
                                    left_on=data.validated_data.get("date"))
        return self.answer(self.get_queryset().get(pk=team.pk))
