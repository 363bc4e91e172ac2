"""A signed-in user's language: stored when they use the switch, set again at login.

Django's ``set_language`` view keeps the choice in the language cookie; for a signed-in
user this middleware stores it too (:func:`pages.services.remember_language`), and at each
login (``user_logged_in``, see :mod:`pages.apps`) sets the cookie to the stored language, so
the choice follows the user to another browser.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import check_for_language

from pages import services

#: Set on the request by the ``user_logged_in`` receiver: the user's stored language.
LOGIN_LANGUAGE = "_language_at_login"


class LanguagePreferenceMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self._switch_path: str | None = None

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.method == "POST" and response.status_code in (302, 204):
            self._remember(request)
        language = getattr(request, LOGIN_LANGUAGE, None)
        if language:
            set_language_cookie(response, language)
        return response

    def _remember(self, request: HttpRequest) -> None:
        if self._switch_path is None:
            self._switch_path = reverse("set_language")
        user = getattr(request, "user", None)
        if request.path != self._switch_path or user is None or not user.is_authenticated:
            return
        language = request.POST.get("language", "")
        if language in dict(settings.LANGUAGES) and check_for_language(language):
            services.remember_language(actor=user, language=language)


def set_language_cookie(response: HttpResponse, language: str) -> None:
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME, language, max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH, domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE, httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,  # type: ignore[arg-type]  # "Lax"
    )
