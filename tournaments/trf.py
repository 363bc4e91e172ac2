"""FIDE TRF tournament report files: read, write, and pair the next round.

One parser for everything that reads a TRF (``import_trf``, ``pair_trf``, uploads). It
reads TRF-16 with the extensions the FIDE pairing programs read (TRF(x) of JaVaFo,
TRF(bx) of bbpPairings and the 2026 codes), keeps every other line verbatim so that a
file survives a read/write round trip, and refuses bad input with an error that names
the line and column. Understood lines:

* ``001`` player lines: fixed columns, then one 10-character block per round (opponent
  start rank, ``0000`` or blank; colour ``w``/``b``/``-``; result code);
* ``XXR n`` / ``142 n`` number of rounds; ``XXC white1|black1|rank`` / ``152 W|B``
  first-round colour of the top seed (and the line order as pairing order);
* ``XXP a b ...`` / ``260 r1 r2 a b ...`` players who must not meet one another;
* ``XXA id p p ...`` / ``250`` virtual points per round (acceleration);
  ``192 FIDE_DUTCH_2025_BAKU`` Baku acceleration computed here (C.04.5.1);
* ``BBW BBD BBL BBZ BBF BBU`` / ``162`` point values; ``240 r id ...`` byes entered for
  the round to pair.

Result codes: ``1 = 0`` played win/draw/loss, ``W D L`` played but unrated, ``+ -``
forfeit win/loss, ``H F U Z`` half-point, full-point, pairing-allocated and zero-point
byes (a blank result with ``0000`` is a zero-point bye too). Points are counted in
tenths, as the FIDE programs do.

Files may be UTF-8 (with or without a byte-order mark) or Windows-1252/Latin-1, which
Swiss-Manager writes; line ends may be LF, CRLF or CR.

Usage: ``python -m tournaments.trf FILE.trf`` prints the next round's pairing.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from games.i18n import N_
from games.names import name_problem
from tournaments.pairing.swiss import (
    BLACK,
    WHITE,
    Colour,
    PairingError,
    RoundRecord,
    SwissPlayer,
    pair_round,
)
from tournaments.pairing.swiss.model import baku_acceleration

ROUND_START = 89  # 0-based column of the first round block (2 spaces, then the opponent)
ROUND_WIDTH = 10
MAX_ROUNDS = 99
MAX_PLAYERS = 9999
MAX_LINE = ROUND_START + ROUND_WIDTH * MAX_ROUNDS + 20
PLAYED_RESULTS = frozenset("10=WDL")
UNPLAYED_RESULTS = frozenset("+-HFUZ ")
WIN_RESULTS = frozenset("1W+FU")
DRAW_RESULTS = frozenset("=DH")


class TrfError(ValueError):
    """The TRF text is malformed or cannot be paired; the message names the line."""

    def __init__(self, template: str, line: int | None = None, column: int | None = None,
                 /, **params: object) -> None:
        message = template % params if params else template
        where = ""
        if line is not None:
            where = f"line {line}" + (f", column {column}" if column is not None else "") + ": "
        super().__init__(where + message)
        #: The marked English text and its parameters (``tournaments.texts`` translates).
        self.template = template
        self.params = params
        self.line = line
        self.column = column


class UnpairableError(TrfError):
    """The file is sound but no legal pairing exists for the next round."""


@dataclass(frozen=True, slots=True)
class TrfRound:
    """One round block of a player line; ``opponent`` is None for ``0000``/blank."""

    opponent: int | None = None
    colour: str = " "
    result: str = " "

    @property
    def is_blank(self) -> bool:
        return self.opponent is None and self.colour.strip() == "" and self.result == " "


@dataclass(frozen=True, slots=True)
class TrfPlayer:
    start_rank: int
    name: str
    sex: str = " "
    title: str = ""
    rating: int | None = None
    federation: str = ""
    fide_id: str = ""
    birth_date: str = ""
    points: str = "0.0"
    rank: int | None = None
    rounds: tuple[TrfRound, ...] = ()
    line: int = 0


@dataclass(frozen=True, slots=True)
class PointSystem:
    """Points in tenths: win, draw, played loss, zero-point bye, forfeit loss, PAB."""

    win: int = 10
    draw: int = 5
    loss: int = 0
    zero_bye: int = 0
    forfeit_loss: int = 0
    pab: int = 10


@dataclass(slots=True)
class TrfTournament:
    header: list[str] = field(default_factory=list)  # lines before the first 001
    players: list[TrfPlayer] = field(default_factory=list)
    trailer: list[str] = field(default_factory=list)  # other lines after the first 001
    first_line: dict[int, int] = field(default_factory=dict)  # line index -> file line

    def _lines(self, *codes: str) -> list[tuple[int, str]]:
        """(file line number, text) of the extension lines with one of ``codes``."""
        found = []
        for index, line in enumerate(self.header):
            if line[:3] in codes:
                found.append((index + 1, line))
        start = len(self.header) + len(self.players)
        for index, line in enumerate(self.trailer):
            if line[:3] in codes:
                found.append((self.first_line.get(index, start + index + 1), line))
        return found

    @property
    def total_rounds(self) -> int | None:
        total = None
        for number, line in self._lines("XXR", "142"):
            words = line[3:].split()
            if len(words) != 1 or not (words[0].isascii() and words[0].isdigit()):
                raise TrfError(N_("the number of rounds must be one whole number"), number, 5)
            value = int(words[0])
            if not 1 <= value <= MAX_ROUNDS:
                raise TrfError(
                    N_("the number of rounds must be between 1 and %(limit)d, not %(value)d"),
                    number,
                    5,
                    limit=MAX_ROUNDS,
                    value=value,
                )
            total = value
        return total

    @property
    def stated_colour(self) -> Colour | None:
        colour: Colour | None = None
        for _, line in self._lines("XXC"):
            for word in line[3:].split():
                if word.lower() == "white1":
                    colour = WHITE
                elif word.lower() == "black1":
                    colour = BLACK
        for number, line in self._lines("152"):
            code = line[4:].strip()
            if code not in ("W", "B"):
                raise TrfError(N_("the first colour must be W or B"), number, 5)
            colour = WHITE if code == "W" else BLACK
        return colour

    @property
    def initial_colour(self) -> Colour:
        return self.stated_colour or _infer_first_colour(self) or WHITE

    @property
    def rank_is_pairing_number(self) -> bool:
        return any(
            "rank" in (word.lower() for word in line[3:].split())
            for _, line in self._lines("XXC")
        )

    @property
    def forbidden(self) -> set[frozenset[int]]:
        """Pairs that must not meet in the next round (XXP, and 260 for its rounds)."""
        known = {player.start_rank for player in self.players}
        next_round = rounds_paired(self) + 1
        pairs: set[frozenset[int]] = set()
        for number, line in self._lines("XXP", "260"):
            if line.startswith("260"):
                first, last = _int_field(line, 4, 7, number), _int_field(line, 8, 11, number)
                if first is None or last is None:
                    raise TrfError(N_("a 260 line needs its first and last round"), number, 5)
                ids = _id_list(line, 12, number)
                if not first <= next_round <= last:
                    continue
            else:
                ids = []
                for word in line[3:].split():
                    if not (word.isascii() and word.isdigit()) or not 1 <= int(word) <= MAX_PLAYERS:
                        raise TrfError(N_("%(word)r is not a start rank"), number,
                                       line.find(word) + 1, word=word)
                    ids.append(int(word))
            for player_id in ids:
                if player_id not in known:
                    raise TrfError(N_("player %(player)d has no 001 line"), number,
                                   player=player_id)
            pairs.update(frozenset((a, b)) for a in ids for b in ids if a < b)
        return pairs

    @property
    def points(self) -> PointSystem:
        values: dict[str, int] = {}
        for number, line in self._lines("BBW", "BBD", "BBL", "BBZ", "BBF", "BBU"):
            values[line[:3]] = _tenths(line[4:12].strip(), number, 5)
        for number, line in self._lines("162"):
            offset = 5
            while offset + 5 <= len(line):
                code = line[offset]
                value = _tenths(line[offset + 1 : offset + 5].strip(), number, offset + 2)
                key = {"W": "BBW", "D": "BBD", "L": "BBL", "Z": "BBZ", "P": "BBU"}.get(code)
                if key is None:
                    raise TrfError(N_("unknown point code %(code)r"), number, offset + 1,
                                   code=code)
                values[key] = value
                if code == "Z":
                    values["BBF"] = value
                offset += 9
        win = values.get("BBW", 10)
        return PointSystem(
            win=win,
            draw=values.get("BBD", 5),
            loss=values.get("BBL", 0),
            zero_bye=values.get("BBZ", 0),
            forfeit_loss=values.get("BBF", 0),
            pab=values.get("BBU", win),
        )

    @property
    def baku(self) -> bool:
        kind = ""
        for number, line in self._lines("192"):
            kind = line[4:].strip()
            if kind not in (
                "FIDE_DUTCH_2025",
                "FIDE_DUTCH",
                "FIDE_DUTCH_2025_BAKU",
                "FIDE_DUTCH_BAKU",
            ):
                raise TrfError(N_("unsupported pairing system %(kind)r (only FIDE Dutch)"),
                               number, 5, kind=kind)
        return kind.endswith("_BAKU")

    @property
    def has_virtual_points(self) -> bool:
        """Virtual points are given by hand (``XXA`` or ``250`` lines)."""
        return bool(self._lines("XXA", "250"))

    def byes_entered(self, round_number: int) -> dict[int, str]:
        """Start rank -> bye code (``H``, ``F`` or ``Z``) of the byes entered before round
        ``round_number`` is paired: that round's blocks without an opponent, and its
        ``240`` lines (``240 H   r   id ...``; a code other than H or F is a zero bye)."""
        found: dict[int, str] = {}
        for number, line in self._lines("240"):
            if _int_field(line, 6, 9, number) == round_number:
                code = line[4:5] if line[4:5] in ("H", "F") else "Z"
                found.update(dict.fromkeys(_id_list(line, 10, number), code))
        for player in self.players:
            if len(player.rounds) >= round_number:
                block = player.rounds[round_number - 1]
                if block.opponent is None and block.result in ("H", "F", "Z"):
                    found[player.start_rank] = block.result
        return found

    def accelerations(self) -> dict[int, list[int]]:
        """Virtual points per start rank and round (index 0 = round 1), in tenths."""
        result: dict[int, list[int]] = {}
        manual = False
        known = {player.start_rank for player in self.players}
        for number, line in self._lines("XXA", "250"):
            manual = True
            if line.startswith("XXA"):
                player_id = _int_field(line, 4, 8, number)
                if player_id is None or player_id not in known:
                    raise TrfError(N_("XXA names no known player"), number, 5)
                values = result.setdefault(player_id, [])
                offset = 9
                while offset + 4 <= len(line):
                    text = line[offset : offset + 4].strip()
                    values.append(_tenths(text, number, offset + 1) if text else 0)
                    offset += 5
                if line[offset:].strip():
                    raise TrfError(N_("stray text after the virtual points"), number, offset + 1)
            else:
                points = _tenths(line[9:13].strip(), number, 10)
                first = _int_field(line, 14, 17, number)
                last = _int_field(line, 18, 21, number)
                low = _int_field(line, 22, 26, number)
                high = _int_field(line, 27, 31, number)
                if None in (first, last, low, high) or first > last or low > high:  # type: ignore[operator]
                    raise TrfError(N_("a 250 line needs rounds and players in order"), number)
                assert first is not None and last is not None
                assert low is not None and high is not None
                for player_id in range(low, high + 1):
                    values = result.setdefault(player_id, [])
                    while len(values) < last:
                        values.append(0)
                    for index in range(first - 1, last):
                        values[index] = points
        total = self.total_rounds or 0
        for player_id, values in result.items():
            if len(values) > max(total, 1) and total:
                raise TrfError(
                    N_("player %(player)d has virtual points for more rounds than the "
                       "tournament has (%(total)d)"), player=player_id, total=total)
        if not manual and self.baku:
            system = self.points
            if system.loss or 2 * system.draw != system.win:
                raise TrfError(N_("the point system does not suit Baku acceleration"))
            order = [player.start_rank for player in self.players]
            if not self.rank_is_pairing_number:
                order.sort()
            baku = baku_acceleration(order, total, system.win, system.draw)
            for player_id, virtual in baku.items():
                result[player_id] = list(virtual)
        return result


# -- reading ------------------------------------------------------------------------


def decode_trf(data: bytes) -> str:
    """Text of a TRF file: UTF-8 (a byte-order mark is dropped), else Windows-1252, else
    Latin-1 (which decodes anything)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def read_trf_text(path: str) -> str:
    """The text of a TRF file on disk, whatever its encoding (see :func:`decode_trf`)."""
    with open(path, "rb") as handle:
        return decode_trf(handle.read())


