"""Entering (one or many at once, late, again), ratings at entry, withdrawing, requested
byes and forbidden pairings.

Ratings at entry: unless one is given, an entrant enters with its club rating in the
pool of the tournament's game family (a team: the mean of its current members' ratings),
rounded; an unrated entrant enters with 0. Seeds follow the pairing order at the start:
rating, highest first; equal ratings (unrated players among them) in the order they
entered. A batch enters in rating order, then by name, so unrated players of one batch
are seeded alphabetically.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.utils.translation import ngettext

from core.errors import ApplicationError
from players.models import Player, Team
from players.permissions import Actor, clubs_of, ensure_can_manage_club
from players.selectors import bot_game_problem, team_members_on
from players.services import ensure_may_enter_from, player_create
from tournaments import events
from tournaments.entry_lists import EntryRow
from tournaments.history import EventKind, record, summarised
from tournaments.models import (
    REQUESTABLE_BYES,
    ByeKind,
    Entrant,
    EntrantKind,
    ForbiddenPairing,
    Outcome,
    Pairing,
    RequestedBye,
    Round,
    RoundEntry,
    Status,
    Tournament,
)
from tournaments.rating_source import entry_ratings
from tournaments.services.tournaments import check_entrant_count, lock_tournament
from tournaments.texts import game_label

#: How a late entrant's rounds before joining count: absent (zero points, FIDE's default)
#: or as half-point byes (when the tournament's rules give them).
LATE_BYES = {"zero": _lazy("absent (0 points)"), "half_point": _lazy("half-point byes")}
MAX_RATING = 4000


def _last_round_number(tournament: Tournament) -> int:
    return int(Round.objects.filter(tournament=tournament).aggregate(n=Max("number"))["n"] or 0)


def _check_rating(rating: int) -> int:
    if isinstance(rating, bool) or not isinstance(rating, int) or not 0 <= rating <= MAX_RATING:
        raise ApplicationError(_("A rating at entry is a whole number from 0 to %(limit)d.")
                               % {"limit": MAX_RATING}, field="rating")
    return rating


def club_ratings(tournament: Tournament, players: Sequence[Player] = (),
                 teams: Sequence[Team] = ()) -> dict[tuple[str, int], int]:
    """Ratings at entry from the club's pool: {("player", id) or ("team", id): rating}.

    A team's is the mean of its current members' ratings (unrated members left out).
    Players and teams without any rating are left out (they enter with 0).
    """
    members: dict[int, list[int]] = {
        team.pk: [m.player_id for m in team.memberships.all() if m.left_on is None]
        for team in teams
    }
    ids = {player.pk for player in players} | {pk for ids in members.values() for pk in ids}
    known = entry_ratings(tournament.club_id, tournament.game, sorted(ids))
    found: dict[tuple[str, int], int] = {
        ("player", player.pk): known[player.pk] for player in players if player.pk in known
    }
    for team_id, player_ids in members.items():
        rated = [known[pk] for pk in player_ids if pk in known]
        if rated:
            found[("team", team_id)] = round(sum(rated) / len(rated))
    return found


@transaction.atomic
def entrant_register(
    *, actor: Actor, tournament: Tournament, player: Player | None = None,
    team: Team | None = None, rating: int | None = None, late_byes: str = "zero",
) -> Entrant:
    """Enter a player or a team; a running Swiss takes late entries from its next round.

    ``rating`` defaults to the club rating (see the module's docstring). A late entrant's
    rounds already paired count as ``late_byes``: absent (``"zero"``) or half-point byes
    (``"half_point"``, entered as bye boards in those rounds).
    """
    ensure_can_manage_club(actor, tournament.club)
    tournament = lock_tournament(tournament)
    if (player is None) == (team is None):
        raise ApplicationError(_("Enter either a player or a team."), field="player")
    if tournament.entrant_kind == EntrantKind.TEAMS and team is None:
        raise ApplicationError(_("%(game)s is played by teams: enter a team.")
                               % {"game": game_label(tournament.game)}, field="team")
    if tournament.entrant_kind == EntrantKind.PLAYERS and player is None:
        raise ApplicationError(_("%(game)s is played by single players: enter a player.")
                               % {"game": game_label(tournament.game)}, field="player")
    entered = player if player is not None else team
    assert entered is not None
    if tournament.status == Status.FINISHED:
        raise ApplicationError(_("The tournament is finished."), field="status")
    if late_byes not in LATE_BYES:
        raise ApplicationError(_("Unknown choice %(choice)r for the missed rounds; choose "
                                 "%(zero)s or %(half)s.") % {"choice": late_byes,
                                                            "zero": "zero", "half": "half_point"},
                               field="late_byes")
    if rating is None:
        key = ("player", player.pk) if player is not None else ("team", entered.pk)
        rating = club_ratings(tournament, [player] if player else [],
                              [team] if team else []).get(key, 0)
    rating = _check_rating(rating)
    joined_round = 1
    seed = None
    if tournament.status == Status.RUNNING:
        if not tournament.system.late_entries:
            raise ApplicationError(_(
                "Late entries are possible only in a Swiss: the schedule of a round robin or "
                "a knockout is fixed at the start."), field="status",
            )
        joined_round = _last_round_number(tournament) + 1
        if tournament.rounds_planned and joined_round > tournament.rounds_planned:
            raise ApplicationError(_("Every planned round is already paired."), field="status")
        seed = int(tournament.entrants.aggregate(n=Max("seed"))["n"] or 0) + 1
    existing = tournament.entrants.filter(player=player) if player else \
        tournament.entrants.filter(team=team)
    if existing.exists():
        raise ApplicationError(_("%(name)s is already entered.") % {"name": entered},
                               field="player" if player else "team")
    ensure_may_enter_from(actor, tournament.club, clubs_of([player or team]),
                          field="player" if player else "team")
    check_entrant_count(tournament, tournament.entrants.count() + 1)
    _check_bots_play(tournament, player, team)
    entrant = Entrant(tournament=tournament, player=player, team=team, rating=rating,
                      joined_round=joined_round, seed=seed, fee_due=tournament.entry_fee)
    entrant.full_clean()
    entrant.save()
    byes = 0
    if joined_round > 1 and late_byes == "half_point":
        byes = _byes_for_missed_rounds(tournament, entrant, joined_round)
    record(tournament, EventKind.ENTRANT_REGISTERED, actor=actor, name=str(entered),
           round_number=joined_round if joined_round > 1 else None, rating=rating,
           joined_round=joined_round, byes=byes)
    return entrant


@transaction.atomic
def board_entrants_ensure(*, actor: Actor, tournament: Tournament,
                          players: Sequence[Player]) -> dict[int, Entrant]:
    """The entrants of ``players`` (by player id) in a league division's board tournament,
    entering those not entered yet: a team's players sit on its boards as its captain
    lines them up, so they join whenever they first play (no missed rounds, no byes)."""
    ensure_can_manage_club(actor, tournament.club)
    tournament = lock_tournament(tournament)
    if not tournament.system.pairs_teams:
        raise ApplicationError(_("Only a league division's board tournament enters players "
                                 "this way."), field="format")
    if tournament.status == Status.FINISHED:
        raise ApplicationError(_("The tournament is finished."), field="status")
    if tournament.entrant_kind != EntrantKind.PLAYERS:
        raise ApplicationError(_("%(game)s is played by teams: enter a team.")
                               % {"game": game_label(tournament.game)}, field="team")
    found: dict[int, Entrant] = {
        e.player_id: e for e in tournament.entrants.filter(
            player__in=[p.pk for p in players]).select_related("player")
        if e.player_id is not None}
    missing = [p for p in dict.fromkeys(players) if p.pk not in found]
    if missing:
        check_entrant_count(tournament, tournament.entrants.count() + len(missing))
        for player in missing:
            _check_bots_play(tournament, player, None)
        ratings = club_ratings(tournament, missing)
        seed = int(tournament.entrants.aggregate(n=Max("seed"))["n"] or 0) \
            if tournament.status == Status.RUNNING else None
        created = []
        for index, player in enumerate(missing, start=1):
            rating = _check_rating(ratings.get(("player", player.pk), 0))
            created.append(Entrant(tournament=tournament, player=player, rating=rating,
                                   seed=None if seed is None else seed + index))
        for entrant, player in zip(Entrant.objects.bulk_create(created), missing, strict=True):
            found[player.pk] = entrant
            record(tournament, EventKind.ENTRANT_REGISTERED, actor=actor, name=str(entrant.player),
                   rating=entrant.rating, joined_round=1, byes=0)
    return found


def _byes_for_missed_rounds(tournament: Tournament, entrant: Entrant, joined_round: int) -> int:
    """A half-point bye board for the late entrant in every round already paired; how
    many."""
    rounds = list(Round.objects.filter(tournament=tournament, number__lt=joined_round))
    for round_ in rounds:
        board = int(round_.pairings.aggregate(n=Max("board"))["n"] or 0) + 1
        pairing = Pairing.objects.create(round=round_, board=board, entrant_a=entrant,
                                         bye_kind=ByeKind.HALF_POINT, outcome=Outcome.BYE)
        RoundEntry.objects.create(round=round_, entrant=entrant, pairing=pairing)
    return len(rounds)


@dataclass(frozen=True)
class Candidate:
    """Who a batch registration enters, with the rating it would enter with."""

    player: Player | None
    team: Team | None
    rating: int
    rated: bool

    @property
    def name(self) -> str:
        return str(self.player.display_name if self.player else self.team.name if self.team
                   else "")


def registration_candidates(tournament: Tournament, players: Sequence[Player] = (),
                            teams: Sequence[Team] = ()) -> list[Candidate]:
    """The players or teams in the order a batch enters them, with their club ratings:
    rating, highest first, then name (unrated players last, alphabetically)."""
    known = club_ratings(tournament, players, teams)
    found = [Candidate(p, None, known.get(("player", p.pk), 0), ("player", p.pk) in known)
             for p in players]
    found += [Candidate(None, t, known.get(("team", t.pk), 0), ("team", t.pk) in known)
              for t in teams]
    return sorted(found, key=lambda c: (-c.rating, c.name.casefold(), c.name))


@transaction.atomic
def entrants_register(
    *, actor: Actor, tournament: Tournament, players: Sequence[Player] = (),
    teams: Sequence[Team] = (), ratings: dict[int, int] | None = None, late_byes: str = "zero",
) -> list[Entrant]:
    """Enter many players (or teams) at once, all or none, in the order of
    :func:`registration_candidates`. ``ratings`` may give some players' ratings (by player
    id), as an entry list with a rating column does; the others get their club rating."""
    if not players and not teams:
        raise ApplicationError(_("Choose at least one player or team to enter."),
                               field="players")
    check_entrant_count(tournament, tournament.entrants.count() + len(players) + len(teams))
    ratings = dict(ratings or {})
    entrants = []
    for candidate in registration_candidates(tournament, players, teams):
        rating = candidate.rating
        if candidate.player is not None and candidate.player.pk in ratings:
            rating = ratings[candidate.player.pk]
        try:
            entrants.append(entrant_register(
                actor=actor, tournament=tournament, player=candidate.player,
                team=candidate.team, rating=rating, late_byes=late_byes))
        except ApplicationError as error:
            raise ApplicationError(_("%(name)s: %(problem)s Nobody was entered.") % {
                "name": candidate.name, "problem": error.message}, field=error.field) from None
    return entrants


@dataclass(frozen=True)
class EntryMatch:
    """A row of an uploaded entry list and the club's player of that name, if any."""

    row: EntryRow
    player: Player | None
    entered: bool


