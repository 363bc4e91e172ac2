"""A tournament's history: every step of the event as a stored fact, worded when read.

Services call :func:`record` inside their transaction, so a step that is refused or rolled
back leaves no line. Lines keep facts, not sentences (names as they were, numbers, codes),
and :func:`describe` words them in the language of whoever reads them.

A step made of many smaller ones (a TRF import, an uploaded entry list) runs its parts
inside :func:`summarised` and records one line of its own.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from decimal import Decimal
from typing import Any

from django.core.exceptions import FieldDoesNotExist
from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from games.series.format import MatchFormat, SeriesError
from players.permissions import actor_user
from tournaments.models import (
    Entrant,
    FirstColour,
    Format,
    Outcome,
    Tournament,
    TournamentEvent,
)
from tournaments.standings import REGISTRY
from tournaments.texts import broken_rule_text, format_text, game_label, names_text

logger = logging.getLogger(__name__)


class EventKind:
    """The kinds of history lines (stored as these strings)."""

    TOURNAMENT_CREATED = "tournament_created"
    SETTINGS_CHANGED = "settings_changed"
    REGISTRATION_OPENED = "registration_opened"
    TOURNAMENT_STARTED = "tournament_started"
    TOURNAMENT_FINISHED = "tournament_finished"
    TOURNAMENT_REOPENED = "tournament_reopened"
    ENTRANT_REGISTERED = "entrant_registered"
    ENTRANT_REMOVED = "entrant_removed"
    ENTRANT_WITHDRAWN = "entrant_withdrawn"
    ENTRANT_REENTERED = "entrant_reentered"
    RATINGS_CHANGED = "ratings_changed"
    BYE_REQUESTED = "bye_requested"
    BYE_CANCELLED = "bye_cancelled"
    FORBIDDEN_PAIR_ADDED = "forbidden_pair_added"
    FORBIDDEN_PAIR_REMOVED = "forbidden_pair_removed"
    ENTRY_LIST_UPLOADED = "entry_list_uploaded"
    TRF_IMPORTED = "trf_imported"
    ROUND_PAIRED = "round_paired"
    ROUND_RELEASED = "round_released"
    ROUND_UNPAIRED = "round_unpaired"
    PAIRING_EDITED = "pairing_edited"
    ROUND_CLOCK_CHANGED = "round_clock_changed"
    RESULT_RECORDED = "result_recorded"
    RESULT_CHANGED = "result_changed"
    GAME_ADDED = "game_added"
    GAME_DELETED = "game_deleted"
    PRIZES_CHANGED = "prizes_changed"
    FEE_PAID = "fee_paid"


#: The kinds by name, for the history page's filter.
KIND_LABELS = {
    EventKind.TOURNAMENT_CREATED: gettext_lazy("Tournament created"),
    EventKind.SETTINGS_CHANGED: gettext_lazy("Settings changed"),
    EventKind.REGISTRATION_OPENED: gettext_lazy("Registration opened"),
    EventKind.TOURNAMENT_STARTED: gettext_lazy("Tournament started"),
    EventKind.TOURNAMENT_FINISHED: gettext_lazy("Tournament finished"),
    EventKind.TOURNAMENT_REOPENED: gettext_lazy("Tournament reopened"),
    EventKind.ENTRANT_REGISTERED: gettext_lazy("Entrant registered"),
    EventKind.ENTRANT_REMOVED: gettext_lazy("Entry taken back"),
    EventKind.ENTRANT_WITHDRAWN: gettext_lazy("Withdrawal"),
    EventKind.ENTRANT_REENTERED: gettext_lazy("Re-entry"),
    EventKind.RATINGS_CHANGED: gettext_lazy("Ratings at entry changed"),
    EventKind.BYE_REQUESTED: gettext_lazy("Bye requested"),
    EventKind.BYE_CANCELLED: gettext_lazy("Bye cancelled"),
    EventKind.FORBIDDEN_PAIR_ADDED: gettext_lazy("Forbidden pair added"),
    EventKind.FORBIDDEN_PAIR_REMOVED: gettext_lazy("Forbidden pair removed"),
    EventKind.ENTRY_LIST_UPLOADED: gettext_lazy("Entry list uploaded"),
    EventKind.TRF_IMPORTED: gettext_lazy("TRF imported"),
    EventKind.ROUND_PAIRED: gettext_lazy("Round paired"),
    EventKind.ROUND_RELEASED: gettext_lazy("Round released"),
    EventKind.ROUND_UNPAIRED: gettext_lazy("Round unpaired"),
    EventKind.PAIRING_EDITED: gettext_lazy("Pairing edited"),
    EventKind.ROUND_CLOCK_CHANGED: gettext_lazy("Round clock changed"),
    EventKind.RESULT_RECORDED: gettext_lazy("Result recorded"),
    EventKind.RESULT_CHANGED: gettext_lazy("Result changed"),
    EventKind.GAME_ADDED: gettext_lazy("Game added"),
    EventKind.GAME_DELETED: gettext_lazy("Game deleted"),
    EventKind.PRIZES_CHANGED: gettext_lazy("Prizes changed"),
    EventKind.FEE_PAID: gettext_lazy("Entry fee"),
}

_summarised: ContextVar[bool] = ContextVar("history_summarised", default=False)


@contextmanager
def summarised() -> Iterator[None]:
    """Inside, :func:`record` writes nothing: the caller records one line for the whole."""
    token = _summarised.set(True)
    try:
        yield
    finally:
        _summarised.reset(token)


def record(tournament: Tournament, kind: str, *, actor: Any = None,
           round_number: int | None = None, board: int | None = None,
           **data: Any) -> TournamentEvent | None:
    """Store one history line (none inside :func:`summarised`). ``data`` must be JSON:
    names, numbers and codes, never translated text. The system's own writes (bot games)
    have no user."""
    if _summarised.get():
        return None
    user = actor_user(actor)  # None for the system (bot runs) and anonymous users
    name = user.get_username() if user is not None else getattr(actor, "username", "")
    return TournamentEvent.objects.create(
        tournament=tournament, kind=kind, actor=user, actor_name=name,
        round_number=round_number, board=board, data=data,
    )


def events(tournament: Tournament, *, round_number: int | None = None,
           kind: str = "") -> QuerySet[TournamentEvent]:
    """The tournament's history, newest first, optionally of one round or one kind."""
    found = TournamentEvent.objects.filter(tournament=tournament)
    if round_number is not None:
        found = found.filter(round_number=round_number)
    if kind:
        found = found.filter(kind=kind)
    return found.order_by("-at", "-id")


