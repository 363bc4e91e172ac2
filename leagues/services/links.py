"""Captains' private links: issued and revoked by league managers."""

from __future__ import annotations

from leagues.models import CaptainLink, SeasonTeam
from players.permissions import Actor


def captain_link_issue(*, actor: Actor, season_team: SeasonTeam) -> tuple[CaptainLink, str]:
    """A new private link for the team's captain, and its token; the old link is revoked."""
    raise NotImplementedError


def captain_link_revoke(*, actor: Actor, link: CaptainLink) -> None:
    """Revoke a captain's link (its token stops working at once)."""
    raise NotImplementedError
