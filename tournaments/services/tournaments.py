"""Creating and configuring tournaments, and moving them through their lifecycle."""

from __future__ import annotations

import logging
from dataclasses import replace
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.bounds import MAX_ENTRANTS, MAX_MATCH_GAMES, MAX_ROUNDS
from core.engine_messages import engine_error_message
from core.errors import ApplicationError
from games.clocks.control import format_clock_text
from games.clocks.errors import ClockError
from games.clocks.setting import format_setting, parse_setting
from games.engines import ENGINE_NAMES, game_facts, get_engine
from games.series.format import MatchFormat, SeriesError
from players.models import Club
from players.permissions import Actor, actor_user, ensure_can_manage_club
from players.services import check_name
from tournaments import adapters
from tournaments.events import TournamentRatedChanged, tournament_rated_changed
from tournaments.history import EventKind, neutral, record
from tournaments.models import (
    EntrantKind,
    FirstColour,
    Format,
    Outcome,
    Pairing,
    Status,
    Tournament,
)
from tournaments.systems import SYSTEMS
from tournaments.texts import format_text

logger = logging.getLogger(__name__)

#: Fields that shape the pairings and scores: frozen once the tournament runs.
STRUCTURAL_FIELDS = frozenset({
    "game", "game_options", "format", "match_format", "points_win", "points_draw",
    "points_loss", "points_bye", "third_place_match", "grand_final_reset", "first_colour",
    "baku_acceleration",
})
EDITABLE_FIELDS = STRUCTURAL_FIELDS | {"name", "tiebreaks", "rated", "clock", "rounds_planned",
                                      "starts_on", "ends_on", "chief_arbiter",
                                      "release_pairings_at_once"}

def default_tiebreaks(format: str) -> list[str]:
    """The default tie-breaks of ``format``'s system (none if unknown)."""
    return list(SYSTEMS[format].default_tiebreaks) if format in SYSTEMS else []


def clock_text_clean(text: str | None, *, field: str = "clock") -> str:
    """The canonical text of a clock setting ("" for none); a clear error naming ``field``."""
    text = (text or "").strip()
    if not text:
        return ""
    try:
        return format_setting(parse_setting(text))
    except ClockError as error:
        try:  # periods with move counts, time odds, per-game settings (the phone clock)
            full = format_clock_text(text)
        except ClockError:
            full = ""
        if full and len(full) <= (Tournament._meta.get_field("clock").max_length or 0):
            return full
        raise ApplicationError(f"{field}: {engine_error_message(error)}", field=field) from None


def lock_tournament(tournament: Tournament) -> Tournament:
    """The tournament row, locked until the transaction ends (serialises its writers).

    Only the tournament's own row (``of=("self",)``): the club comes along unlocked, so
    the tournaments of one club, and the club itself, are written independently."""
    return (Tournament.objects.select_for_update(of=("self",)).select_related("club")
            .get(pk=tournament.pk))


def _unique_slug(club: Club, name: str, exclude: int | None = None) -> str:
    base = slugify(name)[:140] or "tournament"
    others = Tournament.objects.filter(club=club, slug__startswith=base)
    if exclude is not None:
        others = others.exclude(pk=exclude)
    taken = set(others.values_list("slug", flat=True))
    slug, n = base, 2
    while slug in taken:
        slug, n = f"{base}-{n}", n + 1
    return slug


def _entrant_kind(game: str, options: dict[str, Any]) -> str:
    if game_facts(game).players_per_side(options) > 1:
        return EntrantKind.TEAMS
    return EntrantKind.PLAYERS


def _clean_game(tournament: Tournament) -> None:
    if tournament.game not in ENGINE_NAMES:
        raise ApplicationError(
            _("Unknown game %(game)r; choose one of %(games)s.")
            % {"game": tournament.game, "games": ", ".join(ENGINE_NAMES)},
            field="game",
        )
    if not isinstance(tournament.game_options, dict):
        raise ApplicationError(_("Game options must be a JSON object."), field="game_options")
    try:
        options = get_engine(tournament.game).options(**tournament.game_options)
    except ValueError as error:
        raise ApplicationError(engine_error_message(error), field="game_options") from None
    tournament.game_options = options
    tournament.entrant_kind = _entrant_kind(tournament.game, options)


