from rest_framework.routers import SimpleRouter

from tournaments.api.views import RoundViewSet, TournamentViewSet

# Trailing slashes optional, so that /tournaments/1/export.trf reads like a file name.
router = SimpleRouter()
router.trailing_slash = "/?"
router.register("tournaments", TournamentViewSet, basename="tournament")
router.register("rounds", RoundViewSet, basename="round")

urlpatterns = router.urls