# -- facts -------------------------------------------------------------------------------


def entrant_label(entrant: Entrant | None) -> str:
    """``"3 Anna Kowalska"`` (starting number and name), the name alone before the seeds
    exist, ``""`` for no entrant (a bye)."""
    if entrant is None:
        return ""
    return f"{entrant.seed} {entrant.name}" if entrant.seed else entrant.name


def result_facts(outcome: str, wins_a: int = 0, wins_b: int = 0,
                 draws: int = 0) -> dict[str, Any]:
    """A board's result as facts (the outcome's code and the games won and drawn)."""
    return {"outcome": str(outcome), "wins_a": wins_a, "wins_b": wins_b, "draws": draws}


def neutral(value: Any) -> Any:
    """A setting's value as JSON (numbers of points as text: ``"0.5"``)."""
    if isinstance(value, Decimal):
        return format(value.normalize(), "f")
    if isinstance(value, dict):
        return {str(key): neutral(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [neutral(item) for item in value]
    return value


# -- words ---------------------------------------------------------------------------------


def side_text(label: str) -> str:
    return label or pgettext("no opponent", "bye")


def score_text(wins_a: int, wins_b: int, draws: int) -> str:
    """``2-1``, ``1-1 (2 drawn)``."""
    wins = f"{wins_a}-{wins_b}"
    if not draws:
        return wins
    return ngettext("%(wins)s (%(draws)d drawn)", "%(wins)s (%(draws)d drawn)",
                    draws) % {"wins": wins, "draws": draws}


def result_text(result: Mapping[str, Any] | None, a: str = "", b: str = "") -> str:
    """A board's result in words: ``2-1``, ``forfeit: Anna wins``, ``no result``."""
    result = result or {}
    outcome = str(result.get("outcome", Outcome.PENDING))
    wins_a, wins_b = int(result.get("wins_a") or 0), int(result.get("wins_b") or 0)
    draws = int(result.get("draws") or 0)
    if outcome in (Outcome.A_WINS, Outcome.B_WINS, Outcome.DRAW):
        score = score_text(wins_a, wins_b, draws)
        if wins_a == wins_b and outcome != Outcome.DRAW:  # a knockout's tie-break
            winner = a if outcome == Outcome.A_WINS else b
            return _("%(score)s, %(name)s wins the tie-break") % {
                "score": score, "name": winner or (_("A") if outcome == Outcome.A_WINS
                                                   else _("B"))}
        return score
    if outcome in (Outcome.A_FORFEIT_WIN, Outcome.B_FORFEIT_WIN):
        winner = a if outcome == Outcome.A_FORFEIT_WIN else b
        return _("forfeit, %(name)s wins") % {
            "name": winner or (_("A") if outcome == Outcome.A_FORFEIT_WIN else _("B"))}
    if outcome == Outcome.DOUBLE_FORFEIT:
        return _("double forfeit")
    if outcome == Outcome.BYE:
        return pgettext("no opponent", "bye")
    return _("no result")


def _result_recorded(data: Mapping[str, Any], round_number: int | None) -> str:
    a, b = str(data.get("a", "")), str(data.get("b", ""))
    return _("Board %(board)s: %(result)s (%(a)s – %(b)s).") % {
        "board": data.get("board", "?"), "result": result_text(data.get("after"), a, b),
        "a": side_text(a), "b": side_text(b)}


def _result_changed(data: Mapping[str, Any], round_number: int | None) -> str:
    a, b = str(data.get("a", "")), str(data.get("b", ""))
    return _("Board %(board)s: %(before)s → %(after)s (%(a)s – %(b)s).") % {
        "board": data.get("board", "?"), "before": result_text(data.get("before"), a, b),
        "after": result_text(data.get("after"), a, b), "a": side_text(a), "b": side_text(b)}


def _game_winner(data: Mapping[str, Any]) -> str:
    winner = data.get("winner")
    if winner not in ("a", "b"):
        return _("a draw")
    name = str(data.get(winner, "")) or (_("A") if winner == "a" else _("B"))
    termination = data.get("termination", "normal")
    if termination == "forfeit":
        return _("%(name)s wins by forfeit") % {"name": name}
    if termination == "time_forfeit":
        return _("%(name)s wins on time") % {"name": name}
    if termination == "adjudicated":
        return _("%(name)s wins by adjudication") % {"name": name}
    return _("%(name)s wins") % {"name": name}


def _game_added(data: Mapping[str, Any], round_number: int | None) -> str:
    return _("Board %(board)s, game %(number)s: %(result)s.") % {
        "board": data.get("board", "?"), "number": data.get("number", "?"),
        "result": _game_winner(data)}


def _game_deleted(data: Mapping[str, Any], round_number: int | None) -> str:
    text = _("Board %(board)s: game %(number)s deleted (it was %(result)s).") % {
        "board": data.get("board", "?"), "number": data.get("number", "?"),
        "result": _game_winner(data)}
    renumbered = int(data.get("renumbered") or 0)
    if renumbered:
        text += " " + ngettext("%(count)d later game renumbered.",
                               "%(count)d later games renumbered.", renumbered) % {
            "count": renumbered}
    return text


def _round_paired(data: Mapping[str, Any], round_number: int | None) -> str:
    boards = data.get("boards")
    if not isinstance(boards, int):
        return _("Round %(round)s paired.") % {"round": round_number}
    text = ngettext("Round %(round)s paired (%(boards)d board).",
                    "Round %(round)s paired (%(boards)d boards).", boards) % {
        "round": round_number, "boards": boards}
    drawn = data.get("first_colour_drawn")
    if drawn == "white":
        text += " " + _("Drawn by lot: the top seed moves first.")
    elif drawn == "black":
        text += " " + _("Drawn by lot: the top seed moves second.")
    return text


def _round_released(data: Mapping[str, Any], round_number: int | None) -> str:
    return _("Round %(round)s released.") % {"round": round_number}


def _round_unpaired(data: Mapping[str, Any], round_number: int | None) -> str:
    boards = data.get("boards")
    if isinstance(boards, int):
        return ngettext("Round %(round)s unpaired (%(boards)d board removed).",
                        "Round %(round)s unpaired (%(boards)d boards removed).", boards) % {
            "round": round_number, "boards": boards}
    return _("Round %(round)s unpaired.") % {"round": round_number}


def _pairing_edited(data: Mapping[str, Any], round_number: int | None) -> str:
    actions = {"swap_boards": _("Boards swapped."),
               "swap_first_move": _("First move swapped."),
               "manual": _("Pairing made by hand.")}
    parts = [actions.get(str(data.get("action", "")), _("Pairing edited."))]
    changes = []
    for change in data.get("changes") or []:
        before = [side_text(str(side)) for side in (change.get("before") or ["", ""])]
        after = [side_text(str(side)) for side in (change.get("after") or ["", ""])]
        changes.append(_("Board %(board)s: %(before)s → %(after)s") % {
            "board": change.get("board", "?"), "before": " – ".join(before),
            "after": " – ".join(after)})
    text = " ".join(parts + (["; ".join(changes)] if changes else []))
    broken = [broken_rule_text(str(rule.get("rule", "")),
                               [str(name) for name in rule.get("names") or []])
              for rule in data.get("broken") or []]
    if broken:
        text += " " + _("(breaks: %(rules)s)") % {"rules": "; ".join(broken)}
    return text


def _round_clock_changed(data: Mapping[str, Any], round_number: int | None) -> str:
    before, after = data.get("before") or {}, data.get("after") or {}
    parts = []
    if before.get("clock", "") != after.get("clock", ""):
        parts.append(_("clock %(before)s → %(after)s") % {
            "before": before.get("clock") or _("the tournament's"),
            "after": after.get("clock") or _("the tournament's")})
    if before.get("slot") != after.get("slot"):
        parts.append(_("time slot %(before)s → %(after)s") % {
            "before": _minutes(before.get("slot")), "after": _minutes(after.get("slot"))})
    return _("Round %(round)s: %(changes)s.") % {"round": round_number,
                                                 "changes": "; ".join(parts) or "—"}


def _minutes(value: Any) -> str:
    if not isinstance(value, int):
        return pgettext("no time slot", "none")
    return ngettext("%(count)d minute", "%(count)d minutes", value) % {"count": value}


def _tournament_created(data: Mapping[str, Any], round_number: int | None) -> str:
    return _("Tournament %(name)s created (%(game)s, %(format)s).") % {
        "name": data.get("name", ""), "game": game_label(str(data.get("game", ""))),
        "format": _format_label(str(data.get("format", "")))}


def _format_label(value: str) -> str:
    return str(Format(value).label) if value in Format.values else value


def _registration_opened(data: Mapping[str, Any], round_number: int | None) -> str:
    return _("Registration opened.")


def _tournament_started(data: Mapping[str, Any], round_number: int | None) -> str:
    count = int(data.get("entrants") or 0)
    return ngettext("Tournament started with %(count)d entrant; the seeds are fixed.",
                    "Tournament started with %(count)d entrants; the seeds are fixed.",
                    count) % {"count": count}


def _tournament_finished(data: Mapping[str, Any], round_number: int | None) -> str:
    return _("Tournament finished.")


def _tournament_reopened(data: Mapping[str, Any], round_number: int | None) -> str:
    return _("Tournament reopened: %(reason)s") % {"reason": data.get("reason", "")}


def _setting_value(name: str, value: Any) -> str:
    """A setting's stored value in words."""
    if value is None or value == "" or value == []:
        return _("none")
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if name == "game":
        return game_label(str(value))
    if name == "format":
        return _format_label(str(value))
    if name == "first_colour":
        return str(FirstColour(value).label) if value in FirstColour.values else str(value)
    if name == "match_format" and isinstance(value, dict):
        try:
            return format_text(MatchFormat.from_dict(value))
        except SeriesError:
            return str(value)
    if name == "tiebreaks" and isinstance(value, list):
        return ", ".join(REGISTRY[key].abbreviation if key in REGISTRY else str(key)
                         for key in value)
    if name == "game_options" and isinstance(value, dict):
        return ", ".join(f"{_option_name(key)} {item}" for key, item in sorted(value.items()))
    return str(value)


def _option_name(key: str) -> str:
    names = {"rows": _("board rows"), "cols": _("board columns"), "deck": _("deck"),
             "team_size": _("team size")}
    return names.get(key, key)


def _setting_name(name: str) -> str:
    try:
        field = Tournament._meta.get_field(name)
    except FieldDoesNotExist:  # a field that no longer exists keeps its stored name
        return name
    return str(getattr(field, "verbose_name", name))


def _settings_changed(data: Mapping[str, Any], round_number: int | None) -> str:
    changes = [_("%(setting)s: %(before)s → %(after)s") % {
        "setting": _setting_name(str(change.get("field", ""))),
        "before": _setting_value(str(change.get("field", "")), change.get("before")),
        "after": _setting_value(str(change.get("field", "")), change.get("after"))}
        for change in data.get("changes") or []]
    return _("Settings changed: %(changes)s.") % {"changes": "; ".join(changes)}


def _entrant_registered(data: Mapping[str, Any], round_number: int | None) -> str:
    values = {"name": data.get("name", ""), "rating": data.get("rating", 0),
              "round": data.get("joined_round", 1)}
    if int(data.get("joined_round") or 1) <= 1:
        return _("%(name)s entered (rating %(rating)s).") % values
    text = _("%(name)s entered late, from round %(round)s (rating %(rating)s).") % values
    byes = int(data.get("byes") or 0)
    if byes:
        text += " " + ngettext("%(count)d half-point bye for the round missed.",
                               "%(count)d half-point byes for the rounds missed.",
                               byes) % {"count": byes}
    else:
        text += " " + _("Absent from the rounds missed (0 points).")
    return text


def _entrant_removed(data: Mapping[str, Any], round_number: int | None) -> str:
    return _("Entry of %(name)s taken back.") % {"name": data.get("name", "")}


def _entrant_withdrawn(data: Mapping[str, Any], round_number: int | None) -> str:
    return _("%(name)s withdrawn from round %(round)s.") % {
        "name": data.get("name", ""), "round": data.get("from_round", "?")}


def _entrant_reentered(data: Mapping[str, Any], round_number: int | None) -> str:
    return _("%(name)s entered again from round %(round)s.") % {
        "name": data.get("name", ""), "round": data.get("from_round", "?")}


def _ratings_changed(data: Mapping[str, Any], round_number: int | None) -> str:
    changes = data.get("changes") or []
    text = "; ".join(f"{change.get('name', '')} {change.get('before')} → {change.get('after')}"
                     for change in changes)
    return ngettext("Rating at entry changed: %(changes)s.",
                    "Ratings at entry changed: %(changes)s.", len(changes)) % {
        "changes": text}


def _bye_name(kind: Any) -> str:
    names = {"half_point": _("a half-point bye"), "zero": _("a zero-point bye"),
             "full_point": _("a full-point bye")}
    return names.get(str(kind), str(kind))


def _bye_requested(data: Mapping[str, Any], round_number: int | None) -> str:
    text = _("%(name)s gets %(bye)s in round %(round)s.") % {
        "name": data.get("name", ""), "bye": _bye_name(data.get("bye")), "round": round_number}
    if data.get("was"):
        text += " " + _("(It was %(bye)s.)") % {"bye": _bye_name(data.get("was"))}
    return text


def _bye_cancelled(data: Mapping[str, Any], round_number: int | None) -> str:
    return _("%(name)s no longer gets %(bye)s in round %(round)s.") % {
        "name": data.get("name", ""), "bye": _bye_name(data.get("bye")), "round": round_number}


def _forbidden_added(data: Mapping[str, Any], round_number: int | None) -> str:
    return _("%(names)s must not be paired together.") % {
        "names": names_text(data.get("names") or [])}


def _forbidden_removed(data: Mapping[str, Any], round_number: int | None) -> str:
    return _("%(names)s may be paired together again.") % {
        "names": names_text(data.get("names") or [])}


def _entry_list_uploaded(data: Mapping[str, Any], round_number: int | None) -> str:
    count = int(data.get("count") or 0)
    values = {"file": data.get("file", ""), "count": count,
              "names": ", ".join(str(name) for name in data.get("names") or [])}
    if data.get("file"):
        text = ngettext("Entry list %(file)s: %(count)d entered (%(names)s).",
                        "Entry list %(file)s: %(count)d entered (%(names)s).", count) % values
    else:
        text = ngettext("Entry list: %(count)d entered (%(names)s).",
                        "Entry list: %(count)d entered (%(names)s).", count) % values
    created = int(data.get("new_players") or 0)
    if created:
        text += " " + ngettext("%(count)d new player created.",
                               "%(count)d new players created.", created) % {"count": created}
    return text


def _trf_imported(data: Mapping[str, Any], round_number: int | None) -> str:
    players, rounds = int(data.get("players") or 0), int(data.get("rounds") or 0)
    results = int(data.get("results") or 0)
    parts = {
        "players": ngettext("%(count)d player", "%(count)d players", players) % {
            "count": players},
        "rounds": ngettext("%(count)d round", "%(count)d rounds", rounds) % {"count": rounds},
        "results": ngettext("%(count)d result", "%(count)d results", results) % {
            "count": results},
    }
    if data.get("file"):
        return _("Imported from the TRF file %(file)s: %(players)s, %(rounds)s, "
                 "%(results)s.") % {**parts, "file": data["file"]}
    return _("Imported from a TRF file: %(players)s, %(rounds)s, %(results)s.") % parts


def _prizes_changed(data: Mapping[str, Any], round_number: int | None) -> str:
    places = [" + ".join(part for part in (cash if cash != "0.00" else "", item) if part)
              for cash, item in data.get("prizes") or []]
    values = {"group": data.get("group", ""), "prizes": ", ".join(places) or _("none")}
    action = data.get("action")
    if action == "added":
        return _("Prize group %(group)s added: %(prizes)s.") % values
    if action == "removed":
        return _("Prize group %(group)s removed.") % values
    if action == "moved":
        return _("Prize groups reordered: %(order)s.") % {
            "order": ", ".join(str(name) for name in data.get("order") or [])}
    return _("Prize group %(group)s changed: %(prizes)s.") % values


def _fee_paid(data: Mapping[str, Any], round_number: int | None) -> str:
    values = {"name": data.get("name", ""), "paid": data.get("paid", ""),
              "due": data.get("due", ""), "before": data.get("paid_before", ""),
              "currency": data.get("currency", "")}
    if data.get("due") != data.get("due_before"):
        return (_("%(name)s: entry fee due %(due)s %(currency)s (was %(was)s), paid "
                  "%(paid)s.") % {**values, "was": data.get("due_before", "")}).replace("  ", " ")
    return (_("%(name)s: entry fee paid %(paid)s of %(due)s %(currency)s (was %(before)s).")
            % values).replace("  ", " ")


#: Wording per kind; kinds added later register here.
DESCRIBERS: dict[str, Callable[[Mapping[str, Any], int | None], str]] = {
    EventKind.TOURNAMENT_CREATED: _tournament_created,
    EventKind.SETTINGS_CHANGED: _settings_changed,
    EventKind.REGISTRATION_OPENED: _registration_opened,
    EventKind.TOURNAMENT_STARTED: _tournament_started,
    EventKind.TOURNAMENT_FINISHED: _tournament_finished,
    EventKind.TOURNAMENT_REOPENED: _tournament_reopened,
    EventKind.ENTRANT_REGISTERED: _entrant_registered,
    EventKind.ENTRANT_REMOVED: _entrant_removed,
    EventKind.ENTRANT_WITHDRAWN: _entrant_withdrawn,
    EventKind.ENTRANT_REENTERED: _entrant_reentered,
    EventKind.RATINGS_CHANGED: _ratings_changed,
    EventKind.BYE_REQUESTED: _bye_requested,
    EventKind.BYE_CANCELLED: _bye_cancelled,
    EventKind.FORBIDDEN_PAIR_ADDED: _forbidden_added,
    EventKind.FORBIDDEN_PAIR_REMOVED: _forbidden_removed,
    EventKind.ENTRY_LIST_UPLOADED: _entry_list_uploaded,
    EventKind.TRF_IMPORTED: _trf_imported,
    EventKind.ROUND_PAIRED: _round_paired,
    EventKind.ROUND_RELEASED: _round_released,
    EventKind.ROUND_UNPAIRED: _round_unpaired,
    EventKind.PAIRING_EDITED: _pairing_edited,
    EventKind.ROUND_CLOCK_CHANGED: _round_clock_changed,
    EventKind.RESULT_RECORDED: _result_recorded,
    EventKind.RESULT_CHANGED: _result_changed,
    EventKind.GAME_ADDED: _game_added,
    EventKind.GAME_DELETED: _game_deleted,
    EventKind.PRIZES_CHANGED: _prizes_changed,
    EventKind.FEE_PAID: _fee_paid,
}


def describe(event: TournamentEvent) -> str:
    """The line in the active language (the board, when the line has one, is among the
    describer's facts as ``board``)."""
    wording = DESCRIBERS.get(event.kind)
    data = dict(event.data or {})
    if event.board is not None:
        data.setdefault("board", event.board)
    if wording is None:
        return event.kind.replace("_", " ")
    try:
        return wording(data, event.round_number)
    except (KeyError, TypeError, ValueError, AttributeError):  # facts of an odd shape
        logger.warning("history line %s (%s) cannot be worded: %r", event.pk, event.kind,
                       event.data)
        return event.kind.replace("_", " ")


def kind_label(kind: str) -> str:
    label = KIND_LABELS.get(kind)
    return str(label) if label is not None else kind.replace("_", " ")
