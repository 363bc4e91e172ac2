"""Opt-out links, calendar feeds, embeds and the venue screen (mounted at the site's root
by config/urls.py, beside the public pages' URLs)."""

from django.urls import path

from notices import views

app_name = "notices"

urlpatterns = [
    path("notices/opt-out/<str:token>/", views.opt_out, name="opt-out"),
    path("tournaments/<slug:club>/<slug:slug>/calendar.ics", views.tournament_calendar,
         name="tournament-calendar"),
    path("tournaments/<slug:club>/<slug:slug>/teams/<int:team>/calendar.ics",
         views.team_calendar, name="team-calendar"),
    path("players/<int:pk>/calendar.ics", views.player_calendar, name="player-calendar"),
    path("tournaments/<slug:club>/<slug:slug>/screen/", views.screen, name="screen"),
    path("tournaments/<slug:club>/<slug:slug>/screen/part/", views.screen_part,
         name="screen-part"),
    path("embed/<slug:club>/<slug:slug>/<str:kind>/", views.embed, name="embed"),
    path("embed/<slug:club>/<slug:slug>/<str:kind>/part/", views.embed_part,
         name="embed-part"),
]
