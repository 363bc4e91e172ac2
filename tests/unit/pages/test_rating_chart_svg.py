from __future__ import annotations

import datetime as dt
import xml.etree.ElementTree as ET

import pytest

from pages.svg.rating_chart import HEIGHT, RatingPoint, nice_step, rating_chart_svg

SVG = "{http://www.w3.org/2000/svg}"
DAY = dt.datetime(2025, 3, 1, 18, 0, tzinfo=dt.UTC)


@pytest.mark.parametrize(("span", "step"), [(230, 50.0), (20, 5.0), (1000, 200.0), (7, 2.0),
                                            (0, 1.0)])
def test_nice_steps(span: float, step: float) -> None:
    assert nice_step(span) == step


def test_no_points_says_so() -> None:
    svg = rating_chart_svg([])
    assert "No rated games yet" in svg
    ET.fromstring(svg)


def test_glicko_history_has_a_band_and_a_dot_per_game() -> None:
    points = [RatingPoint(DAY + dt.timedelta(days=i), 1500 + 10 * i, 350 - 20 * i)
              for i in range(10)]
    root = ET.fromstring(rating_chart_svg(points))
    assert len(list(root.iter(f"{SVG}circle"))) == 10
    assert root.find(f"{SVG}polygon") is not None
    line = root.find(f"{SVG}polyline")
    assert line is not None
    ys = [float(pair.split(",")[1]) for pair in line.attrib["points"].split()]
    assert ys == sorted(ys, reverse=True)  # rising rating, falling y
    assert all(0 <= y <= HEIGHT for y in ys)
    desc = root.find(f"{SVG}desc")
    assert desc is not None and "rating now 1590" in (desc.text or "")


def test_elo_history_has_no_band_and_same_moment_games_spread_out() -> None:
    points = [RatingPoint(DAY, 1200.0 + i) for i in range(3)]
    root = ET.fromstring(rating_chart_svg(points))
    assert root.find(f"{SVG}polygon") is None
    xs = [float(c.attrib["cx"]) for c in root.iter(f"{SVG}circle")]
    assert len(set(xs)) == 3


def test_games_are_evenly_spaced_whatever_their_dates() -> None:
    """A day of five games and a game a month later: six equal steps, not a stack."""
    moments = [DAY + dt.timedelta(minutes=i) for i in range(5)] + [DAY + dt.timedelta(days=30)]
    points = [RatingPoint(moment, 1500.0 + 7 * i) for i, moment in enumerate(moments)]
    root = ET.fromstring(rating_chart_svg(points))
    xs = [float(c.attrib["cx"]) for c in root.iter(f"{SVG}circle")]
    gaps = {round(b - a, 1) for a, b in zip(xs, xs[1:], strict=False)}
    assert len(gaps) == 1 and gaps.pop() > 0


def test_every_dot_names_its_game_and_date_and_the_axis_shows_dates() -> None:
    points = [RatingPoint(DAY + dt.timedelta(days=i), 1500.0 + i) for i in range(12)]
    root = ET.fromstring(rating_chart_svg(points))
    titles = [c.find(f"{SVG}title").text for c in root.iter(f"{SVG}circle")]  # type: ignore[union-attr]
    assert titles[0] == "Game 1, 01 Mar 2025: 1500"
    assert titles[11] == "Game 12, 12 Mar 2025: 1511"
    labels = [t.text for t in root.iter(f"{SVG}text")]
    assert "#1" in labels and "1 Mar" in labels and "#12" in labels and "12 Mar 2025" in labels


@pytest.mark.parametrize("games", [1, 2, 5, 7, 13, 40, 101, 500])
def test_axis_labels_stay_few_and_inside(games: int) -> None:
    from pages.svg.rating_chart import WIDTH, X_LABELS, labelled_games

    labelled = labelled_games(games)
    assert labelled[0] == 1 and labelled[-1] == games and len(labelled) <= X_LABELS
    assert labelled == sorted(set(labelled))
    points = [RatingPoint(DAY + dt.timedelta(hours=i), 1500.0) for i in range(games)]
    root = ET.fromstring(rating_chart_svg(points))
    assert all(0 <= float(c.attrib["cx"]) <= WIDTH for c in root.iter(f"{SVG}circle"))


def test_one_game_is_drawn() -> None:
    root = ET.fromstring(rating_chart_svg([RatingPoint(DAY, 1500.0, 300.0)]))
    assert len(list(root.iter(f"{SVG}circle"))) == 1


#: A generous average glyph width of the axis type (14 px): digits and letters of Arial or
#: DejaVu Sans average under 0.6 em.
GLYPH = 14 * 0.6


def _label_boxes(svg: str) -> list[tuple[float, float, str]]:
    """Each axis label under the x axis as (left, right, text), its width estimated."""
    boxes = []
    for label in ET.fromstring(svg).iter(f"{SVG}text"):
        if "axis" not in label.attrib.get("class", "") or float(label.attrib["y"]) < HEIGHT - 44:
            continue
        x, width = float(label.attrib["x"]), GLYPH * len(label.text or "")
        anchor = label.attrib.get("text-anchor", "start")
        left = x if anchor == "start" else x - width if anchor == "end" else x - width / 2
        boxes.append((left, left + width, f"{label.attrib['y']}:{label.text}"))
    return boxes


@pytest.mark.parametrize("games", [2, 3, 4, 5, 6, 7, 9, 13, 21, 40, 101])
@pytest.mark.parametrize("spacing", [dt.timedelta(minutes=5), dt.timedelta(days=1),
                                     dt.timedelta(days=45), dt.timedelta(days=400)])
def test_axis_labels_never_overlap(games: int, spacing: dt.timedelta) -> None:
    """Dates close together ("4 Dec" beside "4 Dec 2026") and far apart (every label with
    its year): no two labels on a row share any width, and each stays on the drawing."""
    from pages.svg.rating_chart import WIDTH

    points = [RatingPoint(DAY + spacing * i, 1500.0 + i) for i in range(games)]
    boxes = _label_boxes(rating_chart_svg(points))
    assert len(boxes) >= 4  # the first and the last game at least, number and date
    for row in {text.split(":")[0] for _, _, text in boxes}:
        on_row = sorted(box for box in boxes if box[2].startswith(f"{row}:"))
        assert all(left >= 0 and right <= WIDTH for left, right, _ in on_row), on_row
        for (_, right, a), (left, _, b) in zip(on_row, on_row[1:], strict=False):
            assert right + 4 <= left, f"{a!r} and {b!r} overlap"
