"""The print pack's documents, worded in the active language: each function turns what the
selectors read (``printpack.selectors.PackData``, itself from ``tournaments.lists``) into a
``printpack.layout.Section`` of plain strings. None: the document has nothing to print
(no such round, a bracket has no wall chart, an event of players has no lineups).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.utils import formats, timezone
from django.utils.translation import gettext, pgettext

from matches.selectors import UNCAPPED_SLIP_GAMES, points_text
from printpack.layout import Certificate, Column, QrCode, Section, Slip, Slips, Table, Text
from printpack.selectors import PackData
from tournaments import lists
from tournaments import selectors as tournament_selectors
from tournaments.history import result_text
from tournaments.models import ByeKind, Outcome, Tournament
from tournaments.standings import get_tiebreak

#: A wall chart with more rounds than this turns the page to landscape.
PORTRAIT_ROUNDS = 6


def _subtitle(tournament: Tournament, *more: str) -> str:
    parts = [tournament.name]
    if tournament.venue:
        parts.append(tournament.venue)
    if tournament.starts_on:
        dates = formats.date_format(tournament.starts_on, "DATE_FORMAT")
        if tournament.ends_on and tournament.ends_on != tournament.starts_on:
            dates += " – " + formats.date_format(tournament.ends_on, "DATE_FORMAT")
        parts.append(dates)
    return " · ".join([*parts, *[m for m in more if m]])


def _seed(value: Any) -> str:
    return "" if value is None else str(value)


def _points(value: float | Decimal | None) -> str:
    return "" if value is None else points_text(float(value))


def _number(value: Any) -> str:
    """A tie-break value: whole numbers without a point, halves as ½."""
    if value is None:
        return "–"
    if isinstance(value, int | float | Decimal):
        number = float(value)
        if number * 2 == int(number * 2):
            return points_text(number) or "0"
        return formats.number_format(round(number, 2), 2)
    return str(value)


def _money(value: Decimal) -> str:
    return formats.number_format(value, 2, force_grouping=True)


def round_title(number: int) -> str:
    return gettext("Round %(number)s") % {"number": number}


def _round_line(data: PackData, number: int) -> str:
    pairings = data.pairings(number) or []
    round_ = pairings[0].round if pairings else None
    parts = []
    if round_ is not None and round_.starts_at is not None:
        parts.append(gettext("starts %(when)s") % {"when": formats.date_format(
            timezone.localtime(round_.starts_at), "DATETIME_FORMAT")})
    if round_ is not None and round_.released_at is None:
        parts.append(gettext("DRAFT: not released"))
    return " · ".join(parts)


# -- a round's documents ------------------------------------------------------------------


def pairings_by_board(data: PackData, number: int) -> Section | None:
    """Round ``number`` board by board: the sides with their starting numbers and points
    when the round began, and the result where there is one."""
    pairings = data.pairings(number)
    if pairings is None:
        return None
    by_id = data.hall.by_id
    rows = []
    for pairing in pairings:
        a = by_id[pairing.entrant_a_id]
        b = by_id[pairing.entrant_b_id] if pairing.entrant_b_id is not None else None
        if b is None:
            bye = ByeKind(pairing.bye_kind).label if pairing.bye_kind else gettext("bye")
            rows.append((str(pairing.board), _seed(a.seed), a.name,
                         _points(data.points(a.pk, number)), "", "", str(bye), ""))
            continue
        result = ("" if pairing.outcome == Outcome.PENDING else result_text(
            {"outcome": pairing.outcome, "wins_a": pairing.wins_a, "wins_b": pairing.wins_b,
             "draws": pairing.draws}, a.name, b.name))
        rows.append((str(pairing.board), _seed(a.seed), a.name,
                     _points(data.points(a.pk, number)), result,
                     _points(data.points(b.pk, number)), b.name, _seed(b.seed)))
    columns = (Column(gettext("Board"), 1.6, "R"), Column(pgettext("starting number", "No."),
                                                          1, "R"),
               Column(gettext("First side (A)"), 5.5), Column(gettext("Pts"), 1, "R"),
               Column(gettext("Result"), 3, "C"), Column(gettext("Pts"), 1, "R"),
               Column(gettext("Second side (B)"), 5.5),
               Column(pgettext("starting number", "No."), 1, "R"))
    return Section(
        title=gettext("Round %(number)s: pairings by board") % {"number": number},
        subtitle=_subtitle(data.tournament, _round_line(data, number)),
        blocks=(Table(columns=columns, rows=rows),))


def pairings_by_name(data: PackData, number: int) -> Section | None:
    """Round ``number`` alphabetically (a team's members each on their own line): the
    board, the opponent and who moves first; byes and absences said."""
    listing = lists.alphabetical_pairings(data.tournament, number, public=not data.drafts,
                                          data=data.hall)
    if listing is None:
        return None
    rows = []
    for row in listing["rows"]:
        name = row["name"] + (f" ({row['team']})" if row["team"] else "")
        if row["status"] == "absent":
            board, opponent, first = "", gettext("not playing"), ""
        elif row["status"] == "bye":
            board, opponent, first = str(row["board"]), row["bye"] or gettext("bye"), ""
        else:
            board = str(row["board"])
            opponent = row["opponent"] + (
                f" ({row['opponent_seed']})" if row["opponent_seed"] is not None else "")
            if row["status"] == "forfeit":
                opponent += " · " + gettext("forfeit")
            first = gettext("yes") if row["moves_first"] else ""
        rows.append((name, _seed(row["seed"]), board, opponent, first))
    columns = (Column(gettext("Name"), 6), Column(pgettext("starting number", "No."), 1, "R"),
               Column(gettext("Board"), 1.2, "R"), Column(gettext("Opponent"), 6),
               Column(gettext("Moves first"), 1.8, "C"))
    return Section(
        title=gettext("Round %(number)s: pairings by name") % {"number": number},
        subtitle=_subtitle(data.tournament, _round_line(data, number)),
        blocks=(Table(columns=columns, rows=rows),))


def report_url(base_url: str, token: str) -> str:
    """Where a private link's holder reports a result (the QR code's target)."""
    return f"{base_url.rstrip('/')}/p/{token}/report/"


def result_slips(data: PackData, number: int, *, base_url: str) -> Section | None:
    """One slip per board with two players (byes need none), several to a page with cut
    lines: the games grid, the scoring hint, signatures, and the QR codes of the board's
    players' private links where they have live ones."""
    pairings = data.pairings(number)
    if pairings is None:
        return None
    tournament = data.tournament
    try:
        match_format = tournament_selectors.stored_match_format(tournament)
        games = match_format.max_games_needed() or UNCAPPED_SLIP_GAMES
    except Exception:  # an unreadable stored format: a one-game slip, as the sheet does
        games = 1
    draws = tournament_selectors.games_can_be_drawn(tournament)
    hint = (gettext("Per game write 1 for the winner and 0 for the loser (½ each for a "
                    "draw); mark a forfeit F and a time forfeit T.") if draws else
            gettext("Per game write 1 for the winner and 0 for the loser (no draws); mark "
                    "a forfeit F and a time forfeit T."))
    grid = (*[str(n) for n in range(1, games + 1)], gettext("Match"))
    slips = []
    for pairing in pairings:
        if pairing.entrant_b_id is None:
            continue
        a, b = data.hall.by_id[pairing.entrant_a_id], data.hall.by_id[pairing.entrant_b_id]
        codes = tuple(QrCode(report_url(base_url, link.token), link.holder)
                      for entrant in (a, b) for link in data.links.get(entrant.pk, []))
        slips.append(Slip(
            title=gettext("%(tournament)s · round %(round)s · board %(board)s") % {
                "tournament": tournament.name, "round": number, "board": pairing.board},
            lines=(gettext("%(first)s moves first in game 1 (it alternates).") % {
                "first": a.name},
                   *([gettext("Scan your code to report the result from your phone.")]
                     if codes else [])),
            grid_heading=gettext("Game"), grid_columns=grid,
            sides=(gettext("A: %(name)s") % {"name": a.name},
                   gettext("B: %(name)s") % {"name": b.name}),
            hint=hint,
            signatures=(gettext("Signature A"), gettext("Signature B"), gettext("Arbiter")),
            codes=codes[:4]))
    return Section(title=gettext("Round %(number)s: result slips") % {"number": number},
                   subtitle=_subtitle(tournament), blocks=(Slips(tuple(slips)),))


