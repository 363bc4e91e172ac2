"""Errors of the pure tournament cores whose text people read: the English template,
marked with ``games.i18n.N_``, and its parameters apart, so that a Django shell can
translate the template and then fill it in (``tournaments.texts.core_error_message``).
``str(error)`` is the English text."""

from __future__ import annotations


def N_plural(singular: str, plural: str) -> tuple[str, str]:  # noqa: N802 - like N_
    """Mark a text with plural forms (chosen by the ``count`` parameter) for the catalogue."""
    return singular, plural


class MarkedError(ValueError):
    """A core's user error: ``template % params`` in English, translatable by a shell.

    ``template`` may be an :func:`N_plural` pair; ``plural`` is then its plural form and
    ``params["count"]`` chooses between them."""

    def __init__(self, template: str | tuple[str, str], /, **params: object) -> None:
        self.template, self.plural = template if isinstance(template, tuple) else (template, "")
        self.params = params
        count = params.get("count")
        english = self.plural if self.plural and count != 1 else self.template
        super().__init__(english % params if params else english)