def _split_lines(text: str) -> list[str]:
    if text.startswith("\ufeff"):
        text = text[1:]
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def read_trf(text: str) -> TrfTournament:
    tournament = TrfTournament()
    lines = _split_lines(text)
    if lines and lines[-1] == "":
        lines.pop()
    for line_number, line in enumerate(lines, start=1):
        if "\x00" in line:
            raise TrfError(N_("the line holds a NUL character"), line_number,
                           line.index("\x00") + 1)
        if line.startswith("001"):
            tournament.players.append(_read_player(line, line_number))
        elif line[:3] in ("013", "310"):
            raise TrfError(N_("team tournaments are not supported"), line_number, 1)
        elif tournament.players:
            tournament.first_line[len(tournament.trailer)] = line_number
            tournament.trailer.append(line)
        else:
            tournament.header.append(line)
    seen: dict[int, int] = {}
    for player in tournament.players:
        if player.start_rank in seen:
            raise TrfError(
                N_("start rank %(rank)d is used again (first on line %(first)d)"),
                player.line,
                5,
                rank=player.start_rank,
                first=seen[player.start_rank],
            )
        seen[player.start_rank] = player.line
    _check_opponents(tournament)
    tournament.total_rounds  # noqa: B018 - validates XXR
    return tournament


def _read_player(line: str, line_number: int) -> TrfPlayer:
    if len(line) > MAX_LINE:
        raise TrfError(
            N_("a player line has at most %(limit)d characters (%(rounds)d rounds); this one "
               "has %(length)d (is the name field too long?)"),
            line_number,
            MAX_LINE + 1,
            limit=MAX_LINE,
            rounds=MAX_ROUNDS,
            length=len(line),
        )
    padded = line.ljust(ROUND_START)

    def number(start: int, end: int, what: str) -> int | None:
        text = padded[start:end].strip()
        if not text:
            return None
        if not text.isdigit() or not text.isascii():
            raise TrfError(what, line_number, start + 1, text=text)
        return int(text)

    start_rank = number(4, 8, N_("start rank %(text)r is not a number"))
    if start_rank is None or start_rank < 1:
        raise TrfError(N_("a player line needs a start rank (columns 5-8)"), line_number, 5)
    name = padded[14:47].strip()
    problem = name_problem(name)
    if problem is not None:
        raise TrfError(problem, line_number, 15)
    rounds: list[TrfRound] = []
    offset = ROUND_START
    while offset < len(line):
        block = line[offset : offset + ROUND_WIDTH].ljust(ROUND_WIDTH)
        round_number = len(rounds) + 1
        column = offset + 3
        if block[:2].strip():
            raise TrfError(
                N_("round %(round)d: text where the gap before the opponent belongs"),
                line_number,
                offset + 1,
                round=round_number,
            )
        opponent_text = block[2:6].strip()
        if opponent_text and (not opponent_text.isdigit() or not opponent_text.isascii()):
            raise TrfError(
                N_("round %(round)d: opponent %(text)r is not a number"),
                line_number,
                column,
                round=round_number,
                text=opponent_text,
            )
        opponent = int(opponent_text) if opponent_text else None
        if opponent == start_rank:
            raise TrfError(
                N_("round %(round)d: player %(player)d is his own opponent"),
                line_number,
                column,
                round=round_number,
                player=start_rank,
            )
        colour, result = block[7], block[9].upper()
        if colour not in "wb- " or block[6] != " " or block[8] != " ":
            raise TrfError(
                N_("round %(round)d: colour must be w, b or -, not %(colour)r"),
                line_number,
                offset + 8,
                round=round_number,
                colour=colour,
            )
        if result not in PLAYED_RESULTS and result not in UNPLAYED_RESULTS:
            raise TrfError(
                N_("round %(round)d: unknown result code %(code)r"),
                line_number,
                offset + 10,
                round=round_number,
                code=block[9],
            )
        real_opponent = opponent or None
        if real_opponent is None and colour in "wb" and colour != " ":
            raise TrfError(
                N_("round %(round)d: a colour without an opponent"), line_number, offset + 8,
                round=round_number,
            )
        if real_opponent is not None and result in "HFUZ":
            raise TrfError(
                N_("round %(round)d: bye code %(code)r with an opponent"),
                line_number,
                offset + 10,
                round=round_number,
                code=result,
            )
        if real_opponent is None and result in "10WDL":
            raise TrfError(
                N_("round %(round)d: a played result without an opponent"),
                line_number,
                offset + 10,
                round=round_number,
            )
        if real_opponent is not None and result in PLAYED_RESULTS and colour not in "wb":
            raise TrfError(
                N_("round %(round)d: a played game needs the colour w or b"),
                line_number,
                offset + 8,
                round=round_number,
            )
        rounds.append(TrfRound(real_opponent, colour, result))
        offset += ROUND_WIDTH
    while rounds and rounds[-1].is_blank:
        rounds.pop()
    if len(rounds) > MAX_ROUNDS:
        raise TrfError(N_("more than %(limit)d rounds"), line_number, ROUND_START + 1,
                       limit=MAX_ROUNDS)
    return TrfPlayer(
        start_rank=start_rank,
        sex=padded[9],
        title=padded[10:13].strip(),
        name=name,
        rating=number(48, 52, N_("rating %(text)r is not a number")),
        federation=padded[53:56].strip(),
        fide_id=padded[57:68].strip(),
        birth_date=padded[69:79].strip(),
        points=padded[80:84].strip() or "0.0",
        rank=number(85, 89, N_("rank %(text)r is not a number")),
        rounds=tuple(rounds),
        line=line_number,
    )