def _clean_match_format(tournament: Tournament) -> None:
    value = tournament.match_format
    try:
        if isinstance(value, str):
            match_format = MatchFormat.parse(value)
        elif not value:
            match_format = MatchFormat()
        else:
            match_format = MatchFormat.from_dict(value)
    except SeriesError as error:
        raise ApplicationError(engine_error_message(error), field="match_format") from None
    tournament.match_format = bounded_match_format(match_format).to_dict()


def bounded_match_format(match_format: MatchFormat) -> MatchFormat:
    """``match_format`` within :data:`MAX_MATCH_GAMES` games: a first-to-N without a cap
    gets that cap; a longer format is refused."""
    longest = match_format.max_games_needed()
    if longest is None and match_format.games <= MAX_MATCH_GAMES:
        return replace(match_format, max_games=MAX_MATCH_GAMES)
    if longest is None or longest > MAX_MATCH_GAMES:
        text = (_("A match has at most %(limit)d games; %(format)s needs more.")
                if longest is None else
                _("A match has at most %(limit)d games; %(format)s can take %(longest)d."))
        raise ApplicationError(
            text % {"limit": MAX_MATCH_GAMES, "format": format_text(match_format),
                    "longest": longest},
            field="match_format",
        )
    return match_format


def max_entrants(tournament: Tournament) -> int:
    """The most entrants ``tournament``'s format takes: :data:`MAX_ENTRANTS`, or as many as
    a round robin plays in :data:`MAX_ROUNDS` rounds."""
    return tournament.system.max_entrants(MAX_ENTRANTS, MAX_ROUNDS)


def check_entrant_count(tournament: Tournament, count: int) -> None:
    """Refuse ``count`` entrants if the tournament's format cannot take them."""
    most = max_entrants(tournament)
    if count > most:
        values = {"format": _(tournament.system.label), "most": most,
                  "rounds": MAX_ROUNDS}
        text = (_("%(format)s takes at most %(most)d entrants (it would need more than "
                  "%(rounds)d rounds).") if tournament.system.rounds_grow_with_entrants else
                _("%(format)s takes at most %(most)d entrants."))
        raise ApplicationError(text % values, field="entrants")


def _clean_points(tournament: Tournament) -> None:
    for name in ("points_win", "points_draw", "points_loss", "points_bye"):
        try:
            value = Decimal(str(getattr(tournament, name)))
        except InvalidOperation:
            raise ApplicationError(_("%(name)s must be a number.") % {"name": name},
                                   field=name) from None
        if value < 0 or value > 100 or value != value.quantize(Decimal("0.01")):
            raise ApplicationError(
                _("%(name)s must be between 0 and 100 with at most two decimals.")
                % {"name": name}, field=name
            )
        setattr(tournament, name, value)
    if not tournament.points_win > 0:
        raise ApplicationError(_("A win must be worth more than nothing."), field="points_win")
    if not tournament.points_win > tournament.points_draw >= tournament.points_loss:
        raise ApplicationError(
            _("Points must satisfy win > draw >= loss."), field="points_draw"
        )


def _clean_tiebreaks(tournament: Tournament) -> None:
    keys = tournament.tiebreaks
    if not isinstance(keys, list) or not all(isinstance(k, str) and k for k in keys):
        raise ApplicationError(_("Tie-breaks must be a list of tie-break keys."),
                               field="tiebreaks")
    if len(set(keys)) != len(keys):
        raise ApplicationError(_("A tie-break is listed twice."), field="tiebreaks")
    known = adapters.tiebreak_keys()
    if known is not None:
        unknown = [key for key in keys if key not in known]
        if unknown:
            raise ApplicationError(
                _("Unknown tie-break %(key)r; choose from %(keys)s.")
                % {"key": unknown[0], "keys": ", ".join(sorted(known))},
                field="tiebreaks",
            )


