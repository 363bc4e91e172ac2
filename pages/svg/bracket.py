"""Knockout bracket diagram (single and double elimination) as SVG, from
``Bracket.to_dict()`` (tournaments.pairing.knockout). Pure Python.

Winners' bracket on top, losers' bracket below it, the grand final to the right with its
reset under it; a match sits level with the matches that feed it. Winners are bold on a
tinted row; the champion's final is outlined and named in a banner.

>>> doc = {"format": "single", "champion": 1, "matches": [
...     {"id": "W1-1", "bracket": "W", "round": 1, "index": 1, "entrants": [1, 2],
...      "winner": 1, "status": "done", "slots": [{"from": "seed", "seed": 1},
...      {"from": "seed", "seed": 2}]}]}
>>> "Champion: Ann" in bracket_svg(doc, {1: "Ann", 2: "Bob"})
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pages.svg.markup import ENGLISH, Texts, element, esc, svg_document, text, truncate

BYE = 0
BOX_WIDTH = 172
ROW_HEIGHT = 22
BOX_HEIGHT = 2 * ROW_HEIGHT
COLUMN_GAP = 30
ROW_GAP = 18
SECTION_GAP = 44
MARGIN = 12
BANNER = 34
LABEL_HEIGHT = 14
NAME_LIMIT = 19
#: The match id and a note on a match in progress fit over the box (11px text).
NOTE_LIMIT = 34
#: A slot still open says where its entrant comes from ("Winner of Semi-final 1") in
#: smaller type; the full words are in the match's title.
OPEN_LIMIT = 28

def _section_title(bracket: str, texts: Texts) -> str:
    return {"W": texts.gettext("Winners' bracket"), "L": texts.gettext("Losers' bracket"),
            "GF": texts.gettext("Grand final")}[bracket]


def _seed(seed: object, texts: Texts) -> str:
    return texts.gettext("Seed %(seed)s") % {"seed": seed}


class BracketDrawingError(ValueError):
    """The bracket document cannot be drawn."""


@dataclass
class _Box:
    match: Mapping[str, Any]
    x: float
    y: float


def _matches(document: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    matches = document.get("matches") if isinstance(document, Mapping) else None
    if not isinstance(matches, list) or not all(
        isinstance(m, Mapping) and {"id", "bracket", "round"} <= set(m) for m in matches
    ):
        raise BracketDrawingError("a bracket document has a list of matches with id, "
                                  "bracket and round")
    return matches


def _by_round(matches: Sequence[Mapping[str, Any]], bracket: str) -> list[list[Mapping[str, Any]]]:
    rounds: dict[int, list[Mapping[str, Any]]] = {}
    for match in matches:
        if match["bracket"] == bracket:
            rounds.setdefault(int(match["round"]), []).append(match)
    return [sorted(rounds[r], key=lambda m: int(m.get("index", 0))) for r in sorted(rounds)]


def _place_section(
    rounds: list[list[Mapping[str, Any]]], top: float, placed: dict[str, _Box]
) -> float:
    """Place a section's matches column by column from ``top``; return its bottom."""
    bottom = top
    for column, matches in enumerate(rounds):
        x = MARGIN + column * (BOX_WIDTH + COLUMN_GAP)
        for slot, match in enumerate(matches):
            feeders = [
                placed[source["match"]].y for source in match.get("slots", [])
                if isinstance(source, Mapping) and source.get("from") == "winner"
                and source.get("match") in placed
                and placed[source["match"]].match["bracket"] == match["bracket"]
            ]
            y = sum(feeders) / len(feeders) if feeders else (
                top + LABEL_HEIGHT + slot * (BOX_HEIGHT + ROW_GAP + LABEL_HEIGHT)
            )
            placed[str(match["id"])] = _Box(match, x, y)
            bottom = max(bottom, y + BOX_HEIGHT)
    return bottom


def _match_label(match: Mapping[str, Any], labels: Mapping[str, str], texts: Texts) -> str:
    """The match's name ("Final", "Winners' round 1, match 2"), its id when none is given."""
    match_id = str(match["id"])
    if match_id in labels:
        return labels[match_id]
    if match["bracket"] == "3rd":
        return texts.gettext("3rd place")
    return texts.pgettext("bracket", "Reset") if match_id == "GF2" else match_id


