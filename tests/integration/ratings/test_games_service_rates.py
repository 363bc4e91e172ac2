"""End to end: recording a game through the games service rates it in the same transaction."""

from __future__ import annotations

from typing import Any

import pytest

from matches.services import games
from players.models import Player
from ratings.models import Rating, RatingChange
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db


def test_recording_a_rated_game_updates_ratings(club_a: Any) -> None:
    organizer = club_a.organizers.get()
    tournament = tournaments.tournament_create(
        actor=organizer, club=club_a, name="Rated cup", game="kugamai", format="round_robin"
    )
    ann = Player.objects.create(display_name="Ann", club=club_a)
    ben = Player.objects.create(display_name="Ben", club=club_a)
    for player in (ann, ben):
        tournaments.entrant_register(actor=organizer, tournament=tournament, player=player)
    tournament = tournaments.tournament_start(actor=organizer, tournament=tournament)
    round_ = tournaments.round_pair_next(actor=organizer, tournament=tournament, release=True)
    pairing = round_.pairings.get()
    recorded = games.game_record(actor=organizer, pairing=pairing, result="a")
    winner = pairing.entrant_a.player
    assert RatingChange.objects.filter(game=recorded.game).count() == 2
    assert Rating.objects.get(player=winner, family="kugamai").rating > 1500
