"""FIDE TRF-16 tournament report files: read, write, and pair the next round.

Only what pairing needs is interpreted; every other line is kept verbatim so a
file survives a read/write round trip. Understood lines:

* ``001`` player lines (fixed columns, one 10-character block per round:
  opponent start rank or ``0000``, colour ``w``/``b``/``-``, result code);
* ``XXR n`` number of rounds, ``XXC white1``/``black1`` (first-round colour of
  the top seed), ``XXC rank`` (the rank column is the pairing number),
  ``XXP a b ...`` (players who must not meet one another).

Result codes: ``1 = 0`` played win/draw/loss, ``W D L`` played but unrated,
``+ -`` forfeit win/loss, ``H F U Z`` half-point, full-point, pairing-allocated
and zero-point byes. Scores are counted in half-points.

Usage: ``python -m tournaments.trf FILE.trf`` prints the next round's pairing.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from tournaments.pairing.swiss import (
    BLACK,
    WHITE,
    Colour,
    PairingError,
    RoundRecord,
    SwissPlayer,
    pair_round,
)

WIN_POINTS = 2  # half-points
PLAYED_POINTS = {"1": 2, "=": 1, "0": 0, "W": 2, "D": 1, "L": 0}
UNPLAYED_POINTS = {"+": 2, "-": 0, "H": 1, "F": 2, "U": 2, "Z": 0, " ": 0}
ROUND_START = 89  # 0-based column of the first round block
ROUND_WIDTH = 10


class TrfError(ValueError):
    """The TRF text is malformed or cannot be paired; the message names the line."""


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


@dataclass(slots=True)
class TrfTournament:
    header: list[str] = field(default_factory=list)  # lines before the first 001
    players: list[TrfPlayer] = field(default_factory=list)
    trailer: list[str] = field(default_factory=list)  # other lines after the first 001

    def _extension_words(self, code: str) -> list[list[str]]:
        return [line.split()[1:] for line in self.header + self.trailer if line.startswith(code)]

    @property
    def total_rounds(self) -> int | None:
        for words in self._extension_words("XXR"):
            if words and words[0].isascii() and words[0].isdigit():
                return int(words[0])
        return None

    @property
    def initial_colour(self) -> Colour:
        colour: Colour = WHITE
        for words in self._extension_words("XXC"):
            for word in words:
                if word.lower() == "white1":
                    colour = WHITE
                elif word.lower() == "black1":
                    colour = BLACK
        return colour

    @property
    def rank_is_pairing_number(self) -> bool:
        return any("rank" in (w.lower() for w in words) for words in self._extension_words("XXC"))

    @property
    def forbidden(self) -> set[frozenset[int]]:
        pairs: set[frozenset[int]] = set()
        for words in self._extension_words("XXP"):
            ids = [int(word) for word in words if word.isascii() and word.isdigit()]
            pairs.update(frozenset((a, b)) for a in ids for b in ids if a < b)
        return pairs


# -- reading ------------------------------------------------------------------


def read_trf(text: str) -> TrfTournament:
    tournament = TrfTournament()
    for line_number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r\n")
        if line.startswith("001"):
            tournament.players.append(_read_player(line, line_number))
        elif tournament.players:
            tournament.trailer.append(line)
        else:
            tournament.header.append(line)
    ranks = [player.start_rank for player in tournament.players]
    if len(set(ranks)) != len(ranks):
        raise TrfError("two 001 lines have the same start rank")
    return tournament


def _read_player(line: str, line_number: int) -> TrfPlayer:
    padded = line.ljust(ROUND_START)

    def number(start: int, end: int, what: str) -> int | None:
        text = padded[start:end].strip()
        if not text:
            return None
        if not (text.isascii() and text.isdigit()):
            raise TrfError(f"line {line_number}: {what} {text!r} is not a number")
        return int(text)

    start_rank = number(4, 8, "start rank")
    if start_rank is None:
        raise TrfError(f"line {line_number}: player line without a start rank")
    rounds: list[TrfRound] = []
    offset = ROUND_START
    while offset < len(line):
        block = line[offset : offset + ROUND_WIDTH].ljust(ROUND_WIDTH)
        opponent_text = block[2:6].strip()
        if opponent_text and not (opponent_text.isascii() and opponent_text.isdigit()):
            raise TrfError(
                f"line {line_number}: round {len(rounds) + 1} opponent {opponent_text!r} "
                "is not a number"
            )
        opponent = int(opponent_text) if opponent_text else None
        colour, result = block[7], block[9]
        if colour not in "wb- ":
            raise TrfError(f"line {line_number}: round {len(rounds) + 1} colour {colour!r}")
        if result not in PLAYED_POINTS and result not in UNPLAYED_POINTS:
            raise TrfError(f"line {line_number}: round {len(rounds) + 1} result {result!r}")
        rounds.append(TrfRound(opponent or None, colour, result))
        offset += ROUND_WIDTH
    while rounds and rounds[-1].is_blank:
        rounds.pop()
    return TrfPlayer(
        start_rank=start_rank,
        sex=padded[9],
        title=padded[10:13].strip(),
        name=padded[14:47].strip(),
        rating=number(48, 52, "rating"),
        federation=padded[53:56].strip(),
        fide_id=padded[57:68].strip(),
        birth_date=padded[69:79].strip(),
        points=padded[80:84].strip() or "0.0",
        rank=number(85, 89, "rank"),
        rounds=tuple(rounds),
    )


# -- writing ------------------------------------------------------------------


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


# -- pairing ------------------------------------------------------------------


def rounds_paired(tournament: TrfTournament) -> int:
    """Number of rounds already paired: the last round holding a game or a PAB."""
    paired = 0
    for player in tournament.players:
        for index, block in enumerate(player.rounds):
            if block.opponent is not None or block.result == "U":
                paired = max(paired, index + 1)
    return paired


def to_swiss_players(tournament: TrfTournament) -> tuple[list[SwissPlayer], int, dict[int, int]]:
    """Swiss players for the next round, that round's number, and pairing number -> start rank."""
    round_number = rounds_paired(tournament) + 1
    pairing_number = _pairing_numbers(tournament)
    players: list[SwissPlayer] = []
    for player in tournament.players:
        history: list[RoundRecord] = []
        for index in range(round_number - 1):
            block = player.rounds[index] if index < len(player.rounds) else TrfRound()
            history.append(_record(block, pairing_number, player.start_rank, index))
        next_block = (
            player.rounds[round_number - 1] if len(player.rounds) >= round_number else TrfRound()
        )
        players.append(
            SwissPlayer(
                number=pairing_number[player.start_rank],
                score=sum(record.points for record in history),
                history=tuple(history),
                absent=not next_block.is_blank,
            )
        )
    return players, round_number, {number: rank for rank, number in pairing_number.items()}