def _slot_label(match: Mapping[str, Any], index: int, names: Mapping[int, str],
                texts: Texts, labels: Mapping[str, str]) -> tuple[str, str]:
    """The text of slot ``index`` and its state: won, lost, plain, bye or open."""
    entrants = match.get("entrants") or [None, None]
    seed = entrants[index] if index < len(entrants) else None
    if seed == BYE:
        return texts.pgettext("bracket slot", "bye"), "bye"
    if seed is None:
        slots = match.get("slots") or []
        source = slots[index] if index < len(slots) else {}
        if isinstance(source, Mapping) and source.get("from") in ("winner", "loser"):
            template = (texts.gettext("Winner of %(match)s") if source["from"] == "winner"
                        else texts.gettext("Loser of %(match)s"))
            return template % {"match": labels.get(source["match"], source["match"])}, "open"
        return texts.gettext("to be decided"), "open"
    name = names.get(int(seed)) or _seed(seed, texts)
    won = match.get("winner") == seed and match.get("status") == "done"
    lost = match.get("status") == "done" and not won
    return name, "won" if won else "lost" if lost else "plain"


def _draw_box(box: _Box, names: Mapping[int, str], scores: Mapping[str, Sequence[str]],
              champion_match: str | None, notes: Mapping[str, str], texts: Texts,
              labels: Mapping[str, str]) -> str:
    match = box.match
    match_id = str(match["id"])
    status = str(match.get("status", "pending"))
    label = _match_label(match, labels, texts)
    note = notes.get(match_id, "")
    parts = [text(box.x + 2, box.y - 4, truncate(f"{label} · {note}" if note else label,
                                                  NOTE_LIMIT), class_="match-id")]
    score = scores.get(match_id, ("", ""))
    described = []
    for index in (0, 1):
        name, state = _slot_label(match, index, names, texts, labels)
        row_y = box.y + index * ROW_HEIGHT
        parts.append(element("rect", x=box.x, y=row_y, width=BOX_WIDTH, height=ROW_HEIGHT,
                             class_=f"slot-bg {state}"))
        limit = OPEN_LIMIT if state == "open" else NAME_LIMIT
        parts.append(text(box.x + 6, row_y + 15, truncate(name, limit),
                          class_=f"slot {state}"))
        if index < len(score) and score[index] != "":
            parts.append(text(box.x + BOX_WIDTH - 6, row_y + 15, score[index],
                              class_=f"slot {state} score", text_anchor="end"))
        described.append(name + (f" {score[index]}" if index < len(score) else ""))
    outline = "match-box champion" if match_id == champion_match else \
        f"match-box {status}{' live' if note else ''}"
    parts.append(element("rect", x=box.x, y=box.y, width=BOX_WIDTH, height=BOX_HEIGHT,
                         rx=3, class_=outline))
    parts.append(element("line", x1=box.x, y1=box.y + ROW_HEIGHT, x2=box.x + BOX_WIDTH,
                         y2=box.y + ROW_HEIGHT, class_="divider"))
    values = {"label": label, "first": described[0], "second": described[1], "note": note}
    summary = (texts.gettext("%(label)s: %(first)s versus %(second)s, %(note)s") if note
               else texts.gettext("%(label)s: %(first)s versus %(second)s")) % values
    return element("g", element("title", esc(summary)) + "".join(parts), class_="match",
                   data_match=match_id)


def _connectors(placed: Mapping[str, _Box]) -> str:
    lines = []
    for box in placed.values():
        for index, source in enumerate(box.match.get("slots") or []):
            if not isinstance(source, Mapping) or source.get("from") != "winner":
                continue
            feeder = placed.get(str(source.get("match")))
            if feeder is None or feeder.x >= box.x:  # the reset sits under its final
                continue
            x1, y1 = feeder.x + BOX_WIDTH, feeder.y + ROW_HEIGHT
            x2, y2 = box.x, box.y + index * ROW_HEIGHT + ROW_HEIGHT / 2
            middle = x2 - COLUMN_GAP / 2
            lines.append(element("path", d=f"M{x1} {y1}H{middle}V{y2}H{x2}", class_="link"))
    return "".join(lines)


def _champion_match(matches: Sequence[Mapping[str, Any]], champion: object) -> str | None:
    if not isinstance(champion, int) or champion == BYE:
        return None
    finals = sorted((m for m in matches if m["id"] in ("GF2", "GF") and m.get("status") == "done"),
                    key=lambda m: m["id"], reverse=True)
    finals += [m for m in matches if m["bracket"] == "W"]
    for match in finals:  # the reset, then the grand final, then the last winners' round
        if match.get("winner") == champion and match.get("status") in ("done", "bye"):
            if match["bracket"] == "W":
                last_round = max(int(m["round"]) for m in matches if m["bracket"] == "W")
                if int(match["round"]) != last_round:
                    continue
            return str(match["id"])
    return None


