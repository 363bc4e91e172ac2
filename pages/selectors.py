"""Reads shaped for the public pages: each returns what one template shows.

Business reads come from the apps' own selectors (tournaments.selectors,
ratings.selectors, botruns.selectors); this module only arranges them for
display and adds the drawings (pages.svg).
"""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.db.models import Prefetch, Q, QuerySet
from django.utils import timezone, translation
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext, ngettext, pgettext

from botruns.models import BotRun
from botruns.selectors import bot_run_progress
from games.engines import ENGINE_NAMES, GAME_FAMILY, game_facts
from games.series.format import MatchFormat
from leagues.models import Division
from matches.models import Game
from matches.progress import STEP_TIE_BREAK, MatchProgress, match_progress
from matches.texts import progress_step, progress_text
from pages.svg.bracket import bracket_svg
from players.models import Club, Player
from ratings.models import RATING_FAMILIES, Rating
from signup.models import SignUpSettings
from tournaments import cache as tournament_cache
from tournaments import selectors as tournament_selectors
from tournaments.etags import TournamentState
from tournaments.models import (
    Entrant,
    Outcome,
    Pairing,
    Status,
    Tournament,
    released_filter,
)
from tournaments.selectors import Members, members_by_team

log = logging.getLogger(__name__)

#: The pure drawings and the viewer translate their texts through this (gettext, ngettext).
TEXTS = translation

#: Each game's label in English; :func:`game_name` gives it in the active language (the
#: engines mark the labels for the catalogue).
GAME_NAMES = {name: game_facts(name).label for name in ENGINE_NAMES}
#: A family is named after its game of the same name (all Kazambi forms: "Kazambi").
FAMILY_NAMES = {family: GAME_NAMES.get(family, family) for family in RATING_FAMILIES}


def result_legend(draws: bool = True) -> list[tuple[str, str]]:
    """The result symbols of the crosstable and the round-by-round table, in words (the
    drawn match's only where ``draws`` says a match can end level)."""
    return [
        ("1", gettext("win")), *([("½", gettext("draw"))] if draws else []),
        ("0", gettext("loss")),
        ("+", gettext("win by forfeit")), ("-", gettext("loss by forfeit")),
        ("B", gettext("pairing-allocated bye")), ("F", gettext("full-point bye")),
        ("H", gettext("half-point bye")), ("Z", gettext("zero-point bye")),
    ]


def game_name(game: str) -> str:
    return gettext(GAME_NAMES[game]) if game in GAME_NAMES else game


def family_name(family: str) -> str:
    return gettext(FAMILY_NAMES[family]) if family in FAMILY_NAMES else family


def score_text(wins_a: int, wins_b: int, draws: int = 0) -> str:
    """A match score: ``2–1``, with its draws: ``2–1 (1 drawn)``."""
    score = f"{wins_a}–{wins_b}"
    if not draws:
        return score
    return ngettext("%(score)s (%(draws)d drawn)", "%(score)s (%(draws)d drawn)", draws) % {
        "score": score, "draws": draws}


# -- tournaments -----------------------------------------------------------------------


def tournaments_filtered(game: str = "", status: str = "") -> QuerySet[Tournament]:
    tournaments = tournament_selectors.tournament_list().exclude(status=Status.DRAFT)
    if game in GAME_NAMES:
        tournaments = tournaments.filter(game=game)
    if status in Status.values:
        tournaments = tournaments.filter(status=status)
    return tournaments


def home_lists(limit: int = 8) -> dict[str, list[Tournament]]:
    listed = tournament_selectors.tournament_list()
    return {
        "running": list(listed.filter(status=Status.RUNNING)[:limit]),
        "recent": list(listed.filter(status=Status.FINISHED).order_by("-updated_at")[:limit]),
        "open": list(listed.filter(status=Status.REGISTRATION)[:limit]),
    }


@dataclass
class Side:
    name: str
    player_id: int | None
    entrant_id: int
    won: bool = False
    #: The starting number (seed) and the points when the round began (None: unknown).
    seed: int | None = None
    points: float | None = None
    #: A team entrant: its team (for the link to its page) and its members then.
    team_id: int | None = None
    members: list[Player] = field(default_factory=list)


@dataclass
class PairingRow:
    board: int
    a: Side
    b: Side | None
    score: str
    result: str
    outcome: str
    bracket_match: str
    games: list[dict[str, Any]] = field(default_factory=list)
    slot_scores: tuple[str, str] = ("", "")
    #: Some games come from a typed match score: their order was not recorded.
    order_unknown: bool = False
    #: A knockout match won on the tie-break after a level score: who went through, why.
    tiebreak: str = ""
    #: A match in progress: what happens now ("game 3 playing"), under its running score.
    step: str = ""
    #: A level knockout match waiting for its tie-break.
    level: bool = False
    #: A match in progress: the games recorded so far and the next step, in words.
    progress: str = ""
    #: A knockout match's name ("Final", "Winners' round 1, match 2").
    match_name: str = ""

    @property
    def score_title(self) -> str:
        """The result in words where the score's symbols need it (forfeits)."""
        forfeits = (Outcome.A_FORFEIT_WIN, Outcome.B_FORFEIT_WIN, Outcome.DOUBLE_FORFEIT)
        return self.result if self.outcome in forfeits else ""


