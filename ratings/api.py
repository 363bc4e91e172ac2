"""Read-only rating API: ratings, leaderboards and a player's rating history.

* ``GET /api/ratings/?club=&family=&is_bot=&provisional=&player=``
* ``GET /api/ratings/leaderboard/?club=&family=`` (club by id or slug)
* ``GET /api/players/{id}/rating-history/?family=&club=``
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django_filters import rest_framework as filters
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action, api_view
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.routers import SimpleRouter

from core.errors import ApplicationError
from core.ids import ID_PATTERN, IdFilterSet, is_id
from players.api.base import ReadViewSet
from players.models import Club, Player
from ratings import selectors, services
from ratings.models import RATING_FAMILIES, Rating, RatingChange
from ratings.settings import club_rating_config

# -- serializers -------------------------------------------------------------------------


class RatingOutput(serializers.ModelSerializer[Rating]):
    player_name = serializers.CharField(source="player.display_name", read_only=True)
    is_bot = serializers.BooleanField(source="player.is_bot", read_only=True)
    club_slug = serializers.CharField(source="club.slug", read_only=True)
    provisional = serializers.BooleanField(source="is_provisional", read_only=True)

    class Meta:
        model = Rating
        fields = [
            "id", "player", "player_name", "is_bot", "club", "club_slug", "family", "system",
            "rating", "rd", "volatility", "games", "last_played_at", "provisional",
        ]


class LeaderboardEntryOutput(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    player_name = serializers.CharField(source="display_name")
    is_bot = serializers.BooleanField()
    rating = serializers.FloatField()
    rd = serializers.FloatField(allow_null=True)
    games = serializers.IntegerField()
    provisional = serializers.BooleanField()
    last_played_at = serializers.DateTimeField(allow_null=True)


class LeaderboardOutput(serializers.Serializer[Any]):
    club = serializers.IntegerField()
    club_slug = serializers.CharField()
    family = serializers.CharField()
    system = serializers.CharField()
    entries = LeaderboardEntryOutput(many=True)


class LeaderboardQuery(serializers.Serializer[Any]):
    club = serializers.CharField(help_text=_lazy("The club's id or slug."))
    family = serializers.ChoiceField(choices=RATING_FAMILIES)
    include_provisional = serializers.BooleanField(default=True)


class RatingChangeOutput(serializers.ModelSerializer[RatingChange]):
    tournament = serializers.IntegerField(source="tournament_id", read_only=True)
    tournament_name = serializers.CharField(read_only=True)
    game_name = serializers.CharField(read_only=True)
    order_recorded = serializers.BooleanField(
        read_only=True, help_text=_lazy(
            "False for a game of a match score typed without its games: it is rated in a "
            "canonical order (draws, alternating wins, the winner's deciding win last), not "
            "the order it was played in."))
    change = serializers.FloatField(source="delta", read_only=True)

    class Meta:
        model = RatingChange
        fields = [
            "id", "game", "game_name", "order_recorded", "tournament", "tournament_name", "club",
            "family", "played_at", "rating_before", "rating_after", "change", "rd_before",
            "rd_after", "volatility_after",
        ]


# -- views -------------------------------------------------------------------------------


class RatingFilter(IdFilterSet):
    is_bot = filters.BooleanFilter(field_name="player__is_bot")
    provisional = filters.BooleanFilter(field_name="is_provisional")
    family = filters.ChoiceFilter(choices=[(f, f) for f in RATING_FAMILIES])

    class Meta:
        model = Rating
        fields = ["club", "family", "player", "system"]


@extend_schema(tags=["ratings"])
class RatingViewSet(ReadViewSet):
    """Current ratings, one per player, club and game family. Read-only for everyone."""

    queryset = selectors.rating_list()
    serializer_class = RatingOutput
    filterset_class = RatingFilter
    search_fields = ["player__display_name"]
    ordering_fields = ["rating", "rd", "games", "last_played_at"]
    ordering = ["club", "family", "-rating", "player"]

    @extend_schema(parameters=[LeaderboardQuery], responses=LeaderboardOutput)
    @action(detail=False, methods=["get"], filter_backends=[], pagination_class=None)
    def leaderboard(self, request: Request) -> Response:
        query = LeaderboardQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        club = _club(query.validated_data["club"])
        family = query.validated_data["family"]
        entries = selectors.leaderboard(
            club, family, include_provisional=query.validated_data["include_provisional"]
        )
        payload = {
            "club": club.pk, "club_slug": club.slug, "family": family,
            "system": club_rating_config(club).system, "entries": entries,
        }
        return Response(LeaderboardOutput(payload).data)


@extend_schema(
    tags=["ratings"],
    parameters=[
        OpenApiParameter("family", str, enum=list(RATING_FAMILIES)),
        OpenApiParameter("club", int),
    ],
)
class RatingHistoryViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """A player's rating changes, oldest first (``?family=``, ``?club=`` narrow them)."""

    serializer_class = RatingChangeOutput
    filter_backends: list[Any] = []

    def get_queryset(self) -> Any:
        player = get_object_or_404(Player, pk=self.kwargs["player_pk"])
        family = self.request.query_params.get("family") or None
        club = self.request.query_params.get("club") or None
        if club is not None and not is_id(club):
            raise ApplicationError(_("Club must be a club id, not %(club)r.") % {"club": club},
                                   field="club")
        return selectors.rating_history(player, family, int(club) if club else None)


class RatingSettingsInput(serializers.Serializer[Any]):
    rating_settings = serializers.JSONField(
        help_text=_lazy('{"system": "glicko2"} (the default) or {"system": "elo"}, with the '
                        "parameters of either."))


class RatingSettingsOutput(serializers.Serializer[Any]):
    club = serializers.IntegerField()
    rating_settings = serializers.JSONField()
    system = serializers.CharField()


@extend_schema(tags=["ratings"], request=RatingSettingsInput, responses=RatingSettingsOutput)
@api_view(["PUT"])
def club_rating_settings(request: Request, pk: int) -> Response:
    """Set a club's rating system and parameters; the club's pools are rebuilt under them
    (organizers of the club)."""
    club = get_object_or_404(Club, pk=pk)
    data = RatingSettingsInput(data=request.data)
    data.is_valid(raise_exception=True)
    club = services.club_rating_settings_update(
        actor=request.user, club=club, rating_settings=data.validated_data["rating_settings"])
    return Response(RatingSettingsOutput({
        "club": club.pk, "rating_settings": club.rating_settings,
        "system": club_rating_config(club).system}).data)


def _club(value: str) -> Club:
    club = Club.objects.filter(slug=value).first()
    if club is None and value.isascii() and value.isdigit():
        club = Club.objects.filter(pk=int(value)).first()
    if club is None:
        raise ApplicationError(_("No club with id or slug %(club)r.") % {"club": value},
                               field="club")
    return club


router = SimpleRouter()
router.register("ratings", RatingViewSet, basename="rating")
router.register(
    rf"players/(?P<player_pk>{ID_PATTERN})/rating-history", RatingHistoryViewSet,
    basename="player-rating-history",
)
urlpatterns = [
    path("clubs/<int:pk>/rating-settings/", club_rating_settings, name="club-rating-settings"),
    *router.urls,
]