# -- the event's documents ----------------------------------------------------------------


def starting_list(data: PackData) -> Section:
    listing = lists.starting_list(data.tournament, data.hall)
    headings = [str(heading) for _name, heading in listing["categories"]]
    columns = (Column(pgettext("starting number", "No."), 1, "R"), Column(gettext("Name"), 6),
               Column(gettext("Rating"), 1.5, "R"), Column(gettext("Club"), 4),
               *[Column(h, 1.6) for h in headings])
    rows = []
    for row in listing["rows"]:
        name = row["name"] + (f" ({', '.join(row['members'])})" if row["members"] else "")
        rows.append((_seed(row["seed"]), name, _seed(row["rating"]), row["club"],
                     *[str(cell) for cell in row["category_cells"]]))
    return Section(title=gettext("Starting list"), subtitle=_subtitle(data.tournament),
                   blocks=(Table(columns=columns, rows=rows),))


def checkin_sheet(data: PackData) -> Section:
    """Every entrant by name with the fee due, paid and still owed, and a signature box;
    the totals last."""
    entrants = sorted(data.hall.entrants, key=lambda e: lists._name_key(e.name))
    rows = []
    due_total = paid_total = owed_total = Decimal(0)
    for entrant in entrants:
        due, paid = Decimal(entrant.fee_due), Decimal(entrant.fee_paid)
        owed = max(due - paid, Decimal(0))
        due_total, paid_total, owed_total = due_total + due, paid_total + paid, owed_total + owed
        rows.append((_seed(entrant.seed), entrant.name, _money(due), _money(paid),
                     _money(owed) if owed else "", ""))
    columns = (Column(pgettext("starting number", "No."), 1, "R"), Column(gettext("Name"), 6),
               Column(gettext("Due"), 1.8, "R"), Column(gettext("Paid"), 1.8, "R"),
               Column(gettext("Owes"), 1.8, "R"), Column(gettext("Signature"), 4))
    total = ("", gettext("Total: %(count)s entrants") % {"count": len(rows)},
             _money(due_total), _money(paid_total), _money(owed_total), "")
    fee = (gettext("Entry fee: %(fee)s") % {"fee": _money(data.tournament.entry_fee)}
           if data.tournament.entry_fee else "")
    return Section(title=gettext("Check-in sheet"), subtitle=_subtitle(data.tournament, fee),
                   blocks=(Table(columns=columns, rows=rows, total=total, row_padding=2.5),))


