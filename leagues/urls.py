"""The public league pages, mounted at /leagues/."""

from django.urls import path

from leagues import views

app_name = "leagues"

urlpatterns = [
    path("", views.league_list, name="league-list"),
    path("<slug:slug>/", views.league_detail, name="league-detail"),
    path("<slug:slug>/<int:number>/", views.season_detail, name="season-detail"),
    path("<slug:slug>/<int:number>/results/", views.season_results, name="season-results"),
    path("<slug:slug>/<int:number>/ratings/", views.season_ratings, name="season-ratings"),
    path("<slug:slug>/<int:number>/matches/<int:match>/", views.match_detail,
         name="match-detail"),
    path("<slug:slug>/<int:number>/matches/<int:match>/results/", views.match_results,
         name="match-results"),
    path("<slug:slug>/<int:number>/teams/<int:team>/", views.team_detail, name="team-detail"),
]
