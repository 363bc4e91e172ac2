"""Display filters for the public pages, in the active language's style."""

from __future__ import annotations

from decimal import Decimal

from django import template
from django.utils import formats
from django.utils.translation import gettext, gettext_lazy

from pages import selectors

register = template.Library()


def points_text(value: object) -> str:
    """Points as chess results print them: ``1``, ``1½``, ``½``; other fractions as a
    number in the language's style (``12.25``, in Russian ``12,25``); None -> ``–``."""
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
    shown = f"{number:.2f}".rstrip("0")
    places = len(shown.partition(".")[2])
    return formats.number_format(round(number, places), decimal_pos=places)


@register.filter
def points(value: object) -> str:
    """``1.0`` -> ``1``, ``1.5`` -> ``1½``, ``0.5`` -> ``½``; None -> ``–``."""
    return points_text(value)


@register.filter
def decimal_points(value: object) -> str:
    """Points as a plain number in the language's style: ``5.5`` (Russian ``5,5``)."""
    if not isinstance(value, int | float | Decimal):
        return points_text(value)
    number = float(value)
    if number == int(number):
        return str(int(number))
    return formats.number_format(number, decimal_pos=2 if round(number * 2) != number * 2
                                 else 1)


@register.filter
def count(value: object) -> str:
    """A count with the language's thousands separator (``12,345``; Russian ``12 345``)."""
    if not isinstance(value, int):
        return "–" if value is None else str(value)
    return formats.number_format(value, force_grouping=True)


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
        return gettext("%(hours)d h %(minutes)02d min") % {"hours": hours, "minutes": minutes}
    if minutes:
        return gettext("%(minutes)d min %(seconds)02d s") % {"minutes": minutes,
                                                             "seconds": secs}
    return gettext("%(seconds)d s") % {"seconds": secs}


ENTRY_KINDS = {
    "pairing_bye": gettext_lazy("pairing-allocated bye"),
    "full_bye": gettext_lazy("full-point bye"),
    "half_bye": gettext_lazy("half-point bye"),
    "zero_bye": gettext_lazy("zero-point bye (did not play)"),
    "forfeit_win": gettext_lazy("won by forfeit"),
    "forfeit_loss": gettext_lazy("lost by forfeit"),
    "played": gettext_lazy("played"),
}


@register.filter
def humanize_kind(kind: object) -> str:
    """A round-by-round entry kind in words (``half_bye`` -> ``half-point bye``)."""
    known = ENTRY_KINDS.get(str(kind))
    return str(known) if known is not None else str(kind).replace("_", " ")


@register.filter
def game_name(game: object) -> str:
    """A game's label in the active language (``kazambi-pairs`` -> ``Kazambi pairs``)."""
    return selectors.game_name(str(game))


@register.filter
def index(sequence: object, position: int) -> object:
    try:
        return sequence[position]  # type: ignore[index]
    except (IndexError, KeyError, TypeError):
        return None


@register.simple_tag
def language_choices() -> list[tuple[str, str]]:
    """The languages of the switch, each named in itself ("English", "Русский")."""
    from django.conf import settings

    return [(code, str(name)) for code, name in settings.LANGUAGES]

