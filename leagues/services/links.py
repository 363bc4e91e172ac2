"""Captains' private links: issued and revoked by league managers."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import ApplicationError
from leagues.history import EventKind, record
from leagues.links import captain_link_token
from leagues.models import CaptainLink, SeasonStatus, SeasonTeam
from leagues.permissions import ensure_can_manage_league
from playerlinks import tokens
from playerlinks.services import TOUCH_EVERY
from players.permissions import Actor, actor_user


@transaction.atomic
def captain_link_issue(*, actor: Actor, season_team: SeasonTeam) -> tuple[CaptainLink, str]:
    """A new private link for the team's captain, and its token; the old link is revoked."""
    season = season_team.season
    ensure_can_manage_league(actor, season.league)
    season_team = SeasonTeam.objects.select_for_update(of=("self",)).select_related(
        "captain", "team").get(pk=season_team.pk)
    if season_team.captain is None:
        raise ApplicationError(_("Name the team's captain first."), field="captain")
    if season.status == SeasonStatus.FINISHED:
        raise ApplicationError(_("The season is finished."), field="season")
    CaptainLink.objects.live().filter(season_team=season_team).update(
        revoked_at=timezone.now())
    nonce = tokens.new_nonce()
    link = CaptainLink(season_team=season_team, player=season_team.captain, nonce=nonce,
                       token_hash="", created_by=actor_user(actor))
    token = captain_link_token(link)
    link.token_hash = tokens.token_hash(token)
    link.save()
    record(season.league, EventKind.CAPTAIN_LINK_ISSUED, actor=actor, season=season,
           team=season_team.team.name)
    return link, token


@transaction.atomic
def captain_link_revoke(*, actor: Actor, link: CaptainLink) -> None:
    """Revoke a captain's link (its token stops working at once)."""
    season = link.season_team.season
    ensure_can_manage_league(actor, season.league)
    updated = CaptainLink.objects.live().filter(pk=link.pk).update(revoked_at=timezone.now())
    if not updated:
        raise ApplicationError(_("This link is revoked already."), field="link")
    record(season.league, EventKind.CAPTAIN_LINK_REVOKED, actor=actor, season=season,
           team=link.season_team.team.name)


def captain_link_touch(*, link: CaptainLink) -> None:
    """Note that the captain used ``link`` (at most one write per
    :data:`playerlinks.services.TOUCH_EVERY`): the manager sees which links reached them."""
    now = timezone.now()
    if link.last_used_at is not None and now - link.last_used_at < TOUCH_EVERY:
        return
    CaptainLink.objects.live().filter(pk=link.pk).update(last_used_at=now)
    link.last_used_at = now
