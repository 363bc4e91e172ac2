"""Deleting and merging players: a player's games, entries, team memberships and ratings
reach up to this floor, the lowest that sees them all (``players`` holds the rest of a
player's writes).

A player who played, or is entered, is not deleted: the refusal says why in words ("Anna
Kowalska played 12 games in 3 tournaments; merge or keep"). Two copies of one person are
merged: the entries (and with them the games), team memberships and missing details of
the copy move to the player kept, the copy is deleted and the pools it touched are
rebuilt from the games.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.errors import ApplicationError
from matches.models import Game
from players.models import Club, Player, TeamMembership
from players.permissions import Actor, ensure_can_manage_club
from players.services import CATEGORY_FIELDS
from ratings.models import Rating
from ratings.services import ratings_recompute
from tournaments.models import Entrant

#: Details the player kept takes from the copy when it has none of its own.
_DETAILS = ("fide_id", *CATEGORY_FIELDS)


@dataclass
class PlayerUsage:
    """What holds on to a player: games played (as a player entrant) and in how many
    tournaments, entries, and current or past team memberships."""

    games: int = 0
    tournaments_played: int = 0
    entries: list[str] = field(default_factory=list)
    teams: list[str] = field(default_factory=list)


def player_usage(player: Player) -> PlayerUsage:
    games = Game.objects.filter(Q(pairing__entrant_a__player=player)
                                | Q(pairing__entrant_b__player=player))
    return PlayerUsage(
        games=games.count(),
        tournaments_played=games.values("pairing__round__tournament").distinct().count(),
        entries=list(Entrant.objects.filter(player=player).order_by("tournament__name")
                     .values_list("tournament__name", flat=True)),
        teams=sorted(set(player.memberships.values_list("team__name", flat=True))),
    )


def player_delete_problem(player: Player) -> str | None:
    """Why ``player`` cannot be deleted, in words, or None when nothing holds it."""
    usage = player_usage(player)
    name = player.display_name
    if usage.games:
        return _("%(name)s played %(games)s in %(tournaments)s; merge or keep.") % {
            "name": name,
            "games": ngettext("%(count)d game", "%(count)d games", usage.games)
            % {"count": usage.games},
            "tournaments": ngettext("%(count)d tournament", "%(count)d tournaments",
                                    usage.tournaments_played)
            % {"count": usage.tournaments_played}}
    if usage.entries:
        return ngettext(
            "%(name)s is entered in %(tournaments)s; remove the entry first, or merge or "
            "keep.",
            "%(name)s is entered in %(tournaments)s; remove the entries first, or merge or "
            "keep.", len(usage.entries)) % {"name": name,
                                            "tournaments": ", ".join(usage.entries)}
    if usage.teams:
        return _("%(name)s is a member of %(teams)s; remove them from the team first, or "
                 "merge or keep.") % {"name": name, "teams": ", ".join(usage.teams)}
    return None


@transaction.atomic
def player_delete(*, actor: Actor, player: Player) -> None:
    """Delete a player nobody's games, entries or teams hold (an organizer of the club,
    or a site administrator); otherwise say why not."""
    ensure_can_manage_club(actor, player.club)
    problem = player_delete_problem(player)
    if problem is not None:
        raise ApplicationError(problem, field="player")
    Rating.objects.filter(player=player).delete()
    player.delete()


def _overlaps(a: TeamMembership, b: TeamMembership) -> bool:
    end_a, end_b = a.left_on or dt.date.max, b.left_on or dt.date.max
    return a.joined_on <= end_b and b.joined_on <= end_a


def _covers(outer: TeamMembership, inner: TeamMembership) -> bool:
    return outer.joined_on <= inner.joined_on and (
        outer.left_on is None or (inner.left_on is not None and inner.left_on <= outer.left_on))


def _check_merge(actor: Actor, keep: Player, remove: Player) -> None:
    if keep.pk == remove.pk:
        raise ApplicationError(_("Choose two different players to merge."), field="remove")
    ensure_can_manage_club(actor, keep.club)
    ensure_can_manage_club(actor, remove.club)
    if keep.is_bot or remove.is_bot:
        raise ApplicationError(_("Bots are not merged: each is its own program."),
                               field="remove")
    if keep.club_id != remove.club_id:
        raise ApplicationError(_("Only players of the same club are merged."), field="remove")
    if keep.user_id is not None and remove.user_id is not None:
        raise ApplicationError(
            _("Both players are linked to user accounts: unlink one first."), field="remove")
    both = sorted(set(Entrant.objects.filter(player=keep).values_list("tournament__name",
                                                                      flat=True))
                  & set(Entrant.objects.filter(player=remove)
                        .values_list("tournament__name", flat=True)))
    if both:
        raise ApplicationError(ngettext(
            "%(keep)s and %(remove)s are both entered in %(tournaments)s: they played as two "
            "people there, so they are not merged.",
            "%(keep)s and %(remove)s are both entered in %(tournaments)s: they played as two "
            "people there, so they are not merged.", len(both)) % {
                "keep": keep.display_name, "remove": remove.display_name,
                "tournaments": ", ".join(both)}, field="remove")


@transaction.atomic
def player_merge(*, actor: Actor, keep: Player, remove: Player) -> Player:
    """Merge ``remove`` into ``keep``: its entries (with their games), team memberships
    (one covered by ``keep``'s own membership of the team is dropped; one that overlaps
    otherwise refuses the merge), user account and the details ``keep`` lacks move over;
    ``remove`` is deleted and the rating pools of the clubs it played in are rebuilt.
    Refused, with the reason, when both played in one tournament."""
    locked = {p.pk: p for p in Player.objects.select_for_update().filter(
        pk__in=[keep.pk, remove.pk]).order_by("pk")}
    if len(locked) != len({keep.pk, remove.pk}):
        raise ApplicationError(_("The player no longer exists."), field="remove")
    keep, remove = locked[keep.pk], locked[remove.pk]
    _check_merge(actor, keep, remove)
    kept_memberships = list(keep.memberships.select_related("team"))
    drop, move = [], []
    for membership in remove.memberships.select_related("team"):
        same_team = [m for m in kept_memberships if m.team_id == membership.team_id
                     and _overlaps(m, membership)]
        if not same_team:
            move.append(membership.pk)
        elif any(_covers(m, membership) for m in same_team):
            drop.append(membership.pk)
        else:
            raise ApplicationError(
                _("%(keep)s and %(remove)s were both members of %(team)s at the same time, "
                  "with different dates: make one membership cover the other first.") % {
                    "keep": keep.display_name, "remove": remove.display_name,
                    "team": membership.team.name}, field="remove")
    clubs = set(Entrant.objects.filter(player=remove)
                .values_list("tournament__club_id", flat=True))
    clubs |= set(Rating.objects.filter(player=remove).values_list("club_id", flat=True))
    clubs |= set(Rating.objects.filter(player=keep).values_list("club_id", flat=True))
    TeamMembership.objects.filter(pk__in=drop).delete()
    TeamMembership.objects.filter(pk__in=move).update(player=keep)
    Entrant.objects.filter(player=remove).update(player=keep)
    for name in _DETAILS:
        if getattr(keep, name) in (None, "") and getattr(remove, name) not in (None, ""):
            setattr(keep, name, getattr(remove, name))
    user = remove.user if keep.user_id is None else None
    Rating.objects.filter(player=remove).delete()
    remove.delete()
    if user is not None:
        keep.user = user
    keep.full_clean()
    keep.save()
    for club in Club.objects.filter(pk__in=clubs).order_by("pk"):
        ratings_recompute(club=club)
    return keep
