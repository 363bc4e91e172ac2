from rest_framework.routers import SimpleRouter

from players.api.views import ClubViewSet, PlayerViewSet, TeamViewSet

router = SimpleRouter()
router.register("clubs", ClubViewSet, basename="club")
router.register("players", PlayerViewSet, basename="player")
router.register("teams", TeamViewSet, basename="team")

urlpatterns = router.urls