@dataclass
class RoundView:
    number: int
    finished: bool
    pairings: list[PairingRow]




def _side(entrant: Entrant | None, won: bool, points: float | None = None,
          members: Members | None = None) -> Side | None:
    if entrant is None:
        return None
    team_members = (members or {}).get(entrant.team_id or 0, [])
    return Side(entrant.name, entrant.player_id, entrant.pk, won, entrant.seed, points,
                entrant.team_id, team_members)




def tiebreak_note(pairing: Pairing, *, knockout: bool, bots: bool) -> str:
    """Who went through a knockout match that ended level, and why; "" otherwise."""
    outcome = pairing.outcome
    if not knockout or outcome not in (Outcome.A_WINS, Outcome.B_WINS) \
            or pairing.wins_a != pairing.wins_b or pairing.entrant_b is None:
        return ""
    winner = pairing.entrant_a if outcome == Outcome.A_WINS else pairing.entrant_b
    values = {"name": winner.name, "score": f"{pairing.wins_a}–{pairing.wins_b}"}
    if bots:
        return gettext("%(name)s went through after %(score)s, as the higher seed: a level "
                       "match between bots goes to the higher seed.") % values
    return gettext("%(name)s went through after %(score)s, on the tie-break the club's rules "
                   "provide (play-off, armageddon or lot).") % values


def _pairing_row(pairing: Pairing, points_before: dict[int, list[float]] | None = None,
                 *, knockout: bool = False, bots: bool = False,
                 fmt: MatchFormat | None = None, match_names: dict[str, str] | None = None,
                 members: Members | None = None) -> PairingRow:
    outcome = Outcome(pairing.outcome)
    a_won = outcome in (Outcome.A_WINS, Outcome.A_FORFEIT_WIN, Outcome.BYE)
    b_won = outcome in (Outcome.B_WINS, Outcome.B_FORFEIT_WIN)
    games = [{"id": g.pk, "number": g.number, "winner_side": g.winner_side,
              "order_recorded": g.order_recorded} for g in pairing.games.all()]
    progress = None
    if outcome in (Outcome.A_WINS, Outcome.B_WINS, Outcome.DRAW):
        score = score_text(pairing.wins_a, pairing.wins_b, pairing.draws)
    elif outcome == Outcome.PENDING:
        score = ""
        if pairing.entrant_b_id:
            progress = match_progress(fmt or MatchFormat(), [g["winner_side"] for g in games],
                                      knockout=knockout)
            score = progress.score
    else:
        score = {Outcome.A_FORFEIT_WIN: "+ / −", Outcome.B_FORFEIT_WIN: "− / +",
                 Outcome.DOUBLE_FORFEIT: "− / −", Outcome.BYE: gettext("bye")}[outcome]
    index = pairing.round.number - 1
    before = points_before or {}

    def points(entrant_id: int | None) -> float | None:
        known = before.get(entrant_id) if entrant_id is not None else None
        return known[index] if known is not None and index < len(known) else None

    side_a = _side(pairing.entrant_a, a_won, points(pairing.entrant_a_id), members)
    assert side_a is not None
    label = str(outcome.label if outcome != Outcome.BYE else pairing.get_bye_kind_display())
    return PairingRow(pairing.board, side_a,
                      _side(pairing.entrant_b, b_won, points(pairing.entrant_b_id), members),
                      score,
                      label, outcome.value, pairing.bracket_match, games,
                      _slot_scores(pairing, progress),
                      order_unknown=len(games) > 1 and any(not g["order_recorded"] for g in games),
                      tiebreak=tiebreak_note(pairing, knockout=knockout, bots=bots),
                      step=progress_step(progress) if progress else "",
                      level=bool(progress and progress.step_template == STEP_TIE_BREAK),
                      progress=progress_text(progress) if progress else "",
                      match_name=(match_names or {}).get(pairing.bracket_match,
                                                         pairing.bracket_match))


def _slot_scores(pairing: Pairing, progress: MatchProgress | None = None) -> tuple[str, str]:
    """Each side's games won (so far, in a match in progress), or + and − for a forfeit
    (for the bracket's boxes)."""
    outcome = pairing.outcome
    if outcome in (Outcome.A_WINS, Outcome.B_WINS, Outcome.DRAW):
        return str(pairing.wins_a), str(pairing.wins_b)
    if progress is not None and progress.games:
        return str(progress.wins_a), str(progress.wins_b)
    if outcome in (Outcome.A_FORFEIT_WIN, Outcome.B_FORFEIT_WIN, Outcome.DOUBLE_FORFEIT):
        return ("+" if outcome == Outcome.A_FORFEIT_WIN else "−",
                "+" if outcome == Outcome.B_FORFEIT_WIN else "−")
    return "", ""


