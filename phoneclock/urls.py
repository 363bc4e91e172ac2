from django.urls import path

from phoneclock import views

app_name = "phoneclock"

urlpatterns = [
    path("clock/sw.js", views.service_worker, name="sw"),
    path("clock/board/<int:pairing_id>/<int:game>/", views.board_clock, name="board"),
    path("clock/board/<int:pairing_id>/<int:game>/taps/", views.board_taps, name="board-taps"),
    path("clock/follow/<str:token>/", views.follow, name="follow"),
    path("clock/follow/<str:token>/state/", views.follow_state, name="follow-state"),
    path("p/<str:token>/clock/", views.link_clock, name="link"),
    path("p/<str:token>/clock/taps/", views.link_taps, name="link-taps"),
    path("p/<str:token>/clock/agree/", views.link_agree, name="link-agree"),
]
