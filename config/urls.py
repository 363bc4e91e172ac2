from typing import Any

from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from django.utils.csp import CSP
from django.views.decorators.csp import csp_override
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from config.auth import ThrottledObtainAuthToken
from config.health import healthz

# Swagger UI comes from its CDN; its start-up script is a separate request (the split view),
# so even here no inline script runs.
SWAGGER_CDN = "https://cdn.jsdelivr.net"
docs_policy: dict[str, Any] = dict(settings.SECURE_CSP)
docs_policy.update({
    "script-src": [CSP.SELF, SWAGGER_CDN],
    "style-src": [CSP.SELF, CSP.UNSAFE_INLINE, SWAGGER_CDN],
    "img-src": [CSP.SELF, "data:", SWAGGER_CDN],
})
docs_view = csp_override(docs_policy)(SpectacularSwaggerSplitView.as_view(url_name="schema"))

api_patterns: list[Any] = [
    path("", include("players.api.urls")),
    path("", include("tournaments.api.urls")),
    path("", include("matches.api.urls")),
    path("", include("botruns.api")),
    path("", include("ratings.api")),
    path("auth/token/", ThrottledObtainAuthToken.as_view(), name="api-token"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", docs_view, name="docs"),
]

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include(api_patterns)),
    path("healthz", healthz, name="healthz"),
    path("", include("pages.urls")),
]
