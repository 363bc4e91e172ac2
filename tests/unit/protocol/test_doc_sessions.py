"""The example sessions of docs/bot-protocol.md, replayed against the real referee: the
bot's lines are sent as written, and every line the referee sends must be the session's."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.protocol.sessions import (
    DOCUMENT,
    Session,
    play_session,
    read_sessions,
    script_bot,
)

SESSIONS = read_sessions()


def test_the_document_has_a_session_per_game() -> None:
    assert {session.game for session in SESSIONS} == {"kazambi", "kugamai", "stolbiki"}
    assert "```session" in DOCUMENT.read_text()


@pytest.mark.parametrize("session", SESSIONS, ids=[s.game for s in SESSIONS])
def test_a_documented_session_replays_exactly(session: Session, tmp_path: Path) -> None:
    from tests.unit.protocol.programs.script_bot import same

    transcript = tmp_path / "session.txt"
    transcript.write_text("\n".join(session.lines) + "\n")
    log = tmp_path / "log.txt"
    bot = script_bot("replay", str(transcript), str(log), str(session.seat))
    outcome = play_session(session.header, bot)
    expected = [line[2:] for line in session.lines if line.startswith("> ")]
    got = log.read_text().splitlines()
    assert len(got) == len(expected), f"{outcome.termination}: {outcome.reason}"
    for number, (want, have) in enumerate(zip(expected, got, strict=True), start=1):
        assert same(want, have), f"referee line {number}: {have!r} instead of {want!r}"
    assert outcome.termination == "normal", outcome.reason
    winner = "draw" if outcome.winner_side is None else str(outcome.winner_side)
    assert expected[-2] == f"result {winner} normal"
