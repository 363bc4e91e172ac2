"""Errors of the pure tournament cores whose text people read: the English template,
marked with ``games.i18n.N_``, and its parameters apart, so that a Django shell can
translate the template and then fill it in (``tournaments.texts.core_error_message``).
``str(error)`` is the English text."""

from __future__ import annotations


class MarkedError(ValueError):
    """A core's user error: ``template % params`` in English, translatable by a shell."""

    def __init__(self, template: str, /, **params: object) -> None:
        self.template = template
        self.params = params
        super().__init__(template % params if params else template)