def _tiebreak_name(key: str) -> tuple[str, str]:
    try:
        tiebreak = get_tiebreak(key)
    except ValueError:
        return key, key
    return gettext(tiebreak.abbreviation), gettext(tiebreak.name)


def standings(data: PackData, after: int | None = None) -> Section | None:
    """The standings after round ``after`` (default: the last complete one) with the
    tie-break columns and their legend; None for a bracket or no complete round."""
    table = lists.standings_after(data.tournament, after, public=not data.drafts,
                                  data=data.hall)
    if table is None:
        return None
    names = [_tiebreak_name(key) for key in table["tiebreaks"]]
    columns = (Column(gettext("Rank"), 1.1, "R"), Column(pgettext("starting number", "No."),
                                                         1, "R"),
               Column(gettext("Name"), 6), Column(gettext("Rating"), 1.4, "R"),
               Column(gettext("Points"), 1.4, "R"),
               *[Column(abbreviation, 1.4, "R") for abbreviation, _name in names])
    rows = []
    for row in table["rows"]:
        name = row["name"] + (f" ({', '.join(row['members'])})" if row["members"] else "")
        rows.append((str(row["rank"]), _seed(row["seed"]), name, _seed(row["rating"]),
                     _points(row["points"]), *[_number(v) for v in row["tiebreaks"]]))
    blocks: list[Any] = [Table(columns=columns, rows=rows)]
    if names:
        legend = "; ".join(f"{abbreviation}: {name}" for abbreviation, name in names)
        blocks.append(Text(gettext("Tie-breaks, in order: %(legend)s.") % {"legend": legend},
                           size=8))
    return Section(
        title=gettext("Standings after round %(number)s") % {"number": table["after_round"]},
        subtitle=_subtitle(data.tournament), blocks=tuple(blocks),
        landscape=len(names) > 4)


