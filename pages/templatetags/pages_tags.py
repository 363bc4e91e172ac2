"""Display filters for the public pages."""

from __future__ import annotations

from decimal import Decimal

from django import template

from pages import selectors

register = template.Library()


@register.filter
def points(value: object) -> str:
    """``1.0`` -> ``1``, ``1.5`` -> ``1½``, ``0.5`` -> ``½``; None -> ``–``."""
    if value is None or value == "":
        return "–"
    if not isinstance(value, int | float | Decimal):
        return str(value)
    number = float(value)
    whole = int(number)
    fraction = round(number - whole, 2)
    if fraction == 0:
        return str(whole)
    if fraction == 0.5:
        return "½" if whole == 0 else f"{whole}½"
    return f"{number:.2f}".rstrip("0")


@register.filter
def rating(value: object) -> str:
    """A rating or deviation rounded to a whole number; None -> ``–``."""
    if value is None:
        return "–"
    try:
        return str(round(float(value)))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return str(value)


@register.filter
def seconds(value: object) -> str:
    """Seconds as ``1 h 02 min``, ``4 min 05 s`` or ``12 s``; None -> ``–``."""
    if value is None:
        return "–"
    try:
        total = int(round(float(value)))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return str(value)
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours} h {minutes:02d} min"
    if minutes:
        return f"{minutes} min {secs:02d} s"
    return f"{secs} s"


ENTRY_KINDS = {
    "pairing_bye": "pairing-allocated bye", "full_bye": "full-point bye",
    "half_bye": "half-point bye", "zero_bye": "zero-point bye (did not play)",
    "forfeit_win": "won by forfeit", "forfeit_loss": "lost by forfeit", "played": "played",
}


@register.filter
def humanize_kind(kind: object) -> str:
    """A round-by-round entry kind in words (``half_bye`` -> ``half-point bye``)."""
    return ENTRY_KINDS.get(str(kind), str(kind).replace("_", " "))


@register.filter
def game_name(game: object) -> str:
    """A game's label (``kazambi-pairs`` -> ``Kazambi pairs``)."""
    return selectors.game_name(str(game))


@register.filter
def index(sequence: object, position: int) -> object:
    try:
        return sequence[position]  # type: ignore[index]
    except (IndexError, KeyError, TypeError):
        return None
