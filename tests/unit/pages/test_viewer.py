from __future__ import annotations

import random
import subprocess
import sys
from typing import Any

import pytest

from games.engines import get_engine
from pages.viewer import RecordViewError, game_steps, seat_labels


def record_of(name: str, seed: int) -> dict[str, Any]:
    engine = get_engine(name)
    state = engine.new_game(seed=seed)
    rng = random.Random(seed)
    while not engine.is_over(state):
        state = engine.play(state, rng.choice(engine.legal_moves(state)))
    return engine.record(state)


@pytest.mark.parametrize("name", ["kazambi", "anti-kazambi-pairs", "kugamai", "stolbiki"])
def test_a_step_per_move_ending_on_the_replayed_position(name: str) -> None:
    record = record_of(name, 3)
    steps = game_steps(record, ["Ann", "Bob"])
    engine = get_engine(name)
    final, result = engine.replay(record)
    assert [s.number for s in steps] == list(range(len(record["moves"]) + 1))
    assert [s.move for s in steps[1:]] == record["moves"]
    assert steps[-1].document["history"] == engine.to_dict(final)["history"]
    assert steps[-1].document["result"] == result
    assert steps[-1].notes[-1].startswith("Game over")
    assert all(s.svg.startswith("<svg") for s in steps)
    assert len({s.svg.split('id="', 1)[1].split('"', 1)[0] for s in steps}) == len(steps)


def test_kazambi_steps_show_the_burnt_tiles_of_each_seat() -> None:
    record = record_of("kazambi", 8)
    engine: Any = get_engine("kazambi")
    state = engine.new_game(deal=record["deal"], **record["options"])
    for step in game_steps(record)[1:]:
        state = engine.play(state, step.move)
        for hand in step.hands:
            burnt = {i["text"] for i in hand.items if i["burnt"]}
            assert burnt == set(engine.burnt(state, hand.seat))


def test_movers_follow_the_engine() -> None:
    record = record_of("kugamai", 5)
    engine = get_engine("kugamai")
    state = engine.new_game(deal=record["deal"], **record["options"])
    for step in game_steps(record)[1:]:
        assert step.mover == engine.to_move(state)
        state = engine.play(state, step.move)


def test_seat_labels() -> None:
    assert seat_labels(2, ["Ann", "Bob"]) == ["Ann", "Bob"]
    assert seat_labels(4, ["North", "South"])[3] == "South (seat 4)"


def test_an_illegal_move_names_its_number() -> None:
    record = record_of("kugamai", 2)
    record["moves"][3] = "6-6"
    with pytest.raises(RecordViewError, match="move 4"):
        game_steps(record)


@pytest.mark.parametrize("record", [None, {}, {"game": "chess"}, {"game": "kugamai"},
                                    {"game": "kugamai", "deal": {}, "moves": "x"}])
def test_bad_records_are_value_errors(record: object) -> None:
    with pytest.raises(RecordViewError):
        game_steps(record)  # type: ignore[arg-type]


@pytest.mark.parametrize("module", ["pages.svg.bracket", "pages.svg.rating_chart",
                                    "pages.svg.boards", "pages.viewer"])
def test_drawing_modules_import_no_framework(module: str) -> None:
    code = (f"import sys, importlib; importlib.import_module({module!r}); "
            "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in "
            "{'django', 'rest_framework', 'celery'})))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
