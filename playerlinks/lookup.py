"""Reads of tokens: a link's token recomputed from its nonce, and a token's live link.

Reads only (no writes): the services and the selectors both use them.
"""

from __future__ import annotations

from django.utils.crypto import salted_hmac

from playerlinks import tokens
from playerlinks.models import EntrantLink

_KEY_SALT = "playerlinks.token"


def link_key() -> bytes:
    """The server's link key: derived from SECRET_KEY (rotating it retires every link)."""
    return salted_hmac(_KEY_SALT, "link-key", algorithm="sha256").digest()


def link_token(link: EntrantLink) -> str:
    """The token of ``link``, recomputed (for its QR code on a slip or a card)."""
    return tokens.token_for(link_key(), link.nonce)


def link_from_token(token: str) -> EntrantLink | None:
    """The live link of ``token``, or None (unknown, malformed or revoked: all alike)."""
    if not isinstance(token, str) or not tokens.looks_like_token(token):
        return None
    return (EntrantLink.objects.live()
            .select_related("entrant__tournament__club", "entrant__player", "entrant__team",
                            "player")
            .filter(token_hash=tokens.token_hash(token)).first())
