from typing import Any

from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from django.utils.csp import CSP
from django.views.decorators.csp import csp_override
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerSplitView,
)

from config.api_index import api_index
from config.auth import ThrottledObtainAuthToken
from config.health import healthz

# Swagger UI and ReDoc come from drf-spectacular-sidecar's static files (SPECTACULAR_SETTINGS),
# so the docs work offline and under the site's own Content-Security-Policy: Swagger UI's
# start-up script is a separate request (the split view), ReDoc's page has no inline script.
# ReDoc alone needs two more sources: its search runs in a worker made from a blob, and its
# footer shows Redocly's logo from their server (hidden when offline).
redoc_policy: dict[str, Any] = dict(settings.SECURE_CSP)
redoc_policy.update({
    "worker-src": [CSP.SELF, "blob:"],
    "img-src": [CSP.SELF, "data:", "https://cdn.redoc.ly"],
})
redoc_view = csp_override(redoc_policy)(
    SpectacularRedocView.as_view(url_name="schema", template_name="api/redoc.html"))
api_patterns: list[Any] = [
    path("", api_index, name="api-index"),
    path("", include("players.api.urls")),
    path("", include("tournaments.api.urls")),
    path("", include("matches.api.urls")),
    path("", include("analysis.urls")),
    path("", include("botruns.api")),
    path("", include("ratings.api")),
    path("auth/token/", ThrottledObtainAuthToken.as_view(), name="api-token"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="docs"),
    path("redoc/", redoc_view, name="redoc"),
]

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include(api_patterns)),
    path("healthz", healthz, name="healthz"),
    path("i18n/", include("django.conf.urls.i18n")),  # set_language: the language switch
    path("", include("leagues.urls_captain")),  # /league/captain/<token>/: captains' pages
    path("", include("reporting.urls")),  # /p/<token>/report/: players report results
    path("", include("phoneclock.urls")),  # /clock/... and /p/<token>/clock/
    path("leagues/", include("leagues.urls")),  # the public league pages
    # last of the /p/ pages: it refuses every other /p/ path like an unknown token
    path("", include("playerlinks.urls")),  # /p/<token>/, /me/links/, /kiosk/<id>/
    path("", include("signup.urls")),  # the public sign-up and its status pages
    path("", include("notices.urls")),  # calendars, embeds, the venue screen, opt-out
    path("", include("pages.urls")),
]
