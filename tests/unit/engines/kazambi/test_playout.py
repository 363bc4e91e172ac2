"""The fast random playout agrees with the public API."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from games.engines import get_engine
from games.engines.errors import OptionError
from games.engines.kazambi import KazambiEngine
from games.engines.kazambi.codes import kth_bit
from games.engines.kazambi.playout import random_playout
from tests.unit.engines.kazambi.helpers import random_game


@pytest.mark.parametrize("game", ["kazambi", "kazambi-pairs", "anti-kazambi", "anti-kazambi-pairs"])
@pytest.mark.parametrize(("rows", "cols"), [(7, 8), (2, 2), (3, 5), (12, 12)])
def test_same_seed_same_game_as_through_the_public_api(game: str, rows: int, cols: int) -> None:
    engine = get_engine(game)
    assert isinstance(engine, KazambiEngine)
    for seed in range(15 if rows * cols < 100 else 6):
        state = random_game(engine, seed, rows=rows, cols=cols)
        result = random_playout(random.Random(seed), game=game, rows=rows, cols=cols)
        assert result == engine.result(state)


def test_default_options_and_errors() -> None:
    result = random_playout(random.Random(1))
    assert set(result) == {"winner", "stuck_seat", "tiles_placed"}
    with pytest.raises(OptionError, match="unknown Kazambi variant"):
        random_playout(random.Random(1), game="kugamai")
    with pytest.raises(OptionError, match="rows must be"):
        random_playout(random.Random(1), rows=13)


def testkth_bit() -> None:
    rng = random.Random(3)
    for _ in range(300):
        mask = rng.getrandbits(rng.randrange(1, 300)) | 1
        bits = [i for i in range(mask.bit_length()) if mask >> i & 1]
        k = rng.randrange(len(bits))
        assert kth_bit(mask, k) == bits[k]


def test_the_engine_package_is_pure() -> None:
    """Importing the engines loads no Django, DRF or Celery."""
    code = (
        "import sys, games.engines.kazambi, games.engines.kazambi.playout;"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'django', 'rest_framework', 'celery'}))"
    )
    root = Path(__file__).resolve().parents[4]
    output = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True
    )
    assert output.stdout.strip() == "[]"