def wall_chart(data: PackData) -> Section | None:
    """Rows by starting number, a cell per round (the opponent's starting number, who
    moved first, the result), points and rank; landscape when the rounds are many."""
    chart = lists.wall_chart(data.tournament, public=not data.drafts, data=data.hall)
    if chart is None:
        return None
    first, second = pgettext("moved first, one letter", "f"), pgettext(
        "moved second, one letter", "s")

    def cell(item: Mapping[str, Any]) -> str:
        seed = item["opponent_seed"]
        side = first if item["first_move"] is True else second if item[
            "first_move"] is False else ""
        return (f"{seed}{side} " if seed else "") + str(item["result"])

    columns = (Column(pgettext("starting number", "No."), 1, "R"), Column(gettext("Name"), 5.5),
               Column(gettext("Rating"), 1.4, "R"),
               *[Column(str(n), 1.5, "C") for n in chart["rounds"]],
               Column(gettext("Points"), 1.3, "R"), Column(gettext("Rank"), 1.1, "R"))
    rows = [(_seed(row["seed"]), row["name"], _seed(row["rating"]),
             *[cell(item) for item in row["cells"]], _points(row["points"]),
             _seed(row["rank"])) for row in chart["rows"]]
    legend = gettext(
        "Each cell: the opponent's starting number, %(first)s (moved first) or %(second)s "
        "(moved second), the result: 1 win, ½ draw, 0 loss, + won by forfeit, - lost by "
        "forfeit, B pairing-allocated bye, F full-point bye, H half-point bye, Z zero-point "
        "bye.") % {"first": first, "second": second}
    return Section(title=gettext("Wall chart"), subtitle=_subtitle(data.tournament),
                   blocks=(Text(legend, size=8), Table(columns=columns, rows=rows)),
                   landscape=len(chart["rounds"]) > PORTRAIT_ROUNDS)


def crosstable(data: PackData) -> Section | None:
    """A round robin's crosstable: entrant against entrant in standings order, each cell
    the results of their games (two in a double round robin), points and rank; landscape
    beyond twelve entrants. None for the other systems (their wall chart says it)."""
    if data.tournament.system.table_kind != "crosstable":
        return None
    table = tournament_selectors.crosstable(data.tournament)
    entrants = table["entrants"]
    if not entrants:
        return None
    columns = (Column(gettext("Rank"), 1.1, "R"), Column(gettext("Name"), 6),
               *[Column(str(n), 1.3, "C") for n in range(1, len(entrants) + 1)],
               Column(gettext("Points"), 1.3, "R"))
    rows = []
    for index, row in enumerate(table["rows"]):
        cells = ["×" if c == index else " ".join(str(game["result"]) for game in (cell or []))
                 for c, cell in enumerate(row["cells"])]
        rows.append((_seed(row["rank"]), f"{index + 1}. {row['entrant']['name']}", *cells,
                     _points(row["points"])))
    title = (gettext("Crosstable after round %(number)s") % {"number": table["after_round"]}
             if table["after_round"] else gettext("Crosstable"))
    return Section(title=title, subtitle=_subtitle(data.tournament),
                   blocks=(Table(columns=columns, rows=rows),), landscape=len(entrants) > 12)


