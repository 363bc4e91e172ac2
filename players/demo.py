"""The small demo data set ``make run`` loads: a club, a dozen players and some bots."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from players.models import BotKind, Club, Player, Team, TeamMembership

DEMO_CLUB = "Riverside Games Club"
DEMO_PEOPLE = [
    "Ada Moreau", "Bram Okafor", "Chiara Lind", "Dmitri Sato", "Eira Novak", "Farid Haddad",
    "Greta Holm", "Hugo Ferreira", "Ines Kowalski", "Jonas Abara", "Kaja Varga", "Luca Brennan",
]
DEMO_BOTS = [
    ("Randy (random)", BotKind.RANDOM, {}),
    ("Gus (greedy)", BotKind.GREEDY, {}),
    ("Monty (MCTS 200)", BotKind.MCTS, {"iterations": 200}),
    ("Monty (MCTS 800)", BotKind.MCTS, {"iterations": 800}),
]


@transaction.atomic
def load_players(organizer: Any) -> Club:
    club, _ = Club.objects.get_or_create(name=DEMO_CLUB, defaults={"slug": "riverside"})
    club.organizers.add(organizer)
    for name in DEMO_PEOPLE:
        Player.objects.get_or_create(display_name=name, club=club)
    for name, kind, bot_settings in DEMO_BOTS:
        Player.objects.get_or_create(
            display_name=name, club=club,
            defaults={"is_bot": True, "bot_kind": kind, "bot_settings": bot_settings},
        )
    people = list(Player.objects.filter(club=club, is_bot=False).order_by("id")[:4])
    for team_name, members in (("North Wind", people[:2]), ("South Star", people[2:4])):
        team, created = Team.objects.get_or_create(name=team_name, club=club)
        if created:
            for player in members:
                TeamMembership.objects.create(team=team, player=player,
                                              joined_on=team.created_at.date())
    return club
