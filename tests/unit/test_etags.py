"""tournaments.etags: tags name the state they were made from; If-None-Match is compared
weakly, as RFC 9110 asks for GET."""

from __future__ import annotations

import pytest

from tournaments.etags import TournamentState, etag_matches, opaque

STATE = TournamentState(12, 7, "2026-11-29T20:15:00+00:00")


def test_a_tag_is_weak_and_names_tournament_and_version() -> None:
    tag = STATE.etag("page", "rev1")
    assert tag.startswith('W/"t12-v7-') and tag.endswith('"')


@pytest.mark.parametrize("other", [
    TournamentState(12, 8, STATE.saved_at),          # a result was written
    TournamentState(12, 7, "2026-11-29T20:16:00+00:00"),  # the tournament was edited
    TournamentState(13, 7, STATE.saved_at),          # another tournament
])
def test_any_change_of_state_changes_tag_and_key(other: TournamentState) -> None:
    assert other.etag("page", "rev1") != STATE.etag("page", "rev1")
    assert other.key("page", "rev1") != STATE.key("page", "rev1")


def test_kind_and_code_revision_change_the_tag() -> None:
    tags = {STATE.etag("page", "rev1"), STATE.etag("results", "rev1"),
            STATE.etag("page", "rev2")}
    assert len(tags) == 3
    assert STATE.key("page", "rev1") != STATE.key("page", "rev2")


def test_same_state_same_tag() -> None:
    assert TournamentState(12, 7, STATE.saved_at).etag("page", "r") == STATE.etag("page", "r")


@pytest.mark.parametrize(("header", "expected"), [
    (None, False),
    ("", False),
    ("*", True),
    ('W/"t12-v7-abc"', True),
    ('"t12-v7-abc"', True),  # weak comparison ignores W/
    ('"other", W/"t12-v7-abc"', True),
    ('"other",W/"t12-v7-abc"', True),
    ('"t12-v6-abc"', False),
    ('"a,b", "c"', False),
    ('W/"t12-v7-abcd"', False),
])
def test_if_none_match(header: str | None, expected: bool) -> None:
    assert etag_matches(header, 'W/"t12-v7-abc"') is expected


def test_commas_inside_quotes_do_not_split() -> None:
    assert etag_matches('"x", "a,b"', '"a,b"')
    assert opaque(' W/"a" ') == '"a"'
