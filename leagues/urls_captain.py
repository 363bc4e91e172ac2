"""Captains' private pages (leagues/views_captain.py), under ``/league/captain/<token>/``."""

from django.urls import path

from leagues import views_captain as views

app_name = "league-captain"

urlpatterns = [
    path("league/captain/<str:token>/", views.captain_page, name="page"),
    path("league/captain/<str:token>/match/<int:match_id>/lineup/", views.lineup_post,
         name="lineup"),
    path("league/captain/<str:token>/availability/", views.availability_post,
         name="availability"),
    path("league/captain/<str:token>/reserves/", views.reserve_post, name="reserve"),
    path("league/captain/<str:token>/language/", views.captain_language, name="language"),
    # Anything else under the prefix is refused like an unknown token (and counted).
    path("league/captain/<path:rest>", views.not_a_link, name="not-a-link"),
]
