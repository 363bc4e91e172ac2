"""Importing a Swiss tournament from a TRF-16 file (players, rounds, results).

The rounds are made by the tournaments service and every result is recorded by the
result service, round by round: a played result stores its game (one game per TRF
result), so the imported tournament's ratings and game counts are those of any other.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from config.errors import ApplicationError
from games.series.format import MatchScore
from matches.services.results import match_result_record
from players.models import Club, Player
from players.permissions import Actor, ensure_can_manage_club
from players.services import player_create
from tournaments.models import ByeKind, Entrant, Format, Outcome, Tournament
from tournaments.services.entrants import entrant_register
from tournaments.services.rounds import PlannedPairing, round_create
from tournaments.services.tournaments import tournament_create, tournament_start

_BYES = {"U": ByeKind.PAIRING_ALLOCATED, "F": ByeKind.FULL_POINT, "H": ByeKind.HALF_POINT,
         "Z": ByeKind.ZERO}
_RESULTS = {  # code of the first mover -> (outcome, wins_a, wins_b, draws)
    "1": (Outcome.A_WINS, 1, 0, 0), "W": (Outcome.A_WINS, 1, 0, 0),
    "0": (Outcome.B_WINS, 0, 1, 0), "L": (Outcome.B_WINS, 0, 1, 0),
    "=": (Outcome.DRAW, 0, 0, 1), "D": (Outcome.DRAW, 0, 0, 1),
    "+": (Outcome.A_FORFEIT_WIN, 0, 0, 0), "-": (Outcome.B_FORFEIT_WIN, 0, 0, 0),
    " ": (Outcome.PENDING, 0, 0, 0),
}


def _file_error(line: int | None, message: str) -> ApplicationError:
    where = f"line {line}: " if line else ""
    return ApplicationError(f"The TRF file is not valid: {where}{message}", field="file")


@transaction.atomic
def tournament_import_trf(
    *, actor: Actor, club: Club, text: str | bytes, game: str = "kazambi",
    name: str | None = None,
) -> Tournament:
    """A running single-game Swiss rebuilt from TRF text (or a file's bytes, in any of the
    encodings pairing programs write); players are found (or created) by name in ``club``.
    Start ranks become seeds. A bad file is an :class:`ApplicationError` naming its line
    (the reader's checks, and the services' refusals), and nothing is saved."""
    from tournaments.trf import TrfError, decode_trf, read_trf, rounds_paired

    ensure_can_manage_club(actor, club)
    if isinstance(text, bytes):
        text = decode_trf(text)
    try:
        trf = read_trf(text)
    except TrfError as error:
        raise ApplicationError(f"Cannot read the TRF file: {error}", field="file") from None
    if not trf.players:
        raise ApplicationError("The TRF file has no player (001) lines.", field="file")
    try:
        return _build(actor, club, trf, game, name, rounds_paired(trf))
    except ValidationError as error:  # a service's model check (the title's length...)
        raise _file_error(None, " ".join(error.messages)) from None


def _build(actor: Actor, club: Club, trf: Any, game: str, name: str | None,
           paired: int) -> Tournament:
    title = name or next((line[4:].strip() for line in trf.header if line.startswith("012")),
                         "Imported tournament")
    tournament = tournament_create(
        actor=actor, club=club, name=title or "Imported tournament", game=game,
        format=Format.SWISS, rounds_planned=max(trf.total_rounds or 0, paired, 1),
    )
    entrants: dict[int, Entrant] = {}
    for player in trf.players:
        name = player.name.strip() or f"Player {player.start_rank}"
        person = Player.objects.filter(club=club, display_name=name, is_bot=False).first()
        if person is None:
            try:
                person = player_create(actor=actor, display_name=name, club=club,
                                       fide_id=player.fide_id)
            except (ApplicationError, ValidationError) as error:
                message = error.message if isinstance(error, ApplicationError) \
                    else " ".join(error.messages)
                raise _file_error(player.line, f"player {player.start_rank} ({name[:40]!r}): "
                                        f"{message}") from None
        entrants[player.start_rank] = entrant_register(
            actor=actor, tournament=tournament, player=person, rating=player.rating or 0)
    tournament = tournament_start(
        actor=actor, tournament=tournament,
        seeds={entrant.pk: rank for rank, entrant in entrants.items()})
    for index in range(paired):
        planned: list[PlannedPairing] = []
        results: list[tuple[str, int, int, int]] = []
        for player in trf.players:
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
                    f"Player {player.start_rank}, round {index + 1}: opponent "
                    f"{block.opponent} has no 001 line.", field="file")
            first = block.colour == "w" or (block.colour != "b" and
                                            player.start_rank < block.opponent)
            if not first:
                continue
            if block.result not in _RESULTS:
                raise ApplicationError(
                    f"Player {player.start_rank}, round {index + 1}: unknown result code "
                    f"{block.result!r}.", field="file")
            planned.append(PlannedPairing(me, entrants[block.opponent]))
            results.append(_RESULTS[block.result])
        planned.sort(key=lambda p: p.entrant_b is None)  # byes last, as boards go
        round_ = round_create(actor=actor, tournament=tournament, number=index + 1,
                              planned=planned)
        # results go through the result service: each played game is stored (and rated)
        boards = round_.pairings.filter(entrant_b__isnull=False).order_by("board")
        for board, (outcome, wins_a, wins_b, draws) in zip(boards, results, strict=True):
            if outcome == Outcome.PENDING:
                continue
            played = outcome in (Outcome.A_WINS, Outcome.B_WINS, Outcome.DRAW)
            match_result_record(
                actor=actor, pairing=board, expected_version=board.version,
                score=MatchScore(wins_a, wins_b, draws) if played else None,
                outcome=None if played else outcome)
    return tournament