def _check_opponents(tournament: TrfTournament) -> None:
    """Every named opponent exists and names the player back, with the other colour."""
    by_rank = {player.start_rank: player for player in tournament.players}
    for player in tournament.players:
        for index, block in enumerate(player.rounds):
            if block.opponent is None:
                continue
            column = ROUND_START + ROUND_WIDTH * index + 3
            other = by_rank.get(block.opponent)
            if other is None:
                raise TrfError(
                    N_("round %(round)d: opponent %(opponent)d has no 001 line"),
                    player.line,
                    column,
                    round=index + 1,
                    opponent=block.opponent,
                )
            theirs = other.rounds[index] if index < len(other.rounds) else TrfRound()
            if theirs.opponent != player.start_rank:
                raise TrfError(
                    N_("round %(round)d: player %(player)d meets %(other)d, but player "
                       "%(other)d (line %(line)d) meets %(theirs)d")
                    if theirs.opponent is not None else
                    N_("round %(round)d: player %(player)d meets %(other)d, but player "
                       "%(other)d (line %(line)d) has no opponent"),
                    player.line,
                    column,
                    round=index + 1,
                    player=player.start_rank,
                    other=other.start_rank,
                    line=other.line,
                    **({"theirs": theirs.opponent} if theirs.opponent is not None else {}),
                )
            mine_played = block.result in PLAYED_RESULTS
            theirs_played = theirs.result in PLAYED_RESULTS
            if mine_played != theirs_played or (
                mine_played and {block.colour, theirs.colour} != {"w", "b"}
            ):
                raise TrfError(
                    N_("round %(round)d: the game against %(other)d does not match its entry "
                       "on line %(line)d"),
                    player.line,
                    column,
                    round=index + 1,
                    other=other.start_rank,
                    line=other.line,
                )


