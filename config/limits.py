"""Limits at the edge, before any view runs: the size of a request body, the nesting of a
JSON body and NUL characters in the query string. All answer JSON (the shape of
``core.errors``), for every path.

Django would refuse a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` only when a view reads it,
with an HTML 400; PostgreSQL refuses a NUL in a text value with a 500. This middleware
answers ``413`` when ``Content-Length`` exceeds ``API_MAX_BODY_BYTES`` and ``400`` naming
the parameter for a NUL, and ``400`` for a JSON body nested deeper than
``core.json_depth.MAX_JSON_DEPTH`` levels (every JSON parser would recurse once per level,
and a view that ignores its body would act on it), and nothing else runs.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import translation
from django.utils.translation import gettext

from core.json_depth import nesting_overflow, too_deep_message


def error_response(message: str, *, status: int, code: str,
                   field: str | None = None) -> JsonResponse:
    errors = {field or "non_field_errors": [message]}
    return JsonResponse({"detail": message, "code": code, "errors": errors}, status=status)


class RequestLimitsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        refusal = self._refusal(request)
        return refusal if refusal is not None else self.get_response(request)

    def _refusal(self, request: HttpRequest) -> HttpResponse | None:
        # This runs before LocaleMiddleware: the refusal reads the language itself.
        with translation.override(translation.get_language_from_request(request)):
            return self._check(request)

    def _check(self, request: HttpRequest) -> HttpResponse | None:
        limit = int(settings.API_MAX_BODY_BYTES)
        declared = request.META.get("CONTENT_LENGTH") or "0"
        try:
            length = int(declared)
        except ValueError:
            return error_response(
                gettext("Content-Length %(value)r is not a number.") % {"value": declared[:40]},
                status=400, code="invalid")
        if length > limit:
            return error_response(
                gettext("The request body has %(length)d bytes; at most %(limit)d bytes are "
                        "accepted.") % {"length": length, "limit": limit},
                status=413, code="too_large",
            )
        for name, values in request.GET.lists():
            if "\x00" in name or any("\x00" in value for value in values):
                shown = name.replace("\x00", "\\u0000")
                return error_response(
                    gettext("Query parameter %(name)r contains a NUL character.")
                    % {"name": shown}, status=400, code="invalid", field=shown)
        if _is_json(request) and nesting_overflow(request.body) is not None:
            return error_response(too_deep_message(), status=400, code="parse_error")
        return None


def _is_json(request: HttpRequest) -> bool:
    kind = (request.content_type or "").lower()
    return kind == "application/json" or kind.endswith("+json")
