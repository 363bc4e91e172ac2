from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from core.bounds import MAX_CLUB_ORGANIZERS, MAX_TEAM_MEMBERS
from players.models import BotKind, Club, Player, Sex, Team, TeamMembership, Title


def organizer_name(user: Any) -> str:
    """How an organizer is shown publicly: never the login name (it is half a credential)."""
    player = getattr(user, "player", None)  # a missing profile reads as None
    return (player.display_name if player else "") or user.get_full_name() or gettext("Organizer")


class ClubOutput(serializers.ModelSerializer[Club]):
    organizers = serializers.SerializerMethodField()

    class Meta:
        model = Club
        fields = ["id", "name", "slug", "organizers", "rating_settings", "open_entries",
                  "created_at"]

    def get_organizers(self, club: Club) -> list[str]:
        return [organizer_name(user) for user in club.organizers.all()]


class ClubInput(serializers.Serializer[Club]):
    name = serializers.CharField(max_length=120)
    organizers = serializers.ListField(
        child=serializers.CharField(max_length=150), max_length=MAX_CLUB_ORGANIZERS,
        required=False, help_text=_("The organizers' user names."))
    open_entries = serializers.BooleanField(
        required=False, help_text=_("Organizers of other clubs may enter this club's "
                                    "players and teams in their tournaments and teams."))
    rating_settings = serializers.JSONField(
        required=False, help_text=_("Read-only here: PUT /api/clubs/{id}/rating-settings/ "
                                    "changes it (and rebuilds the club's ratings)."))


class PlayerOutput(serializers.ModelSerializer[Player]):
    club_name = serializers.CharField(source="club.name", read_only=True, default=None)

    class Meta:
        model = Player
        fields = [
            "id", "display_name", "club", "club_name", "is_bot", "bot_kind", "bot_settings",
            "installed_bot", "fide_id", "birth_year", "sex", "federation", "title",
            "created_at", "updated_at",
        ]


class PlayerInput(serializers.Serializer[Player]):
    display_name = serializers.CharField(max_length=120)
    club = serializers.PrimaryKeyRelatedField(
        queryset=Club.objects.all(), allow_null=True, required=False
    )
    is_bot = serializers.BooleanField(required=False)
    bot_kind = serializers.ChoiceField(choices=BotKind.choices, required=False, allow_blank=True)
    bot_settings = serializers.JSONField(required=False)
    installed_bot = serializers.CharField(
        max_length=64, required=False, allow_blank=True,
        help_text=_("For the bot kind 'installed': the name of an installed bot "
                    "(GET /api/players/installed-bots/ lists them)."))
    fide_id = serializers.CharField(max_length=20, required=False, allow_blank=True)
    birth_year = serializers.IntegerField(required=False, allow_null=True)
    sex = serializers.ChoiceField(choices=Sex.choices, required=False, allow_blank=True)
    federation = serializers.CharField(max_length=3, required=False, allow_blank=True)
    title = serializers.ChoiceField(choices=Title.choices, required=False, allow_blank=True)


class InstalledBotOutput(serializers.Serializer[Any]):
    """A bot installed in the bots directory: what its manifest says."""

    name = serializers.CharField()
    author = serializers.CharField()
    games = serializers.ListField(child=serializers.CharField())
    description = serializers.CharField()


class MembershipOutput(serializers.ModelSerializer[TeamMembership]):
    player_name = serializers.CharField(source="player.display_name", read_only=True)

    class Meta:
        model = TeamMembership
        fields = ["player", "player_name", "joined_on", "left_on"]


class TeamOutput(serializers.ModelSerializer[Team]):
    memberships = MembershipOutput(many=True, read_only=True)

    class Meta:
        model = Team
        fields = ["id", "name", "club", "memberships", "created_at"]


class TeamInput(serializers.Serializer[Team]):
    name = serializers.CharField(max_length=120)
    club = serializers.PrimaryKeyRelatedField(queryset=Club.objects.all())
    members = serializers.ListField(
        child=serializers.IntegerField(min_value=1), max_length=MAX_TEAM_MEMBERS,
        required=False, help_text=_("Player ids."))


class TeamUpdateInput(serializers.Serializer[Team]):
    """A team's change: its name (members join and leave through ``add-member/`` and
    ``remove-member/``; a team stays in its club)."""

    name = serializers.CharField(max_length=120)


class TeamMemberInput(serializers.Serializer[TeamMembership]):
    player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    date = serializers.DateField(required=False)
