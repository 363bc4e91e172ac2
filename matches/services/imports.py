"""Importing a Swiss tournament from a TRF-16 file (players, rounds, results).

The rounds are made by the tournaments service and every result is recorded by the
result service, round by round: a played result stores its game (one game per TRF
result), so the imported tournament's ratings and game counts are those of any other.

A file's bytes are decoded as UTF-8 (with or without a byte-order mark), else
Windows-1252, else Latin-1 (what Swiss-Manager writes). :func:`trf_import_preview` runs
the whole import and rolls it back, so the organizer sees what would be saved (and every
problem, named by its line) before anything is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import ApplicationError
from games.i18n import N_
from games.series.format import MatchScore
from matches.services.results import match_result_record
from players.models import Club, Player
from players.permissions import Actor, ensure_can_manage_club
from players.services import player_create
from tournaments.history import EventKind, record, summarised
from tournaments.models import ByeKind, Entrant, FirstColour, Format, Outcome, Tournament
from tournaments.selectors import standings
from tournaments.services.entrants import bye_request, entrant_register, forbid_pairing
from tournaments.services.rounds import PlannedPairing, round_create
from tournaments.services.tournaments import tournament_create, tournament_start

_BYES = {"U": ByeKind.PAIRING_ALLOCATED, "F": ByeKind.FULL_POINT, "H": ByeKind.HALF_POINT,
         "Z": ByeKind.ZERO,
         # a forfeit win or loss with no opponent named: the points of a full or zero bye
         "+": ByeKind.FULL_POINT, "-": ByeKind.ZERO}
#: Byes entered before a round is paired (its block, or a ``240`` line): requested byes.
_REQUESTED = {"F": ByeKind.FULL_POINT, "H": ByeKind.HALF_POINT, "Z": ByeKind.ZERO}
_PLAYED = {  # code of the first mover -> (outcome, wins_a, wins_b, draws, second's code)
    "1": (Outcome.A_WINS, 1, 0, 0, "0L"), "W": (Outcome.A_WINS, 1, 0, 0, "0L"),
    "0": (Outcome.B_WINS, 0, 1, 0, "1W"), "L": (Outcome.B_WINS, 0, 1, 0, "1W"),
    "=": (Outcome.DRAW, 0, 0, 1, "=D"), "D": (Outcome.DRAW, 0, 0, 1, "=D"),
}
_UNPLAYED = {  # (code of A, code of B) -> outcome: both players' codes are read
    ("+", "-"): Outcome.A_FORFEIT_WIN, ("-", "+"): Outcome.B_FORFEIT_WIN,
    ("-", "-"): Outcome.DOUBLE_FORFEIT, (" ", " "): Outcome.PENDING,
}
Result = tuple[str, int, int, int]


def trf_text(data: bytes | str) -> str:
    """The text of a TRF file, whatever its encoding (see the module's docstring)."""
    from tournaments.trf import decode_trf

    return decode_trf(data) if isinstance(data, bytes) else data.removeprefix("\ufeff")


def _refusal(error: ApplicationError | ValidationError) -> str:
    """A service's refusal as one line (a model check's messages joined)."""
    return error.message if isinstance(error, ApplicationError) else " ".join(error.messages)


def _where(player: Any) -> str:
    """"Line 7 (player 3)", or "Player 3" when the reader does not give lines."""
    line = getattr(player, "line", 0)
    if line:
        return _("Line %(line)d (player %(rank)d)") % {"line": line, "rank": player.start_rank}
    return _("Player %(rank)d") % {"rank": player.start_rank}


def _categories(player: Any) -> dict[str, object]:
    """A 001 line's sex, title, federation and birth year, for a new player."""
    from tournaments.entry_lists import EntryListError, row_categories
    from tournaments.texts import core_error_message

    try:
        values = row_categories(player.line, player.birth_date, player.sex,
                                player.federation, player.title)
    except EntryListError as error:
        raise ApplicationError(core_error_message(error), field="file") from None
    return {key: value for key, value in values.items() if value not in (None, "")}


@dataclass
class ImportedPlayer:
    start_rank: int
    name: str
    rating: int | None
    new: bool


@dataclass
class TrfImportSummary:
    """What an import saved (or, for a preview, would save)."""

    name: str
    players: list[ImportedPlayer] = field(default_factory=list)
    rounds: int = 0
    results: int = 0
    rounds_planned: int = 0
    standings: list[dict[str, Any]] = field(default_factory=list)
    tournament: Tournament | None = None
    #: Whether the imported games count for ratings.
    rated: bool = True
    #: The club's tournament that already holds most of the file's played games, and how
    #: many of them (rating them again would count them twice).
    same_games_in: Tournament | None = None
    same_games: int = 0
    played_games: int = 0
    #: A tournament of the club with the same name.
    same_name: Tournament | None = None

    @property
    def new_players(self) -> int:
        return sum(1 for player in self.players if player.new)


@transaction.atomic
def tournament_import_trf(
    *, actor: Actor, club: Club, text: str | bytes, game: str = "kazambi",
    name: str | None = None, rated: bool | None = None, file_name: str = "",
) -> Tournament:
    """A running single-game Swiss rebuilt from TRF text; players are found (or created)
    by name in ``club``. Start ranks become seeds. ``rated`` None: rated unless another
    tournament of the club already holds the file's games (an export imported back). The
    history gets one line for the import (``file_name``: the upload's, if any)."""
    summary = _import(actor=actor, club=club, text=trf_text(text), game=game, name=name,
                      rated=rated, file_name=file_name)
    assert summary.tournament is not None
    return summary.tournament


def trf_import_preview(*, actor: Actor, club: Club, text: str | bytes, game: str = "kazambi",
                       name: str | None = None, rated: bool | None = None) -> TrfImportSummary:
    """Everything :func:`tournament_import_trf` would save, then rolled back: the
    summary of a dry run (its ``tournament`` is None). Raises the import's errors."""
    with transaction.atomic():
        summary = _import(actor=actor, club=club, text=trf_text(text), game=game, name=name,
                          rated=rated)
        transaction.set_rollback(True)
    summary.tournament = None
    return summary


#: A played game as both files and tables can tell it: round, the two players, the winner
#: (None for a draw).
GameFact = tuple[int, frozenset[int], int | None]


def _file_games(trf: Any, people: dict[int, Player]) -> set[GameFact]:
    """The file's played games between players the club already has."""
    games: set[GameFact] = set()
    for player in trf.players:
        for index, block in enumerate(player.rounds):
            mine = people.get(player.start_rank)
            theirs = people.get(block.opponent) if block.opponent else None
            if mine is None or theirs is None or block.result not in "10=WDL":
                continue
            winner = (mine.pk if block.result in "1W" else
                      theirs.pk if block.result in "0L" else None)
            games.add((index + 1, frozenset((mine.pk, theirs.pk)), winner))
    return games


def _same_games(club: Club, games: set[GameFact]) -> tuple[Tournament | None, int]:
    """The club's tournament holding most of ``games`` (as played results), and how many."""
    from tournaments.models import PLAYED_OUTCOMES, Pairing

    ids = {pk for _round, pair, _winner in games for pk in pair}
    if not ids:
        return None, 0
    rows = (Pairing.objects
            .filter(round__tournament__club=club, outcome__in=PLAYED_OUTCOMES,
                    entrant_a__player__in=ids, entrant_b__player__in=ids)
            .values_list("round__tournament_id", "round__number", "entrant_a__player_id",
                         "entrant_b__player_id", "outcome"))
    found: dict[int, int] = {}
    for tournament_id, number, a, b, outcome in rows:
        winner = a if outcome == Outcome.A_WINS else b if outcome == Outcome.B_WINS else None
        if (number, frozenset((a, b)), winner) in games:
            found[tournament_id] = found.get(tournament_id, 0) + 1
    if not found:
        return None, 0
    best = max(found, key=lambda pk: (found[pk], pk))
    return Tournament.objects.get(pk=best), found[best]


def _import(*, actor: Actor, club: Club, text: str, game: str, name: str | None,
            rated: bool | None = None, file_name: str = "") -> TrfImportSummary:
    """The import, its steps summed up in one history line."""
    with summarised():
        summary = _rebuild(actor=actor, club=club, text=text, game=game, name=name,
                           rated=rated)
    assert summary.tournament is not None
    record(summary.tournament, EventKind.TRF_IMPORTED, actor=actor, file=file_name[:200],
           players=len(summary.players), rounds=summary.rounds, results=summary.results)
    return summary


def _rebuild(*, actor: Actor, club: Club, text: str, game: str, name: str | None,
             rated: bool | None = None) -> TrfImportSummary:
    from tournaments.texts import trf_error_message
    from tournaments.trf import TrfError, read_trf, rounds_paired

    ensure_can_manage_club(actor, club)
    try:
        trf = read_trf(text)
        settings = _settings(trf)
        forbidden = trf.forbidden
    except TrfError as error:
        raise ApplicationError(_("Cannot read the TRF file: %(problem)s")
                               % {"problem": trf_error_message(error)}, field="file") from None
    if not trf.players:
        raise ApplicationError(_("The TRF file has no player (001) lines."), field="file")
    title = (name or "").strip() or next(
        (line[4:].strip() for line in trf.header if line.startswith("012")), "")
    paired = rounds_paired(trf)
    planned = max(trf.total_rounds or 0, paired, 1)
    known = {player.start_rank: _club_player(club, player) for player in trf.players}
    games = _file_games(trf, {rank: p for rank, p in known.items() if p is not None})
    same_games_in, same_games = _same_games(club, games)
    played = sum(1 for player in trf.players for block in player.rounds
                 if block.opponent and block.result in "10=WDL") // 2
    repeated = same_games_in is not None and 2 * same_games >= max(played, 1)
    if rated is None:
        rated = not repeated
    same_name = Tournament.objects.filter(
        club=club, name__iexact=" ".join((title or "").split())).order_by("pk").first()
    try:
        tournament = tournament_create(
            actor=actor, club=club, name=title or _("Imported tournament"), game=game,
            format=Format.SWISS, rounds_planned=planned, rated=rated, **settings,
        )
    except (ApplicationError, ValidationError) as error:
        raise ApplicationError(_("The tournament (012, XXR, XXC, 192 and BB lines): "
                                 "%(problem)s") % {"problem": _refusal(error)},
                               field="file") from None
    summary = TrfImportSummary(name=tournament.name, rounds=paired, rounds_planned=planned,
                               tournament=tournament, rated=rated,
                               same_games_in=same_games_in if repeated else None,
                               same_games=same_games if repeated else 0,
                               played_games=played, same_name=same_name)
    entrants: dict[int, Entrant] = {}
    created: dict[str, Player] = {}
    for player in trf.players:
        person_name = _person_name(player)
        person = known[player.start_rank] or created.get(person_name)
        summary.players.append(ImportedPlayer(player.start_rank, person_name, player.rating,
                                              person is None))
        if person is None:
            try:
                person = player_create(actor=actor, display_name=person_name, club=club,
                                       fide_id=player.fide_id, **_categories(player))
                created[person_name] = person
            except (ApplicationError, ValidationError) as error:
                raise ApplicationError(_("%(where)s: %(problem)s") % {
                    "where": _where(player), "problem": _refusal(error)}, field="file") from None
        try:
            entrants[player.start_rank] = entrant_register(
                actor=actor, tournament=tournament, player=person, rating=player.rating or 0)
        except ApplicationError as error:
            raise ApplicationError(_("%(where)s: %(problem)s") % {
                "where": _where(player), "problem": error.message}, field="file") from None
    tournament = tournament_start(
        actor=actor, tournament=tournament,
        seeds={entrant.pk: rank for rank, entrant in entrants.items()})
    for pair in sorted(sorted(pair) for pair in forbidden):
        forbid_pairing(actor=actor, tournament=tournament, entrant_a=entrants[pair[0]],
                       entrant_b=entrants[pair[1]])
    for index in range(paired):
        summary.results += _import_round(actor, tournament, trf.players, entrants, index)
    if paired < planned:
        _import_requested_byes(actor, trf, entrants, paired + 1)
    summary.standings = standings(tournament)["rows"]
    return summary


def _person_name(player: Any) -> str:
    return " ".join(player.name.split()) or _("Player %(rank)d") % {"rank": player.start_rank}


def _club_player(club: Club, player: Any) -> Player | None:
    """The club's person of a 001 line's name, if there is one."""
    return (Player.objects.filter(club=club, display_name=_person_name(player), is_bot=False)
            .order_by("pk").first())


def _settings(trf: Any) -> dict[str, Any]:
    """The tournament's settings from the file: first colour (stated, or as the first
    round's colours show), Baku acceleration and point values."""
    from tournaments.pairing.swiss import WHITE
    from tournaments.trf import TrfError

    if trf.has_virtual_points:
        raise TrfError(N_("virtual points (XXA, 250) are not supported; Baku acceleration "
                          "(192 FIDE_DUTCH_2025_BAKU) is"))
    points = trf.points
    if points.zero_bye != points.loss or points.forfeit_loss != points.loss:
        raise TrfError(N_("a zero-point bye (BBZ) and a forfeit loss (BBF) score as a loss "
                          "(BBL) here"))
    tenth = Decimal("0.1")
    return {
        "first_colour": FirstColour.WHITE if trf.initial_colour == WHITE else FirstColour.BLACK,
        "baku_acceleration": trf.baku,
        "points_win": points.win * tenth, "points_draw": points.draw * tenth,
        "points_loss": points.loss * tenth, "points_bye": points.pab * tenth,
    }


def _import_requested_byes(actor: Actor, trf: Any, entrants: dict[int, Entrant],
                           round_number: int) -> None:
    """Byes entered for the round to pair (its blocks, ``240`` lines) as requested byes."""
    for rank, code in sorted(trf.byes_entered(round_number).items()):
        if rank not in entrants:
            continue
        try:
            bye_request(actor=actor, entrant=entrants[rank], round_number=round_number,
                        kind=_REQUESTED[code])
        except ApplicationError as error:
            raise ApplicationError(_("Round %(round)d, player %(rank)d: %(problem)s") % {
                "round": round_number, "rank": rank, "problem": error.message},
                field="file") from None


def _result(player: Any, block: Any, theirs: Any, index: int) -> Result:
    """A board's result from both players' codes (``player`` moves first)."""
    mine, other = block.result, theirs.result if theirs is not None else " "
    if mine in _PLAYED and other in _PLAYED[mine][4]:
        return _PLAYED[mine][:4]
    if (mine, other) in _UNPLAYED:
        return _UNPLAYED[(mine, other)], 0, 0, 0
    raise ApplicationError(
        _("%(where)s, round %(round)d: result %(mine)r against player %(opponent)d, who has "
          "%(theirs)r: the two do not fit together.") % {
            "where": _where(player), "round": index + 1, "mine": mine,
            "opponent": block.opponent, "theirs": other},
        field="file")


def _import_round(actor: Actor, tournament: Tournament, players: list[Any],
                  entrants: dict[int, Entrant], index: int) -> int:
    """Round ``index + 1``: its boards in the order of the file, then its results."""
    planned: list[PlannedPairing] = []
    results: list[Result] = []
    by_rank = {player.start_rank: player for player in players}
    for player in players:
        block = player.rounds[index] if index < len(player.rounds) else None
        if block is None or block.is_blank:
            continue
        me = entrants[player.start_rank]
        if block.opponent is None:
            if block.result in _BYES:
                planned.append(PlannedPairing(me, None, _BYES[block.result],
                                              outcome=Outcome.BYE))
            continue
        if block.opponent not in entrants:
            raise ApplicationError(
                _("%(where)s, round %(round)d: opponent %(opponent)d has no 001 line.") % {
                    "where": _where(player), "round": index + 1, "opponent": block.opponent},
                field="file")
        first = block.colour == "w" or (block.colour != "b" and
                                        player.start_rank < block.opponent)
        if not first:
            continue
        opponent = by_rank[block.opponent]
        theirs = opponent.rounds[index] if index < len(opponent.rounds) else None
        results.append(_result(player, block, theirs, index))
        planned.append(PlannedPairing(me, entrants[block.opponent]))
    planned.sort(key=lambda p: p.entrant_b is None)  # byes last, as boards go
    try:
        round_ = round_create(actor=actor, tournament=tournament, number=index + 1,
                              planned=planned, release=True)
    except ApplicationError as error:
        raise ApplicationError(_("Round %(round)d: %(problem)s") % {
            "round": index + 1, "problem": error.message}, field="file") from None
    # results go through the result service: each played game is stored (and rated)
    boards = round_.pairings.filter(entrant_b__isnull=False).order_by("board")
    recorded = 0
    for board, (outcome, wins_a, wins_b, draws) in zip(boards, results, strict=True):
        if outcome == Outcome.PENDING:
            continue
        played = outcome in (Outcome.A_WINS, Outcome.B_WINS, Outcome.DRAW)
        try:
            match_result_record(
                actor=actor, pairing=board, expected_version=board.version,
                score=MatchScore(wins_a, wins_b, draws) if played else None,
                outcome=None if played else outcome)
        except ApplicationError as error:
            raise ApplicationError(
                _("Round %(round)d, %(a)s against %(b)s: %(problem)s") % {
                    "round": index + 1, "a": board.entrant_a, "b": board.entrant_b,
                    "problem": error.message}, field="file") from None
        recorded += 1
    return recorded