def round_views(tournament: Tournament, numbers: list[int] | None = None,
                members: Members | None = None) -> list[RoundView]:
    """The released rounds (all, or those ``numbers``) with their boards: names (a team's
    with its ``members``), starting numbers, the points each side had when the round began, a
    knockout match's name, scores (so far) and games."""
    rounds = tournament_selectors.round_list(tournament).prefetch_related(
        Prefetch("pairings__games", queryset=Game.objects.only(
            "id", "number", "winner_side", "order_recorded", "pairing_id").order_by("number"))
    ).order_by("number")
    if numbers is not None:
        rounds = rounds.filter(number__in=numbers)
    before = tournament_cache.points_before_rounds(tournament)
    knockout = tournament.system.needs_winner
    bots = knockout and BotRun.objects.filter(tournament=tournament).exists()
    fmt = tournament_selectors.match_format_of(tournament)
    names = tournament_selectors.match_names(tournament)
    views = []
    for r in rounds:
        rows = []
        for p in r.pairings.all():
            p.round = r  # the pairing's round is this one: no query to read its number
            rows.append(_pairing_row(p, before, knockout=knockout, bots=bots, fmt=fmt,
                                     match_names=names, members=members))
        views.append(RoundView(r.number, r.status == "finished", rows))
    return views


@dataclass(frozen=True)
class RoundLink:
    number: int
    finished: bool


def round_links(tournament: Tournament) -> list[RoundLink]:
    """Every released round, first to last, for the round picker."""
    return [RoundLink(number, status == "finished") for number, status in
            tournament_selectors.released_rounds(tournament).order_by("number")
            .values_list("number", "status")]


def team_members(tournament: Tournament, members: Members | None = None
                 ) -> list[dict[str, Any]]:
    """A team event's teams (by starting number) with their members during the event
    (``members``, read when not given)."""
    if tournament.entrant_kind != "teams":
        return []
    if members is None:
        members = members_by_team(tournament)
    entrants = list(tournament.entrants.filter(team__isnull=False).select_related("team")
                    .order_by("seed", "id"))
    return [{"entrant": e, "members": members.get(e.team_id or 0, [])} for e in entrants]


def requested_byes(tournament: Tournament, paired: int) -> list[dict[str, Any]]:
    """Byes entrants asked for in rounds after ``paired`` (the last round paired), by
    round: who and which bye (Swiss only: other formats take no requested byes)."""
    from tournaments.models import RequestedBye

    if not tournament.system.requested_byes:
        return []
    byes = (RequestedBye.objects.filter(entrant__tournament=tournament,
                                        round_number__gt=paired)
            .select_related("entrant__player", "entrant__team")
            .order_by("round_number", "entrant__seed", "entrant_id"))
    rounds: dict[int, list[dict[str, Any]]] = {}
    for bye in byes:
        rounds.setdefault(bye.round_number, []).append(
            {"entrant": bye.entrant, "kind": bye.get_kind_display()})
    return [{"round": number, "byes": listed} for number, listed in rounds.items()]


@dataclass
class TieBreakLegend:
    key: str
    abbreviation: str
    name: str


def tiebreak_legend(keys: list[str]) -> list[TieBreakLegend]:
    from tournaments.standings import get_tiebreak

    legend = []
    for key in keys:
        try:
            tiebreak = get_tiebreak(key)
            legend.append(TieBreakLegend(tiebreak.key, gettext(tiebreak.abbreviation),
                                         gettext(tiebreak.name)))
        except ValueError:
            legend.append(TieBreakLegend(key, key, key))
    return legend


def standings_view(tournament: Tournament, members: Members | None = None) -> dict[str, Any]:
    """Standings rows with tie-break values in the tournament's order (a team's with its
    ``members``), and the legend."""
    table = tournament_cache.standings(tournament)
    legend = tiebreak_legend(list(table.get("tiebreaks") or []))
    entrants = {pk: (player_id, withdrawn, team_id) for pk, player_id, withdrawn, team_id in
                tournament.entrants.values_list("id", "player_id", "withdrawn_from_round",
                                                "team_id")}
    unknown = (None, None, None)
    rows = [
        {**row, "player_id": entrants.get(row["entrant"], unknown)[0],
         "withdrawn_from": entrants.get(row["entrant"], unknown)[1],
         "team_id": entrants.get(row["entrant"], unknown)[2],
         "members": (members or {}).get(entrants.get(row["entrant"], unknown)[2] or 0, []),
         "tiebreak_values": [row["tiebreaks"].get(item.key) for item in legend]}
        for row in table["rows"]
    ]
    return {"after_round": table["after_round"], "legend": legend, "rows": rows,
            "bracket": table.get("bracket")}