def entry_list_match(tournament: Tournament, rows: Sequence[EntryRow]) -> list[EntryMatch]:
    """Each row with the club's player of the same name (case aside) and whether they
    are already entered: what an upload would do, for its preview."""
    players: dict[str, Player] = {}
    for known in Player.objects.filter(club=tournament.club, is_bot=False).order_by("pk"):
        players.setdefault(known.display_name.casefold(), known)
    entered = set(tournament.entrants.exclude(player=None).values_list("player_id", flat=True))
    found = []
    for row in rows:
        player = players.get(row.name.casefold())
        found.append(EntryMatch(row, player, player is not None and player.pk in entered))
    return found


@transaction.atomic
def entry_list_register(*, actor: Actor, tournament: Tournament, rows: Sequence[EntryRow],
                        late_byes: str = "zero", file_name: str = "") -> list[Entrant]:
    """Enter an uploaded list: players found by name in the club, new ones created; a
    rating in the list is the rating at entry, otherwise the club rating. All or none.
    The history gets one line for the list (``file_name``: the upload's, if any)."""
    ensure_can_manage_club(actor, tournament.club)
    if tournament.entrant_kind != EntrantKind.PLAYERS:
        raise ApplicationError(_("%(game)s is played by teams: enter teams, not a list of "
                                 "players.") % {"game": game_label(tournament.game)},
                               field="file")
    matches = [match for match in entry_list_match(tournament, rows) if not match.entered]
    check_entrant_count(tournament, tournament.entrants.count() + len(matches))
    players, ratings = [], {}
    for match in matches:
        player = match.player or _entry_list_player(actor, tournament, match.row)
        players.append(player)
        if match.row.rating is not None:
            ratings[player.pk] = match.row.rating
    if not players:
        raise ApplicationError(_("Everyone in the list is already entered."), field="file")
    with summarised():
        entrants = entrants_register(actor=actor, tournament=tournament, players=players,
                                     ratings=ratings, late_byes=late_byes)
    record(tournament, EventKind.ENTRY_LIST_UPLOADED, actor=actor, file=file_name[:200],
           count=len(entrants), names=[entrant.name for entrant in entrants],
           new_players=sum(1 for match in matches if match.player is None))
    return entrants


