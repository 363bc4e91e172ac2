"""The pure parts of notices: the iCalendar writer and the origin rules."""

from __future__ import annotations

import datetime as dt

import icalendar
import pytest

from notices.ics import CalendarEvent, calendar, escape, fold
from notices.origins import OriginError, normalise_origin, normalise_origins

START = dt.datetime(2026, 12, 5, 18, 30, tzinfo=dt.UTC)


def test_escape_and_fold() -> None:
    assert escape("a;b,c\\d\ne\x00") == "a\\;b\\,c\\\\d\\ne"
    long = "SUMMARY:" + "Ёлка " * 40
    folded = fold(long)
    assert all(len(line.encode()) <= 75 for line in folded.split("\r\n"))
    assert folded.replace("\r\n ", "") == long


def test_a_calendar_parses_back() -> None:
    events = [CalendarEvent(uid=f"e{i}@x", start=START + dt.timedelta(days=i),
                            end=START + dt.timedelta(days=i, hours=2),
                            summary=f"Турнир, тур {i}: доска 1, «Ёж»", location="Hall; 2",
                            description="line one\nline two", url="https://x.org/r/1/")
              for i in range(3)]
    text = calendar("Cup, 2026", events, stamp=START)
    assert text.endswith("\r\n") and "\n" not in text.replace("\r\n", "")
    parsed = icalendar.Calendar.from_ical(text)
    items = parsed.walk("VEVENT")
    assert [str(e["UID"]) for e in items] == ["e0@x", "e1@x", "e2@x"]
    assert str(items[1]["SUMMARY"]) == "Турнир, тур 1: доска 1, «Ёж»"
    assert str(items[0]["DESCRIPTION"]) == "line one\nline two"
    assert items[2].decoded("DTSTART") == START + dt.timedelta(days=2)


@pytest.mark.parametrize(("text", "origin"), [
    ("https://Club.Example.org/", "https://club.example.org"),
    ("http://localhost:8080", "http://localhost:8080"),
    ("https://*.example.org", "https://*.example.org"),
    ("http://[::1]:8000", "http://[::1]:8000"),
])
def test_origins_normalised(text: str, origin: str) -> None:
    assert normalise_origin(text) == origin


@pytest.mark.parametrize("text", [
    "club.example.org", "https://club.example.org/path", "https://u@club.example.org",
    "https://club.example.org?x", "javascript:alert(1)", "data:text/html,x", "*", "'self'",
    "https://a b.org", "https://a\x00.org", "https://club.example.org:0", "x" * 300,
    "https://club.example.org;frame-ancestors *",
])
def test_bad_origins(text: str) -> None:
    with pytest.raises(OriginError):
        normalise_origin(text)


def test_origins_deduplicated_and_bounded() -> None:
    assert normalise_origins(["https://a.org", "https://A.org/"]) == ["https://a.org"]
    with pytest.raises(OriginError):
        normalise_origins(f"https://c{i}.org" for i in range(21))
