"""Club A's objects for the reliability tests that aim at every writable endpoint (the
object permissions and the adversarial fuzzing): built by the ``world`` fixture."""

from __future__ import annotations

from dataclasses import dataclass

from matches.models import Game
from matches.services.games import game_entry_record
from players.models import Club, Player, Team
from tournaments import services
from tournaments.models import Entrant, Pairing, Tournament


@dataclass
class World:
    """Club A's objects, which Bob (organizer of club B) must not change."""

    club: Club
    player: Player
    spare_player: Player
    team: Team
    draft: Tournament
    running: Tournament
    entrants: list[Entrant]
    pairing: Pairing
    #: A game of another board (its match under way), for the endpoints aimed at games.
    game: Game


def build_world(club_a: Club) -> World:
    alice = club_a.organizers.get()
    players = [Player.objects.create(display_name=f"Alpha {i}", club=club_a) for i in range(6)]
    team = Team.objects.create(name="Alpha team", club=club_a)
    from players import services as player_services

    player_services.team_add_member(actor=alice, team=team, player=players[0])
    draft = services.tournament_create(actor=alice, club=club_a, name="Draft cup",
                                       game="kugamai", format="round_robin")
    running = services.tournament_create(actor=alice, club=club_a, name="Running cup",
                                         game="kugamai", format="round_robin")
    entrants = [services.entrant_register(actor=alice, tournament=running, player=player,
                                          rating=2000 - index)
                for index, player in enumerate(players[:4])]
    running = services.tournament_start(actor=alice, tournament=running)
    round_ = services.round_pair_next(actor=alice, tournament=running, release=True)
    pairing = round_.pairings.exclude(entrant_b=None).order_by("board").first()
    other = round_.pairings.exclude(entrant_b=None).order_by("board").last()
    assert pairing is not None and other is not None and other != pairing
    game = game_entry_record(actor=alice, pairing=other, expected_version=other.version,
                             result="a").game
    return World(club_a, players[0], players[5], team, draft, running, entrants, pairing, game)
