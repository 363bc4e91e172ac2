"""Installed bots: manifests are read and checked, the listing names every problem, and
the referee runs an installed bot from its folder only for the games it plays."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.bots.process.installed import (
    InstalledBotError,
    installed_bot,
    list_installed_bots,
    read_manifest,
)
from games.series.referee import BotSpec, launch_of
from tests.unit.protocol.helpers import EXAMPLES, play


def write(folder: Path, text: str) -> Path:
    folder.mkdir(parents=True)
    (folder / "bot.toml").write_text(text)
    return folder


GOOD = 'name = "{name}"\ncommand = ["{{python}}", "bot.py", "{{dir}}/data"]\ngames = ["kugamai"]\n'


def test_the_listing_finds_bots_and_names_the_problems(tmp_path: Path) -> None:
    write(tmp_path / "b", GOOD.format(name="beta"))
    write(tmp_path / "a", GOOD.format(name="alpha") + 'author = "Ann"\n')
    write(tmp_path / "c", GOOD.format(name="alpha"))
    write(tmp_path / "d", 'name = "delta"\ncommand = []\ngames = ["kugamai"]\n')
    write(tmp_path / "e", 'name = "e"\ncommand = ["x"]\ngames = ["chess"]\n')
    write(tmp_path / "f", 'name = "bad name!"\ncommand = ["x"]\ngames = ["kugamai"]\n')
    write(tmp_path / "g", "not toml [")
    write(tmp_path / "h", GOOD.format(name="h") + "colour = 1\n")
    (tmp_path / "i").mkdir()
    (tmp_path / "README").write_text("not a bot")
    listing = list_installed_bots(tmp_path)
    assert listing.names() == ["alpha", "beta"]
    assert listing.bots[0].author == "Ann" and listing.bots[1].author == "unknown"
    problems = dict(listing.problems)
    assert "taken by the folder a" in problems["c"]
    assert "command must be a list" in problems["d"]
    assert "unknown game 'chess'" in problems["e"]
    assert "name 'bad name!'" in problems["f"]
    assert "cannot be read" in problems["g"]
    assert "unknown key 'colour'" in problems["h"]
    assert "no bot.toml" in problems["i"]


def test_placeholders_and_local_programs(tmp_path: Path) -> None:
    folder = write(tmp_path / "x", GOOD.format(name="x"))
    (folder / "bot.py").write_text("")
    bot = read_manifest(folder)
    argv = bot.argv(python="/usr/bin/python3")
    assert argv == ["/usr/bin/python3", "bot.py", f"{folder}/data"]
    local = write(tmp_path / "y", 'name = "y"\ncommand = ["run", "--fast"]\ngames = ["kugamai"]\n')
    (local / "run").write_text("")
    assert read_manifest(local).argv() == [str(local / "run"), "--fast"]


def test_an_unknown_or_unfit_bot_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InstalledBotError, match="installed: random-example"):
        installed_bot(EXAMPLES, "nobody")
    write(tmp_path / "k", GOOD.format(name="k"))
    with pytest.raises(InstalledBotError, match="does not play stolbiki"):
        launch_of(BotSpec.installed("k"), "stolbiki", tmp_path)
    outcome = play(BotSpec.installed("k"), game="stolbiki", bots_dir=tmp_path)
    assert outcome.termination == "forfeit" and outcome.fault == "start"
    assert "does not play stolbiki" in outcome.reason


def test_the_example_bot_is_installed_with_a_manifest() -> None:
    bot = installed_bot(EXAMPLES, "random-example")
    assert bot.games and all(bot.plays(game) for game in ("kugamai", "kazambi", "stolbiki"))
