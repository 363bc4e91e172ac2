from django.urls import path

from analysis.api import GameAnalysisView, PositionAnalysisView

urlpatterns = [
    path("analysis/", PositionAnalysisView.as_view(), name="position-analysis"),
    path("games/<int:pk>/analysis/", GameAnalysisView.as_view(), name="game-analysis"),
]
