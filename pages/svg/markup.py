"""Small helpers to write SVG text: escaping, numbers, elements. Pure Python."""

from __future__ import annotations

from html import escape
from typing import Protocol


class Texts(Protocol):
    """Where the drawings' words are translated: ``django.utils.translation`` in the pages
    (the pure code never imports it), :data:`ENGLISH` by default."""

    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, singular: str, plural: str, number: int, /) -> str: ...

    def pgettext(self, context: str, message: str, /) -> str: ...


class _English:
    """The texts as written: English."""

    def gettext(self, message: str, /) -> str:
        return message

    def ngettext(self, singular: str, plural: str, number: int, /) -> str:
        return singular if number == 1 else plural

    def pgettext(self, context: str, message: str, /) -> str:
        return message


ENGLISH: Texts = _English()


def esc(text: object) -> str:
    """Text safe inside an element or a double-quoted attribute."""
    return escape(str(text), quote=True)


def num(value: float) -> str:
    """A coordinate with at most one decimal: ``12``, ``12.5``."""
    rounded = round(float(value), 1)
    return str(int(rounded)) if rounded == int(rounded) else str(rounded)


def attrs(**values: object) -> str:
    """Attributes from keywords (``class_`` for ``class``, ``_`` for ``-``); None is left out."""
    parts = []
    for key, value in values.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        text = num(value) if isinstance(value, float | int) and not isinstance(value, bool) \
            else esc(value)
        parts.append(f'{name}="{text}"')
    return " ".join(parts)


def element(tag: str, content: str = "", **values: object) -> str:
    """``<tag attrs>content</tag>``; ``content`` is markup (escape text with :func:`esc`)."""
    attributes = attrs(**values)
    opening = f"<{tag} {attributes}" if attributes else f"<{tag}"
    return f"{opening}>{content}</{tag}>" if content else f"{opening}/>"


def text(x: float, y: float, label: object, **values: object) -> str:
    return element("text", esc(label), x=x, y=y, **values)


def svg_document(
    width: float, height: float, body: str, *, title: str, description: str = "",
    class_: str = "", id_prefix: str = "svg",
) -> str:
    """An accessible inline SVG: ``role="img"`` with a title (and description) it is
    labelled by; it scales down to its container's width and keeps its proportions."""
    title_id, desc_id = f"{id_prefix}-title", f"{id_prefix}-desc"
    labelled = f"{title_id} {desc_id}" if description else title_id
    head = element("title", esc(title), id=title_id)
    if description:
        head += element("desc", esc(description), id=desc_id)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" '
        f'{attrs(viewBox=f"0 0 {num(width)} {num(height)}", width=width, height=height)} '
        f'{attrs(role="img", aria_labelledby=labelled, class_=class_ or None)}>'
        f"{head}{body}</svg>"
    )


def truncate(label: str, limit: int) -> str:
    """``label`` cut to ``limit`` characters with an ellipsis when longer."""
    return label if len(label) <= limit else label[: max(1, limit - 1)].rstrip() + "…"