@dataclass
class BracketSlot:
    """One side of a match in the bracket's list: an entrant, or where one comes from."""

    name: str
    seed: int | None = None
    score: str = ""
    won: bool = False
    player_id: int | None = None
    team_id: int | None = None
    #: Nobody known yet: ``name`` says where the entrant comes from.
    open: bool = False


@dataclass
class BracketListMatch:
    name: str
    slots: tuple[BracketSlot, BracketSlot]
    #: A match in progress: what happens now.
    note: str = ""
    #: The match that crowned the champion.
    final: bool = False


@dataclass
class BracketListRound:
    """The matches of one round (``number``), or those still to come (``number`` None)."""

    number: int | None
    matches: list[BracketListMatch]


@dataclass
class BracketView:
    """The bracket drawn (SVG, scrolls sideways on a phone) and as a list by round, the
    latest first under the champion (what a phone shows first)."""

    svg: str
    champion: BracketSlot | None
    rounds: list[BracketListRound]


#: The list's order of a round's matches: the grand final and its reset, the (winners')
#: final rounds, the third-place match, the losers' bracket.
_BRACKET_ORDER = {"GF": 0, "W": 1, "3rd": 2, "L": 3}


def bracket_view(tournament: Tournament, bracket: dict[str, Any],
                 rounds: list[RoundView]) -> BracketView:
    """The bracket with names, match names and the games won in each decided match: the
    SVG drawing and the list by round."""
    entrants = list(tournament.entrants.select_related("player", "team"))
    seed_of = {e.pk: e.seed for e in entrants if e.seed is not None}
    by_seed = {int(e.seed): e for e in entrants if e.seed is not None}
    names = {seed: e.name for seed, e in by_seed.items()}
    labels = tournament_selectors.match_names(tournament)
    first_slot = {m["id"]: (m.get("entrants") or [None])[0] for m in bracket.get("matches", [])}
    scores: dict[str, tuple[str, str]] = {}
    notes: dict[str, str] = {}
    played_in: dict[str, int] = {}
    for round_view in rounds:
        for row in round_view.pairings:
            if row.bracket_match:
                played_in[row.bracket_match] = round_view.number
            if row.bracket_match and row.step:  # a match in progress
                notes[row.bracket_match] = (gettext("tie-break to come") if row.level
                                            else row.step)
            if not row.bracket_match or row.b is None or row.slot_scores == ("", ""):
                continue
            a_first = first_slot.get(row.bracket_match) in (None, seed_of.get(row.a.entrant_id))
            slot_scores = row.slot_scores
            if row.tiebreak:  # the side that went through on the tie-break gets a star
                won_a = row.a.won
                slot_scores = (slot_scores[0] + ("*" if won_a else ""),
                               slot_scores[1] + ("" if won_a else "*"))
            scores[row.bracket_match] = slot_scores if a_first else slot_scores[::-1]
    title = gettext("%(tournament)s: bracket") % {"tournament": tournament.name}
    svg = bracket_svg(bracket, names, scores, title=title, notes=notes, labels=labels,
                      texts=TEXTS)

    def slot(match: dict[str, Any], index: int) -> BracketSlot:
        seed = (match.get("entrants") or [None, None])[index]
        if seed is None or seed not in by_seed:
            source = (match.get("slots") or [{}, {}])[index]
            where = labels.get(source.get("match", ""), source.get("match", ""))
            text = (gettext("Winner of %(match)s") if source.get("from") == "winner"
                    else gettext("Loser of %(match)s") if source.get("from") == "loser"
                    else gettext("to be decided")) % {"match": where}
            return BracketSlot(text, open=True)
        entrant = by_seed[seed]
        score = scores.get(match["id"], ("", ""))[index]
        return BracketSlot(entrant.name, seed, score,
                           match.get("status") == "done" and match.get("winner") == seed,
                           entrant.player_id, entrant.team_id)

    champion_seed = bracket.get("champion")
    champion_match = next((m["id"] for m in reversed(bracket.get("matches", []))
                           if champion_seed and m.get("status") == "done"
                           and m.get("winner") == champion_seed), None)
    grouped: dict[int | None, list[dict[str, Any]]] = {}
    for match in bracket.get("matches", []):
        if match.get("status") in ("bye", "void"):
            continue  # decided without play, or a reset not needed
        grouped.setdefault(played_in.get(match["id"]), []).append(match)
    listed = []
    for number in sorted(grouped, key=lambda n: -1 if n is None else -n):
        matches = sorted(grouped[number], key=lambda m: (
            _BRACKET_ORDER.get(m["bracket"], 9), -int(m["round"]), int(m.get("index", 0))))
        listed.append(BracketListRound(number, [
            BracketListMatch(labels.get(m["id"], m["id"]), (slot(m, 0), slot(m, 1)),
                             notes.get(m["id"], ""), m["id"] == champion_match)
            for m in matches]))
    champion = None
    if isinstance(champion_seed, int) and champion_seed in by_seed:
        winner = by_seed[champion_seed]
        champion = BracketSlot(winner.name, champion_seed, won=True,
                               player_id=winner.player_id, team_id=winner.team_id)
    return BracketView(svg, champion, listed)


