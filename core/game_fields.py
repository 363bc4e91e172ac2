"""A model field holding a game's registered name (``anti-kazambi-pairs``) that people see
as the game's label from its facts (``Anti-Kazambi pairs``, translated): in admin lists,
filters, forms and ``get_<field>_display``.

The labels are presentation only: to migrations the field stays the plain CharField with
the names as their own choices, so a label or its translation never asks for a migration.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import models

from core.engine_messages import game_label_lazy


class GameNameField(models.CharField):  # type: ignore[type-arg]
    def __init__(self, *args: Any, names: Sequence[str] = (), **kwargs: Any) -> None:
        self.names = tuple(names)
        if self.names:
            kwargs["choices"] = [(name, game_label_lazy(name)) for name in self.names]
        super().__init__(*args, **kwargs)

    def deconstruct(self) -> Any:
        name, _path, args, kwargs = super().deconstruct()
        if self.names:
            kwargs["choices"] = [(game, game) for game in self.names]
        return name, "django.db.models.CharField", args, kwargs
