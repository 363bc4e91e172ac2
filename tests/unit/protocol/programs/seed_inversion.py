"""How a bot could rebuild the deal from its seed or from public numbers, under the seeding
the referee used before the secret (kept here to prove the attack, and that it now fails).

Old head-to-head matches gave seat ``s`` the seed ``ref * 2 + 1 + s % 2`` with
``ref = match_seed * 1_000_003 + game_index`` and dealt game pairs from
``match_seed * 1_000_003 + deal_index``; old bot tournaments hashed the run seed, round,
board and game for the bot (``ref``) and the run seed, round, board and deal index for the
deal. Both are inverted here, and deals are also searched directly from small seeds and
from the tournament hash with small round and board numbers.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator

from games.engines import get_engine


def old_derived_seed(run_seed: int, *parts: int) -> int:
    text = ":".join(str(p) for p in (run_seed, *parts)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


def old_head_to_head_deals(bot_seed: int, seat: int) -> Iterator[int]:
    """Deal seeds that an old head-to-head bot seed could come from."""
    twice = bot_seed - 1 - seat % 2
    if twice < 0 or twice % 2:
        return
    ref = twice // 2
    for match_seed in range(50):
        game_index = ref - match_seed * 1_000_003
        if 0 <= game_index < 200_000:
            yield match_seed * 1_000_003 + game_index // 2


def old_tournament_deals(bot_seed: int, seat: int) -> Iterator[int]:
    """Deal seeds behind an old tournament bot seed (run seeds 0..2, rounds 1..15, boards
    1..16, games 1..9)."""
    for run in range(3):
        for round_ in range(1, 16):
            for board in range(1, 17):
                for number in range(1, 10):
                    ref = old_derived_seed(run, round_, board, number, 1)
                    if ref * 2 + 1 + seat % 2 == bot_seed:
                        for deal_index in {number - 1, (number - 1) // 2}:
                            yield old_derived_seed(run, round_, board, deal_index)


def public_deals() -> Iterator[int]:
    """Deal seeds anyone can list: small integers and old tournament hashes."""
    yield from range(2000)
    for round_ in range(1, 16):
        for board in range(1, 17):
            for deal_index in range(9):
                yield old_derived_seed(0, round_, board, deal_index)


def find_deal(game: str, options: dict, own_hand: list[str], candidates: Iterator[int]
              ) -> list[list[str]] | None:
    """The hands of the first candidate deal that holds ``own_hand``."""
    engine = get_engine(game)
    mine = sorted(own_hand)
    for seed in candidates:
        hands = engine.initial_deal(engine.new_game(seed, **options))["hands"]
        for hand in hands:
            if sorted(hand) == mine or set(mine) <= set(hand):
                return [list(h) for h in hands]
    return None


def invert(game: str, options: dict, seat: int, bot_seed: int, own_hand: list[str]
           ) -> list[list[str]] | None:
    """Every hand of the deal, if the seed or public numbers give it away."""
    for candidates in (old_head_to_head_deals(bot_seed, seat),
                       old_tournament_deals(bot_seed, seat), public_deals()):
        hands = find_deal(game, options, own_hand, candidates)
        if hands is not None:
            return hands
    return None