def tables_view(tournament: Tournament) -> dict[str, Any]:
    """The system's table: a crosstable (round robins) or round-by-round table (Swiss);
    empty for a bracket."""
    kind = tournament.system.table_kind
    if kind == "crosstable":
        return {"crosstable": tournament_cache.crosstable(tournament)}
    if kind == "round_by_round":
        return {"round_by_round": tournament_cache.round_by_round(tournament)}
    return {}


@dataclass(frozen=True)
class PageState:
    """A published tournament's state, read in one light query: enough to answer a poll
    from the cache without loading the tournament."""

    state: TournamentState
    #: Bots are playing: the page shows their figures, which change by the second.
    live: bool
    #: Its public sign-up takes entries now (the page links to it).
    signup_open: bool = False


#: The page state's query, written once: built by the ORM on every request it cost three
#: times the round trip (``bench/bench_freshness.py``). Names from the models' metadata.
_STATE_SQL = (
    "SELECT t.id, t.version, t.updated_at, r.status, c.name, t.status, "  # nosec B608
    "s.is_open, s.opens_at, s.closes_at "
    f"FROM {Tournament._meta.db_table} t JOIN {Club._meta.db_table} c ON c.id = t.club_id "
    f"LEFT JOIN {BotRun._meta.db_table} r ON r.tournament_id = t.id "
    f"LEFT JOIN {SignUpSettings._meta.db_table} s ON s.tournament_id = t.id "
    "WHERE c.slug = %s AND t.slug = %s AND t.status <> %s LIMIT 1")


def page_state(club_slug: str, slug: str) -> PageState | None:
    """The published tournament's state, or None: one light query on every request, so a
    reader that starts after a write commits sees its version (``tournaments.freshness``)
    and the host club's name and slug."""
    with connection.cursor() as cursor:
        cursor.execute(_STATE_SQL, [club_slug, slug, Status.DRAFT.value])
        row = cursor.fetchone()
    if row is None:
        return None
    pk, version, updated_at, run_status, club_name, status, *signup = row
    if isinstance(updated_at, str):  # SQLite
        updated_at = parse_datetime(updated_at)
    if timezone.is_naive(updated_at):
        updated_at = timezone.make_aware(updated_at, dt.UTC)
    return PageState(TournamentState(pk, version, updated_at.isoformat(),
                                     host=f"{club_slug}\n{club_name}"),
                     live=run_status == "running",
                     signup_open=status == Status.REGISTRATION and _signup_open(*signup))


def _signup_open(is_open: Any, opens_at: Any, closes_at: Any) -> bool:
    """The sign-up's window from the page state's row (SQLite gives texts)."""
    if not is_open:
        return False
    now = timezone.now()
    opens, closes = (parse_datetime(v) if isinstance(v, str) else v for v in (opens_at, closes_at))
    opens, closes = (timezone.make_aware(v, dt.UTC) if v is not None and timezone.is_naive(v)
                     else v for v in (opens, closes))
    return (opens is None or opens <= now) and (closes is None or now < closes)


def league_part(tournament: Tournament) -> dict[str, Any] | None:
    """The league division whose board games ``tournament`` holds, or None (one query;
    a league row renamed bumps the board tournament's version: ``leagues.freshness``)."""
    row = (Division.objects.filter(tournament=tournament)
           .values("name", "season__number", "season__name", "season__league__name",
                   "season__league__slug").first())
    if row is None:
        return None
    return {"division": row["name"], "season_number": row["season__number"],
            "league": f"{row['season__league__name']}, {row['season__name']}",
            "league_slug": row["season__league__slug"]}


def live_progress(tournament: Tournament) -> dict[str, Any] | None:
    """A bot run's progress (games done and total, rate, time left), or None.

    The run comes with the tournament when it was loaded with ``select_related("bot_run")``.
    """
    try:
        run = tournament.bot_run
    except BotRun.DoesNotExist:
        return None
    progress = bot_run_progress(run).as_dict()
    total = max(progress["games_total"], 1)
    progress["percent"] = round(100 * progress["games_done"] / total, 1)
    progress["message"] = run.message
    progress["tournament_status"] = tournament.status
    progress["status_label"] = run_state_label(str(progress.get("status", "")))
    return progress


