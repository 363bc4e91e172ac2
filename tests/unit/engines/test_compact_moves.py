"""The compact interface of every engine, checked against its move lists on random games.

- ``legal_codes`` lists the moves of ``legal_moves`` in the same order;
- the single-move check (``move_code``, ``is_legal``, ``push``) agrees with membership in
  the legal moves for codes, objects and texts, legal or not, on many random positions;
- ``push``/``pop`` restore the exact state (its document and every field), one move at a
  time and all the way back from the end of a game;
- the public-interface playout is the fast playout's game.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from games.engines import EngineError, NotationError, get_engine
from games.engines.base import Engine
from games.engines.kazambi.codes import CODE_LIMIT, KIND_BASES, LegalCodes
from games.engines.kazambi.notation import parse_move as parse_kazambi
from games.engines.kazambi.playout import random_playout as kazambi_playout
from games.engines.kugamai.playout import random_playout as kugamai_playout
from games.engines.kugamai.tiles import MOVE_TEXT, PASS
from games.engines.kugamai.tiles import parse_move as parse_kugamai
from games.engines.random_games import public_playout
from games.engines.stolbiki.cards import deck_cards
from games.engines.stolbiki.notation import parse_move as parse_stolbiki
from games.engines.stolbiki.state import CELL_BITS, PASS_CODE

#: (game, options) covering every engine, board size class and deck.
GAMES: list[tuple[str, dict[str, Any]]] = [
    ("kazambi", {}),
    ("kazambi", {"rows": 2, "cols": 2}),
    ("kazambi", {"rows": 3, "cols": 5}),
    ("kazambi", {"rows": 12, "cols": 12}),
    ("kazambi-pairs", {}),
    ("anti-kazambi", {"rows": 4, "cols": 6}),
    ("anti-kazambi-pairs", {"rows": 5, "cols": 5}),
    ("kugamai", {}),
    ("stolbiki", {"deck": 36, "team_size": 2}),
    ("stolbiki", {"deck": 36, "team_size": 1}),
    ("stolbiki", {"deck": 52, "team_size": 3}),
]
IDS = [f"{game}-{'-'.join(f'{k}{v}' for k, v in options.items()) or 'default'}"
       for game, options in GAMES]


def positions(engine: Engine[Any], seed: int, **options: Any) -> Iterator[Any]:
    """Every position of a random game (each yielded before its move is made)."""
    rng = random.Random(seed)
    state = engine.new_game(seed=seed, **options)
    while True:
        yield state
        codes = engine.legal_codes(state)
        if not codes:
            return
        engine.push(state, codes[rng.randrange(len(codes))])


def candidate_codes(engine: Engine[Any], state: Any, rng: random.Random) -> list[int]:
    """Codes to ask about: every legal one and many illegal ones of every kind (tiles or
    cards not in hand, cells taken or off the board, line and suit clashes, fish...)."""
    name = engine.name
    if name == "kugamai":
        return [*range(-2, PASS + 8), 100]
    if name == "stolbiki":
        size = state.geometry.size
        cards = deck_cards(state.options["deck"]) + [0, 1, 15, 63]
        codes = [card << CELL_BITS | cell for card in cards for cell in range(size)]
        codes += [PASS_CODE, -2, 64 << CELL_BITS, 1 << 30]
        return rng.sample(codes, min(len(codes), 1200)) + list(engine.legal_codes(state))
    size = state.geometry.size
    codes = [
        base | cell for bases in KIND_BASES for base in bases for cell in range(size)
    ]
    codes += [-1, CODE_LIMIT, CODE_LIMIT + 5, 255, 1 << 40]
    return rng.sample(codes, min(len(codes), 1200)) + list(engine.legal_codes(state))


def candidate_texts(engine: Engine[Any], state: Any, rng: random.Random) -> list[str]:
    legal = [str(move) for move in engine.legal_moves(state)]
    if engine.name == "kugamai":
        return [*MOVE_TEXT, " pass ", "1-0", "7-7", "x"]
    if engine.name == "stolbiki":
        cards = ["QS", "TH", "2C", "AD", "9S", "6H"]
        spots = [f"{x},{y}" for x in range(-14, 15, 3) for y in range(-5, 6, 2)]
        return legal + [f"{card}@{spot}" for card in cards for spot in spots] + ["pass", "ZZ@0,0"]
    geometry = state.geometry
    texts = [
        f"{a}-{b}@{geometry.cell_names[cell]}{geometry.cell_names[cell + step]}"
        for cell in rng.sample(range(geometry.size), min(geometry.size, 6))
        for step in (1, geometry.cols)
        if cell + step < geometry.size
        for a in range(7)
        for b in range(7)
    ]
    return legal + texts + ["pass", "3-1@c2d2", "3-1@l12l13", "9-9@a1b1", "1-3@d2c2"]


def canonical(game: str, text: str) -> str:
    """The canonical spelling of a move text (the text itself if it cannot be read)."""
    parse: Any = {"kugamai": lambda t: MOVE_TEXT[parse_kugamai(t)], "stolbiki": parse_stolbiki}
    try:
        return str(parse.get(game, parse_kazambi)(text))
    except NotationError:
        return text


@pytest.mark.parametrize(("game", "options"), GAMES, ids=IDS)
def test_codes_list_the_legal_moves_in_order(game: str, options: dict[str, Any]) -> None:
    engine = get_engine(game)
    for seed in range(4):
        for state in positions(engine, seed, **options):
            codes = engine.legal_codes(state)
            moves = engine.legal_moves(state)
            assert len(codes) == len(moves)
            assert [engine.move_object(state, code) for code in codes] == moves
            assert [engine.move_text(state, code) for code in codes] == [str(m) for m in moves]
            assert len(set(codes)) == len(codes)


@pytest.mark.parametrize(("game", "options"), GAMES, ids=IDS)
def test_the_single_move_check_agrees_with_the_legal_moves(
    game: str, options: dict[str, Any]
) -> None:
    engine = get_engine(game)
    rng = random.Random(99)
    for seed in range(3):
        for number, state in enumerate(positions(engine, seed, **options)):
            if number % 3:
                continue
            legal = set(engine.legal_codes(state))
            doc = engine.to_dict(state)
            for index, code in enumerate(candidate_codes(engine, state, rng)):
                assert engine.is_legal(state, code) == (code in legal), code
                if code in legal:
                    assert engine.move_code(state, code) == code
                elif index % 17 == 0:  # the error names the rule (slower: a sample)
                    with pytest.raises(EngineError) as caught:
                        engine.push(state, code)
                    assert str(caught.value)
            texts = {str(move): code for move, code in zip(
                engine.legal_moves(state), engine.legal_codes(state), strict=True)}
            for text in candidate_texts(engine, state, rng):
                written = canonical(game, text)
                assert engine.is_legal(state, text) == (written in texts), text
                if written in texts:
                    assert engine.move_code(state, text) == texts[written]
            for move in engine.legal_moves(state):
                assert engine.move_code(state, move) == texts[str(move)]
            assert engine.to_dict(state) == doc  # checking changes nothing


def fields(state: Any) -> dict[str, Any]:
    """Every field of a state, containers copied (their items are immutable)."""
    slots = [name for cls in type(state).__mro__ for name in getattr(cls, "__slots__", ())]
    snapshot = {}
    for name in slots:
        value = getattr(state, name)
        snapshot[name] = value.copy() if isinstance(value, list | set | dict) else value
    return snapshot


@pytest.mark.parametrize(("game", "options"), GAMES, ids=IDS)
def test_push_pop_restore_the_exact_state(game: str, options: dict[str, Any]) -> None:
    engine = get_engine(game)
    rng = random.Random(5)
    for seed in range(4):
        state = engine.new_game(seed=seed, **options)
        stack = []
        while codes := engine.legal_codes(state):
            doc, before = engine.to_dict(state), fields(state)
            for code in rng.sample(list(codes), min(len(codes), 4)):
                after = engine.play(state, code)
                engine.push(state, code)
                assert engine.to_dict(state) == engine.to_dict(after)
                engine.pop(state)
                assert engine.to_dict(state) == doc
                assert fields(state) == before
            code = codes[rng.randrange(len(codes))]
            stack.append((doc, before))
            engine.push(state, engine.move_text(state, code))
        while stack:
            doc, before = stack.pop()
            engine.pop(state)
            assert engine.to_dict(state) == doc
            assert fields(state) == before
        with pytest.raises(EngineError):
            engine.pop(state)


@pytest.mark.parametrize("game", ["kazambi", "kazambi-pairs", "anti-kazambi-pairs"])
def test_the_public_playout_plays_the_fast_playouts_game_kazambi(game: str) -> None:
    for seed in range(30):
        fast = kazambi_playout(random.Random(seed), game=game)
        assert public_playout(game, random.Random(seed)) == fast
        assert public_playout(game, random.Random(seed), compact=False) == fast


def test_the_public_playout_plays_the_fast_playouts_game_kugamai() -> None:
    for seed in range(200):
        fast = kugamai_playout(random.Random(seed))
        assert public_playout("kugamai", random.Random(seed)) == fast
        assert public_playout("kugamai", random.Random(seed), compact=False) == fast


@pytest.mark.parametrize("options", [{"deck": 36, "team_size": 2}, {"deck": 52, "team_size": 3}])
def test_the_public_playout_plays_the_same_game_on_codes_and_objects(
    options: dict[str, Any],
) -> None:
    """Stolbiki's fast playout orders moves by cell, not as legal_moves does, so its games
    differ; the two public paths agree."""
    for seed in range(20):
        assert public_playout("stolbiki", random.Random(seed), **options) == public_playout(
            "stolbiki", random.Random(seed), compact=False, **options
        )


def test_kazambi_codes_behave_as_a_read_only_sequence() -> None:
    engine = get_engine("kazambi")
    state = engine.new_game(seed=3, rows=3, cols=4)
    engine.push(state, engine.legal_codes(state)[7])
    codes = engine.legal_codes(state)
    assert isinstance(codes, LegalCodes)
    listed = list(codes)
    assert codes == listed and listed == list(codes)
    assert [codes[i] for i in range(-len(codes), 0)] == listed
    assert codes[2:9:3] == listed[2:9:3]
    assert all(code in codes for code in listed)
    assert -1 not in codes and "3-1@c2d2" not in codes and CODE_LIMIT not in codes
    with pytest.raises(IndexError):
        codes[len(codes)]
    engine.push(state, listed[0])
    assert list(codes) == listed  # a snapshot: later moves leave it as it was


def test_seeding_from_a_generator_draws_from_it() -> None:
    for game, options in GAMES:
        engine = get_engine(game)
        one = engine.to_dict(engine.new_game(seed=random.Random(8), **options))
        assert engine.to_dict(engine.new_game(seed=random.Random(8), **options)) == one