def _entry_list_player(actor: Actor, tournament: Tournament, row: EntryRow) -> Player:
    """A new player of the club from a row of an entry list; a refusal names its line."""
    try:
        return player_create(actor=actor, display_name=row.name, club=tournament.club,
                             fide_id=row.fide_id, **row.categories())
    except ApplicationError as error:
        raise ApplicationError(_("Line %(line)d: %(problem)s") % {
            "line": row.line, "problem": error.message}, field="file") from None


@transaction.atomic
def entrant_rating_update(*, actor: Actor, entrant: Entrant, rating: int) -> Entrant:
    """Change a rating at entry, before the start (the seeds follow it)."""
    return entrant_ratings_update(actor=actor, tournament=entrant.tournament,
                                  ratings={entrant.pk: rating})[0]


@transaction.atomic
def entrant_ratings_update(*, actor: Actor, tournament: Tournament,
                           ratings: Mapping[int, int]) -> list[Entrant]:
    """Change ratings at entry (entrant id: rating) before the start, all or none (the
    seeds follow them)."""
    ensure_can_manage_club(actor, tournament.club)
    tournament = lock_tournament(tournament)
    if tournament.status not in (Status.DRAFT, Status.REGISTRATION):
        raise ApplicationError(_(
            "Ratings at entry are fixed at the start: the seeds and pairing numbers follow "
            "them."), field="rating")
    entrants = list(Entrant.objects.select_for_update()
                    .filter(tournament=tournament, pk__in=list(ratings)).order_by("id"))
    if len(entrants) != len(ratings):
        raise ApplicationError(_("Choose an entrant of this tournament."), field="entrant")
    changes = []
    for entrant in entrants:
        rating = _check_rating(ratings[entrant.pk])
        if rating != entrant.rating:
            changes.append({"name": entrant.name, "before": entrant.rating, "after": rating})
        entrant.rating = rating
    Entrant.objects.bulk_update(entrants, ["rating"])
    if changes:
        record(tournament, EventKind.RATINGS_CHANGED, actor=actor, changes=changes)
    return entrants


