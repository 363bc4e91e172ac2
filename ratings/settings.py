"""A club's rating system and its parameters (``Club.rating_settings``), read and checked."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from core.errors import ApplicationError
from players.models import Club
from ratings.maths.elo_bulk import EloSettings
from ratings.maths.errors import RatingError
from ratings.maths.glicko2 import Glicko2Config
from ratings.models import RatingSystem

_GLICKO2_KEYS = {
    "initial_rating", "initial_rd", "initial_volatility", "tau", "period_days", "provisional_rd",
}
_ELO_KEYS = {"initial_rating", "k", "provisional_games"}
#: The range of each setting a club may choose (lowest, highest, lowest included): wide
#: enough for any real rating list, narrow enough that the maths stay finite (a tau of
#: 1e308 once made every result entry of its club fail).
_RANGES: dict[str, tuple[float, float, bool]] = {
    "initial_rating": (100.0, 4000.0, True),
    "initial_rd": (45.0, 1000.0, True),
    "initial_volatility": (0.0, 1.0, False),
    "tau": (0.0, 3.0, False),
    "period_days": (0.0, 3650.0, False),
    "provisional_rd": (0.0, 1000.0, False),
    "k": (1, 100, True),
    "provisional_games": (0, 1000, True),
}


@dataclass(frozen=True, slots=True)
class RatingConfig:
    """The rating system a club uses, with its parameters."""

    system: str = RatingSystem.GLICKO2
    glicko2: Glicko2Config = field(default_factory=Glicko2Config)
    elo: EloSettings = field(default_factory=EloSettings)

    @property
    def initial_rating(self) -> float:
        if self.system == RatingSystem.ELO:
            return self.elo.initial_rating
        return self.glicko2.initial_rating

    def is_provisional(self, rd: float | None, games: int) -> bool:
        if self.system == RatingSystem.ELO:
            return games < self.elo.provisional_games
        return rd is None or rd >= self.glicko2.provisional_rd


def rating_error_message(error: RatingError) -> str:
    """The rating maths' error in the active language (its template translated, then
    filled in)."""
    text = _(error.template)
    return text % error.params if error.params else text


def rating_config_parse(settings: Any) -> RatingConfig:
    """Read and check ``Club.rating_settings``; an :class:`ApplicationError` names the field.

    ``{"system": "glicko2"}`` (the default) accepts the :class:`Glicko2Config` parameters,
    ``{"system": "elo"}`` accepts ``initial_rating``, ``k`` and ``provisional_games``.
    """
    if settings in (None, ""):
        settings = {}
    if not isinstance(settings, Mapping):
        raise ApplicationError(
            _('Rating settings must be a JSON object, for example {"system": "glicko2"}.'),
            field="rating_settings",
        )
    system = settings.get("system", RatingSystem.GLICKO2)
    if system not in RatingSystem.values:
        raise ApplicationError(
            _("Unknown rating system %(system)r; choose one of %(systems)s.")
            % {"system": system, "systems": ", ".join(RatingSystem.values)},
            field="rating_settings.system",
        )
    allowed = _ELO_KEYS if system == RatingSystem.ELO else _GLICKO2_KEYS
    for key in settings:
        if key != "system" and key not in allowed:
            raise ApplicationError(
                _("Unknown %(system)s rating setting %(key)r; the settings are %(known)s.")
                % {"system": system, "key": key, "known": ", ".join(sorted(allowed))},
                field=f"rating_settings.{key}",
            )
    values = {key: value for key, value in settings.items() if key != "system"}
    if system == RatingSystem.ELO:
        return RatingConfig(system=system, elo=_elo_settings(values))
    for key, value in values.items():
        _check_number(key, value, positive=key != "initial_rating")
    try:
        return RatingConfig(system=system, glicko2=Glicko2Config(**values))
    except RatingError as error:
        raise ApplicationError(_("Rating settings: %(problem)s.")
                               % {"problem": rating_error_message(error)},
                               field="rating_settings") from None


def _elo_settings(values: Mapping[str, Any]) -> EloSettings:
    if "initial_rating" in values:
        _check_number("initial_rating", values["initial_rating"], positive=True)
    for key in ("k", "provisional_games"):
        if key not in values:
            continue
        value = values[key]
        if key == "k" and value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or value < (key == "k"):
            text = (_("Rating setting %(key)r must be a whole number of 1 or more, not "
                      "%(value)r.") if key == "k" else
                    _("Rating setting %(key)r must be a whole number, 0 or more, not "
                      "%(value)r."))
            raise ApplicationError(
                text % {"key": key, "value": value},
                field=f"rating_settings.{key}",
            )
        _check_range(key, value)
    return EloSettings(**values)


def _check_number(key: str, value: Any, *, positive: bool) -> None:
    ok = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
    if ok and positive:
        ok = value > 0
    if not ok:
        text = (_("Rating setting %(key)r must be a positive number, not %(value)r.")
                if positive else
                _("Rating setting %(key)r must be a finite number, not %(value)r."))
        raise ApplicationError(
            text % {"key": key, "value": value},
            field=f"rating_settings.{key}",
        )
    _check_range(key, value)


def _check_range(key: str, value: Any) -> None:
    low, high, low_included = _RANGES[key]
    if (value >= low if low_included else value > low) and value <= high:
        return
    text = (_("Rating setting %(key)r must be from %(low)g up to %(high)g, not %(value)r.")
            if low_included else
            _("Rating setting %(key)r must be above %(low)g up to %(high)g, not %(value)r."))
    raise ApplicationError(
        text % {"key": key, "low": low, "high": high, "value": value},
        field=f"rating_settings.{key}",
    )


def club_rating_config(club: Club) -> RatingConfig:
    return rating_config_parse(club.rating_settings)
