"""Entering, withdrawing, requested byes and forbidden pairings."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from config.errors import ApplicationError
from players.models import Player, Team
from players.permissions import Actor, ensure_can_manage_club
from players.selectors import bot_game_problem, team_members_on
from tournaments.cache import tournament_changed
from tournaments.models import (
    REQUESTABLE_BYES,
    Entrant,
    EntrantKind,
    ForbiddenPairing,
    Format,
    RequestedBye,
    Round,
    Status,
    Tournament,
)
from tournaments.services.tournaments import lock_tournament


def _last_round_number(tournament: Tournament) -> int:
    return int(Round.objects.filter(tournament=tournament).aggregate(n=Max("number"))["n"] or 0)


@transaction.atomic
def entrant_register(
    *, actor: Actor, tournament: Tournament, player: Player | None = None,
    team: Team | None = None, rating: int = 0,
) -> Entrant:
    """Enter a player or a team; a running Swiss takes late entries from its next round."""
    ensure_can_manage_club(actor, tournament.club)
    tournament = lock_tournament(tournament)
    if (player is None) == (team is None):
        raise ApplicationError("Enter either a player or a team.", field="player")
    if tournament.entrant_kind == EntrantKind.TEAMS and team is None:
        raise ApplicationError(f"{tournament.game} is played by teams: enter a team.",
                               field="team")
    if tournament.entrant_kind == EntrantKind.PLAYERS and player is None:
        raise ApplicationError(f"{tournament.game} is played by single players: enter a player.",
                               field="player")
    if tournament.status == Status.FINISHED:
        raise ApplicationError("The tournament is finished.", field="status")
    joined_round = 1
    seed = None
    if tournament.status == Status.RUNNING:
        if tournament.format != Format.SWISS:
            raise ApplicationError(
                "Late entries are possible only in a Swiss: the schedule of a round robin or "
                "a knockout is fixed at the start.", field="status",
            )
        joined_round = _last_round_number(tournament) + 1
        if tournament.rounds_planned and joined_round > tournament.rounds_planned:
            raise ApplicationError("Every planned round is already paired.", field="status")
        seed = int(tournament.entrants.aggregate(n=Max("seed"))["n"] or 0) + 1
    existing = tournament.entrants.filter(player=player) if player else \
        tournament.entrants.filter(team=team)
    if existing.exists():
        raise ApplicationError(f"{player or team} is already entered.",
                               field="player" if player else "team")
    _check_bots_play(tournament, player, team)
    entrant = Entrant(tournament=tournament, player=player, team=team, rating=rating,
                      joined_round=joined_round, seed=seed)
    entrant.full_clean()
    entrant.save()
    tournament_changed(tournament.pk)
    return entrant


def _check_bots_play(tournament: Tournament, player: Player | None, team: Team | None) -> None:
    """An installed bot (or a team's current member that is one) must be installed here
    and play the tournament's game."""
    if player is not None:
        players = [player]
    else:
        assert team is not None
        players = list(team_members_on(team, timezone.localdate()).order_by("id"))
    for candidate in players:
        problem = bot_game_problem(candidate, tournament.game)
        if problem:
            raise ApplicationError(problem, field="player" if player else "team")


@transaction.atomic
def entrant_withdraw(*, actor: Actor, entrant: Entrant, from_round: int | None = None) -> Entrant:
    """Withdraw from ``from_round`` on (default: the next round to be paired).

    Rounds already paired keep their pairings: record a forfeit there instead. In a
    round robin or a knockout the withdrawn entrant's later matches are paired and
    scored as forfeits, so everyone else's schedule stays as drawn.
    """
    tournament = entrant.tournament
    ensure_can_manage_club(actor, tournament.club)
    tournament = lock_tournament(tournament)
    entrant = Entrant.objects.select_for_update().get(pk=entrant.pk)
    if tournament.status == Status.FINISHED:
        raise ApplicationError("The tournament is finished.", field="status")
    if entrant.withdrawn_from_round is not None:
        raise ApplicationError(
            f"{entrant} has already withdrawn (from round {entrant.withdrawn_from_round}).",
            field="entrant",
        )
    next_round = _last_round_number(tournament) + 1
    if from_round is None:
        from_round = max(next_round, entrant.joined_round)
    if from_round < next_round:
        raise ApplicationError(
            f"Round {next_round - 1} is already paired: record a forfeit for that round "
            f"and withdraw from round {next_round}.", field="from_round",
        )
    if from_round < entrant.joined_round:
        raise ApplicationError(
            f"{entrant} joins in round {entrant.joined_round}; withdraw from that round or later.",
            field="from_round",
        )
    entrant.withdrawn_from_round = from_round
    entrant.full_clean()
    entrant.save(update_fields=["withdrawn_from_round"])
    tournament_changed(entrant.tournament_id)
    return entrant


@transaction.atomic
def bye_request(
    *, actor: Actor, entrant: Entrant, round_number: int, kind: str = "half_point"
) -> RequestedBye:
    """Enter (or change) a bye the entrant asks for in a future round of a Swiss."""
    tournament = entrant.tournament
    ensure_can_manage_club(actor, tournament.club)
    tournament = lock_tournament(tournament)
    if tournament.format != Format.SWISS:
        raise ApplicationError("Requested byes exist only in a Swiss.", field="round_number")
    if kind not in [k.value for k in REQUESTABLE_BYES]:
        choices = ", ".join(k.value for k in REQUESTABLE_BYES)
        raise ApplicationError(f"Unknown bye kind {kind!r}; choose {choices}.", field="kind")
    if tournament.status == Status.FINISHED:
        raise ApplicationError("The tournament is finished.", field="status")
    next_round = _last_round_number(tournament) + 1
    if round_number < next_round:
        raise ApplicationError(
            f"Round {round_number} is already paired; byes can be entered from round "
            f"{next_round}.", field="round_number",
        )
    if tournament.rounds_planned and round_number > tournament.rounds_planned:
        raise ApplicationError(
            f"The tournament has {tournament.rounds_planned} rounds.", field="round_number"
        )
    if not entrant.plays_in(round_number):
        raise ApplicationError(f"{entrant} does not play in round {round_number}.",
                               field="round_number")
    bye, _ = RequestedBye.objects.update_or_create(
        entrant=entrant, round_number=round_number, defaults={"kind": kind}
    )
    return bye


@transaction.atomic
def forbid_pairing(
    *, actor: Actor, tournament: Tournament, entrant_a: Entrant, entrant_b: Entrant
) -> ForbiddenPairing:
    """Two entrants who must not be paired (family members, clubmates...): Swiss only."""
    ensure_can_manage_club(actor, tournament.club)
    if tournament.format != Format.SWISS:
        raise ApplicationError("Forbidden pairings apply only to a Swiss.", field="entrant_a")
    if entrant_a.tournament_id != tournament.pk or entrant_b.tournament_id != tournament.pk:
        raise ApplicationError("Both entrants must belong to this tournament.",
                               field="entrant_b")
    if entrant_a.pk == entrant_b.pk:
        raise ApplicationError("Name two different entrants.", field="entrant_b")
    low, high = sorted((entrant_a, entrant_b), key=lambda e: e.pk)
    forbidden, _ = ForbiddenPairing.objects.get_or_create(
        tournament=tournament, entrant_low=low, entrant_high=high
    )
    return forbidden
