"""The process boundary: a bot that crashes, hangs, floods its output, prints garbage,
answers an illegal move or exceeds a limit forfeits the game with the reason recorded, its
processes are gone afterwards, and the referee carries on."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from games.bots.process.sandbox import Limits, isolation_method
from games.engines import get_engine
from games.series.referee import BotSpec, RefereeOutcome
from tests.unit.protocol.helpers import EXAMPLES, misbehaving, play

JAILED = isolation_method() != "none"


def forfeited(outcome: RefereeOutcome, fault: str, termination: str = "forfeit") -> None:
    assert outcome.winner_side == 1, outcome
    assert (outcome.termination, outcome.fault, outcome.fault_seat) == (
        termination, fault, outcome.fault_seat), outcome.reason
    assert outcome.fault_seat is not None and outcome.fault_seat % 2 == 0
    assert outcome.reason
    get_engine("kugamai").replay(outcome.record)  # the moves before the forfeit are legal


def test_a_correct_program_plays_whole_games_in_every_game() -> None:
    bot = BotSpec.installed("random-example")
    for game in ("kugamai", "kazambi", "stolbiki", "anti-kazambi-pairs"):
        outcome = play(bot, game=game, bots_dir=EXAMPLES)
        assert outcome.termination == "normal", outcome.reason
        assert outcome.bots[0] == "Random example"
        engine = get_engine(game)
        _, result = engine.replay(outcome.record)
        assert result is not None and result["winner"] == outcome.winner_side


@pytest.mark.parametrize(
    ("mode", "fault", "words"),
    [
        ("crash", "crash", "exited with status 3"),
        ("raise", "crash", "RuntimeError: the bot's own bug"),
        ("garbage", "garbage", "unknown command 'hello'"),
        ("binary", "garbage", "not UTF-8"),
        ("illegal", "illegal", "illegal move"),
        ("flood", "flood", "longer than"),
        ("flood_info", "flood", "bytes of output for one move"),
        ("unsolicited", "protocol", "while it was not its turn"),
    ],
)
def test_a_misbehaving_bot_forfeits_with_the_reason(mode: str, fault: str, words: str) -> None:
    outcome = play(misbehaving(mode))
    forfeited(outcome, fault)
    assert words in outcome.reason


def test_the_offending_line_is_kept() -> None:
    outcome = play(misbehaving("garbage"))
    assert outcome.fault_line == "hello referee, how are you?"
    assert play(misbehaving("illegal")).fault_line in {"move pass", "move 0-0"}


def test_a_hanging_bot_loses_on_time_and_is_killed() -> None:
    started = time.perf_counter()
    outcome = play(misbehaving("hang"), move_seconds=0.5)
    forfeited(outcome, "timeout", "time_forfeit")
    assert time.perf_counter() - started < 8
    assert "within 0.50 s" in outcome.reason


def test_a_bot_that_never_answers_the_handshake_cannot_start() -> None:
    outcome = play(misbehaving("silent"), limits=Limits(start_seconds=1.0))
    forfeited(outcome, "start")
    assert "could not start" in outcome.reason


@pytest.mark.parametrize(("mode", "words"), [("crash_at_start", "status 5"),
                                             ("wrong_version", "version 7")])
def test_a_bot_that_fails_the_handshake_cannot_start(mode: str, words: str) -> None:
    outcome = play(misbehaving(mode))
    assert outcome.winner_side == 1 and outcome.termination == "forfeit"
    assert "could not start" in outcome.reason and words in outcome.reason


def test_a_missing_program_cannot_start() -> None:
    outcome = play(BotSpec.program(["/no/such/bot"]))
    forfeited(outcome, "start")
    assert "/no/such/bot" in outcome.reason


def test_when_both_sides_fail_to_start_the_first_seat_forfeits_and_both_are_named() -> None:
    outcome = play(misbehaving("crash_at_start"), misbehaving("crash_at_start"))
    assert outcome.fault_seat == 0 and outcome.winner_side == 1
    assert "seat 1" in outcome.reason and "also failed" in outcome.reason


def test_too_much_memory_is_refused() -> None:
    outcome = play(misbehaving("memory"), limits=Limits(memory_bytes=512 << 20))
    forfeited(outcome, "memory")
    assert "MemoryError" in outcome.reason and "512 MiB" in outcome.reason


def test_the_cpu_limit_ends_a_busy_bot() -> None:
    started = time.perf_counter()
    outcome = play(misbehaving("cpu"), limits=Limits(cpu_seconds=1, default_move_seconds=20),
                   move_seconds=None)
    forfeited(outcome, "cpu")
    assert "1 s of CPU time" in outcome.reason
    assert time.perf_counter() - started < 15


def test_writing_too_much_to_stderr_ends_the_bot() -> None:
    outcome = play(misbehaving("stderr_flood"), limits=Limits(file_bytes=1 << 20))
    forfeited(outcome, "flood")
    assert "1048576 bytes" in outcome.reason


@pytest.mark.skipif(not JAILED, reason="no jail on this machine")
def test_a_bot_has_no_network() -> None:
    outcome = play(misbehaving("network", "5432"))
    assert outcome.termination == "normal", outcome.reason
    notes = [line for lines in outcome.info for line in lines if "network" in line]
    assert len(notes) == 2 and all("blocked" in note for note in notes), notes


@pytest.mark.skipif(not JAILED, reason="no jail on this machine")
def test_every_process_a_bot_started_dies_with_the_game() -> None:
    marker = f"bot-child-{uuid.uuid4()}"
    outcome = play(misbehaving("fork", marker))
    assert outcome.termination == "normal", outcome.reason
    assert ["string forked"] in outcome.info
    time.sleep(0.2)
    assert not [pid for pid in os.listdir("/proc") if pid.isdigit() and _cmdline_has(pid, marker)]


def test_the_bots_die_with_their_referee(tmp_path: Path) -> None:
    """A worker killed in the middle of a game (kill -9) leaves no bot behind."""
    marker = f"bot-hang-{uuid.uuid4()}"
    script = tmp_path / "referee.py"
    script.write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(Path(__file__).resolve().parents[3])!r})\n"
        "from tests.unit.protocol.helpers import misbehaving, play\n"
        f"play(misbehaving('hang', {marker!r}), move_seconds=600)\n"
    )
    referee = subprocess.Popen([sys.executable, str(script)])
    try:
        deadline = time.monotonic() + 30
        while not _running(marker):
            assert time.monotonic() < deadline, "the bot never started"
            time.sleep(0.1)
        time.sleep(1.0)  # the bot is thinking about its first move now
    finally:
        referee.kill()
        referee.wait()
    deadline = time.monotonic() + 5
    while _running(marker):
        assert time.monotonic() < deadline, "the bot outlived its referee"
        time.sleep(0.1)


def _running(marker: str) -> bool:
    return any(pid.isdigit() and _cmdline_has(pid, marker) for pid in os.listdir("/proc"))


def _cmdline_has(pid: str, marker: str) -> bool:
    try:
        return marker in Path(f"/proc/{pid}/cmdline").read_bytes().decode("utf-8", "replace")
    except OSError:
        return False


def test_the_referee_carries_on_after_faults() -> None:
    for mode in ("crash", "garbage", "illegal"):
        assert play(misbehaving(mode)).termination == "forfeit"
    outcome = play(misbehaving("ok"), number=1)
    assert outcome.termination == "normal", outcome.reason
