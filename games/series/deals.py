"""Deals and records for the games of a match, with the roles each game gives the sides.

Convention for every game of a match: side 0 is the pairing's entrant A and side 1 its
entrant B; seat ``s`` belongs to side ``s % 2`` (docs/rules/records.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.engines import DocumentError, game_facts, get_engine
from games.i18n import N_, Message
from games.series.roles import GameRoles


def deal_for_game(
    game: str, options: Mapping[str, Any], seed: int, roles: GameRoles
) -> dict[str, Any]:
    """The deal of a match game: dealt from ``seed``, then arranged so that ``roles`` hold.

    The second game of a duplicate pair uses the same seed with the sides' hands swapped,
    so each side plays the hands the other side had.
    """
    engine = get_engine(game)
    deal = dict(engine.initial_deal(engine.new_game(seed, **dict(options))))
    return game_facts(game).arrange_deal(deal, roles.first_side, roles.mirrored)


#: Options that describe one game's deal rather than the rules the tournament plays.
DEAL_OPTIONS = frozenset({"low_doubles_seat"})


def _rule_options(options: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in options.items() if k not in DEAL_OPTIONS}


@dataclass(frozen=True)
class CheckedRecord:
    winner_side: int | None
    move_count: int
    first_side: int
    score_detail: dict[str, Any] | None


def check_record(
    game: str, options: Mapping[str, Any], record: Mapping[str, Any], *, first_side: int
) -> CheckedRecord:
    """Replay a game record of a match game and check it against the match's roles.

    Raises :class:`games.engines.EngineError` (a ``ValueError``) naming the move number and
    the rule for an illegal move, or the field for a record that does not fit the match.
    """
    engine = get_engine(game)
    if not isinstance(record, Mapping):
        raise DocumentError(N_("the game record must be a JSON object"))
    if record.get("game", game) != game:
        raise DocumentError(N_("the record is a %(given)r game; this match plays %(game)s"),
                            given=record.get("game"), game=game)
    record_options = _rule_options(engine.options(**dict(record.get("options") or {})))
    expected = _rule_options(engine.options(**dict(options)))
    if record_options != expected:
        raise DocumentError(
            N_("the record's options %(given)s differ from the tournament's %(expected)s"),
            given=record_options, expected=expected
        )
    state, result = engine.replay(record)
    if result is None:
        raise DocumentError(N_("the record's game is not finished: its result cannot be taken"))
    facts = game_facts(game)
    started = record["deal"].get(facts.role_seat_key)
    role = facts.first_role_phrase
    if isinstance(started, int) and started % 2 != first_side:
        side = "A" if first_side == 0 else "B"
        raise DocumentError(
            N_("in this game of the match side %(side)s should %(role)s (it alternates), but the "
               "record's deal gives it to seat %(started)s"),
            side=side, role=Message(role), started=started
        )
    detail = {k: v for k, v in result.items() if k != "winner"} or None
    return CheckedRecord(result["winner"], len(record.get("moves", [])), first_side, detail)