def _clean_format(tournament: Tournament) -> None:
    if tournament.format not in SYSTEMS:
        raise ApplicationError(
            _("Unknown format %(format)r; choose one of %(formats)s.")
            % {"format": tournament.format, "formats": ", ".join(SYSTEMS)},
            field="format",
        )
    if tournament.third_place_match and not tournament.system.third_place_match:
        raise ApplicationError(
            _("A third-place match exists only in a (single elimination) knockout."),
            field="third_place_match",
        )
    if tournament.rounds_planned is not None and tournament.rounds_planned < 1:
        raise ApplicationError(_("Plan at least one round."), field="rounds_planned")
    if tournament.rounds_planned is not None and tournament.rounds_planned > MAX_ROUNDS:
        raise ApplicationError(_("A tournament has at most %(limit)d rounds.")
                               % {"limit": MAX_ROUNDS}, field="rounds_planned")
    tournament.clock = clock_text_clean(tournament.clock, field="clock")
    tournament.name = (tournament.name or "").strip()
    if not tournament.name:
        raise ApplicationError(_("A tournament needs a name."), field="name")
    if tournament.starts_on and tournament.ends_on and tournament.ends_on < tournament.starts_on:
        raise ApplicationError(_("A tournament ends on or after its start date."),
                               field="ends_on")
    tournament.chief_arbiter = (tournament.chief_arbiter or "").strip()
    if tournament.chief_arbiter:
        check_name(tournament.chief_arbiter, field="chief_arbiter")


def _clean_swiss_settings(tournament: Tournament) -> None:
    if tournament.first_colour not in FirstColour.values:
        raise ApplicationError(
            _("Unknown first colour %(colour)r; choose one of %(colours)s.")
            % {"colour": tournament.first_colour, "colours": ", ".join(FirstColour.values)},
            field="first_colour",
        )
    if not tournament.baku_acceleration:
        return
    if not tournament.system.pairs_by_trf:
        raise ApplicationError(_("Baku acceleration exists only in a Swiss."),
                               field="baku_acceleration")
    if tournament.points_loss != 0 or 2 * tournament.points_draw != tournament.points_win:
        raise ApplicationError(
            _("Baku acceleration needs a loss worth 0 and a draw worth half a win."),
            field="baku_acceleration",
        )


def individual_formats() -> list[tuple[str, Any]]:
    """The format choices of an ordinary tournament (a team format's tournament holds a
    league division's boards and is made by the league)."""
    return [(value, label) for value, label in Format.choices
            if not (value in SYSTEMS and SYSTEMS[value].pairs_teams)]


def ensure_not_team_format(format: str) -> None:
    if format in SYSTEMS and SYSTEMS[format].pairs_teams:
        raise ApplicationError(_("A team format's tournament holds a league division's "
                                 "boards: it is made by the league."), field="format")


def validate_tournament(tournament: Tournament) -> None:
    """Check (and normalise) a tournament's settings; raise :class:`ApplicationError`."""
    check_name(tournament.name, field="name")
    _clean_format(tournament)
    _clean_game(tournament)
    _clean_match_format(tournament)
    _clean_points(tournament)
    _clean_swiss_settings(tournament)
    _clean_tiebreaks(tournament)


def _clean(tournament: Tournament) -> None:
    validate_tournament(tournament)
    tournament.full_clean(exclude=["slug"] if not tournament.slug else None)


