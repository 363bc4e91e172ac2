"""Reads for the calendar feeds, the embeds and the venue screen (released rounds only)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from notices.ics import CalendarEvent
from notices.models import EmbedSettings
from players.models import Player, Team
from tournaments import cache as tournament_cache
from tournaments.lists import alphabetical_pairings
from tournaments.models import Entrant, Outcome, Pairing, Round, Status, Tournament
from tournaments.selectors import match_names

#: A round without a time slot lasts this long in the calendars.
DEFAULT_ROUND_MINUTES = 180
EMBED_KINDS = ("standings", "pairings", "bracket")


def public_tournament(club: str, slug: str) -> Tournament | None:
    return (Tournament.objects.select_related("club").exclude(status=Status.DRAFT)
            .filter(club__slug=club, slug=slug).first())


def embed_origins(tournament: Tournament) -> list[str]:
    row = EmbedSettings.objects.filter(club=tournament.club_id).values_list(
        "origins", flat=True).first()
    return list(row or [])


# -- calendars ---------------------------------------------------------------------------------


def _round_end(round_: Round) -> dt.datetime:
    assert round_.starts_at is not None
    return round_.starts_at + dt.timedelta(minutes=round_.time_slot_minutes
                                           or DEFAULT_ROUND_MINUTES)


def _absolute(name: str, *args: Any) -> str:
    return settings.SITE_URL + reverse(name, args=args)


def tournament_events(tournament: Tournament) -> list[CalendarEvent]:
    """Each released round with a start time."""
    rounds = (Round.objects.released().filter(tournament=tournament, starts_at__isnull=False)
              .order_by("number"))
    return [CalendarEvent(
        uid=f"round-{r.pk}@clubtourney", start=r.starts_at, end=_round_end(r),  # type: ignore[arg-type]
        summary=_("%(tournament)s, round %(number)d") % {"tournament": tournament.name,
                                                          "number": r.number},
        location=tournament.venue,
        url=_absolute("pages:tournament-round", tournament.club.slug, tournament.slug,
                      r.number)) for r in rounds]


def _match_events(entrants: list[Entrant], what: str) -> list[CalendarEvent]:
    """Each released, timed round of ``entrants``' tournaments: their board and opponent."""
    ids = [e.pk for e in entrants]
    pairings = (Pairing.objects.released()
                .filter(Q(entrant_a__in=ids) | Q(entrant_b__in=ids),
                        round__starts_at__isnull=False)
                .select_related("round__tournament__club", "entrant_a__player",
                                "entrant_a__team", "entrant_b__player", "entrant_b__team")
                .order_by("round__starts_at", "round__number"))
    events = []
    for p in pairings:
        tournament = p.round.tournament
        mine_a = p.entrant_a_id in ids
        opponent = p.entrant_b if mine_a else p.entrant_a
        if opponent is None:
            detail = _("bye")
        else:
            detail = _("board %(board)d against %(opponent)s") % {
                "board": p.board, "opponent": opponent.name}
        events.append(CalendarEvent(
            uid=f"pairing-{p.pk}-{what}@clubtourney", start=p.round.starts_at,  # type: ignore[arg-type]
            end=_round_end(p.round),
            summary=_("%(tournament)s, round %(number)d: %(detail)s") % {
                "tournament": tournament.name, "number": p.round.number, "detail": detail},
            location=tournament.venue,
            description=(_("You move first.") if mine_a else _("Your opponent moves first."))
            if opponent is not None else "",
            url=_absolute("pages:tournament-round", tournament.club.slug, tournament.slug,
                          p.round.number)))
    return events


def player_events(player: Player) -> list[CalendarEvent]:
    """The player's own matches, and their teams' (teams they belong to now)."""
    teams = list(Team.objects.filter(memberships__player=player,
                                     memberships__left_on__isnull=True)
                 .values_list("pk", flat=True))
    entrants = list(Entrant.objects.filter(Q(player=player) | Q(team__in=teams))
                    .exclude(tournament__status=Status.DRAFT))
    return _match_events(entrants, f"p{player.pk}")


def team_events(tournament: Tournament, team_id: int) -> list[CalendarEvent] | None:
    entrants = list(tournament.entrants.filter(team=team_id))
    if not entrants:
        return None
    return _match_events(entrants, f"t{team_id}")


# -- the venue screen and the embeds -----------------------------------------------------------


def result_text(pairing: Pairing) -> str:
    outcome = pairing.outcome
    if outcome == Outcome.PENDING:
        return "–"
    if outcome == Outcome.BYE:
        return _("bye")
    if outcome == Outcome.A_FORFEIT_WIN:
        return "+ : −"
    if outcome == Outcome.B_FORFEIT_WIN:
        return "− : +"
    if outcome == Outcome.DOUBLE_FORFEIT:
        return "− : −"
    half = pairing.draws / 2
    return f"{pairing.wins_a + half:g} : {pairing.wins_b + half:g}"


