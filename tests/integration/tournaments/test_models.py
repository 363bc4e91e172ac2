"""Database constraints back the invariants even when services are bypassed."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, transaction

from tournaments.models import Entrant, Pairing, Round, RoundEntry, Tournament

pytestmark = pytest.mark.django_db


def _violates(create: Any) -> bool:
    try:
        with transaction.atomic():
            create()
    except IntegrityError:
        return True
    return False


@pytest.fixture
def base(club_a: Any, make_players: Any) -> Any:
    tournament = Tournament.objects.create(club=club_a, name="T", slug="t", game="kugamai",
                                           format="swiss")
    players = make_players(3)
    entrants = [Entrant.objects.create(tournament=tournament, player=p) for p in players]
    round_ = Round.objects.create(tournament=tournament, number=1)
    return tournament, players, entrants, round_


def test_tournament_constraints(club_a: Any) -> None:
    def make(**fields: Any) -> Any:
        values = {"club": club_a, "name": "X", "slug": "x", "game": "kugamai",
                  "format": "swiss", **fields}
        return lambda: Tournament.objects.create(**values)

    assert _violates(make(game="chess"))
    assert _violates(make(format="ladder"))
    assert _violates(make(points_win=0, points_draw=1))
    assert _violates(make(third_place_match=True))
    assert _violates(make(game="kazambi-pairs"))  # pairs games need teams
    make()()
    assert _violates(make())  # slug unique in the club


def test_entrant_constraints(base: Any, club_a: Any) -> None:
    from players.models import Team

    tournament, players, entrants, _ = base
    team = Team.objects.create(name="Duo", club=club_a)
    assert _violates(lambda: Entrant.objects.create(tournament=tournament, player=players[0]))
    assert _violates(lambda: Entrant.objects.create(tournament=tournament))
    assert _violates(lambda: Entrant.objects.create(tournament=tournament, player=players[0],
                                                    team=team))
    assert _violates(lambda: Entrant.objects.filter(pk=entrants[0].pk).update(
        joined_round=3, withdrawn_from_round=2))
    Entrant.objects.filter(pk=entrants[0].pk).update(seed=1)
    assert _violates(lambda: Entrant.objects.filter(pk=entrants[1].pk).update(seed=1))


def test_pairing_constraints(base: Any) -> None:
    tournament, _, (a, b, c), round_ = base
    pairing = Pairing.objects.create(round=round_, board=1, entrant_a=a, entrant_b=b)
    assert _violates(lambda: Pairing.objects.create(round=round_, board=1, entrant_a=c,
                                                    bye_kind="zero", outcome="bye"))
    assert _violates(lambda: Pairing.objects.create(round=round_, board=2, entrant_a=c))
    assert _violates(lambda: Pairing.objects.create(round=round_, board=2, entrant_a=c,
                                                    entrant_b=c))
    assert _violates(lambda: Pairing.objects.filter(pk=pairing.pk).update(
        outcome="draw", wins_a=2, wins_b=1))
    assert _violates(lambda: Pairing.objects.filter(pk=pairing.pk).update(
        outcome="a_forfeit_win", wins_a=1))
    assert _violates(lambda: Pairing.objects.filter(pk=pairing.pk).update(
        outcome="b_wins", wins_a=2, wins_b=1))
    assert _violates(lambda: Pairing.objects.filter(pk=pairing.pk).update(outcome="bye"))
    bye = Pairing.objects.create(round=round_, board=2, entrant_a=c, bye_kind="zero",
                                 outcome="bye")
    RoundEntry.objects.create(round=round_, entrant=a, pairing=pairing)
    # an entrant appears at most once per round
    assert _violates(lambda: RoundEntry.objects.create(round=round_, entrant=a, pairing=bye))
    assert _violates(lambda: Round.objects.create(tournament=tournament, number=1))