@transaction.atomic
def tournament_create(
    *, actor: Actor, club: Club, name: str, game: str, format: str, for_league: bool = False,
    **fields: Any
) -> Tournament:
    """A new tournament in draft; ``fields`` are any of :data:`EDITABLE_FIELDS`.

    Without ``tiebreaks`` (or with ``None``) it gets its format's :func:`default_tiebreaks`;
    an empty list means none. A team format (a league division's board tournament) only
    ``for_league``.
    """
    unknown = set(fields) - EDITABLE_FIELDS
    if unknown:
        raise ApplicationError(_("Unknown field %(name)r.") % {"name": sorted(unknown)[0]},
                               field=sorted(unknown)[0])
    ensure_can_manage_club(actor, club)
    if not for_league:
        ensure_not_team_format(format)
    if fields.get("tiebreaks") is None:
        fields["tiebreaks"] = default_tiebreaks(format)
    tournament = Tournament(club=club, name=name, game=game, format=format,
                            created_by=actor_user(actor))
    for key, value in fields.items():
        setattr(tournament, key, value)
    _clean(tournament)
    tournament.slug = _unique_slug(club, tournament.name)
    tournament.full_clean()
    tournament.save()
    record(tournament, EventKind.TOURNAMENT_CREATED, actor=actor, name=tournament.name,
           game=tournament.game, format=tournament.format)
    return tournament


@transaction.atomic
def tournament_update(*, actor: Actor, tournament: Tournament, **fields: Any) -> Tournament:
    unknown = set(fields) - EDITABLE_FIELDS
    if unknown:
        raise ApplicationError(_("Unknown field %(name)r.") % {"name": sorted(unknown)[0]},
                               field=sorted(unknown)[0])
    ensure_can_manage_club(actor, tournament.club)
    tournament = lock_tournament(tournament)
    if tournament.status == Status.FINISHED:
        raise ApplicationError(_("A finished tournament cannot be changed."), field="status")
    if tournament.status == Status.RUNNING:
        frozen = sorted(
            key for key in STRUCTURAL_FIELDS & set(fields)
            if fields[key] != getattr(tournament, key)
        )
        if frozen:
            raise ApplicationError(
                _("%(field)s cannot change once the tournament is running.")
                % {"field": frozen[0]}, field=frozen[0]
            )
        rounds_paired = tournament.rounds.count()
        planned = fields.get("rounds_planned")
        if planned is not None and planned < rounds_paired:
            raise ApplicationError(
                ngettext("%(count)d round is already paired: plan at least that many.",
                         "%(count)d rounds are already paired: plan at least that many.",
                         rounds_paired) % {"count": rounds_paired},
                field="rounds_planned",
            )
    if "format" in fields and fields["format"] != tournament.format:
        ensure_not_team_format(fields["format"])
        ensure_not_team_format(tournament.format)
    was_rated = tournament.rated
    before = {key: neutral(getattr(tournament, key)) for key in sorted(EDITABLE_FIELDS)}
    for key, value in fields.items():
        setattr(tournament, key, value)
    _clean(tournament)
    tournament.save()
    changes = [{"field": key, "before": before[key], "after": neutral(getattr(tournament, key))}
               for key in sorted(EDITABLE_FIELDS)
               if neutral(getattr(tournament, key)) != before[key]]
    if changes:
        record(tournament, EventKind.SETTINGS_CHANGED, actor=actor, changes=changes)
    if tournament.rated != was_rated and tournament.rounds.exists():
        tournament_rated_changed.send(TournamentRatedChanged(tournament.pk, tournament.rated))
    return tournament


@transaction.atomic
def tournament_open_registration(*, actor: Actor, tournament: Tournament) -> Tournament:
    ensure_can_manage_club(actor, tournament.club)
    tournament = lock_tournament(tournament)
    if tournament.status != Status.DRAFT:
        raise ApplicationError(
            _("Registration opens from a draft; this tournament is %(status)s.")
            % {"status": str(tournament.get_status_display()).lower()},
            field="status",
        )
    tournament.status = Status.REGISTRATION
    tournament.save(update_fields=["status", "updated_at"])
    record(tournament, EventKind.REGISTRATION_OPENED, actor=actor)
    return tournament


