"""The players' report page under their private link (``/p/<token>/report/``)."""

from django.urls import path

from reporting import views

app_name = "reporting"

urlpatterns = [
    path("p/<str:token>/report/", views.report_page, name="report"),
]