#: The tabs of a tournament's pages: the overview, one round, the table, the hall's lists.
OVERVIEW, ROUND, TABLE, LISTS = "overview", "round", "table", "lists"


def tournament_tabs(tournament: Tournament, rounds: list[RoundLink]) -> list[dict[str, Any]]:
    """The tabs a tournament has: the overview always, rounds once one is paired, the
    system's table (crosstable, round by round) once one is paired, the lists always."""
    system = tournament.system
    tabs: list[dict[str, Any]] = [{"tab": OVERVIEW, "label": gettext(system.overview_label)}]
    if rounds:
        tabs.append({"tab": ROUND, "label": gettext("Rounds"), "number": rounds[-1].number})
        if system.has_table:
            tabs.append({"tab": TABLE, "label": gettext(system.table_label)})
    tabs.append({"tab": LISTS, "label": gettext("Lists")})
    return tabs


def has_table(tournament: Tournament) -> bool:
    return tournament.system.has_table


def _page_context(tournament: Tournament, tab: str,
                  rounds: list[RoundLink]) -> dict[str, Any]:
    return {"tournament": tournament, "tab": tab, "round_links": rounds,
            "tabs": tournament_tabs(tournament, rounds),
            "game_label": game_name(tournament.game), "result_legend": result_legend(
                tournament_selectors.matches_can_be_drawn(tournament))}


def tournament_overview(tournament: Tournament) -> dict[str, Any]:
    """The overview tab: standings (or the bracket and placings), the round being played
    (or the last one), requested byes and teams."""
    links = round_links(tournament)
    members = members_by_team(tournament)
    if tournament.system.has_bracket:  # the bracket's boxes need every round's scores
        rounds = round_views(tournament, members=members)
    else:
        rounds = round_views(tournament, [links[-1].number], members) if links else []
    context = _page_context(tournament, OVERVIEW, links)
    context.update({"round": rounds[-1] if rounds else None,
                    "teams": team_members(tournament, members),
                    "requested_byes": requested_byes(
                        tournament, links[-1].number if links else 0),
                    "tiebreaks_decided": [row for round_view in rounds
                                          for row in round_view.pairings if row.tiebreak]})
    try:
        standings = standings_view(tournament, members)
        context["standings"] = standings
        if standings.get("bracket"):
            context["bracket"] = bracket_view(tournament, standings["bracket"], rounds)
    except ValueError as error:  # pairing and standings errors are ValueErrors
        log.warning("standings of %s could not be computed: %s", tournament, error)
        context["standings_error"] = str(error)
    return context


def tournament_round(tournament: Tournament, number: int) -> dict[str, Any] | None:
    """The rounds tab: round ``number``'s boards; None when there is no such round."""
    links = round_links(tournament)
    if number not in {link.number for link in links}:
        return None
    context = _page_context(tournament, ROUND, links)
    context["round"] = round_views(tournament, [number], members_by_team(tournament))[0]
    context["pairing_facts"] = tournament_selectors.pairing_facts(tournament)
    return context


def tournament_table(tournament: Tournament) -> dict[str, Any] | None:
    """The table tab: the crosstable (round robins) or round-by-round table (Swiss), with
    the standings' starting numbers; None for a format without one."""
    if not has_table(tournament):
        return None
    context = _page_context(tournament, TABLE, round_links(tournament))
    context["rbr_texts"] = round_by_round_texts()
    try:
        context.update(tables_view(tournament))
    except ValueError as error:
        log.warning("tables of %s could not be computed: %s", tournament, error)
        context["standings_error"] = str(error)
    return context


# -- teams -----------------------------------------------------------------------------


@dataclass
class TeamMatch:
    """One of a team's matches from its side: the round, the opponent, the result."""

    round: int
    board: int
    match_name: str
    opponent: Entrant | None
    result: str
    won: bool
    score: str
    #: The games with the result from the team's side (win, loss, draw).
    games: list[dict[str, Any]]


