"""The team Swiss pairs as bbpPairings does: 12-team, 5-round Swiss tournaments (and an
11-team one, for the bye, and one with whole-match forfeits and an absent team) whose
every round bbpPairings paired, replayed here.

``tests/data/team_swiss/seedN.trf`` is the whole tournament as the team Swiss writes it
(teams as TRF "players", match points 2/1/0 through the ``BB*`` point lines, home =
white), with bbpPairings' pairings and seeded random results; ``seedN.bbp`` holds
bbpPairings' own output for each round. The test rebuilds every round's input from the
file, pairs it through ``team_swiss_input`` and the ``team_swiss`` system, and asserts
the same boards in the same order.

Regenerate (docs/leagues.md, "Team Swiss"; bbpPairings built outside the project):

    PYTHONPATH=. python tests/unit/tournaments/test_team_swiss_bbp.py \
        --bbp /tmp/tc/bbp/bbpPairings.exe --out tests/data/team_swiss
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
from decimal import Decimal
from pathlib import Path

import pytest

from tournaments.systems import Entry, Settings, State, system_of
from tournaments.systems.teams import (
    MatchOutcome,
    TeamHistory,
    TeamRound,
    TeamSwissScoring,
    team_swiss_input,
    team_swiss_trf,
)
from tournaments.trf import read_trf

DATA = Path(__file__).resolve().parents[2] / "data" / "team_swiss"
ROUNDS = 5
BOARDS = 4
#: seed -> number of teams
TOURNAMENTS = {1: 12, 2: 12, 3: 12, 4: 12, 5: 12, 6: 11, 7: 12}
#: seed -> (the chance of a whole-match forfeit, the team absent, the round it misses)
UNPLAYED = {7: (0.15, 5, 3)}

Pairs = list[tuple[int, int]]


def _team_id(rank: int) -> int:
    return 100 + rank


def histories_before(path: Path, round_number: int) -> list[TeamHistory]:
    """The teams of a stored tournament as they stood before ``round_number``."""
    document = read_trf(path.read_text())
    codes: dict[str, MatchOutcome] = {"1": "W", "=": "D", "0": "L", "U": "bye",
                                      "+": "forfeit_win", "-": "forfeit_loss", "Z": "absent"}
    teams = []
    for player in document.players:
        rounds = tuple(
            TeamRound(None if block.opponent is None else _team_id(block.opponent),
                      block.colour == "w", codes[block.result])
            for block in player.rounds[: round_number - 1])
        this_round = player.rounds[round_number - 1]
        absent = this_round.opponent is None and this_round.result == "Z"
        teams.append(TeamHistory(_team_id(player.start_rank), player.rating, rounds, absent))
    return teams


def read_bbp(path: Path) -> list[Pairs]:
    """bbpPairings' output per round (``round N`` then its plain output)."""
    rounds: list[Pairs] = []
    for block in path.read_text().split("round ")[1:]:
        lines = block.strip().splitlines()[1:]
        count = int(lines[0])
        rounds.append([(int(a), int(b)) for a, b in (line.split() for line in lines[1:])])
        assert len(rounds[-1]) == count
    return rounds


#: 1 / ½ / 0 points (a bye 1): the classic scale, to show match points pair the same.
CLASSIC = TeamSwissScoring(win=Decimal(1), draw=Decimal("0.5"), bye=Decimal(1))
MATCH_POINTS = TeamSwissScoring()


def pair_teams(teams: list[TeamHistory], round_number: int,
               scoring: TeamSwissScoring = MATCH_POINTS) -> Pairs:
    """The ``team_swiss`` system's round, as start ranks (0: the bye), board order."""
    entrants = tuple(Entry(team.id, None) for team in teams)
    state = State(Settings(rounds_planned=ROUNDS), entrants, paired_rounds=round_number - 1,
                  pairing_input=lambda _: team_swiss_input(teams, ROUNDS, scoring))
    planned = system_of("team_swiss").plan_round(state, round_number)
    return [(p.first - 100, 0 if p.second is None else p.second - 100) for p in planned]


@pytest.mark.parametrize("seed", sorted(TOURNAMENTS))
def test_team_swiss_pairs_every_round_as_bbppairings(seed: int) -> None:
    expected = read_bbp(DATA / f"seed{seed}.bbp")
    assert len(expected) == ROUNDS
    for round_number, bbp_pairs in enumerate(expected, start=1):
        teams = histories_before(DATA / f"seed{seed}.trf", round_number)
        assert len(teams) == TOURNAMENTS[seed]
        assert pair_teams(teams, round_number) == bbp_pairs, f"seed {seed} round {round_number}"
        assert pair_teams(teams, round_number, CLASSIC) == bbp_pairs  # 2/1/0 = 1/½/0