def team_lineups(data: PackData) -> Section | None:
    """A team event's teams with their members; None for an event of players."""
    if not data.members:
        return None
    rows = []
    for entrant in lists.starting_order(data.hall.entrants):
        players = data.members.get(entrant.pk, [])
        for board, player in enumerate(players, start=1):
            rows.append((_seed(entrant.seed) if board == 1 else "",
                         entrant.name if board == 1 else "", str(board), player.display_name,
                         ""))
        if not players:
            rows.append((_seed(entrant.seed), entrant.name, "", gettext("no members"), ""))
    columns = (Column(pgettext("starting number", "No."), 1, "R"), Column(gettext("Team"), 5),
               Column(gettext("Board"), 1.2, "R"), Column(gettext("Player"), 6),
               Column(gettext("Signature"), 3))
    return Section(title=gettext("Team lineups"), subtitle=_subtitle(data.tournament),
                   blocks=(Table(columns=columns, rows=rows),))


def place_text(place: int) -> str:
    if place in (1, 2, 3):
        return {1: pgettext("certificate", "First place"),
                2: pgettext("certificate", "Second place"),
                3: pgettext("certificate", "Third place")}[place]
    return pgettext("certificate", "Place %(place)s") % {"place": place}


def _certificate(data: PackData | None, tournament: Tournament, place: str, name: str,
                 *more: str) -> Certificate:
    lines = [tournament.name, *[m for m in more if m]]
    when = tournament.ends_on or tournament.starts_on
    where = " · ".join(filter(None, [tournament.venue, formats.date_format(
        when, "DATE_FORMAT") if when else ""]))
    if where:
        lines.append(where)
    if tournament.chief_arbiter:
        signature = gettext("Chief arbiter: %(name)s") % {"name": tournament.chief_arbiter}
    else:
        signature = gettext("Chief arbiter")
    return Certificate(heading=gettext("Certificate"), place=place, name=name,
                       lines=tuple(lines), signature=signature)


def certificates(data: PackData, *, places: int = 3) -> Section | None:
    """A page for each of the top ``places`` (shared places each get theirs), from the
    standings after the last complete round, or a bracket's placings."""
    tournament = data.tournament
    if tournament.system.has_bracket:
        rows = [row for row in tournament_selectors.standings(tournament)["rows"]
                if row["rank"] is not None and row["rank"] <= places]
    else:
        table = lists.standings_after(tournament, None, public=not data.drafts,
                                      data=data.hall)
        rows = [row for row in (table["rows"] if table else []) if row["rank"] <= places]
    if not rows:
        return None
    pages = tuple(_certificate(data, tournament, place_text(int(row["rank"])), row["name"])
                  for row in rows)
    return Section(title="", blocks=pages, landscape=True)


# -- the prizes helper's rows: category winners and the prize list ---------------------------


def category_certificates(tournament: Tournament,
                          rows: Sequence[Mapping[str, Any]]) -> Section | None:
    """A certificate for each category winner. ``rows`` are plain: ``group`` (the
    category's name: "Under 12", "Women"), ``place`` (1, 2, ...), ``name``. The prize list
    selector's rows (``prize_list(tournament)``) feed it."""
    pages = tuple(_certificate(None, tournament, place_text(int(row["place"])),
                               str(row["name"]), str(row.get("group") or ""))
                  for row in rows if row.get("name"))
    return Section(title="", blocks=pages, landscape=True) if pages else None


def prize_list(tournament: Tournament, rows: Sequence[Mapping[str, Any]]) -> Section | None:
    """The prize list: per row the group, the place (or shared places), the winner, the
    points and the prize. ``rows`` are plain mappings with ``group``, ``place``, ``name``,
    ``points`` (optional) and ``prize`` (the amount or the prize's words)."""
    if not rows:
        return None
    table_rows = [(str(row.get("group") or ""), str(row.get("place") or ""),
                   str(row.get("name") or ""), _points(row.get("points")),
                   _money(row["prize"]) if isinstance(row.get("prize"), Decimal)
                   else str(row.get("prize") or "")) for row in rows]
    columns = (Column(gettext("Group"), 3), Column(gettext("Place"), 1.4, "R"),
               Column(gettext("Name"), 6), Column(gettext("Points"), 1.4, "R"),
               Column(gettext("Prize"), 2.5, "R"))
    return Section(title=gettext("Prize list"), subtitle=_subtitle(tournament),
                   blocks=(Table(columns=columns, rows=table_rows),))
