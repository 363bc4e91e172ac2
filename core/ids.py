"""Only ASCII digits are ids.

Python's ``int()`` reads every Unicode decimal digit (``int("٣") == 3``), and so do
Django's and DRF's lookups: without these checks ``/api/players/٣/`` was player 3 and
``?club=٣`` filtered by club 3. URL patterns take :data:`ID_PATTERN` (not ``\\d``, which
matches any script's digits), and the list filters refuse any other id with a 400."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from django_filters.rest_framework import DjangoFilterBackend, FilterSet
from django_filters.utils import get_model_field

ID_PATTERN = "[0-9]+"


def is_id(text: str) -> bool:
    """Whether ``text`` is written as an id: ASCII digits only."""
    return text.isascii() and text.isdigit()


class IdFilterSet(FilterSet):
    """A filter set whose filters on ids (relations and primary keys) take ASCII digits
    only: the base of every API filter set."""

    def is_valid(self) -> bool:
        valid = super().is_valid()
        for name, filter_ in self.filters.items():
            field = get_model_field(self._meta.model, filter_.field_name)
            if field is None or not (field.is_relation or getattr(field, "primary_key", False)):
                continue
            values = self.data.getlist(name) if hasattr(self.data, "getlist") else [
                self.data.get(name)]
            bad = next((value for value in values
                        if isinstance(value, str) and value and not is_id(value)), None)
            if bad is not None:
                self.form.add_error(name, gettext("%(value)r is not an id (ASCII digits).")
                                    % {"value": bad})
                valid = False
        return valid


class IdFilterBackend(DjangoFilterBackend):
    """The API's filter backend: ``filterset_fields`` build on :class:`IdFilterSet`."""

    filterset_base: Any = IdFilterSet