def test_the_data_uses_match_points_and_has_byes_forfeits_and_an_absence() -> None:
    text = (DATA / "seed6.trf").read_text()
    assert "BBW  2.0" in text and "BBU  2.0" in text
    assert " U" in text  # the 11-team tournament's pairing-allocated byes
    seven = read_trf((DATA / "seed7.trf").read_text())
    results = [block.result for player in seven.players for block in player.rounds]
    assert "+" in results and "-" in results and "Z" in results


# -- regeneration (not collected: run as a script) -----------------------------------------


def _match(rng: random.Random, home_rating: int, away_rating: int,
           forfeits: float = 0.0) -> tuple[MatchOutcome, MatchOutcome]:
    """Four boards of 1/½/0 drawn with the rating difference's odds (or, by chance, a
    whole-match forfeit); the match outcome."""
    if forfeits and rng.random() < forfeits:
        forfeited: list[tuple[MatchOutcome, MatchOutcome]] = [
            ("forfeit_win", "forfeit_loss"), ("forfeit_loss", "forfeit_win")]
        return rng.choice(forfeited)
    edge = (home_rating - away_rating) / 800
    home = 0.0
    for _ in range(BOARDS):
        roll = rng.random()
        win, draw = 0.4 + edge, 0.25
        home += 1.0 if roll < win else 0.5 if roll < win + draw else 0.0
    if home > BOARDS / 2:
        return "W", "L"
    if home < BOARDS / 2:
        return "L", "W"
    return "D", "D"


def _bbp(binary: str, text: str) -> Pairs:
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "in.trf"
        source.write_text(text)
        done = subprocess.run([binary, "--dutch", str(source), "-p"], capture_output=True,
                              text=True, check=True)
    lines = done.stdout.split()
    count = int(lines[0])
    numbers = [int(word) for word in lines[1:]]
    return [(numbers[2 * i], numbers[2 * i + 1]) for i in range(count)]


def generate(binary: str, out: Path, seed: int, count: int) -> int:
    """Play one tournament paired by bbpPairings; returns the rounds where the team
    Swiss paired differently (none expected)."""
    rng = random.Random(seed)
    ratings = sorted(rng.sample(range(1400, 2400), count), reverse=True)
    teams = {_team_id(rank): TeamHistory(_team_id(rank), rating)
             for rank, rating in enumerate(ratings, start=1)}
    outputs = []
    differences = 0
    forfeits, absent_team, absent_round = UNPLAYED.get(seed, (0.0, 0, 0))
    for round_number in range(1, ROUNDS + 1):
        if round_number == absent_round:
            missing = teams[_team_id(absent_team)]
            teams[missing.id] = TeamHistory(missing.id, missing.rating, missing.rounds, True)
        text = team_swiss_trf(list(teams.values()), ROUNDS).text
        pairs = _bbp(binary, text)
        if pair_teams(list(teams.values()), round_number) != pairs:
            differences += 1
            print(f"seed {seed} round {round_number}: the team Swiss differs", file=sys.stderr)
        outputs.append(f"round {round_number}\n{len(pairs)}\n"
                       + "".join(f"{a} {b}\n" for a, b in pairs))
        new_rounds: dict[int, TeamRound] = {}
        for first, second in pairs:
            home = teams[_team_id(first)]
            if second == 0:
                new_rounds[home.id] = TeamRound(None, False, "bye")
                continue
            away = teams[_team_id(second)]
            home_outcome, away_outcome = _match(rng, home.rating or 0, away.rating or 0,
                                                forfeits)
            new_rounds[home.id] = TeamRound(away.id, True, home_outcome)
            new_rounds[away.id] = TeamRound(home.id, False, away_outcome)
        teams = {key: TeamHistory(key, team.rating, (*team.rounds, new_rounds.get(
                     key, TeamRound(None, False, "absent")))) for key, team in teams.items()}
    out.mkdir(parents=True, exist_ok=True)
    (out / f"seed{seed}.trf").write_text(team_swiss_trf(list(teams.values()), ROUNDS).text)
    (out / f"seed{seed}.bbp").write_text("".join(outputs))
    return differences


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bbp", required=True, help="the bbpPairings binary")
    parser.add_argument("--out", type=Path, default=DATA)
    arguments = parser.parse_args()
    differences = sum(generate(arguments.bbp, arguments.out, seed, count)
                      for seed, count in TOURNAMENTS.items())
    print(f"{len(TOURNAMENTS)} tournaments, {len(TOURNAMENTS) * ROUNDS} rounds, "
          f"{differences} rounds paired differently")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
