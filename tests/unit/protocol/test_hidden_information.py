"""No bot can see what its seat may not: a bot that walks the call stack, the heap, its
input, files, environment and other processes, and a bot that tries to rebuild the deal
from its seed, learn nothing of another seat's hidden Stolbiki cards."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest

from games.bots.process.sandbox import isolation_method
from games.engines import get_engine
from games.series.deals import deal_for_game
from games.series.referee import BotSpec, RefereeOutcome
from games.series.roles import game_roles
from tests.unit.protocol.helpers import PROGRAMS, play, program

sys.path.insert(0, str(PROGRAMS))
from seed_inversion import (  # noqa: E402
    find_deal,
    invert,
    old_derived_seed,
    old_tournament_deals,
    public_deals,
)

JAILED = isolation_method() != "none"


Seen = tuple[set[str], set[str], list[str]]


def moves_seen(outcome: RefereeOutcome, side: int) -> Iterator[Seen]:
    """For each move of ``side``'s seats: the cards the seat holds, the other seats' cards
    it may not see, and the bot's info lines for that move."""
    record = outcome.record
    engine = get_engine("stolbiki")
    state = engine.new_game(deal=record["deal"], **record["options"])
    for number, move in enumerate(record["moves"]):
        seat = engine.to_move(state)
        if seat % 2 == side:
            view = engine.observation(state, seat)
            hands = engine.to_dict(state)["hands"]
            hidden = {card for other, hand in enumerate(hands) if other != seat
                      for card in hand} - set(view["revealed"])
            yield set(view["hand"]), hidden, outcome.info[number]
        state = engine.play(state, move)


def said(info: list[str], key: str) -> str:
    [line] = [line for line in info if line.startswith(f"string {key}")]
    return line[len(f"string {key}"):].strip()


@pytest.mark.parametrize(("number", "side"), [(0, 0), (1, 1), (2, 0)])
def test_a_snooping_bot_finds_only_its_own_view(number: int, side: int) -> None:
    snoop = program("snoop")
    sides = (snoop, BotSpec("mcts", {"iterations": 30})) if side == 0 else (
        BotSpec("mcts", {"iterations": 30}), snoop)
    # The snoop walks every object the garbage collector tracks: slow on a loaded machine.
    outcome = play(*sides, game="stolbiki", number=number, move_seconds=60.0)
    assert outcome.termination == "normal", outcome.reason
    checked = 0
    for hand, hidden, info in moves_seen(outcome, side):
        saw = set(said(info, "saw").split())
        assert hand <= saw  # it does find what its seat holds...
        assert not saw & hidden, f"the bot saw hidden cards {sorted(saw & hidden)}"  # ...only
        if JAILED:
            assert said(info, "other-processes") == "0 readable 0"
        checked += 1
    assert checked >= 10


def test_the_seed_inverter_works_on_the_old_seeding() -> None:
    """Under the old seeds the inverting bot rebuilds every hand: head-to-head and bot
    tournament seeds both gave the deal away."""
    game, engine = "stolbiki", get_engine("stolbiki")
    match_seed, deal_index = 3, 5
    roles = game_roles(game, 2 * deal_index, duplicate=True)
    deal = deal_for_game(game, {}, match_seed * 1_000_003 + deal_index, roles)
    old_bot_seed = (match_seed * 1_000_003 + 2 * deal_index) * 2 + 1 + 0
    hands = invert(game, {}, 0, old_bot_seed, deal["hands"][0])
    assert hands is not None and sorted(map(sorted, hands)) == sorted(map(sorted, deal["hands"]))

    run, round_, board, number = 1, 2, 3, 1
    deal_seed = old_derived_seed(run, round_, board, 0)
    deal = deal_for_game(game, {}, deal_seed, game_roles(game, number - 1))
    whole = sorted(map(sorted, engine.initial_deal(engine.new_game(deal_seed))["hands"]))
    old_bot_seed = old_derived_seed(run, round_, board, number, 1) * 2 + 1 + 1
    assert next(old_tournament_deals(old_bot_seed, 1)) == deal_seed
    hands = invert(game, {}, 1, old_bot_seed, deal["hands"][1])
    assert hands is not None and sorted(map(sorted, hands)) == whole
    # with the default run seed 0 the deal needs no bot seed at all: public numbers give it
    deal = deal_for_game(game, {}, old_derived_seed(0, round_, board, 0), game_roles(game, 0))
    assert find_deal(game, {}, deal["hands"][0], public_deals()) is not None


@pytest.mark.parametrize("number", [0, 1])
def test_the_seed_inverter_learns_nothing_from_secret_seeds(number: int) -> None:
    outcome = play(program("seed_inverter"), game="stolbiki", number=number, move_seconds=20)
    assert outcome.termination == "normal", outcome.reason
    moves = list(moves_seen(outcome, 0))
    assert moves
    for _, hidden, info in moves:
        guess = said(info, "guess")
        assert guess == "none"
        assert not set(guess.split()) & hidden
