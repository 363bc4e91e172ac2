"""Reads for the organizer's tournament dashboard: its rounds at a glance, the one next
step, and the names of knockout matches ("Final", "Third-place match", "Losers' round 2,
match 1"). Everything comes from two queries over the tournament's rows."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from players.permissions import managed_clubs
from tournaments import adapters
from tournaments.models import Outcome, Pairing, Round, Status, Tournament
from tournaments.selectors import rounds_remaining_of, tournament_data
from tournaments.texts import match_names


@dataclass(frozen=True)
class RoundSummary:
    round: Round
    boards: int
    results: int
    byes: int
    #: Knockout rounds: the names of the matches played in it, in board order.
    stages: tuple[str, ...] = ()

    @property
    def missing(self) -> int:
        return self.boards - self.results

    @property
    def complete(self) -> bool:
        return self.missing == 0


@dataclass(frozen=True)
class NextStep:
    """What the organizer does next: ``action`` is one of "enter" (players), "start",
    "results" (of ``round_number``), "pair" (round ``round_number``), "finish" or
    "reopen"; ``text`` says it in words."""

    action: str
    text: str
    round_number: int | None = None


@dataclass
class Overview:
    tournament: Tournament
    entrants: int
    withdrawn: int
    rounds: list[RoundSummary]
    remaining: int
    next: NextStep
    #: Knockout match name by pairing id.
    stage_of: dict[int, str] = field(default_factory=dict)


def knockout_stages(tournament: Tournament, pairings: list[Pairing],
                    seed_of: dict[int, int]) -> dict[int, str]:
    """The bracket name of each knockout pairing (by pairing id)."""
    if not tournament.system.has_bracket or len(seed_of) < 2:
        return {}
    names = match_names(adapters.bracket_of(tournament, pairings, seed_of))
    return {p.pk: names[p.bracket_match] for p in pairings if p.bracket_match in names}


def pairing_stages(round_: Round) -> dict[int, str]:
    """The knockout names of ``round_``'s boards (empty outside knockouts)."""
    tournament = round_.tournament
    if not tournament.system.has_bracket:
        return {}
    data = tournament_data(tournament, drafts=True)
    pairings = [p for rows in data.rounds for p in rows]
    seed_of = {e.pk: int(e.seed) for e in data.entrants if e.seed is not None}
    return {pk: name for pk, name in knockout_stages(tournament, pairings, seed_of).items()
            if any(p.pk == pk and p.round_id == round_.pk for p in pairings)}


def _next_step(tournament: Tournament, active: int, rounds: list[RoundSummary],
               remaining: int) -> NextStep:
    if tournament.status in (Status.DRAFT, Status.REGISTRATION):
        if active < 2:
            return NextStep("enter", _("Enter the players (at least two), then start."))
        return NextStep("start", ngettext(
            "Start with %(count)d entrant: the seeds are fixed from their ratings.",
            "Start with %(count)d entrants: the seeds are fixed from their ratings.",
            active) % {"count": active})
    if tournament.status == Status.FINISHED:
        return NextStep("reopen", _("Reopen it only to correct a result (the reason is "
                                    "logged)."))
    if rounds and not rounds[-1].round.is_released:
        number = rounds[-1].round.number
        return NextStep("release", _("Round %(round)d is a draft: check the pairings, then "
                                     "release them to the players and the public pages.")
                        % {"round": number}, number)
    if rounds and not rounds[-1].complete:
        last = rounds[-1]
        return NextStep("results", ngettext(
            "Enter the results of round %(round)d (%(missing)d of %(boards)d board missing).",
            "Enter the results of round %(round)d (%(missing)d of %(boards)d boards missing).",
            last.boards) % {"round": last.round.number, "missing": last.missing,
                            "boards": last.boards},
                        last.round.number)
    if remaining > 0:
        number = len(rounds) + 1
        return NextStep("pair", _("Pair round %(round)d.") % {"round": number}, number)
    return NextStep("finish", _("Every round has its results: finish the tournament."))


def tournament_overview(tournament: Tournament) -> Overview:
    """The dashboard's figures for ``tournament``."""
    data = tournament_data(tournament, drafts=True)
    round_rows = {r.number: r for r in tournament.rounds.all()}
    pairings = [p for rows in data.rounds for p in rows]
    seed_of = {e.pk: int(e.seed) for e in data.entrants if e.seed is not None}
    stage_of = knockout_stages(tournament, pairings, seed_of)
    summaries = []
    for rows in data.rounds:
        round_ = round_rows[rows[0].round.number]
        boards = [p for p in rows if p.entrant_b_id is not None]
        summaries.append(RoundSummary(
            round=round_, boards=len(boards),
            results=sum(1 for p in boards if p.outcome != Outcome.PENDING),
            byes=len(rows) - len(boards),
            stages=tuple(stage_of[p.pk] for p in rows if p.pk in stage_of)))
    remaining = rounds_remaining_of(tournament, data.entrants, pairings, len(summaries))
    withdrawn = sum(1 for e in data.entrants if e.withdrawn_from_round is not None)
    active = len(data.entrants) - withdrawn
    return Overview(
        tournament=tournament, entrants=len(data.entrants), withdrawn=withdrawn,
        rounds=summaries, remaining=remaining,
        next=_next_step(tournament, active, summaries, remaining), stage_of=stage_of,
    )


#: The admin home lists at most this many of the organizer's tournaments.
HOME_TOURNAMENTS = 12


@dataclass(frozen=True)
class DeskItem:
    """One of the organizer's tournaments on the admin home, with its next step."""

    tournament: Tournament
    next: NextStep


def organizer_desk(user: object) -> list[DeskItem]:
    """The unfinished tournaments of the clubs ``user`` manages (drafts, registration open,
    running), newest first, each with its next step."""
    tournaments = (Tournament.objects.filter(club__in=managed_clubs(user))
                   .exclude(status=Status.FINISHED).select_related("club")
                   .order_by("-created_at", "-id")[:HOME_TOURNAMENTS])
    return [DeskItem(t, tournament_overview(t).next) for t in tournaments]