def _names(tournament: Tournament) -> dict[int, str]:
    return {e.pk: e.name for e in tournament.entrants.select_related("player", "team")}


def latest_round(tournament: Tournament) -> Round | None:
    return (Round.objects.released().filter(tournament=tournament)
            .order_by("-number").first())


def board_pairings(tournament: Tournament, round_: Round | None,
                   names: dict[int, str] | None = None) -> list[dict[str, Any]]:
    if round_ is None:
        return []
    names = names if names is not None else _names(tournament)
    return [{"board": p.board, "a": names.get(p.entrant_a_id, ""),
             "b": names.get(p.entrant_b_id, "") if p.entrant_b_id else _("bye"),
             "result": result_text(p), "done": p.outcome != Outcome.PENDING}
            for p in round_.pairings.order_by("board")]


def standings_rows(tournament: Tournament, limit: int | None = None) -> list[dict[str, Any]]:
    rows = tournament_cache.standings(tournament)["rows"]
    return [{"rank": r["rank"], "name": r["name"], "points": f"{float(r['points']):g}"}
            for r in rows[:limit]]


def latest_results(tournament: Tournament, names: dict[int, str],
                   limit: int = 10) -> list[dict[str, Any]]:
    pairings = (Pairing.objects.released().filter(round__tournament=tournament)
                .exclude(outcome__in=[Outcome.PENDING, Outcome.BYE])
                .select_related("round").order_by("-updated_at", "-id")[:limit])
    return [{"round": p.round.number, "board": p.board, "a": names.get(p.entrant_a_id, ""),
             "b": names.get(p.entrant_b_id or 0, ""), "result": result_text(p)}
            for p in pairings]


def bracket_rounds(tournament: Tournament, names: dict[int, str]) -> list[dict[str, Any]]:
    """A knockout's released rounds, match by match (any system: its rounds' boards)."""
    by_round: dict[int, list[dict[str, Any]]] = {}
    labels = match_names(tournament)
    for p in (Pairing.objects.released().filter(round__tournament=tournament)
              .select_related("round").order_by("round__number", "board")):
        by_round.setdefault(p.round.number, []).append({
            "match": labels.get(p.bracket_match, ""), "a": names.get(p.entrant_a_id, ""),
            "b": names.get(p.entrant_b_id, "") if p.entrant_b_id else _("bye"),
            "result": result_text(p),
            "winner": "a" if p.outcome in (Outcome.A_WINS, Outcome.A_FORFEIT_WIN, Outcome.BYE)
            else "b" if p.outcome in (Outcome.B_WINS, Outcome.B_FORFEIT_WIN) else ""})
    return [{"number": n, "matches": m} for n, m in sorted(by_round.items())]


def screen_context(tournament: Tournament) -> dict[str, Any]:
    """The venue screen: the released round's boards by name, the standings and the latest
    results."""
    names = _names(tournament)
    round_ = latest_round(tournament)
    listing = (alphabetical_pairings(tournament, round_.number, public=True)
               if round_ is not None else None)
    rows = []
    for row in (listing or {}).get("rows", []):
        if row["status"] == "absent":
            continue
        rows.append({"name": row["name"], "team": row["team"], "board": row["board"],
                     "opponent": row["opponent"] or (row["bye"] or _("bye")),
                     "moves_first": row["moves_first"]})
    standings = standings_rows(tournament) if not tournament.system.has_bracket else []
    results = latest_results(tournament, names, limit=SCREEN_RESULTS)
    slides: list[dict[str, Any]] = []
    pages = _chunks(rows, SCREEN_NAMES_PER_PAGE)
    for index, page in enumerate(pages, start=1):
        slides.append({"kind": "pairings", "rows": page, "page": index, "pages": len(pages)})
    pages = _chunks(standings, SCREEN_STANDINGS_PER_PAGE)
    for index, page in enumerate(pages, start=1):
        slides.append({"kind": "standings", "rows": page, "page": index, "pages": len(pages)})
    if results:
        slides.append({"kind": "results", "rows": results, "page": 1, "pages": 1})
    return {"tournament": tournament, "round": round_, "slides": slides,
            "updated": timezone.localtime()}


#: What one slide of the venue screen holds (readable across a room at 1920x1080).
SCREEN_NAMES_PER_PAGE = 24
SCREEN_STANDINGS_PER_PAGE = 24
SCREEN_RESULTS = 12


def _chunks(rows: list[dict[str, Any]], size: int) -> list[list[dict[str, Any]]]:
    return [rows[i:i + size] for i in range(0, len(rows), size)]


def embed_context(tournament: Tournament, kind: str) -> dict[str, Any]:
    names = _names(tournament)
    context: dict[str, Any] = {"tournament": tournament, "kind": kind}
    if kind == "standings":
        context["standings"] = standings_rows(tournament)
    elif kind == "pairings":
        round_ = latest_round(tournament)
        context["round"] = round_
        context["pairings"] = board_pairings(tournament, round_, names)
    else:
        context["bracket"] = bracket_rounds(tournament, names)
    return context
