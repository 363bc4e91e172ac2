"""Issuing, re-issuing, revoking and resolving private links (the only writer of links)."""

from __future__ import annotations

from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import ApplicationError
from playerlinks import tokens
from playerlinks.lookup import link_from_token, link_key, link_token
from playerlinks.models import EntrantLink
from players.models import Player
from players.permissions import Actor, actor_user, ensure_can_manage_club
from players.selectors import team_members_on
from tournaments.models import Entrant, Tournament

__all__ = ["link_from_token", "link_holders", "link_issue", "link_reissue", "link_revoke",
           "link_token", "link_touch", "links_issue_missing"]

#: How stale "last used" may get before a visit writes it again (a phone polls its page).
TOUCH_EVERY = timedelta(minutes=5)

def link_holders(entrant: Entrant) -> list[Player]:
    """Who gets a link to ``entrant``: its player, or each member of its team."""
    if entrant.player is not None:
        return [entrant.player]
    assert entrant.team is not None  # an entrant is a player or a team (a constraint)
    tournament = entrant.tournament
    day = tournament.starts_on or timezone.localdate()
    return list(team_members_on(entrant.team, day).order_by("display_name", "id"))


def _ensure_manages(actor: Actor, tournament: Tournament) -> None:
    ensure_can_manage_club(actor, tournament.club)


def _create(actor: Actor | None, entrant: Entrant, player: Player) -> tuple[EntrantLink, str]:
    nonce = tokens.new_nonce()
    token = tokens.token_for(link_key(), nonce)
    link = EntrantLink.objects.create(
        entrant=entrant, player=player, nonce=nonce, token_hash=tokens.token_hash(token),
        created_by=actor_user(actor))
    return link, token


def link_issue(*, actor: Actor, entrant: Entrant,
               player: Player | None = None) -> tuple[EntrantLink, str]:
    """A new live link for ``player`` (default: the entrant's player) to ``entrant``."""
    _ensure_manages(actor, entrant.tournament)
    holders = link_holders(entrant)
    holder = player or (holders[0] if entrant.player_id is not None and holders else None)
    if holder is None or holder.pk not in {h.pk for h in holders}:
        raise ApplicationError(_("A link goes to the entrant's player or to a member of its "
                                 "team."), field="player")
    try:
        with transaction.atomic():
            return _create(actor, entrant, holder)
    except IntegrityError:
        raise ApplicationError(_("%(player)s already has a live link to this entry: re-issue "
                                 "it instead.") % {"player": holder.display_name},
                               field="player") from None


@transaction.atomic
def links_issue_missing(*, actor: Actor, tournament: Tournament) -> int:
    """A link for every holder of every entrant who has no live one; returns how many."""
    _ensure_manages(actor, tournament)
    live = set(EntrantLink.objects.live().filter(entrant__tournament=tournament)
               .values_list("entrant_id", "player_id"))
    made = 0
    entrants = tournament.entrants.select_related("player", "team", "tournament")
    for entrant in entrants:
        for holder in link_holders(entrant):
            if (entrant.pk, holder.pk) not in live:
                _create(actor, entrant, holder)
                made += 1
    return made


@transaction.atomic
def link_revoke(*, actor: Actor, link: EntrantLink) -> EntrantLink:
    _ensure_manages(actor, link.entrant.tournament)
    if link.revoked_at is None:
        link.revoked_at = timezone.now()
        link.save(update_fields=["revoked_at"])
    return link


@transaction.atomic
def link_reissue(*, actor: Actor, link: EntrantLink) -> tuple[EntrantLink, str]:
    """Revoke ``link`` and give its holder a new one: the old token stops at once."""
    link_revoke(actor=actor, link=link)
    return _create(actor, link.entrant, link.player)


def link_touch(*, link: EntrantLink) -> None:
    """Note that the holder used ``link`` (at most one write per :data:`TOUCH_EVERY`): the
    director sees which links reached their players."""
    now = timezone.now()
    if link.last_used_at is not None and now - link.last_used_at < TOUCH_EVERY:
        return
    EntrantLink.objects.filter(pk=link.pk, revoked_at__isnull=True).update(last_used_at=now)
    link.last_used_at = now
