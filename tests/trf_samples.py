"""TRF files for the import tests: a finished club Swiss written the way Swiss-Manager
writes it (Latin-1, accented names, CRLF), built with the project's TRF writer."""

from __future__ import annotations

from tournaments.pairing.round_robin import berger_rounds
from tournaments.trf import TrfPlayer, TrfRound, TrfTournament, write_trf

#: Names with the letters Latin-1 has and ASCII has not.
NAMES = ["Jürgen Müller", "José Ibáñez", "Zoë Lefèvre", "Søren Østergård", "Ana Conceição",
         "Björn Åström", "Inès Dupré", "Loïc Nowak", "Marta Ruíz", "Ömer Çelik"]


def club_swiss_trf(names: list[str] | None = None, rounds: int = 3,
                   name: str = "Hiver du club 2026") -> str:
    """A Swiss of ``rounds`` rounds (its pairings from the Berger table), the lower start
    rank winning unless the sum of the two ranks is divisible by 3. Kazambi-safe: no
    draws."""
    names = list(NAMES if names is None else names)
    count = len(names)
    table = berger_rounds(count)[:rounds]
    blocks: dict[int, list[TrfRound]] = {rank: [] for rank in range(1, count + 1)}
    points = dict.fromkeys(blocks, 0.0)
    for pairs in table:
        for white, black in pairs:
            if 0 in (white, black):  # the odd one out: a pairing-allocated bye
                blocks[white or black].append(TrfRound(None, "-", "U"))
                points[white or black] += 1
                continue
            low_wins = (white + black) % 3 != 0
            white_wins = (white < black) == low_wins
            blocks[white].append(TrfRound(black, "w", "1" if white_wins else "0"))
            blocks[black].append(TrfRound(white, "b", "0" if white_wins else "1"))
            points[white if white_wins else black] += 1
    players = [TrfPlayer(rank, names[rank - 1], rating=2000 - 40 * rank,
                         points=f"{points[rank]:.1f}", rounds=tuple(blocks[rank]))
               for rank in blocks]
    header = [f"012 {name}", "022 Riverside", f"062 {count}", "092 Swiss System"]
    return write_trf(TrfTournament(header, players, [f"XXR {rounds}"]))


def latin1_trf_bytes(**kwargs: object) -> bytes:
    """The Swiss as Swiss-Manager saves it: Latin-1 with CRLF line ends."""
    text = club_swiss_trf(**kwargs)  # type: ignore[arg-type]
    return text.replace("\n", "\r\n").encode("latin-1")
