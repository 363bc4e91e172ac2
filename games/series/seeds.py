"""Seeds for deals and bots from a secret, so that no bot can work out what it may not see.

A bot's seed must tell it nothing about the deal: were it derived from the deal's seed (or
both from public numbers such as a run seed, a round and a board), a bot could rebuild
every hidden hand. Both kinds of seed are therefore HMAC-SHA256 of a secret held by the
organizer over the game's coordinates, with a different label for deals and for bots: the
same secret and coordinates give the same seeds (reproducible for the organizer), and
without the secret neither can be computed nor one told from the other.

>>> deal_seed(b"s3cret", 7, 1, 2, 0) != bot_seed(b"s3cret", 7, 1, 2, 0, 0)
True
>>> bot_seeds(b"s3cret", 2, 7, 1, 2, 1) == [bot_seed(b"s3cret", 7, 1, 2, 1, s) for s in (0, 1)]
True
"""

from __future__ import annotations

import hashlib
import hmac

Part = int | str


def _key(secret: bytes | str) -> bytes:
    key = secret.encode() if isinstance(secret, str) else secret
    if not key:
        raise ValueError("a seed secret must not be empty")
    return key


def _seed(secret: bytes | str, label: str, parts: tuple[Part, ...]) -> int:
    message = "/".join((label, *(str(part) for part in parts))).encode()
    digest = hmac.new(_key(secret), message, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1  # 63 bits


def deal_seed(secret: bytes | str, *parts: Part) -> int:
    """The seed of a deal, e.g. ``deal_seed(secret, run_seed, round, board, deal_index)``."""
    return _seed(secret, "deal", parts)


def bot_seed(secret: bytes | str, *parts: Part) -> int:
    """The seed of one seat's bot, e.g. ``bot_seed(secret, run_seed, round, board, game,
    seat)``."""
    return _seed(secret, "bot", parts)


def bot_seeds(secret: bytes | str, seats: int, *parts: Part) -> list[int]:
    """One bot seed per seat of a game: ``bot_seed(secret, *parts, seat)``."""
    return [bot_seed(secret, *parts, seat) for seat in range(seats)]
