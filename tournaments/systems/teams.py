"""Team systems: team round robin (single, double), team Swiss and team knockout.

Their entrants are teams whose matches are played on boards (``pairs_teams``). A league
plans their rounds from its teams' states; an ordinary tournament's "pair next round"
refuses them. Each :class:`~tournaments.systems.base.Planned` is one team match:
``first`` the home team, ``second`` the away team (None: a bye).

- Round robin: the Berger tables of ``tournaments.pairing.round_robin``; the home team is
  the one the table names first. In a double round robin the second leg swaps home and
  away of the first leg's pairing (each pair meets once at each home).
- Swiss: the Dutch engine pairs the teams on match points, as team programs do: the
  teams are written as a TRF document of "players" (:func:`team_swiss_document`: rating
  the team's rating, score its match points through the ``BBW``/``BBD``/``BBL``/``BBU``
  point lines, colour home = white / away = black) and paired by the same
  ``tournaments.trf.pair_document`` as the individual Swiss.
- Knockout: the bracket of ``tournaments.pairing.knockout``; a level match is decided by
  ``tournaments.standings.team_matches.knockout_winner`` (board count, then bottom-board
  elimination, then a lot).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Literal

from games.i18n import N_
from tournaments.standings.team_matches import TeamMatchResult, knockout_winner
from tournaments.systems.knockout import Knockout
from tournaments.systems.round_robin import RoundRobin
from tournaments.systems.swiss import Swiss, SwissInput

TEAM_TIEBREAKS_ROUND_ROBIN = ("board_points", "direct_encounter", "team_sonneborn_berger",
                              "board_count")
TEAM_TIEBREAKS_SWISS = ("board_points", "team_sonneborn_berger", "buchholz",
                        "direct_encounter", "board_count")

MatchOutcome = Literal["W", "D", "L", "bye", "forfeit_win", "forfeit_loss", "absent"]


@dataclass(frozen=True)
class TeamRoundRobin(RoundRobin):
    pairs_teams: bool = True
    default_tiebreaks: tuple[str, ...] = TEAM_TIEBREAKS_ROUND_ROBIN


@dataclass(frozen=True)
class TeamSwiss(Swiss):
    """Paired from ``State.pairing_input``: a :class:`SwissInput` the league builds with
    :func:`team_swiss_document`."""

    pairs_teams: bool = True
    default_tiebreaks: tuple[str, ...] = TEAM_TIEBREAKS_SWISS
    late_entries: bool = False
    requested_byes: bool = False
    forbidden_pairings: bool = False
    pairing_edits: bool = False


@dataclass(frozen=True)
class TeamKnockout(Knockout):
    pairs_teams: bool = True
    #: Its boards (the board tournament's pairings) may be drawn: the team match needs the
    #: winner, decided by ``match_winner`` (the results shells read this of a board).
    needs_winner: bool = False

    def match_winner(self, result: TeamMatchResult, boards: int) -> int | None:
        """Who goes through a team match (None: still level, a lot decides)."""
        return knockout_winner(result, boards)


TEAM_ROUND_ROBIN = TeamRoundRobin("team_round_robin", N_("Team round robin"))
TEAM_DOUBLE_ROUND_ROBIN = TeamRoundRobin("team_double_round_robin",
                                         N_("Team double round robin"), double=True)
TEAM_SWISS = TeamSwiss("team_swiss", N_("Team Swiss (FIDE Dutch)"))
TEAM_KNOCKOUT = TeamKnockout("team_knockout", N_("Team knockout"), third_place_match=True)


# -- the team Swiss document ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TeamRound:
    """One round of a team's history: its opponent (None: bye or absent), whether it was
    the home team, and the match outcome from its side."""

    opponent: int | None
    home: bool
    outcome: MatchOutcome


@dataclass(frozen=True, slots=True)
class TeamHistory:
    """A team as the Swiss sees it: id, rating (its players' average or a given rating,
    None: unrated) and its rounds so far, round 1 first."""

    id: int
    rating: int | None
    rounds: tuple[TeamRound, ...] = ()
    #: It does not play the round to pair (withdrawn or absent).
    absent: bool = False


@dataclass(frozen=True, slots=True)
class TeamSwissScoring:
    """Match points as the TRF point lines give them (in tenths of a point there)."""

    win: Decimal = Decimal(2)
    draw: Decimal = Decimal(1)
    loss: Decimal = Decimal(0)
    bye: Decimal = Decimal(2)
    forfeit_loss: Decimal = Decimal(0)
    absent: Decimal = Decimal(0)


@dataclass(frozen=True, slots=True)
class TeamSwissDocument:
    """The TRF text of the teams and the start rank → team id map."""

    text: str
    team_of: dict[int, int] = field(default_factory=dict)


_TRF_CODE: dict[str, str] = {"W": "1", "D": "=", "L": "0", "forfeit_win": "+",
                             "forfeit_loss": "-", "bye": "U", "absent": "Z"}


def _points(scoring: TeamSwissScoring, outcome: MatchOutcome) -> Decimal:
    return {"W": scoring.win, "D": scoring.draw, "L": scoring.loss, "bye": scoring.bye,
            "forfeit_win": scoring.win, "forfeit_loss": scoring.forfeit_loss,
            "absent": scoring.absent}[outcome]


def _tenths(value: Decimal) -> str:
    return f"{Decimal(value):.1f}"


def team_swiss_trf(teams: Sequence[TeamHistory], rounds_planned: int,
                   scoring: TeamSwissScoring = TeamSwissScoring(),
                   name: str = "Team Swiss") -> TeamSwissDocument:
    """The teams as a TRF-16 document of "players", ready to pair the next round.

    Start ranks follow the rating (highest first, unrated last, then the team id), as
    team programs seed; the score is the match points; colour ``w`` is home, ``b`` away.
    A team absent from the round to pair is entered on a ``240`` line (a zero bye).
    """
    from tournaments.trf import TrfPlayer, TrfRound, TrfTournament, write_trf

    order = sorted(teams, key=lambda t: (t.rating is None, -(t.rating or 0), t.id))
    rank_of = {team.id: rank for rank, team in enumerate(order, start=1)}
    header = [f"012 {name}", f"XXR {rounds_planned}", "XXC white1",
              f"BBW {_tenths(scoring.win):>4}", f"BBD {_tenths(scoring.draw):>4}",
              f"BBL {_tenths(scoring.loss):>4}", f"BBZ {_tenths(scoring.absent):>4}",
              f"BBF {_tenths(scoring.forfeit_loss):>4}", f"BBU {_tenths(scoring.bye):>4}"]
    played = max((len(team.rounds) for team in teams), default=0)
    players = []
    for team in order:
        rounds = list(team.rounds)
        while len(rounds) < played:
            rounds.append(TeamRound(None, False, "absent"))
        blocks = tuple(
            TrfRound(None, "-", _TRF_CODE[r.outcome]) if r.opponent is None
            else TrfRound(rank_of[r.opponent], "w" if r.home else "b", _TRF_CODE[r.outcome])
            for r in rounds)
        score = sum((_points(scoring, r.outcome) for r in rounds), Decimal(0))
        players.append(TrfPlayer(rank_of[team.id], f"Team {team.id}", rating=team.rating,
                                 points=_tenths(score), rounds=blocks))
    absent = [rank_of[team.id] for team in order if team.absent]
    trailer = [f"240 Z {played + 1:>3} " + " ".join(f"{r:>4}" for r in absent)] if absent else []
    text = write_trf(TrfTournament(header, players, trailer))
    return TeamSwissDocument(text, {rank: team for team, rank in rank_of.items()})


def team_swiss_input(teams: Sequence[TeamHistory], rounds_planned: int,
                     scoring: TeamSwissScoring = TeamSwissScoring()) -> SwissInput:
    """The :class:`SwissInput` the team Swiss pairs (``State.pairing_input``'s answer)."""
    from tournaments.trf import read_trf  # the engine loads when first used

    document = team_swiss_trf(teams, rounds_planned, scoring)
    pairable = sum(1 for team in teams if not team.absent) >= 2
    return SwissInput(read_trf(document.text), document.team_of, pairable=pairable)
