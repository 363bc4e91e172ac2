"""The public sign-up page (under the tournament's address) and the status page (under
its private token)."""

from django.urls import path

from signup import views

app_name = "signup"

urlpatterns = [
    path("tournaments/<slug:club>/<slug:slug>/sign-up/", views.signup_page, name="signup"),
    path("sign-up/<str:token>/", views.status_page, name="status"),
    path("sign-up/<str:token>/withdraw/", views.withdraw, name="withdraw"),
]
