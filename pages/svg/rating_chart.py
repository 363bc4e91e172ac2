"""A player's rating game by game as an SVG line chart, with the deviation as a band.

Each rated game is one step along the x axis, whenever it was played: a day of many games
is as wide as those games, not a vertical stack. Under the axis a few games are labelled
with their number and date; every dot names its game, date and rating when pointed at.
The drawing is small (400 wide) with large type, so that it keeps readable text when a
phone scales it to its width. Pure Python.

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

from pages.svg.markup import ENGLISH, Texts, element, esc, num, svg_document, text

WIDTH = 400
HEIGHT = 230
LEFT = 46
RIGHT = 16
TOP = 14
BOTTOM = 44
BAND_LIMIT = 400.0
#: At most this many labelled games under the axis (each label is a number and a date).
X_LABELS = 4
#: The axis labels' type (site.css: 14 px) and a generous average glyph width of it, so
#: that estimated label boxes are never narrower than the drawn ones.
AXIS_GLYPH_WIDTH = 14 * 0.62
#: The least space between two labels on a row.
LABEL_GAP = 8.0


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


def x_of(game: int, games: int) -> float:
    """The x of game ``game`` (1-based) of ``games``, evenly spaced; a lone game sits
    in the middle."""
    plot = WIDTH - LEFT - RIGHT
    if games <= 1:
        return LEFT + plot / 2
    return LEFT + plot * (game - 1) / (games - 1)


def labelled_games(games: int, most: int = X_LABELS) -> list[int]:
    """The game numbers labelled under the axis: the first, the last and round numbers
    between, at most ``most`` of them.

    >>> labelled_games(1), labelled_games(3), labelled_games(40)
    ([1], [1, 2, 3], [1, 20, 40])
    """
    if games <= most:
        return list(range(1, games + 1))
    step = max(1, int(nice_step(games - 1, ticks=most - 1)))
    while True:
        inner = [n for n in range(step, games, step) if games - n >= step / 2]
        if len(inner) + 2 <= most:
            return [1, *inner, games]
        step = int(nice_step(step * 2.0, ticks=1))


class AxisLabel(NamedTuple):
    """One labelled game under the x axis: its number and date, anchored at ``x``."""

    x: float
    anchor: str
    number: str
    date: str

    def span(self) -> tuple[float, float]:
        """The estimated left and right of the wider of its two lines."""
        width = AXIS_GLYPH_WIDTH * max(len(self.number), len(self.date))
        if self.anchor == "start":
            return self.x, self.x + width
        if self.anchor == "end":
            return self.x - width, self.x
        return self.x - width / 2, self.x + width / 2


def _apart(left: AxisLabel, right: AxisLabel) -> bool:
    return left.span()[1] + LABEL_GAP <= right.span()[0]


def axis_labels(points: Sequence[RatingPoint], texts: Texts = ENGLISH) -> list[AxisLabel]:
    """The labels under the axis for ``points`` (sorted by time): the first and the last
    game always, the round-numbered games of :func:`labelled_games` between them only where
    their boxes clear their neighbours, so close dates never print over each other."""
    games = len(points)
    several_years = points[0].played_at.year != points[-1].played_at.year

    def label(number: int, anchor: str) -> AxisLabel:
        date = _short_date(points[number - 1].played_at, several_years or number == games,
                           texts)
        return AxisLabel(x_of(number, games), anchor, f"#{number}", date)

    if games == 1:
        return [label(1, "middle")]
    first, last = label(1, "start"), label(games, "end")
    kept = [first]
    for number in labelled_games(games)[1:-1]:
        candidate = label(number, "middle")
        if _apart(kept[-1], candidate) and _apart(candidate, last):
            kept.append(candidate)
    return [*kept, last]


def _month(moment: dt.datetime, texts: Texts) -> str:
    names = (texts.pgettext("short month", "Jan"), texts.pgettext("short month", "Feb"),
             texts.pgettext("short month", "Mar"), texts.pgettext("short month", "Apr"),
             texts.pgettext("short month", "May"), texts.pgettext("short month", "Jun"),
             texts.pgettext("short month", "Jul"), texts.pgettext("short month", "Aug"),
             texts.pgettext("short month", "Sep"), texts.pgettext("short month", "Oct"),
             texts.pgettext("short month", "Nov"), texts.pgettext("short month", "Dec"))
    return names[moment.month - 1]


def _short_date(moment: dt.datetime, with_year: bool, texts: Texts = ENGLISH) -> str:
    month = _month(moment, texts)
    return f"{moment.day} {month} {moment.year}" if with_year else f"{moment.day} {month}"


def _date(moment: dt.datetime, texts: Texts) -> str:
    return f"{moment.day:02d} {_month(moment, texts)} {moment.year}"


def rating_chart_svg(points: Sequence[RatingPoint], *, title: str = "",
                     id_prefix: str = "rating", texts: Texts = ENGLISH) -> str:
    """The chart, one step per game in the order played; an empty sequence gives a chart
    that says there are no rated games. ``texts`` translates the words."""
    title = title or texts.gettext("Rating over time")
    if not points:
        empty = text(WIDTH / 2, HEIGHT / 2, texts.gettext("No rated games yet"),
                     text_anchor="middle", class_="empty")
        return svg_document(WIDTH, HEIGHT, empty, title=title, class_="rating-chart",
                            id_prefix=id_prefix)
    points = sorted(points, key=lambda p: p.played_at)  # stable: same moment keeps its order
    games = len(points)
    low = min(p.rating - min(p.rd or 0.0, BAND_LIMIT) for p in points)
    high = max(p.rating + min(p.rd or 0.0, BAND_LIMIT) for p in points)
    step = nice_step(max(high - low, 20.0), ticks=4)
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    if high == low:
        high = low + step
    plot_height = HEIGHT - TOP - BOTTOM

    def y_of(value: float) -> float:
        return TOP + plot_height * (high - value) / (high - low)

    xs = [x_of(number, games) for number in range(1, games + 1)]
    body: list[str] = []
    tick = low
    while tick <= high + 1e-9:
        y = y_of(tick)
        body.append(element("line", x1=LEFT, y1=y, x2=WIDTH - RIGHT, y2=y, class_="grid"))
        body.append(text(LEFT - 5, y + 4, num(tick), text_anchor="end", class_="axis"))
        tick += step
    first, last = points[0].played_at, points[-1].played_at
    axis_y = HEIGHT - BOTTOM
    for mark in axis_labels(points, texts):
        body.append(element("line", x1=mark.x, y1=axis_y, x2=mark.x, y2=axis_y + 4,
                            class_="grid"))
        body.append(text(mark.x, axis_y + 18, mark.number, text_anchor=mark.anchor,
                         class_="axis"))
        body.append(text(mark.x, axis_y + 35, mark.date, text_anchor=mark.anchor,
                         class_="axis date"))
    if any(p.rd for p in points):
        upper = [f"{num(x)},{num(y_of(p.rating + min(p.rd or 0, BAND_LIMIT)))}"
                 for x, p in zip(xs, points, strict=True)]
        lower = [f"{num(x)},{num(y_of(p.rating - min(p.rd or 0, BAND_LIMIT)))}"
                 for x, p in zip(xs, points, strict=True)]
        body.append(element("polygon", points=" ".join(upper + lower[::-1]), class_="band"))
    line = " ".join(f"{num(x)},{num(y_of(p.rating))}" for x, p in zip(xs, points, strict=True))
    body.append(element("polyline", points=line, class_="line"))
    radius = 3.5 if games <= 60 else 2.5 if games <= 150 else 1.5
    for number, (x, point) in enumerate(zip(xs, points, strict=True), start=1):
        values = {"number": number, "date": _date(point.played_at, texts),
                  "rating": f"{point.rating:.0f}", "rd": f"{(point.rd or 0):.0f}"}
        label = (texts.gettext("Game %(number)d, %(date)s: %(rating)s ± %(rd)s") if point.rd
                 else texts.gettext("Game %(number)d, %(date)s: %(rating)s")) % values
        body.append(element("circle", element("title", esc(label)), cx=x,
                            cy=y_of(point.rating), r=radius, class_="dot"))
    latest = points[-1]
    description = texts.ngettext(
        "%(games)d rated game from %(first)s to %(last)s, one step per game; rating now "
        "%(rating)s, lowest %(lowest)s, highest %(highest)s.",
        "%(games)d rated games from %(first)s to %(last)s, one step per game; rating now "
        "%(rating)s, lowest %(lowest)s, highest %(highest)s.", games) % {
            "games": games, "first": _date(first, texts), "last": _date(last, texts),
            "rating": f"{latest.rating:.0f}", "lowest": f"{min(p.rating for p in points):.0f}",
            "highest": f"{max(p.rating for p in points):.0f}"}
    if any(p.rd for p in points):
        description += " " + texts.gettext(
            "The shaded band is the rating plus or minus its deviation.")
    return svg_document(WIDTH, HEIGHT, "".join(body), title=title, description=description,
                        class_="rating-chart", id_prefix=id_prefix)
