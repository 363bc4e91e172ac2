"""The one rule for names people give (players, teams, clubs, tournaments, TRF player
lines): a name holds no control character, and one that is not empty shows at least one
character. Pure: the TRF reader uses it, and the services of every app."""

from __future__ import annotations

import unicodedata

from games.i18n import N_

#: Characters that are letters or symbols to Unicode yet show nothing (Hangul fillers, the
#: blank Braille pattern, the Mongolian vowel separator); format characters (zero-width
#: spaces and joiners, direction marks and overrides, the soft hyphen, the BOM) and
#: whitespace are found by their category.
_BLANK_GLYPHS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e")


def _shows(char: str) -> bool:
    return not (char.isspace() or char in _BLANK_GLYPHS
                or unicodedata.category(char) in ("Cf", "Cc", "Cn", "Co", "Cs", "Zl", "Zp"))


def name_problem(name: str) -> str | None:
    """What is wrong with ``name`` (a text marked with ``N_``), or None. An empty name is
    the caller's to refuse or allow."""
    normalised = unicodedata.normalize("NFKC", name)
    if any(unicodedata.category(char) == "Cc" for char in normalised):
        return N_("the name holds a control character")
    if normalised.strip() and not any(_shows(char) for char in normalised):
        return N_("the name is made only of invisible characters")
    return None