@transaction.atomic
def entrant_remove(*, actor: Actor, entrant: Entrant) -> None:
    """Take back an entry made by mistake, before the start (later: withdraw)."""
    tournament = entrant.tournament
    ensure_can_manage_club(actor, tournament.club)
    tournament = lock_tournament(tournament)
    if tournament.status not in (Status.DRAFT, Status.REGISTRATION):
        raise ApplicationError(_("%(entrant)s cannot be removed once the tournament runs: "
                                 "withdraw instead.") % {"entrant": entrant}, field="entrant")
    Entrant.objects.filter(pk=entrant.pk).delete()
    record(tournament, EventKind.ENTRANT_REMOVED, actor=actor, name=entrant.name)
    events.entrant_removed.send(events.EntrantRemoved(tournament.pk, entrant.pk,
                                                      entrant.player_id))


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
        raise ApplicationError(_("The tournament is finished."), field="status")
    if entrant.withdrawn_from_round is not None:
        raise ApplicationError(
            _("%(entrant)s has already withdrawn (from round %(round)d).") % {
                "entrant": entrant, "round": entrant.withdrawn_from_round},
            field="entrant",
        )
    next_round = _last_round_number(tournament) + 1
    if from_round is None:
        from_round = max(next_round, entrant.joined_round)
    if from_round < next_round:
        raise ApplicationError(
            _("Round %(round)d is already paired: record a forfeit for that round and "
              "withdraw from round %(next)d.") % {"round": next_round - 1, "next": next_round},
            field="from_round",
        )
    if from_round < entrant.joined_round:
        raise ApplicationError(
            _("%(entrant)s joins in round %(round)d; withdraw from that round or later.")
            % {"entrant": entrant, "round": entrant.joined_round},
            field="from_round",
        )
    entrant.withdrawn_from_round = from_round
    entrant.full_clean()
    entrant.save(update_fields=["withdrawn_from_round"])
    record(tournament, EventKind.ENTRANT_WITHDRAWN, actor=actor, name=entrant.name,
           round_number=from_round, from_round=from_round)
    events.entrant_withdrawn.send(events.EntrantWithdrawn(tournament.pk, entrant.pk, from_round))
    return entrant


