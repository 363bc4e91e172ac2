"""Clock settings and their text form."""

from __future__ import annotations

import pytest

from games.clocks.errors import ClockInputError, ClockNotationError
from games.clocks.setting import ClockSetting, IncrementKind, format_setting, parse_setting

FISCHER, BRONSTEIN, DELAY, NONE = (
    IncrementKind.FISCHER,
    IncrementKind.BRONSTEIN,
    IncrementKind.SIMPLE_DELAY,
    IncrementKind.NONE,
)


@pytest.mark.parametrize(
    ("text", "setting", "canonical"),
    [
        ("15+10", ClockSetting(900, FISCHER, 10), "15+10"),
        ("15", ClockSetting(900), "15"),
        ("15+0", ClockSetting(900), "15"),
        ("15 d5", ClockSetting(900, DELAY, 5), "15 d5"),
        ("15d5", ClockSetting(900, DELAY, 5), "15 d5"),
        ("15 B5", ClockSetting(900, BRONSTEIN, 5), "15 b5"),
        (" 1:30+2 ", ClockSetting(90, FISCHER, 2), "1:30+2"),
        ("0:45", ClockSetting(45), "0:45"),
        ("90 + 30", ClockSetting(5400, FISCHER, 30), "90+30"),
    ],
)
def test_parse_and_format(text, setting, canonical):
    assert parse_setting(text) == setting
    assert ClockSetting.parse(text) == setting
    assert format_setting(setting) == canonical
    assert str(setting) == canonical
    assert parse_setting(canonical) == setting


@pytest.mark.parametrize("text", ["", "abc", "15+", "15 x5", "1:75", "15+10+2", "-5", "0", "0+5"])
def test_unreadable_texts(text):
    with pytest.raises((ClockNotationError, ClockInputError)):
        parse_setting(text)


def test_notation_error_explains_the_form():
    with pytest.raises(ClockNotationError, match="15 d5"):
        parse_setting("fifteen")


def test_validation():
    with pytest.raises(ClockInputError, match="base time"):
        ClockSetting(0)
    with pytest.raises(ClockInputError, match="increment or delay"):
        ClockSetting(60, FISCHER, -1)
    with pytest.raises(ClockInputError, match="without increment"):
        ClockSetting(60, NONE, 5)
    with pytest.raises(ClockInputError, match="unknown increment kind"):
        ClockSetting(60, "hourglass", 5)  # type: ignore[arg-type]


def test_kind_given_as_text():
    assert ClockSetting(60, "bronstein", 3).kind is BRONSTEIN  # type: ignore[arg-type]


def test_describe():
    assert ClockSetting(900, FISCHER, 10).describe() == (
        "15 minutes + 10 s Fischer increment per move"
    )
    assert ClockSetting(60).describe() == "1 minute, no increment"
    assert ClockSetting(90, DELAY, 5).describe() == "1 min 30 s + 5 s simple delay per move"


def test_max_seconds_for():
    assert ClockSetting(600, FISCHER, 5).max_seconds_for(14) == 670
    assert ClockSetting(600).max_seconds_for(14) == 600
