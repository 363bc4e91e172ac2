"""Reads of captains' link tokens (the tokens as ``playerlinks`` makes them)."""

from __future__ import annotations

from leagues.models import CaptainLink
from playerlinks import tokens
from playerlinks.lookup import link_key


def captain_link_token(link: CaptainLink) -> str:
    """The token of ``link``, recomputed from its nonce."""
    return tokens.token_for(link_key(), link.nonce)


def captain_link_from_token(token: str) -> CaptainLink | None:
    """The live link of ``token``, or None (unknown, malformed or revoked: all alike)."""
    if not isinstance(token, str) or not tokens.looks_like_token(token):
        return None
    return (CaptainLink.objects.live()
            .select_related("season_team__team__club", "season_team__division__season__league",
                            "player")
            .filter(token_hash=tokens.token_hash(token)).first())
