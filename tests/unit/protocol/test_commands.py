"""bot_check and bot_match: thin commands over the check and the head-to-head match."""

from __future__ import annotations

import re
import sys
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from games.bots.evaluation import Sprt
from games.series.head_to_head import play_match
from games.series.referee import BotSpec
from tests.unit.protocol.helpers import EXAMPLES, PROGRAMS, misbehaving


def test_bot_check_passes_a_correct_bot(capsys: Any) -> None:
    call_command("bot_check", "--game", "kugamai", "--game", "stolbiki",
                 str(EXAMPLES / "random-example"))
    out = capsys.readouterr().out
    assert "checked random-example: 4 games" in out
    assert "it calls itself Random example" in out
    assert "no protocol errors" in out


def test_bot_check_reports_each_error_with_its_line(capsys: Any) -> None:
    with pytest.raises(CommandError, match="2 protocol error"):
        call_command("bot_check", "--game", "kazambi", sys.executable,
                     str(PROGRAMS / "misbehaving.py"), "garbage")
    out = capsys.readouterr().out
    assert out.count("line: 'hello referee, how are you?'") == 2
    assert "kazambi game 1, seat 0: garbage" in out and "kazambi game 2, seat 1" in out


def test_bot_check_finds_installed_bots(settings: Any, capsys: Any) -> None:
    settings.BOTS_DIR = EXAMPLES
    call_command("bot_check", "--game", "kugamai", "--games-each", "1", "random-example")
    assert "no protocol errors" in capsys.readouterr().out


def test_bot_match_plays_installed_and_command_bots(settings: Any, capsys: Any) -> None:
    settings.BOTS_DIR = EXAMPLES
    command = f"cmd:{sys.executable} {PROGRAMS / 'misbehaving.py'} ok"
    call_command("bot_match", "kugamai", "bot:random-example", command, "--pairs", "3",
                 "--concurrency", "2", "--clock", "1+1")
    out = capsys.readouterr().out
    assert "(6 games, 0 by forfeit)" in out and "pentanomial" in out


def test_bot_match_refuses_a_bot_that_is_not_installed(settings: Any) -> None:
    settings.BOTS_DIR = EXAMPLES
    with pytest.raises(CommandError, match="no bot 'nobody' is installed"):
        call_command("bot_match", "kugamai", "bot:nobody", "random", "--pairs", "1")


def test_a_match_does_not_depend_on_concurrency() -> None:
    games: list[tuple[int, int, str]] = []
    reports = []
    for concurrency in (1, 3):
        games.clear()
        reports.append(play_match(
            "kugamai", BotSpec("greedy"), BotSpec("random"), pairs=4, secret="c",
            concurrency=concurrency,
            on_game=lambda job, outcome: games.append(
                (job.deal_index, job.mirrored, " ".join(outcome.record["moves"]))),
        ))
        if concurrency == 1:
            first = list(games)
    assert reports[0] == reports[1]
    assert games == first


def test_forfeits_are_counted_with_their_reasons() -> None:
    report = play_match("kugamai", misbehaving("illegal"), BotSpec("random"), pairs=2,
                        secret="f")
    assert (report.forfeits, report.losses) == (4, 4)
    assert all("illegal move" in reason for reason in report.forfeit_reasons)
    assert any("forfeit:" in line for line in report.lines("A", "B"))


def test_the_sprt_stops_a_lopsided_match_at_the_same_pair_in_parallel() -> None:
    stopped = [play_match("kugamai", BotSpec("greedy"), BotSpec("random"), pairs=30,
                          secret="s", sprt=Sprt(elo0=0, elo1=300), concurrency=n)
               for n in (1, 2)]
    assert stopped[0].sprt_decision is not None
    assert stopped[0] == stopped[1]


def test_bot_match_prints_the_llr_with_its_bounds_and_the_normalized_elo(capsys: Any) -> None:
    call_command("bot_match", "kugamai", "greedy", "random", "--pairs", "5",
                 "--sprt", "0,5", "--sprt-model", "normalized")
    out = capsys.readouterr().out
    assert re.search(r"SPRT \[0\.00, 5\.00\] normalized Elo: LLR -?\d+\.\d\d \(-2\.94, 2\.94\)",
                     out), out
    assert re.search(r"normalized Elo [+-]\d+\.\d+ ± \d+\.\d+", out), out
