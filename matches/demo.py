"""Demo tournaments for ``manage.py load_demo``: a finished round robin and a running Swiss.

Idempotent: a tournament that already exists (by slug, in the demo club) is left alone.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games.engines import game_facts
from games.series.format import MatchScore
from matches.services import match_result_record
from players.models import Club, Player
from tournaments import services
from tournaments.models import Pairing, Tournament

ROUND_ROBIN_SLUG = "kugamai-club-championship"
SWISS_SLUG = "kazambi-autumn-swiss"


def _demo_score(pairing: Pairing, round_number: int, game: str) -> MatchScore:
    """A fixed, varied result per board: the same every time the demo loads (a drawn game
    only where the game has draws)."""
    turn = (pairing.entrant_a_id + 2 * (pairing.entrant_b_id or 0) + round_number) % 3
    if turn == 2 and not game_facts(game).draws_possible:
        turn = round_number % 2
    return (MatchScore(1, 0, 0), MatchScore(0, 1, 0), MatchScore(0, 0, 1))[turn]


def _play(organizer: Any, tournament: Tournament, rounds: int) -> None:
    for _ in range(rounds):
        round_ = services.round_pair_next(actor=organizer, tournament=tournament, release=True)
        for pairing in round_.pairings.filter(outcome="pending"):
            match_result_record(actor=organizer, pairing=pairing,
                                         score=_demo_score(pairing, round_.number, tournament.game),
                                         expected_version=pairing.version)


def _create(organizer: Any, club: Club, slug: str, players: list[Player],
            **fields: Any) -> Tournament | None:
    if Tournament.objects.filter(club=club, slug=slug).exists():
        return None
    tournament = services.tournament_create(actor=organizer, club=club, **fields)
    Tournament.objects.filter(pk=tournament.pk).update(slug=slug)
    tournament.slug = slug
    for index, player in enumerate(players):
        services.entrant_register(actor=organizer, tournament=tournament, player=player,
                                  rating=1800 - 25 * index)
    return services.tournament_start(actor=organizer, tournament=tournament)


@transaction.atomic
def load(club: Club, organizer: Any) -> None:
    people = list(Player.objects.filter(club=club, is_bot=False).order_by("id"))
    everyone = list(Player.objects.filter(club=club).order_by("id"))
    round_robin = _create(
        organizer, club, ROUND_ROBIN_SLUG, people[:6], name="Kugamai Club Championship",
        game="kugamai", format="round_robin", tiebreaks=["sonneborn_berger", "wins"],
    )
    if round_robin is not None:
        _play(organizer, round_robin, 5)
        services.tournament_finish(actor=organizer, tournament=round_robin)
    swiss = _create(
        organizer, club, SWISS_SLUG, everyone[:11], name="Kazambi Autumn Swiss",
        game="kazambi", format="swiss", rounds_planned=5,
        tiebreaks=["buchholz_cut1", "buchholz", "sonneborn_berger"],
    )
    if swiss is not None:
        _play(organizer, swiss, 2)
        services.round_pair_next(actor=organizer, tournament=swiss, release=True)