@transaction.atomic
def entrant_reenter(*, actor: Actor, entrant: Entrant) -> Entrant:
    """Take a withdrawn entrant back from the next round to be paired (the rounds missed
    stay as they were: absent, or the forfeits recorded)."""
    tournament = entrant.tournament
    ensure_can_manage_club(actor, tournament.club)
    tournament = lock_tournament(tournament)
    entrant = Entrant.objects.select_for_update().get(pk=entrant.pk)
    if tournament.status == Status.FINISHED:
        raise ApplicationError(_("The tournament is finished."), field="status")
    if entrant.withdrawn_from_round is None:
        raise ApplicationError(_("%(entrant)s has not withdrawn.") % {"entrant": entrant},
                               field="entrant")
    if tournament.rounds_planned and _last_round_number(tournament) >= tournament.rounds_planned:
        raise ApplicationError(_("Every planned round is already paired."), field="entrant")
    entrant.withdrawn_from_round = None
    entrant.save(update_fields=["withdrawn_from_round"])
    back_from = _last_round_number(tournament) + 1
    record(tournament, EventKind.ENTRANT_REENTERED, actor=actor, name=entrant.name,
           round_number=back_from, from_round=back_from)
    return entrant


@transaction.atomic
def bye_request(
    *, actor: Actor, entrant: Entrant, round_number: int, kind: str = "half_point"
) -> RequestedBye:
    """Enter (or change) a bye the entrant asks for in a future round of a Swiss."""
    tournament = entrant.tournament
    ensure_can_manage_club(actor, tournament.club)
    tournament = lock_tournament(tournament)
    if not tournament.system.requested_byes:
        raise ApplicationError(_("Requested byes exist only in a Swiss."),
                               field="round_number")
    if kind not in [k.value for k in REQUESTABLE_BYES]:
        choices = ", ".join(k.value for k in REQUESTABLE_BYES)
        raise ApplicationError(_("Unknown bye kind %(kind)r; choose %(choices)s.")
                               % {"kind": kind, "choices": choices}, field="kind")
    if tournament.status == Status.FINISHED:
        raise ApplicationError(_("The tournament is finished."), field="status")
    next_round = _last_round_number(tournament) + 1
    if round_number < next_round:
        raise ApplicationError(
            _("Round %(round)d is already paired; byes can be entered from round %(next)d.")
            % {"round": round_number, "next": next_round}, field="round_number",
        )
    if tournament.rounds_planned and round_number > tournament.rounds_planned:
        raise ApplicationError(
            ngettext("The tournament has %(count)d round.", "The tournament has %(count)d rounds.",
                     tournament.rounds_planned) % {"count": tournament.rounds_planned},
            field="round_number",
        )
    if not entrant.plays_in(round_number):
        raise ApplicationError(_("%(entrant)s does not play in round %(round)d.")
                               % {"entrant": entrant, "round": round_number},
                               field="round_number")
    was = RequestedBye.objects.filter(entrant=entrant, round_number=round_number) \
        .values_list("kind", flat=True).first()
    bye, _created = RequestedBye.objects.update_or_create(
        entrant=entrant, round_number=round_number, defaults={"kind": kind}
    )
    if was != kind:
        record(tournament, EventKind.BYE_REQUESTED, actor=actor, round_number=round_number,
               name=entrant.name, bye=kind, was=was or "")
    return bye