def _int_field(line: str, start: int, end: int, number: int) -> int | None:
    text = line[start:end].strip()
    if not text:
        return None
    if not text.isdigit() or not text.isascii():
        raise TrfError(N_("%(text)r is not a number"), number, start + 1, text=text)
    return int(text)


def _id_list(line: str, start: int, number: int) -> list[int]:
    ids = []
    offset = start
    while offset < len(line):
        value = _int_field(line, offset, offset + 4, number)
        if value is not None:
            ids.append(value)
        offset += 5
    return ids


def _tenths(text: str, number: int, column: int) -> int:
    """A score such as ``1.5`` or ``10`` in tenths of a point."""
    whole, _, fraction = text.partition(".")
    digits = whole.isascii() and whole.isdigit()
    if not digits or (fraction and not (fraction.isascii() and fraction.isdigit())):
        raise TrfError(N_("%(text)r is not a score"), number, column, text=text)
    if len(fraction) > 1:
        raise TrfError(N_("%(text)r has more than one decimal"), number, column, text=text)
    return int(whole) * 10 + (int(fraction) if fraction else 0)


# -- writing ------------------------------------------------------------------------


def write_trf(tournament: TrfTournament) -> str:
    lines = list(tournament.header)
    lines.extend(_player_line(player) for player in tournament.players)
    lines.extend(tournament.trailer)
    return "\n".join(lines) + "\n"


