"""Players' private links: my page, its live part, check-in; my links; the kiosk."""

from django.urls import path

from playerlinks import views

app_name = "playerlinks"

urlpatterns = [
    path("p/<str:token>/", views.my_page, name="my-page"),
    path("p/<str:token>/live/", views.my_page_live, name="my-page-live"),
    path("p/<str:token>/check-in/", views.my_check_in, name="my-check-in"),
    path("p/<str:token>/language/", views.my_language, name="my-language"),
    # Anything else under /p/ (slashes in a "token", say) is refused the same way.
    path("p/<path:rest>", views.not_a_link, name="not-a-link"),
    path("me/links/", views.my_links, name="my-links"),
    path("kiosk/<int:tournament_id>/", views.kiosk, name="kiosk"),
]