@transaction.atomic
def bye_cancel(*, actor: Actor, bye: RequestedBye) -> None:
    """Drop a requested bye for a round not yet paired."""
    tournament = bye.entrant.tournament
    ensure_can_manage_club(actor, tournament.club)
    tournament = lock_tournament(tournament)
    if bye.round_number <= _last_round_number(tournament):
        raise ApplicationError(_("Round %(round)d is already paired: its bye stays.")
                               % {"round": bye.round_number}, field="round_number")
    if RequestedBye.objects.filter(pk=bye.pk).delete()[0]:
        record(tournament, EventKind.BYE_CANCELLED, actor=actor, round_number=bye.round_number,
               name=bye.entrant.name, bye=bye.kind)


@transaction.atomic
def forbid_pairing(
    *, actor: Actor, tournament: Tournament, entrant_a: Entrant, entrant_b: Entrant
) -> ForbiddenPairing:
    """Two entrants who must not be paired (family members, clubmates...): Swiss only."""
    ensure_can_manage_club(actor, tournament.club)
    if not tournament.system.forbidden_pairings:
        raise ApplicationError(_("Forbidden pairings apply only to a Swiss."),
                               field="entrant_a")
    if entrant_a.tournament_id != tournament.pk or entrant_b.tournament_id != tournament.pk:
        raise ApplicationError(_("Both entrants must belong to this tournament."),
                               field="entrant_b")
    if entrant_a.pk == entrant_b.pk:
        raise ApplicationError(_("Name two different entrants."), field="entrant_b")
    low, high = sorted((entrant_a, entrant_b), key=lambda e: e.pk)
    forbidden, created = ForbiddenPairing.objects.get_or_create(
        tournament=tournament, entrant_low=low, entrant_high=high
    )
    if created:
        record(tournament, EventKind.FORBIDDEN_PAIR_ADDED, actor=actor,
               names=[entrant_a.name, entrant_b.name])
    return forbidden


@transaction.atomic
def forbidden_pairing_remove(*, actor: Actor, forbidden: ForbiddenPairing) -> None:
    """Allow two entrants to meet again (from the next round paired)."""
    ensure_can_manage_club(actor, forbidden.tournament.club)
    if ForbiddenPairing.objects.filter(pk=forbidden.pk).delete()[0]:
        record(forbidden.tournament, EventKind.FORBIDDEN_PAIR_REMOVED, actor=actor,
               names=[forbidden.entrant_low.name, forbidden.entrant_high.name])
