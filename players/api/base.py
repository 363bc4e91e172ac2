"""The one read-only viewset base of the API: every app's list and detail endpoints build on
it (writes are added by subclasses, through services)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext
from rest_framework import mixins, status, viewsets
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from core.ids import ID_PATTERN


class ReadViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """List and detail for everyone; subclasses add writes through services."""

    input_serializer: type[Any]
    lookup_value_regex = ID_PATTERN  # not \d: int() and the lookups read any script's digits

    def parse(self, request: Request, *, partial: bool = False,
              input_serializer: type[Any] | None = None) -> dict[str, Any]:
        """The body through the input serializer; a field it does not take is a 400 naming
        the field (never dropped in silence)."""
        serializer = (input_serializer or self.input_serializer)(data=request.data,
                                                                 partial=partial)
        writable = {name for name, field in serializer.fields.items() if not field.read_only}
        if isinstance(request.data, Mapping):
            unknown = sorted(str(name) for name in request.data if name not in writable)
            if unknown:
                taken = ", ".join(sorted(writable))
                raise ValidationError({name: [gettext(
                    "This request cannot write %(field)s; it takes: %(fields)s.")
                    % {"field": name, "fields": taken}] for name in unknown})
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)

    def answer(self, obj: Any, code: int = status.HTTP_200_OK) -> Response:
        return Response(self.get_serializer(obj).data, status=code)