def _pairing_numbers(tournament: TrfTournament) -> dict[int, int]:
    if not tournament.rank_is_pairing_number:
        return {player.start_rank: player.start_rank for player in tournament.players}
    numbers: dict[int, int] = {}
    for player in tournament.players:
        if player.rank is None:
            raise TrfError(f"XXC rank is set but player {player.start_rank} has no rank")
        numbers[player.start_rank] = player.rank
    if len(set(numbers.values())) != len(numbers):
        raise TrfError("XXC rank is set but two players share a rank")
    return numbers


def _record(
    block: TrfRound, pairing_number: dict[int, int], start_rank: int, index: int
) -> RoundRecord:
    colour: Colour | None = WHITE if block.colour == "w" else BLACK if block.colour == "b" else None
    opponent = None
    if block.opponent is not None:
        if block.opponent not in pairing_number:
            raise TrfError(
                f"player {start_rank} round {index + 1}: opponent {block.opponent} has no 001 line"
            )
        opponent = pairing_number[block.opponent]
    played = opponent is not None and block.result in PLAYED_POINTS
    points = PLAYED_POINTS[block.result] if played else UNPLAYED_POINTS.get(block.result, 0)
    return RoundRecord(
        opponent=opponent,
        colour=colour if played else None,
        played=played,
        points=points,
        pairing_allocated_bye=block.result == "U",
    )


def pair_trf(text: str) -> list[tuple[int, int]]:
    """Pair the next round of a TRF-16 file: (first mover, second mover) start ranks.

    The bye, if any, comes last as ``(player, 0)``.
    """
    tournament = read_trf(text)
    total_rounds = tournament.total_rounds
    if total_rounds is None:
        raise TrfError("the file has no 'XXR n' line giving the number of rounds")
    players, round_number, start_rank_of = to_swiss_players(tournament)
    if round_number > total_rounds:
        raise TrfError(f"all {total_rounds} rounds are already paired")
    forbidden = {
        frozenset(_to_pairing_number(tournament, rank) for rank in pair)
        for pair in tournament.forbidden
    }
    try:
        result = pair_round(
            players,
            round_number,
            total_rounds,
            forbidden=forbidden,
            win_points=WIN_POINTS,
            initial_colour=tournament.initial_colour,
        )
    except PairingError as error:
        raise TrfError(f"round {round_number}: {error}") from error
    pairs = [(start_rank_of[white], start_rank_of[black]) for white, black in result.pairs]
    if result.bye is not None:
        pairs.append((start_rank_of[result.bye], 0))
    return pairs


def _to_pairing_number(tournament: TrfTournament, start_rank: int) -> int:
    numbers = _pairing_numbers(tournament)
    if start_rank not in numbers:
        raise TrfError(f"XXP names player {start_rank}, who has no 001 line")
    return numbers[start_rank]


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
        with open(arguments[0], encoding="utf-8") as handle:
            pairs = pair_trf(handle.read())
    except (OSError, TrfError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    sys.stdout.write(format_pairings(pairs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