def _player_line(player: TrfPlayer) -> str:
    rating = "" if player.rating is None else str(player.rating)
    rank = "" if player.rank is None else str(player.rank)
    line = (
        f"001 {player.start_rank:>4} {player.sex[:1]:1}{player.title:>3} {player.name[:33]:<33} "
        f"{rating:>4} {player.federation:<3} {player.fide_id:>11} {player.birth_date:<10} "
        f"{player.points:>4} {rank:>4}"
    )
    for block in player.rounds:
        opponent = "0000" if block.opponent is None and not block.is_blank else ""
        if block.opponent is not None:
            opponent = str(block.opponent)
        line += f"  {opponent:>4} {block.colour} {block.result}"
    return line.rstrip()


# -- pairing ------------------------------------------------------------------------


def _took_part(block: TrfRound) -> bool:
    return block.opponent is not None or block.result in ("U", "+")


def rounds_paired(tournament: TrfTournament) -> int:
    """Rounds already paired: the last round in which someone took part in the pairing
    (a game, a forfeit or the PAB); an entry that is only a bye or an absence counts for
    the rounds before it. When every player has an entry for the next round it counts as
    paired too."""
    paired = 0
    for player in tournament.players:
        for index, block in enumerate(player.rounds):
            if block.is_blank:
                continue
            paired = max(paired, index + 1 if _took_part(block) else index)
    if tournament.players and all(len(p.rounds) > paired for p in tournament.players):
        paired += 1
    return paired


