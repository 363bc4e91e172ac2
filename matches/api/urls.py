from django.urls import path
from rest_framework.routers import SimpleRouter

from matches.api.views import (
    GameViewSet,
    PairingGamesView,
    PairingViewSet,
    clock_advice,
    round_clock_advice,
)

router = SimpleRouter()
router.trailing_slash = "/?"
router.register("games", GameViewSet, basename="game")
router.register("pairings", PairingViewSet, basename="pairing")

urlpatterns = [
    path("pairings/<int:pk>/games/", PairingGamesView.as_view(), name="pairing-games"),
    path("rounds/<int:pk>/clock-advice/", round_clock_advice, name="round-clock-advice"),
    path("clock-advice/", clock_advice, name="clock-advice"),
    *router.urls,
]