@transaction.atomic
def tournament_start(*, actor: Actor, tournament: Tournament,
                     seeds: dict[int, int] | None = None) -> Tournament:
    """Close registration, number the entrants (seeds) and start; pair rounds separately.

    The seeds follow the pairing order (rating, then entry), unless ``seeds`` gives each
    entrant's (by id) number, as an imported tournament does.
    """
    ensure_can_manage_club(actor, tournament.club)
    tournament = lock_tournament(tournament)
    if tournament.status not in (Status.DRAFT, Status.REGISTRATION):
        raise ApplicationError(
            _("Only a tournament in draft or registration can start; this one is "
              "%(status)s.") % {"status": str(tournament.get_status_display()).lower()},
            field="status",
        )
    entrants = [e for e in tournament.entrants.all() if e.withdrawn_from_round is None]
    if len(entrants) < 2:
        raise ApplicationError(_("A tournament needs at least two entrants to start."),
                               field="entrants")
    if tournament.system.needs_rounds_planned and not tournament.rounds_planned:
        raise ApplicationError(
            _("A Swiss tournament needs its number of rounds (rounds_planned)."),
            field="rounds_planned")
    check_entrant_count(tournament, len(entrants))
    if seeds is not None and (set(seeds) != {e.pk for e in entrants}
                              or len(set(seeds.values())) != len(seeds)
                              or min(seeds.values()) < 1):
        raise ApplicationError(_("Give every entrant its own seed, 1 or more."),
                               field="entrants")
    tournament.entrants.update(seed=None)
    ordered = adapters.pairing_order(entrants)
    for seed, entrant in enumerate(ordered, start=1):
        entrant.seed = seeds[entrant.pk] if seeds is not None else seed
    type(ordered[0]).objects.bulk_update(ordered, ["seed"])
    tournament.status = Status.RUNNING
    tournament.save(update_fields=["status", "updated_at"])
    record(tournament, EventKind.TOURNAMENT_STARTED, actor=actor, entrants=len(entrants))
    return tournament


@transaction.atomic
def tournament_reopen(*, actor: Actor, tournament: Tournament, reason: str) -> Tournament:
    """Reopen a finished tournament to correct a result; it runs again until finished
    again. The reason is required and logged (who, when, why)."""
    ensure_can_manage_club(actor, tournament.club)
    reason = (reason or "").strip()
    if "\x00" in reason:
        raise ApplicationError(_("The reason holds a NUL character (\\u0000): remove it."),
                               field="reason")
    tournament = lock_tournament(tournament)
    if tournament.status != Status.FINISHED:
        raise ApplicationError(
            _("Only a finished tournament can be reopened; this one is %(status)s.")
            % {"status": str(tournament.get_status_display()).lower()}, field="status")
    if not reason:
        raise ApplicationError(_("Say why the tournament is reopened (it is logged)."),
                               field="reason")
    tournament.status = Status.RUNNING
    tournament.save(update_fields=["status", "updated_at"])
    record(tournament, EventKind.TOURNAMENT_REOPENED, actor=actor, reason=reason)
    logger.info("tournament %s (%s) reopened by %s: %s", tournament.pk, tournament.name,
                actor, reason)
    return tournament


@transaction.atomic
def tournament_finish(*, actor: Actor, tournament: Tournament) -> Tournament:
    ensure_can_manage_club(actor, tournament.club)
    tournament = lock_tournament(tournament)
    if tournament.status != Status.RUNNING:
        raise ApplicationError(
            _("Only a running tournament can finish; this one is %(status)s.")
            % {"status": str(tournament.get_status_display()).lower()},
            field="status",
        )
    missing = Pairing.objects.filter(round__tournament=tournament, outcome=Outcome.PENDING)
    first = missing.select_related("round").order_by("round__number", "board").first()
    if first is not None:
        count = missing.count()
        raise ApplicationError(
            ngettext("%(count)d result is missing (first: round %(round)d, board %(board)d); "
                     "record it before finishing.",
                     "%(count)d results are missing (first: round %(round)d, board "
                     "%(board)d); record them before finishing.", count) % {
                "count": count, "round": first.round.number, "board": first.board},
            field="status",
        )
    tournament.status = Status.FINISHED
    tournament.save(update_fields=["status", "updated_at"])
    record(tournament, EventKind.TOURNAMENT_FINISHED, actor=actor)
    return tournament
