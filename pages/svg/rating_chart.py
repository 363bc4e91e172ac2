"""A player's rating over time as an SVG line chart, with the deviation as a band.

Points are placed by date; games on the same moment are spread evenly. Pure Python.

>>> import datetime as dt
>>> day = dt.datetime(2025, 1, 1)
>>> svg = rating_chart_svg([RatingPoint(day, 1500.0, 350.0), RatingPoint(day, 1540.0, 300.0)])
>>> svg.startswith("<svg") and "1540" in svg
True
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence
from typing import NamedTuple

from pages.svg.markup import element, esc, num, svg_document, text

WIDTH = 640
HEIGHT = 260
LEFT = 52
RIGHT = 16
TOP = 16
BOTTOM = 34
BAND_LIMIT = 400.0


class RatingPoint(NamedTuple):
    """The rating after one game (``rd`` for Glicko-2 ratings, None for Elo)."""

    played_at: dt.datetime
    rating: float
    rd: float | None = None


def nice_step(span: float, ticks: int = 5) -> float:
    """A round step (1, 2 or 5 times a power of ten) giving about ``ticks`` intervals.

    >>> nice_step(230)
    50.0
    """
    if span <= 0:
        return 1.0
    raw = span / ticks
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if raw <= factor * power:
            return float(factor * power)
    return float(10 * power)


def _x_positions(points: Sequence[RatingPoint]) -> list[float]:
    start = points[0].played_at.timestamp()
    span = points[-1].played_at.timestamp() - start
    plot = WIDTH - LEFT - RIGHT
    if len(points) == 1:
        return [LEFT + plot / 2]
    if span <= 0:
        return [LEFT + plot * i / (len(points) - 1) for i in range(len(points))]
    return [LEFT + plot * (p.played_at.timestamp() - start) / span for p in points]


def rating_chart_svg(points: Sequence[RatingPoint], *, title: str = "Rating over time",
                     id_prefix: str = "rating") -> str:
    """The chart; an empty sequence gives a chart that says there are no rated games."""
    if not points:
        empty = text(WIDTH / 2, HEIGHT / 2, "No rated games yet", text_anchor="middle",
                     class_="empty")
        return svg_document(WIDTH, HEIGHT, empty, title=title, class_="rating-chart",
                            id_prefix=id_prefix)
    points = sorted(points, key=lambda p: p.played_at)
    low = min(p.rating - min(p.rd or 0.0, BAND_LIMIT) for p in points)
    high = max(p.rating + min(p.rd or 0.0, BAND_LIMIT) for p in points)
    step = nice_step(max(high - low, 20.0))
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    if high == low:
        high = low + step
    plot_height = HEIGHT - TOP - BOTTOM

    def y_of(value: float) -> float:
        return TOP + plot_height * (high - value) / (high - low)

    xs = _x_positions(points)
    body: list[str] = []
    tick = low
    while tick <= high + 1e-9:
        y = y_of(tick)
        body.append(element("line", x1=LEFT, y1=y, x2=WIDTH - RIGHT, y2=y, class_="grid"))
        body.append(text(LEFT - 6, y + 4, num(tick), text_anchor="end", class_="axis"))
        tick += step
    first, last = points[0].played_at, points[-1].played_at
    body.append(text(LEFT, HEIGHT - 10, first.strftime("%d %b %Y"), class_="axis"))
    if len(points) > 1 and last.date() != first.date():
        body.append(text(WIDTH - RIGHT, HEIGHT - 10, last.strftime("%d %b %Y"),
                         text_anchor="end", class_="axis"))
    if any(p.rd for p in points):
        upper = [f"{num(x)},{num(y_of(p.rating + min(p.rd or 0, BAND_LIMIT)))}"
                 for x, p in zip(xs, points, strict=True)]
        lower = [f"{num(x)},{num(y_of(p.rating - min(p.rd or 0, BAND_LIMIT)))}"
                 for x, p in zip(xs, points, strict=True)]
        body.append(element("polygon", points=" ".join(upper + lower[::-1]), class_="band"))
    line = " ".join(f"{num(x)},{num(y_of(p.rating))}" for x, p in zip(xs, points, strict=True))
    body.append(element("polyline", points=line, class_="line"))
    for x, point in zip(xs, points, strict=True):
        label = f"{point.played_at:%d %b %Y}: {point.rating:.0f}"
        if point.rd:
            label += f" ± {point.rd:.0f}"
        body.append(element("circle", element("title", esc(label)), cx=x,
                            cy=y_of(point.rating), r=3, class_="dot"))
    latest = points[-1]
    description = (f"{len(points)} rated games from {first:%d %b %Y} to {last:%d %b %Y}; "
                   f"rating now {latest.rating:.0f}, lowest {min(p.rating for p in points):.0f},"
                   f" highest {max(p.rating for p in points):.0f}.")
    if any(p.rd for p in points):
        description += " The shaded band is the rating plus or minus its deviation."
    return svg_document(WIDTH, HEIGHT, "".join(body), title=title, description=description,
                        class_="rating-chart", id_prefix=id_prefix)