def bracket_svg(
    document: Mapping[str, Any],
    names: Mapping[int, str],
    scores: Mapping[str, Sequence[str]] | None = None,
    *,
    title: str = "",
    notes: Mapping[str, str] | None = None,
    labels: Mapping[str, str] | None = None,
    texts: Texts = ENGLISH,
) -> str:
    """The bracket drawn as SVG.

    ``names`` maps seeds to entrant names; ``scores`` maps match ids to the two slots'
    score texts (games won, say, or won so far); ``notes`` maps the ids of matches in
    progress to what happens now ("game 3 playing"), shown beside the match's id. Raises
    :class:`BracketDrawingError` for a malformed document. ``texts`` translates the words.
    """
    title = title or texts.gettext("Knockout bracket")
    matches = _matches(document)
    scores = scores or {}
    notes = notes or {}
    labels = labels or {}
    champion = document.get("champion")
    top = MARGIN + (BANNER if champion else 0)
    placed: dict[str, _Box] = {}
    body: list[str] = []
    winners = _by_round(matches, "W")
    losers = _by_round(matches, "L")
    double = bool(losers) or any(m["bracket"] == "GF" for m in matches)
    if double:
        body.append(text(MARGIN, top + 10, _section_title("W", texts), class_="section-title"))
        top += 20
    bottom = _place_section(winners, top, placed)
    third = [m for m in matches if m["bracket"] == "3rd"]
    if third and winners:
        x = MARGIN + (len(winners) - 1) * (BOX_WIDTH + COLUMN_GAP)
        final_y = placed[str(winners[-1][0]["id"])].y
        y = max(bottom, final_y + BOX_HEIGHT) + SECTION_GAP / 2 + LABEL_HEIGHT
        placed[str(third[0]["id"])] = _Box(third[0], x, y)
        bottom = y + BOX_HEIGHT
    if losers:
        losers_top = bottom + SECTION_GAP
        body.append(text(MARGIN, losers_top + 10, _section_title("L", texts),
                         class_="section-title"))
        bottom = _place_section(losers, losers_top + 20, placed)
    columns = max(len(winners), len(losers))
    finals = sorted((m for m in matches if m["bracket"] == "GF"), key=lambda m: int(m["round"]))
    final_y = top + LABEL_HEIGHT
    for offset, match in enumerate(finals):  # the reset sits under the grand final
        x = MARGIN + columns * (BOX_WIDTH + COLUMN_GAP)
        feeders = [placed[s["match"]].y for s in match.get("slots", [])
                   if isinstance(s, Mapping) and s.get("match") in placed
                   and placed[s["match"]].match["bracket"] in ("W", "L")]
        if offset == 0:
            final_y = sum(feeders) / len(feeders) if feeders else final_y
        y = final_y + offset * (BOX_HEIGHT + ROW_GAP + LABEL_HEIGHT)
        placed[str(match["id"])] = _Box(match, x, y)
    columns += 1 if finals else 0
    width = 2 * MARGIN + max(columns, 1) * BOX_WIDTH + max(columns - 1, 0) * COLUMN_GAP
    height = max((box.y + BOX_HEIGHT for box in placed.values()), default=top) + MARGIN
    champion_match = _champion_match(matches, champion)
    if isinstance(champion, int) and champion != BYE:
        champion_name = names.get(champion) or _seed(champion, texts)
        body.append(element("rect", x=MARGIN, y=MARGIN, width=min(width - 2 * MARGIN, 420),
                            height=BANNER - 8, rx=4, class_="champion-banner"))
        body.append(text(MARGIN + 10, MARGIN + 18,
                         texts.gettext("Champion: %(name)s") % {"name": champion_name},
                         class_="champion-text"))
    body.append(_connectors(placed))
    body.extend(_draw_box(box, names, scores, champion_match, notes, texts, labels)
                for box in placed.values())
    counted = texts.ngettext("%(count)d match.", "%(count)d matches.", len(matches)) % {
        "count": len(matches)}
    if champion_match and isinstance(champion, int):
        crowned = texts.gettext("Champion: %(name)s.") % {
            "name": names.get(champion) or _seed(champion, texts)}
    else:
        crowned = texts.gettext("No champion yet.")
    description = texts.gettext("%(matches)s %(champion)s") % {"matches": counted,
                                                               "champion": crowned}
    return svg_document(width, height, "".join(body), title=title, description=description,
                        class_="bracket wide", id_prefix="bracket")
