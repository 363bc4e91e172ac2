"""The one application error type, and its translation into API responses.

Services raise :class:`ApplicationError` (or Django's ``ValidationError`` from
``full_clean``) for bad input; the API turns both into 400 responses with field errors
(409 for a stale write, 429 with ``Retry-After`` for a spent budget).
"""

from __future__ import annotations

import math
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler


class ApplicationError(Exception):
    """A user error: shown to the organizer as it is, and nothing was changed.

    ``field`` names the input field at fault, when there is one.
    """

    def __init__(self, message: str, *, field: str | None = None, code: str = "invalid") -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.code = code

    def as_dict(self) -> dict[str, Any]:
        errors = {self.field or "non_field_errors": [self.message]}
        return {"detail": self.message, "code": self.code, "errors": errors}


class ConflictError(ApplicationError):
    """The object changed since the client read it (a stale write)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, code="stale")


class LimitError(ApplicationError):
    """Refused for now: a budget the request draws on is spent. Nothing was done; the
    client may try again after ``retry_after`` seconds (a ``429`` with ``Retry-After``)."""

    def __init__(self, message: str, *, retry_after: float, code: str = "limited") -> None:
        super().__init__(message, code=code)
        self.retry_after = max(1, math.ceil(retry_after))

    def as_dict(self) -> dict[str, Any]:
        return {**super().as_dict(), "retry_after": self.retry_after}


def _validation_error_payload(error: DjangoValidationError) -> dict[str, Any]:
    if hasattr(error, "error_dict"):
        errors = {field: [str(m) for m in msgs] for field, msgs in error.message_dict.items()}
    else:
        errors = {"non_field_errors": [str(m) for m in error.messages]}
    first = next(iter(errors.values()))[0]
    return {"detail": first, "code": "invalid", "errors": errors}


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, LimitError):
        return Response(exc.as_dict(), status=status.HTTP_429_TOO_MANY_REQUESTS,
                        headers={"Retry-After": str(exc.retry_after)})
    if isinstance(exc, ConflictError):
        return Response(exc.as_dict(), status=status.HTTP_409_CONFLICT)
    if isinstance(exc, ApplicationError):
        return Response(exc.as_dict(), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, DjangoValidationError):
        return Response(_validation_error_payload(exc), status=status.HTTP_400_BAD_REQUEST)
    response = exception_handler(exc, context)
    if response is not None and isinstance(exc, exceptions.ParseError):
        detail = str(exc.detail)
        response.data = {"detail": detail, "code": "parse_error",
                         "errors": {"non_field_errors": [detail]}}
    if response is not None and isinstance(exc, exceptions.ValidationError):
        data = response.data
        errors = data if isinstance(data, dict) else {"non_field_errors": data}
        first = next(iter(errors.values()), [gettext("invalid input")])
        first_message = first[0] if isinstance(first, list) and first else str(first)
        response.data = {"detail": str(first_message), "code": "invalid", "errors": errors}
    return response