def _infer_first_colour(tournament: TrfTournament) -> Colour | None:
    """The top seed's first colour as the FIDE programs infer it from the first round
    with colours, when the file does not say it."""
    first = None
    for player in tournament.players:
        for index, block in enumerate(player.rounds):
            if block.colour in ("w", "b") and (first is None or index < first):
                first = index
    if first is None:
        return None
    order = list(tournament.players)
    if not tournament.rank_is_pairing_number:
        order.sort(key=lambda player: player.start_rank)
    position = 0
    for player in order:
        if not any(_took_part(block) for block in player.rounds[: first + 1]):
            continue
        block = player.rounds[first] if first < len(player.rounds) else TrfRound()
        if block.colour in ("w", "b"):
            colour: Colour = WHITE if block.colour == "w" else BLACK
            return colour if position % 2 == 0 else (BLACK if colour == WHITE else WHITE)
        position += 1
    return None


@dataclass(frozen=True, slots=True)
class NextRound:
    """What the engine needs to pair the next round of a file."""

    players: list[SwissPlayer]
    round_number: int
    total_rounds: int
    forbidden: set[frozenset[int]]
    initial_colour: Colour
    points: PointSystem
    start_rank_of: dict[int, int]  # pairing number -> start rank


def next_round(tournament: TrfTournament) -> NextRound:
    total_rounds = tournament.total_rounds
    if total_rounds is None:
        raise TrfError(N_("the file has no 'XXR n' line giving the number of rounds"))
    paired = rounds_paired(tournament)
    round_number = paired + 1
    if round_number > total_rounds:
        raise TrfError(N_("all %(total)d rounds are already paired"), total=total_rounds)
    points = tournament.points
    order = list(tournament.players)
    if not tournament.rank_is_pairing_number:
        order.sort(key=lambda player: player.start_rank)
    number_of = {player.start_rank: index for index, player in enumerate(order, start=1)}
    accelerations = tournament.accelerations()
    byes_next = _byes_entered(tournament, round_number)
    players: list[SwissPlayer] = []
    for player in order:
        if len(player.rounds) > round_number:
            raise TrfError(
                N_("player %(player)d has entries beyond round %(round)d, the round to pair"),
                player.line,
                ROUND_START + ROUND_WIDTH * round_number + 1,
                player=player.start_rank,
                round=round_number,
            )
        history = []
        for index in range(paired):
            block = player.rounds[index] if index < len(player.rounds) else TrfRound()
            if block.opponent is not None and block.result == " ":
                raise TrfError(
                    N_("round %(round)d: the game against %(opponent)d has no result yet"),
                    player.line,
                    ROUND_START + ROUND_WIDTH * index + 10,
                    round=index + 1,
                    opponent=block.opponent,
                )
            history.append(_record(block, number_of, points))
        next_block = player.rounds[paired] if len(player.rounds) > paired else TrfRound()
        virtual = accelerations.get(player.start_rank, [])
        players.append(
            SwissPlayer(
                number=number_of[player.start_rank],
                score=sum(record.points for record in history),
                history=tuple(history),
                absent=not next_block.is_blank or player.start_rank in byes_next,
                acceleration=tuple(virtual),
            )
        )
    forbidden = {
        frozenset(number_of[rank] for rank in pair) for pair in tournament.forbidden
    }
    return NextRound(
        players=players,
        round_number=round_number,
        total_rounds=total_rounds,
        forbidden=forbidden,
        initial_colour=tournament.initial_colour,
        points=points,
        start_rank_of={number: rank for rank, number in number_of.items()},
    )


