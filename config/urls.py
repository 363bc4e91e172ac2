from typing import Any

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from config.auth import ThrottledObtainAuthToken
from config.health import healthz

api_patterns: list[Any] = [
    path("", include("players.api.urls")),
    path("", include("tournaments.api.urls")),
    path("", include("matches.api.urls")),
    path("", include("botruns.api")),
    path("", include("ratings.api")),
    path("auth/token/", ThrottledObtainAuthToken.as_view(), name="api-token"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
]

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include(api_patterns)),
    path("healthz", healthz, name="healthz"),
    path("", include("pages.urls")),
]
