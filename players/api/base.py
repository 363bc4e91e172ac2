"""The one read-only viewset base of the API: every app's list and detail endpoints build on
it (writes are added by subclasses, through services)."""

from __future__ import annotations

from typing import Any

from rest_framework import mixins, status, viewsets
from rest_framework.request import Request
from rest_framework.response import Response

from config.ids import ID_PATTERN


class ReadViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """List and detail for everyone; subclasses add writes through services."""

    input_serializer: type[Any]
    lookup_value_regex = ID_PATTERN  # not \d: int() and the lookups read any script's digits

    def parse(self, request: Request, *, partial: bool = False) -> dict[str, Any]:
        serializer = self.input_serializer(data=request.data, partial=partial)
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)

    def answer(self, obj: Any, code: int = status.HTTP_200_OK) -> Response:
        return Response(self.get_serializer(obj).data, status=code)