def _byes_entered(tournament: TrfTournament, round_number: int) -> set[int]:
    found: set[int] = set()
    for number, line in tournament._lines("240"):
        round_index = _int_field(line, 6, 9, number)
        if round_index == round_number:
            found.update(_id_list(line, 10, number))
    return found


def _record(block: TrfRound, number_of: dict[int, int], points: PointSystem) -> RoundRecord:
    result = block.result
    played = block.opponent is not None and result in PLAYED_RESULTS
    took_part = _took_part(block)
    if result in WIN_RESULTS:
        value = points.pab if (block.opponent is None and took_part) else points.win
    elif result in DRAW_RESULTS:
        value = points.draw
    elif took_part:
        value = points.loss if played else points.forfeit_loss
    else:
        value = points.zero_bye
    colour: Colour | None = None
    if played:
        colour = WHITE if block.colour == "w" else BLACK
    return RoundRecord(
        opponent=number_of[block.opponent] if block.opponent is not None else None,
        colour=colour,
        played=played,
        points=value,
        pairing_allocated_bye=result == "U" and block.opponent is None,
        paired=took_part,
    )


def pair_document(tournament: TrfTournament) -> list[tuple[int, int]]:
    """Pair the next round of a read TRF document: (first mover, second mover) start
    ranks in board order, the bye, if any, last as ``(player, 0)``.

    The one Swiss path: ``pair_trf`` and the service's rounds (through the document
    ``tournaments.adapters.trf_document`` writes) both pair here. Raises
    :class:`UnpairableError` when no legal pairing exists.
    """
    task = next_round(tournament)
    try:
        result = pair_round(
            task.players,
            task.round_number,
            task.total_rounds,
            forbidden=task.forbidden,
            win_points=task.points.win,
            draw_points=task.points.draw,
            loss_points=task.points.loss,
            initial_colour=task.initial_colour,
        )
    except PairingError as error:
        raise UnpairableError(N_("round %(round)d: %(problem)s"), round=task.round_number,
                              problem=error) from error
    start_rank_of = task.start_rank_of
    pairs = [(start_rank_of[white], start_rank_of[black]) for white, black in result.pairs]
    if result.bye is not None:
        pairs.append((start_rank_of[result.bye], 0))
    return pairs


def pair_trf(text: str) -> list[tuple[int, int]]:
    """Pair the next round of a TRF file (see :func:`pair_document`)."""
    return pair_document(read_trf(text))


def format_pairings(pairs: Sequence[tuple[int, int]]) -> str:
    """The plain output of FIDE pairing programs: the pair count, then one pair a line."""
    return "\n".join([str(len(pairs)), *(f"{first} {second}" for first, second in pairs)]) + "\n"


def add_round(tournament: TrfTournament, pairs: Sequence[tuple[int, int]]) -> TrfTournament:
    """A copy with the pairs of the next round entered (results left blank, PAB as ``U``)."""
    round_index = rounds_paired(tournament)
    entries: dict[int, TrfRound] = {}
    for first, second in pairs:
        if second == 0:
            entries[first] = TrfRound(None, "-", "U")
        else:
            entries[first] = TrfRound(second, "w", " ")
            entries[second] = TrfRound(first, "b", " ")
    players = []
    for player in tournament.players:
        rounds = list(player.rounds)
        if player.start_rank in entries:
            while len(rounds) <= round_index:
                rounds.append(TrfRound(None, "-", "Z"))
            rounds[round_index] = entries[player.start_rank]
        players.append(replace(player, rounds=tuple(rounds)))
    return TrfTournament(list(tournament.header), players, list(tournament.trailer))


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if len(arguments) != 1:
        print("usage: python -m tournaments.trf FILE.trf", file=sys.stderr)
        return 2
    try:
        pairs = pair_trf(read_trf_text(arguments[0]))
    except (OSError, TrfError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    sys.stdout.write(format_pairings(pairs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
