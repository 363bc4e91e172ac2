"""Pure: an iCalendar (RFC 5545) writer for the calendar feeds: events with a start, an
end, a place and a description; text escaped, lines folded at 75 octets, CRLF ends."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

PRODID = "-//Club tournaments//Calendar feed//EN"


@dataclass(frozen=True, slots=True)
class CalendarEvent:
    uid: str
    start: dt.datetime  # aware
    end: dt.datetime  # aware
    summary: str
    location: str = ""
    description: str = ""
    url: str = ""


def escape(text: str) -> str:
    """A TEXT value: backslash, semicolon, comma and newlines escaped; control characters
    (NUL among them) dropped."""
    text = "".join(ch for ch in text if ch in "\n" or ord(ch) >= 32 and ord(ch) != 127)
    return (text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
            .replace("\r\n", "\n").replace("\n", "\\n"))


def fold(line: str) -> str:
    """Lines longer than 75 octets go on as continuation lines (a space first), never
    splitting a UTF-8 character."""
    out: list[str] = []
    current = ""
    size = 0
    limit = 75
    for ch in line:
        width = len(ch.encode("utf-8"))
        if size + width > limit:
            out.append(current)
            current, size, limit = " ", 1, 75
        current += ch
        size += width
    out.append(current)
    return "\r\n".join(out)


def utc_stamp(moment: dt.datetime) -> str:
    return moment.astimezone(dt.UTC).strftime("%Y%m%dT%H%M%SZ")


def calendar(name: str, events: Iterable[CalendarEvent], *, stamp: dt.datetime) -> str:
    """The whole feed, a VCALENDAR of VEVENTs (times in UTC)."""
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", f"PRODID:{PRODID}", "CALSCALE:GREGORIAN",
             "METHOD:PUBLISH", f"X-WR-CALNAME:{escape(name)}"]
    for event in events:
        lines += ["BEGIN:VEVENT", f"UID:{escape(event.uid)}", f"DTSTAMP:{utc_stamp(stamp)}",
                  f"DTSTART:{utc_stamp(event.start)}", f"DTEND:{utc_stamp(event.end)}",
                  f"SUMMARY:{escape(event.summary)}"]
        if event.location:
            lines.append(f"LOCATION:{escape(event.location)}")
        if event.description:
            lines.append(f"DESCRIPTION:{escape(event.description)}")
        if event.url:
            lines.append(f"URL:{escape(event.url)}")
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    return "".join(fold(line) + "\r\n" for line in lines)