def team_page(tournament: Tournament, team_id: int) -> dict[str, Any] | None:
    """A team's page in a tournament: its members during the event, its place, and its
    matches and games in the released rounds; None when the team is not entered."""
    entrant = (tournament.entrants.select_related("team").filter(team_id=team_id).first())
    if entrant is None or entrant.team is None:
        return None
    members = members_by_team(tournament)
    names = tournament_selectors.match_names(tournament)
    # Public pages show released rounds only (Round.released_at set by the release).
    pairings = (tournament_selectors.pairing_list()
                .filter(released_filter("round__"), round__tournament=tournament)
                .filter(Q(entrant_a=entrant) | Q(entrant_b=entrant))
                .prefetch_related(Prefetch("games", queryset=Game.objects.only(
                    "id", "number", "winner_side", "order_recorded", "pairing_id")
                    .order_by("number")))
                .order_by("round__number", "board"))
    matches = []
    for pairing in pairings:
        side = "a" if pairing.entrant_a_id == entrant.pk else "b"
        index = 0 if side == "a" else 1
        outcome = Outcome(pairing.outcome)
        own, other = (pairing.wins_a, pairing.wins_b) if side == "a" else \
            (pairing.wins_b, pairing.wins_a)
        if outcome == Outcome.PENDING:
            result = pgettext("a match", "to be played")
        elif outcome == Outcome.BYE:
            result = pairing.get_bye_kind_display() or gettext("bye")
        else:
            result = _match_result(outcome, side)
        played = outcome in (Outcome.A_WINS, Outcome.B_WINS, Outcome.DRAW)
        games = []
        for game in pairing.games.all():
            game_result = ("draw" if game.winner_side is None
                           else "win" if game.winner_side == index else "loss")
            games.append({"id": game.pk, "number": game.number, "result": game_result,
                          "result_label": game_result_label(game_result),
                          "order_recorded": game.order_recorded})
        matches.append(TeamMatch(
            pairing.round.number, pairing.board,
            names.get(pairing.bracket_match, pairing.bracket_match),
            pairing.entrant_b if side == "a" else pairing.entrant_a, result,
            _match_won(outcome, side) or outcome == Outcome.BYE,
            score_text(own, other, pairing.draws) if played else "", games))
    try:
        row = next((r for r in tournament_cache.standings(tournament)["rows"]
                    if r["entrant"] == entrant.pk), None)
    except ValueError:  # pairing and standings errors are ValueErrors
        row = None
    return {"tournament": tournament, "entrant": entrant, "team": entrant.team,
            "members": members.get(team_id, []), "matches": matches, "standing": row,
            "game_label": game_name(tournament.game)}


# -- players ---------------------------------------------------------------------------


def player_games(player: Player, limit: int = 20) -> list[dict[str, Any]]:
    """The player's latest games, newest first, with the opponent and the outcome."""
    entries = Entrant.objects.filter(Q(player=player) | Q(team__memberships__player=player))
    entrant_ids = set(entries.values_list("id", flat=True))
    games = (
        Game.objects.filter(Q(pairing__entrant_a_id__in=entrant_ids)
                            | Q(pairing__entrant_b_id__in=entrant_ids))
        .select_related("pairing__round__tournament__club", "pairing__entrant_a__player",
                        "pairing__entrant_a__team", "pairing__entrant_b__player",
                        "pairing__entrant_b__team")
        .order_by("-played_at", "-id")[:limit]
    )
    rows = []
    for game in games:
        pairing = game.pairing
        side = 0 if pairing.entrant_a_id in entrant_ids else 1
        opponent = pairing.entrant_b if side == 0 else pairing.entrant_a
        result = "draw" if game.winner_side is None else (
            "win" if game.winner_side == side else "loss")
        label = game_result_label(result)
        rows.append({"game": game, "tournament": pairing.round.tournament,
                     "round": pairing.round.number, "opponent": opponent, "result": result,
                     "result_label": label,
                     "game_label": game_name(game.game)})
    return rows


def game_result_label(result: str) -> str:
    """A game's result ("win", "draw", "loss") from one side, in words."""
    return {"draw": pgettext("a game", "draw"), "win": pgettext("a game", "win"),
            "loss": pgettext("a game", "loss")}[result]


def _match_won(outcome: Outcome, side: str) -> bool:
    if outcome in (Outcome.DRAW, Outcome.DOUBLE_FORFEIT):
        return False
    return side == ("a" if outcome in (Outcome.A_WINS, Outcome.A_FORFEIT_WIN) else "b")


def _match_result(outcome: Outcome, side: str) -> str:
    """A finished match from one side ("a" or "b"): what happened to that side, in words."""
    if outcome == Outcome.DRAW:
        return pgettext("a match", "drew")
    if outcome == Outcome.DOUBLE_FORFEIT:
        return pgettext("a match", "lost by forfeit")
    forfeit = outcome in (Outcome.A_FORFEIT_WIN, Outcome.B_FORFEIT_WIN)
    if _match_won(outcome, side):
        return pgettext("a match", "won by forfeit") if forfeit else pgettext("a match", "won")
    return pgettext("a match", "lost by forfeit") if forfeit else pgettext("a match", "lost")


