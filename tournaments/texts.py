"""Texts of the pure tournament cores (TRF, entry lists, tie-breaks) in the active language.

The cores mark their texts with ``games.i18n.N_`` and keep the parameters apart; these
functions translate the template, then fill it in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from django.utils.translation import gettext, ngettext

from games.engines import UnknownGameError, game_facts
from games.series.format import MatchFormat
from tournaments.marked import MarkedError
from tournaments.pairing import edit_rules
from tournaments.standings.tiebreaks import TieBreak
from tournaments.trf import TrfError

if TYPE_CHECKING:
    from tournaments.pairing.knockout import Bracket


def core_text(template: str, params: Mapping[str, object] | None = None) -> str:
    """A core's marked ``template`` translated, filled with ``params`` (an error among them
    translated as well)."""
    text = gettext(template)
    if not params:
        return text
    return text % {name: core_error_message(value) if isinstance(value, BaseException)
                   else value for name, value in params.items()}


def trf_error_message(error: TrfError) -> str:
    """A TRF reader's error in the active language, with its line and column."""
    problem = core_text(error.template, dict(error.params))
    if error.line is None:
        return problem
    values = {"line": error.line, "column": error.column, "problem": problem}
    if error.column is None:
        return gettext("line %(line)d: %(problem)s") % values
    return gettext("line %(line)d, column %(column)d: %(problem)s") % values


def game_label(name: str) -> str:
    """A game's name as people read it (``Kugamai``), translated when the games mark it."""
    try:
        label = game_facts(name).label
    except UnknownGameError:
        return name
    return gettext(label)


def core_error_message(error: BaseException) -> str:
    """A pure core's error in the active language: a TRF error with its line, a
    :class:`~tournaments.marked.MarkedError` (pairing, entry lists) with its parameters
    translated too; any other error as its own text."""
    if isinstance(error, TrfError):
        return trf_error_message(error)
    if isinstance(error, MarkedError) and error.plural:
        count = error.params["count"]
        return ngettext(error.template, error.plural, count if isinstance(count, int) else 0) \
            % error.params
    if isinstance(error, MarkedError):
        return core_text(error.template, dict(error.params))
    return str(error)


def format_text(match_format: MatchFormat) -> str:
    """The match format in words (``best of 5``), translated when the games mark it."""
    description = getattr(match_format, "description", None)  # the games' marked Message
    if description is None:
        return match_format.describe()
    return str(description().render(gettext))


def tiebreak_name(tiebreak: type[TieBreak]) -> str:
    """A tie-break's name (``Buchholz Cut-1``) in the active language; FIDE's abbreviation
    (``BH-C1``) stays as it is."""
    return gettext(tiebreak.name)


def match_names(bracket: Bracket) -> dict[str, str]:
    """Every match of a knockout bracket by id, named as a director says it ("Final",
    "Third-place match", "Winners' round 1, match 2", "Grand final") in the active
    language: the one place the admin and the public pages take match names from (the
    pure core's :meth:`~tournaments.pairing.knockout.Bracket.label_template`)."""
    return {match_id: core_text(*bracket.label_template(match_id))
            for match_id in bracket.matches}


def game_options_text(options: Mapping[str, object]) -> str:
    """A tournament's game options in words (``board 7 × 8``, ``deck of 52 cards``,
    ``2 players per team``); an option without words shows as its name and value."""
    values = {key: value for key, value in options.items() if value is not None}
    parts = []
    rows, cols = values.pop("rows", None), values.pop("cols", None)
    if rows is not None and cols is not None:
        parts.append(gettext("board %(rows)s × %(cols)s") % {"rows": rows, "cols": cols})
    elif rows is not None or cols is not None:
        values.update({"rows": rows} if rows is not None else {"cols": cols})
    deck = values.pop("deck", None)
    if isinstance(deck, int):
        parts.append(ngettext("deck of %(count)d card", "deck of %(count)d cards", deck)
                     % {"count": deck})
    team_size = values.pop("team_size", None)
    if isinstance(team_size, int):
        parts.append(ngettext("%(count)d player per team", "%(count)d players per team",
                              team_size) % {"count": team_size})
    words = {"rows": gettext("board rows"), "cols": gettext("board columns")}
    parts += [f"{words.get(key, key)} {value}" for key, value in values.items()]
    return ", ".join(parts)


def names_text(names: Sequence[str]) -> str:
    """``Anna``, ``Anna and Boris``, ``Anna, Boris and Carl``."""
    names = [str(name) for name in names]
    if len(names) <= 1:
        return "".join(names)
    return gettext("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]),
                                                "last": names[-1]}


def broken_rule_text(rule: str, names: list[str]) -> str:
    """A Swiss rule a pairing edit breaks (``tournaments.pairing.edit_rules``), in words."""
    who = names_text(names)
    texts = {
        edit_rules.REPEAT: gettext("%(names)s have met before"),
        edit_rules.SAME_COLOUR_THREE: gettext(
            "%(names)s would move first (or second) three rounds in a row"),
        edit_rules.COLOUR_DIFFERENCE: gettext(
            "%(names)s would have a colour difference above 2"),
        edit_rules.FORBIDDEN: gettext("%(names)s are a forbidden pair"),
        edit_rules.BYE_AGAIN: gettext("%(names)s would get a second pairing-allocated bye"),
        edit_rules.UNPAIRED: gettext("%(names)s would have no board"),
    }
    return texts[rule] % {"names": who} if rule in texts else f"{rule}: {who}"
