"""``GET /api/``: the API's index, a map of its collections and documents."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.routers import SimpleRouter

from botruns.api import router as botruns_router
from matches.api.urls import router as matches_router
from players.api.urls import router as players_router
from ratings.api import router as ratings_router
from tournaments.api.urls import router as tournaments_router

ROUTERS: tuple[SimpleRouter, ...] = (players_router, tournaments_router, matches_router,
                                     botruns_router, ratings_router)
DOCUMENTS = {"schema": "schema", "docs": "docs", "redoc": "redoc", "auth_token": "api-token"}


@extend_schema(exclude=True)
@api_view(["GET"])
@permission_classes([AllowAny])
def api_index(request: Request) -> Response:
    """Every collection of the API (those with a list URL), then the schema and the docs."""
    index: dict[str, Any] = {}
    for router in ROUTERS:
        for prefix, _viewset, basename in router.registry:
            if "(?P<" in prefix:  # nested under an object, e.g. a player's rating history
                continue
            url = reverse(f"{basename}-list", request=request)
            index[prefix.replace("-", "_")] = url if url.endswith("/") else url + "/"
    index["clock_advice"] = reverse("clock-advice", request=request)
    index["analysis"] = reverse("position-analysis", request=request)
    for key, name in DOCUMENTS.items():
        index[key] = reverse(name, request=request)
    return Response(index)
