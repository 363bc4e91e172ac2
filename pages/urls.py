"""Public, server-rendered pages: tournaments, players, games and leaderboards."""

from django.urls import path

from pages import list_views, views

app_name = "pages"

urlpatterns = [
    path("", views.home, name="home"),
    path("tournaments/", views.tournament_list, name="tournament-list"),
    path("tournaments/<slug:club>/<slug:slug>/", views.tournament_detail,
         name="tournament-detail"),
    path("tournaments/<slug:club>/<slug:slug>/results/", views.tournament_results,
         name="tournament-results"),
    path("tournaments/<slug:club>/<slug:slug>/rounds/<int:number>/", views.tournament_round,
         name="tournament-round"),
    path("tournaments/<slug:club>/<slug:slug>/rounds/<int:number>/results/",
         views.tournament_round_results, name="tournament-round-results"),
    path("tournaments/<slug:club>/<slug:slug>/table/", views.tournament_table,
         name="tournament-table"),
    path("tournaments/<slug:club>/<slug:slug>/table/results/", views.tournament_table_results,
         name="tournament-table-results"),
    path("tournaments/<slug:club>/<slug:slug>/teams/<int:team>/", views.team_detail,
         name="team-detail"),
    path("tournaments/<slug:club>/<slug:slug>/lists/", list_views.starting_list,
         name="tournament-lists"),
    path("tournaments/<slug:club>/<slug:slug>/lists/rounds/<int:number>/by-name/",
         list_views.by_name, name="tournament-by-name"),
    path("tournaments/<slug:club>/<slug:slug>/lists/standings/", list_views.standings_after,
         name="tournament-standings-last"),
    path("tournaments/<slug:club>/<slug:slug>/lists/standings/<int:number>/",
         list_views.standings_after, name="tournament-standings-after"),
    path("tournaments/<slug:club>/<slug:slug>/lists/wall-chart/", list_views.wall_chart,
         name="tournament-wall-chart"),
    path("tournaments/<slug:club>/<slug:slug>/entrants/<int:entrant>/", list_views.player_card,
         name="tournament-card"),
    path("tournaments/<slug:club>/<slug:slug>/prizes/", list_views.prizes,
         name="tournament-prizes"),
    path("tournaments/<slug:club>/<slug:slug>/prizes.csv", list_views.prizes_csv,
         name="tournament-prizes-csv"),
    path("tournaments/<slug:club>/<slug:slug>/live.json", views.tournament_live,
         name="tournament-live"),
    path("players/<int:pk>/", views.player_detail, name="player-detail"),
    path("games/<int:pk>/", views.game_detail, name="game-detail"),
    path("leaderboards/", views.leaderboard_index, name="leaderboard-index"),
    path("leaderboards/<slug:family>/", views.leaderboard, name="leaderboard"),
]