def player_matches(player: Player, limit: int = 15) -> list[dict[str, Any]]:
    """The player's latest finished matches, from their side: the result in words, the
    score with their games first, the opponent, the tournament and round."""
    entrant_ids = set(Entrant.objects.filter(
        Q(player=player) | Q(team__memberships__player=player)).values_list("id", flat=True))
    pairings = (
        tournament_selectors.pairing_list()
        .filter(Q(entrant_a_id__in=entrant_ids) | Q(entrant_b_id__in=entrant_ids))
        .exclude(outcome=Outcome.PENDING)
        .order_by("-updated_at", "-id")[:limit]
    )
    rows = []
    for pairing in pairings:
        side = "a" if pairing.entrant_a_id in entrant_ids else "b"
        outcome = Outcome(pairing.outcome)
        own, other = (pairing.wins_a, pairing.wins_b) if side == "a" else \
            (pairing.wins_b, pairing.wins_a)
        played = outcome in (Outcome.A_WINS, Outcome.B_WINS, Outcome.DRAW)
        result = (pairing.get_bye_kind_display() or gettext("bye")) if outcome == Outcome.BYE \
            else _match_result(outcome, side)
        rows.append({
            "pairing": pairing, "tournament": pairing.round.tournament,
            "round": pairing.round.number, "result": result,
            "won": _match_won(outcome, side) or outcome == Outcome.BYE,
            "score": score_text(own, other, pairing.draws) if played else "",
            "opponent": pairing.entrant_b if side == "a" else pairing.entrant_a,
        })
    return rows


def player_ratings(player: Player) -> list[dict[str, Any]]:
    """Current ratings per pool with a chart of the history, best known families first."""
    from pages.svg.rating_chart import RatingPoint, rating_chart_svg
    from ratings.selectors import rating_history

    ratings = list(Rating.objects.filter(player=player).select_related("club")
                   .order_by("family", "club__name"))
    views = []
    for index, rating in enumerate(ratings):
        changes = rating_history(player, rating.family, rating.club_id)
        points = [RatingPoint(c.played_at, c.rating_after, c.rd_after) for c in changes]
        title = gettext("%(player)s: %(family)s rating in %(club)s") % {
            "player": player.display_name, "family": family_name(rating.family),
            "club": rating.club.name}
        chart = rating_chart_svg(points, title=title, id_prefix=f"rating{index}", texts=TEXTS)
        views.append({"rating": rating, "family_label": family_name(rating.family),
                      "chart": chart, "changes": len(points)})
    return views


# -- leaderboards ----------------------------------------------------------------------


def leaderboard_clubs(family: str) -> list[Club]:
    return list(Club.objects.filter(ratings__family=family).distinct().order_by("name"))


def families() -> list[tuple[str, str]]:
    return [(family, family_name(family)) for family in RATING_FAMILIES]


def family_of(game: str) -> str:
    return GAME_FAMILY.get(game, game)


# -- languages -------------------------------------------------------------------------


def preferred_language(user: Any) -> str | None:
    """The language a signed-in user chose with the switch, or None."""
    from pages.models import LanguagePreference

    if not getattr(user, "pk", None):
        return None
    return (LanguagePreference.objects.filter(user_id=user.pk)
            .values_list("language", flat=True).first())


# -- texts for the pages' scripts --------------------------------------------------------


def round_by_round_texts() -> dict[str, Any]:
    """What table.js says about a round-by-round cell, in the active language."""
    return {
        "results": {"1": pgettext("a game", "won"), "½": pgettext("a game", "drew"),
                    "0": pgettext("a game", "lost"), "+": gettext("won by forfeit"),
                    "-": gettext("lost by forfeit"), "B": gettext("pairing-allocated bye"),
                    "F": gettext("full-point bye"), "H": gettext("half-point bye"),
                    "Z": gettext("zero-point bye")},
        "cell": gettext("{who}, round {round}: {text}; {running} after it."),
        "opponent": gettext("{result} against {name} (No. {number})"),
        "opponent_unnamed": gettext("{result} against No. {number}"),
        "moved_first": gettext("{text}, moved first"),
        "moved_second": gettext("{text}, moved second"),
        "first_letter": pgettext("moved first, one letter", "f"),
        "second_letter": pgettext("moved second, one letter", "s"),
    }


def live_texts() -> str:
    """What live.js writes on a tournament's page, in the active language (JSON)."""
    import json

    from botruns.models import BotRunStatus

    return json.dumps({
        "updated": gettext("Updated at {time}."),
        "updated_over": gettext("Updated at {time}: the tournament is over."),
        "run_state": gettext("The run is {status}."),
        "hours": gettext("{h} h {m} min"), "minutes": gettext("{m} min {s} s"),
        "seconds": gettext("{s} s"),
        "statuses": {value: str(run_state_label(value)) for value in BotRunStatus.values},
        "tournament_statuses": {value: str(label) for value, label in Status.choices},
    }, ensure_ascii=False)


def run_state_label(status: str) -> str:
    """A bot run's state as the sentence "The run is …" needs it."""
    labels = {"running": pgettext("bot run", "running"),
              "finished": pgettext("bot run", "finished"),
              "failed": pgettext("bot run", "failed")}
    return labels.get(status, status)
