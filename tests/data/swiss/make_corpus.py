"""Rebuild the Swiss agreement corpus with an external bbpPairings binary.

    python tests/data/swiss/make_corpus.py --bbp /path/to/bbpPairings.exe \
        --set gen --count 200 --seed 11
    python tests/data/swiss/make_corpus.py --bbp ... --set sim --count 150 --seed 12
    # the full corpus (make test-swiss-full): wide field sizes
    python tests/data/swiss/make_corpus.py --bbp ... --set gen --profile wide \
        --count 200 --seed 1 --out tests/data/swiss/full
    python tests/data/swiss/make_corpus.py --bbp ... --set sim --profile wide \
        --count 150 --seed 2 --out tests/data/swiss/full
    python tests/data/swiss/make_corpus.py --bbp ... --set gen --profile wide \
        --count 150 --seed 3 --out tests/data/swiss/full

Two kinds of tournaments:

* ``gen``: the program's own random tournament generator (``--dutch -g config``) with a
  random configuration (players, rounds, draw share, forfeit, zero-point and half-point
  bye rates); every round of the result is then paired again from the file cut at that
  round (``--dutch file -p``), which also checks that the cut is faithful.
* ``sim``: this script plays the tournament itself, pairing every round with the program
  and drawing results, so that it can add what the generator does not make: players who
  withdraw for good, late entrants, requested half-point, zero-point and full-point byes,
  double forfeits, forbidden pairs (XXP), black1 openings and Baku acceleration
  (``192 FIDE_DUTCH_2025_BAKU``).

Only the TRF files and the program's answers are written; the program itself is not
part of this repository.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from tests.unit.pairing.swiss.corpus import DATA, round_input  # noqa: E402

WIN_CODES = "1W+FU"


def run_pairer(bbp: str, text: str) -> tuple[int, str, str]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "in.trf"
        path.write_text(text)
        done = subprocess.run([bbp, "--dutch", str(path), "-p"], capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr


def parse_pairs(output: str) -> list[tuple[int, int]]:
    lines = output.split()
    count = int(lines[0])
    numbers = [int(word) for word in lines[1:]]
    pairs = list(zip(numbers[0::2], numbers[1::2], strict=True))
    assert len(pairs) == count, output
    return pairs


def format_round(number: int, code: int, output: str) -> str:
    if code == 1:
        return f"# round {number} unpairable\n"
    return f"# round {number}\n{output}"


# -- gen: the program's generator ---------------------------------------------------


def field_size(rng: random.Random, profile: str) -> int:
    """Players in a tournament: ``wide`` spreads them over 7-200; ``small`` keeps most
    events under 30 players (a quick default test) with a few up to 200."""
    if profile == "wide":
        return rng.choice([rng.randint(7, 20), rng.randint(7, 40), rng.randint(20, 200)])
    draw = rng.random()
    if draw < 0.80:
        return rng.randint(7, 29)
    if draw < 0.92:
        return rng.randint(30, 59)
    if draw < 0.97:
        return rng.randint(60, 99)
    return rng.randint(100, 200)


def generate(bbp: str, rng: random.Random, name: str, out: Path, profile: str) -> None:
    players = field_size(rng, profile)
    rounds = rng.randint(4, min(11, players - 1))
    config = "\n".join(
        [
            f"PlayersNumber={players}",
            f"RoundsNumber={rounds}",
            f"DrawPercentage={rng.choice([0, 10, 20, 30, 45, 60])}",
            f"ForfeitRate={rng.choice([5, 10, 20, 40, 80])}",
            f"RetiredRate={rng.choice([2, 3, 5, 10, 20, 40])}",
            f"HalfPointByeRate={rng.choice([2, 3, 5, 10, 20, 40])}",
            "HighestRating=2700",
            "LowestRating=1200",
        ]
    )
    with tempfile.TemporaryDirectory() as folder:
        config_path = Path(folder) / "config.txt"
        config_path.write_text(config + "\n")
        trf_path = Path(folder) / "out.trf"
        seed = rng.randrange(1, 2**31 - 1)
        done = subprocess.run(
            [bbp, "--dutch", "-g", str(config_path), "-o", str(trf_path), "-s", str(seed)],
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            print(f"{name}: generator failed: {done.stderr.strip()}", file=sys.stderr)
            return
        raw = trf_path.read_bytes().decode("utf-8")
    lines = raw.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    lines = [line for line in lines if line.strip()]
    header = [line for line in lines if not line.startswith("001")]
    body = [line for line in lines if line.startswith("001")]
    text = ""
    for opening in ("white1", "black1"):  # the generator draws the first colour
        text = "\n".join([header[0], f"XXR {rounds}", f"XXC {opening}", *body, *header[1:]])
        text += "\n"
        code, output, _ = run_pairer(bbp, round_input(text, 1))
        if code == 0 and sorted(parse_pairs(output)) == sorted(_round_pairs(text, 1)):
            break
    expected = []
    for number in range(1, rounds + 1):
        code, output, error = run_pairer(bbp, round_input(text, number))
        if code not in (0, 1):
            raise SystemExit(f"{name} round {number}: {error}")
        if code == 0:
            played = _round_pairs(text, number)
            if sorted(parse_pairs(output)) != sorted(played):
                print(f"{name} round {number}: re-pairing differs from the generator",
                      file=sys.stderr)
        expected.append(format_round(number, code, output))
    (out / f"{name}.trf").write_text(text)
    (out / f"{name}.pairings").write_text("".join(expected))


def _round_pairs(text: str, number: int) -> list[tuple[int, int]]:
    pairs = []
    for line in text.splitlines():
        if not line.startswith("001"):
            continue
        start = 89 + 10 * (number - 1)
        block = line[start : start + 10].ljust(10)
        me = int(line[4:8])
        opponent = block[2:6].strip()
        if block[9] == "U":
            pairs.append((me, 0))
        elif opponent and opponent != "0000" and block[7] == "w":
            pairs.append((me, int(opponent)))
    return pairs


# -- sim: tournaments played here ------------------------------------------------------


class Simulation:
    def __init__(self, rng: random.Random, name: str, profile: str) -> None:
        self.rng = rng
        self.name = name
        self.size = field_size(rng, profile)
        self.rounds = rng.randint(4, min(11, self.size - 1))
        ratings = sorted((rng.randint(1200, 2700) for _ in range(self.size)), reverse=True)
        self.ratings = ratings
        self.blocks: dict[int, list[str]] = {n: [] for n in range(1, self.size + 1)}
        self.header = [f"012 Simulated {name}", f"XXR {self.rounds}"]
        self.header.append("XXC black1" if rng.random() < 0.25 else "XXC white1")
        self.trailer: list[str] = []
        if rng.random() < 0.25:
            self.header.append("192 FIDE_DUTCH_2025_BAKU")
        for _ in range(rng.choice([0, 0, 0, 1, 2, 3])):
            a, b = rng.sample(range(1, self.size + 1), 2)
            self.trailer.append(f"XXP {a} {b}")
        withdraw_rate = rng.choice([0.0, 0.02, 0.05, 0.1])
        self.withdraws = {
            n: rng.randint(2, self.rounds) for n in self.blocks if rng.random() < withdraw_rate
        }
        late_rate = rng.choice([0.0, 0.0, 0.03, 0.08])
        self.enters = {
            n: rng.randint(2, max(2, self.rounds // 2)) for n in self.blocks
            if rng.random() < late_rate
        }
        self.bye_rate = rng.choice([0.0, 0.02, 0.05, 0.1])
        self.forfeit_rate = rng.choice([0.0, 0.02, 0.05, 0.1])
        self.draw_share = rng.choice([0.1, 0.25, 0.4, 0.6])

    def text(self) -> str:
        lines = list(self.header)
        for number in range(1, self.size + 1):
            points = sum(
                2 if b[9] in WIN_CODES else 1 if b[9] in "=DH" else 0 for b in self.blocks[number]
            )
            name = f"Player {number:04d}, Sim"
            head = (
                f"001 {number:>4} m    {name:<33} {self.ratings[number - 1]:>4} "
                f"{'':<3} {'':>11} {'':<10} {points / 2:4.1f} {number:>4}"
            )
            lines.append((head + "".join(self.blocks[number])).rstrip())
        lines.extend(self.trailer)
        return "\n".join(lines) + "\n"

    def absence(self, number: int, round_number: int) -> str | None:
        if number in self.withdraws and round_number >= self.withdraws[number]:
            return "Z"
        if number in self.enters and round_number < self.enters[number]:
            return "Z"
        if round_number < self.rounds and self.rng.random() < self.bye_rate:
            return self.rng.choice("HHHZF")
        return None

    def play(self, bbp: str, out: Path) -> None:
        expected = []
        for round_number in range(1, self.rounds + 1):
            for number, blocks in self.blocks.items():
                bye = self.absence(number, round_number)
                if bye:
                    blocks.append(f"  0000 - {bye}")
            text = self.text()
            code, output, error = run_pairer(bbp, round_input(text, round_number))
            if code not in (0, 1):
                raise SystemExit(f"{self.name} round {round_number}: {error}")
            expected.append(format_round(round_number, code, output))
            if code == 1:
                # keep the absences entered for the unpairable round, nothing after it
                break
            self.apply(parse_pairs(output), round_number)
        (out / f"{self.name}.trf").write_text(self.text())
        (out / f"{self.name}.pairings").write_text("".join(expected))

    def apply(self, pairs: list[tuple[int, int]], round_number: int) -> None:
        rng = self.rng
        for white, black in pairs:
            if black == 0:
                self.blocks[white].append("  0000 - U")
                continue
            if rng.random() < self.forfeit_rate:
                kind = rng.choice(["white", "black", "both"])
                white_code = "+" if kind == "white" else "-"
                black_code = "+" if kind == "black" else "-"
            else:
                edge = (self.ratings[white - 1] - self.ratings[black - 1]) / 800
                draw = rng.random()
                if draw < self.draw_share:
                    white_code, black_code = "=", "="
                elif rng.random() < 0.5 + edge:
                    white_code, black_code = "1", "0"
                else:
                    white_code, black_code = "0", "1"
            self.blocks[white].append(f"  {black:>4} w {white_code}")
            self.blocks[black].append(f"  {white:>4} b {black_code}")
        for blocks in self.blocks.values():
            if len(blocks) < round_number:
                raise SystemExit(f"{self.name}: a player was left out of round {round_number}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bbp", required=True, help="path to the bbpPairings executable")
    parser.add_argument("--set", choices=["gen", "sim"], required=True)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", choices=["small", "wide"], default="small",
                        help="field sizes: mostly under 30 players, or spread over 7-200")
    parser.add_argument("--out", type=Path, help="folder (default tests/data/swiss/<set>)")
    arguments = parser.parse_args()
    out = arguments.out or DATA / arguments.set
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(arguments.seed)
    for index in range(arguments.count):
        name = f"{arguments.set}{arguments.seed:02d}-{index:04d}"
        if arguments.set == "gen":
            generate(arguments.bbp, rng, name, out, arguments.profile)
        else:
            Simulation(rng, name, arguments.profile).play(arguments.bbp, out)
        print(name, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
