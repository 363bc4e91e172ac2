"""A small club with finished and running bot tournaments, for the page tests.

Built through the services (tournament_create, bot runs played inline), so the pages see
what a real club would: game records, brackets, standings and ratings.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model

from botruns import services as bot_tournaments
from matches import services as match_services
from matches.models import Game
from players.models import Club, Player
from tests.worlds import people, tournament_of
from tournaments import services
from tournaments.models import Tournament


@dataclass
class ClubData:
    club: Club
    round_robin: Tournament
    knockout: Tournament
    swiss: Tournament
    running: Tournament | None
    #: A team event (Kazambi pairs) with a round played, and a club night whose first
    #: round is paired and waits for its results (entered by people, not bots).
    teams: Tournament | None = None
    club_night: Tournament | None = None
    organizer: Any = None
    #: A Swiss of people on a results night: three rounds played, round 4 half entered
    #: (matches in progress among them), a withdrawal and a requested bye.
    results_night: Tournament | None = None

    def game_of(self, tournament: Tournament, game: str | None = None) -> Game:
        games = Game.objects.filter(pairing__round__tournament=tournament, record__isnull=False)
        if game:
            games = games.filter(game=game)
        found = games.order_by("id").first()
        assert found is not None, f"no recorded game in {tournament}"
        return found


def _bots(club: Club, count: int, prefix: str, kind: str = "random") -> list[Player]:
    return people(club, (f"{prefix} {index + 1}" for index in range(count)), is_bot=True,
                  bot_kind=kind)


def _event(organizer: Any, club: Club, name: str, game: str, format: str,
           players: list[Player], **fields: Any) -> Tournament:
    return tournament_of(organizer, club, players, name=name, game=game, format=format,
                         top_rating=1800, **fields)


def _play(organizer: Any, tournament: Tournament, seed: int, games: int | None = None) -> None:
    run = bot_tournaments.bot_tournament_start(actor=organizer, tournament=tournament,
                                               seed=seed, inline=True)
    if games is None:
        bot_tournaments.bot_run_inline(run)
        return
    from botruns.models import BotGameTask

    for task in BotGameTask.objects.filter(run=run, done_at=None).order_by("id")[:games]:
        bot_tournaments.bot_game_play(task.pairing_id, task.number)


def build_club(*, running: bool = False) -> ClubData:
    organizer = get_user_model().objects.create_user("organizer", password="organizer-pw")
    club = Club.objects.create(name="Riverside Games Club", slug="riverside")
    club.organizers.add(organizer)
    single = {"kind": "single", "games": 1}
    round_robin = _event(organizer, club, "Kugamai Spring Round Robin",
                         "kugamai", "round_robin", _bots(club, 4, "Kugamai Bot"),
                         match_format={"kind": "best_of", "games": 3},
                         tiebreaks=["sonneborn_berger", "wins"])
    _play(organizer, round_robin, seed=11)
    knockout = _event(organizer, club, "Kazambi Double Elimination Cup",
                      "kazambi", "double_elimination", _bots(club, 6, "Kazambi Bot"),
                      match_format=single)
    _play(organizer, knockout, seed=5)
    swiss = _event(organizer, club, "Stolbiki Swiss Open", "stolbiki",
                   "swiss", _bots(club, 6, "Stolbiki Bot"), match_format=single,
                   game_options={"team_size": 1},
                   rounds_planned=3, tiebreaks=["buchholz_cut1", "buchholz", "wins"])
    _play(organizer, swiss, seed=3)
    live = None
    if running:
        live = _event(organizer, club, "Kugamai Night Bots", "kugamai",
                      "round_robin", _bots(club, 4, "Night Bot"),
                      match_format={"kind": "best_of", "games": 3})
        _play(organizer, live, seed=9, games=2)
    teams = _team_event(organizer, club)
    night = _event(organizer, club, "Kugamai Club Night", "kugamai", "round_robin",
                   _people(club, 4, "Night Owl"), match_format={"kind": "single", "games": 1})
    night = services.tournament_start(actor=organizer, tournament=night)
    services.round_pair_next(actor=organizer, tournament=night, release=True)
    results_night = _results_night(organizer, club)
    for tournament in (round_robin, knockout, swiss, teams, night):
        tournament.refresh_from_db()
    return ClubData(club, round_robin, knockout, swiss, live, teams, night, organizer,
                    results_night)


#: Names as long as real ones get, to see how tables wrap on a phone.
NIGHT_NAMES = [
    "Aleksandra Wiśniewska-Kowalczyk", "Bo Li", "Carlos Eduardo Mendes", "Dana Okafor",
    "Émilie Fontaine", "Farid Haddad", "Grete Johansson", "Hiroshi Tanaka",
    "Ines Carvalho", "Jan de Vries", "Kwame Mensah", "Lena Hoffmann", "Mateo Rossi",
    "Nadia Petrova", "Oskar Nilsson", "Priya Raghunathan", "Quentin Marchand",
    "Rosa Jiménez", "Sven Andersen", "Tomasz Zieliński",
]


def _results_night(organizer: Any, club: Club) -> Tournament:
    from games.series.format import MatchScore
    from matches.services.games import game_entry_record

    players = [Player.objects.create(display_name=name, club=club) for name in NIGHT_NAMES]
    event = _event(organizer, club, "Kugamai Thursday Swiss", "kugamai", "swiss", players,
                   match_format={"kind": "best_of", "games": 3}, rounds_planned=5,
                   tiebreaks=["buchholz_cut1", "buchholz", "sonneborn_berger", "wins"])
    event = services.tournament_start(actor=organizer, tournament=event)
    scores = [MatchScore(2, 0, 0), MatchScore(2, 1, 0), MatchScore(1, 2, 0), MatchScore(0, 2, 0)]
    for number in range(1, 5):
        round_ = services.round_pair_next(actor=organizer, tournament=event, release=True)
        boards = list(round_.pairings.exclude(entrant_b=None).order_by("board"))
        for index, pairing in enumerate(boards):
            if number == 4 and index >= len(boards) // 2:
                # the rest of round 4 is being played: a game or two in, or none yet
                results = [["a"], ["b", "a"], []][index % 3]
                for result in results:
                    pairing.refresh_from_db()
                    game_entry_record(actor=organizer, pairing=pairing, result=result,
                                      expected_version=pairing.version)
                continue
            match_services.match_result_record(
                actor=organizer, pairing=pairing, score=scores[(index + number) % 4],
                expected_version=pairing.version)
    entrants = list(event.entrants.order_by("seed"))
    services.entrant_withdraw(actor=organizer, entrant=entrants[-1])
    services.bye_request(actor=organizer, entrant=entrants[3], round_number=5)
    event.refresh_from_db()
    return event


def _people(club: Club, count: int, prefix: str) -> list[Player]:
    return people(club, (f"{prefix} {index + 1}" for index in range(count)))


def _team_event(organizer: Any, club: Club) -> Tournament:
    """Kazambi pairs, four teams of two, round 1 played (entered through the services)."""
    import datetime as dt

    from games.series.format import MatchScore
    from players import services as player_services

    members = _people(club, 8, "Pair Player")
    event = services.tournament_create(
        actor=organizer, club=club, name="Kazambi Pairs League", game="kazambi-pairs",
        format="round_robin", match_format={"kind": "single", "games": 1})
    for index in range(4):
        team = player_services.team_create(
            actor=organizer, name=f"Pair {'ABCD'[index]}", club=club,
            members=members[2 * index: 2 * index + 2], joined_on=dt.date(2020, 1, 1))
        services.entrant_register(actor=organizer, tournament=event, team=team,
                                  rating=1600 - 10 * index)
    event = services.tournament_start(actor=organizer, tournament=event)
    round_ = services.round_pair_next(actor=organizer, tournament=event, release=True)
    for pairing in round_.pairings.exclude(entrant_b=None):
        match_services.match_result_record(actor=organizer, pairing=pairing,
                                     score=MatchScore(1, 0, 0), expected_version=pairing.version)
    return event
