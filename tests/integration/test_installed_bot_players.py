"""A bot player can be a program installed in the bots directory: the API and the admin
offer the installed bots, the services check the name, and entering a tournament checks
that the bot plays its game."""

from __future__ import annotations

import shutil
from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.test import Client

from botruns import services as bot_tournaments
from botruns.services import _spec
from core.errors import ApplicationError
from games.series.referee import BotSpec
from players import services
from players.models import Player
from tournaments import services as tournament_services
from tournaments.models import Entrant

pytestmark = pytest.mark.django_db


def installed(club: Any, actor: Any, name: str, display_name: str = "Program") -> Player:
    return services.player_create(actor=actor, display_name=display_name, club=club,
                                  is_bot=True, bot_kind="installed", installed_bot=name)


def test_the_api_lists_the_installed_bots(api: Any, installed_bots_dir: Any) -> None:
    response = api.get("/api/players/installed-bots/")
    assert response.status_code == 200
    bots = {bot["name"]: bot for bot in response.json()}
    assert sorted(bots) == ["chatty", "crasher", "illegal", "random-example", "sluggish"]
    assert bots["chatty"]["games"] == ["kugamai", "kazambi"]
    assert bots["random-example"]["author"] == "Club examples"


def test_an_organizer_enters_an_installed_bot_through_the_api(
    as_user: Any, club_a: Any, organizer: Any, installed_bots_dir: Any,
) -> None:
    client = as_user(organizer)
    body = {"display_name": "Chatty", "club": club_a.pk, "is_bot": True,
            "bot_kind": "installed", "installed_bot": "chatty"}
    response = client.post("/api/players/", body, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["installed_bot"] == "chatty"
    player = Player.objects.get()
    assert _spec(player) == BotSpec.installed("chatty")
    assert client.get(f"/api/players/{player.pk}/").json()["bot_kind"] == "installed"


@pytest.mark.parametrize(("fields", "field", "message"), [
    ({"bot_kind": "installed", "installed_bot": "nobody"}, "installed_bot",
     "No bot 'nobody' is installed (installed: chatty, crasher, illegal, random-example, "
     "sluggish)."),
    ({"bot_kind": "installed"}, "installed_bot", "Choose the installed bot"),
    ({"bot_kind": "installed", "installed_bot": "chatty", "bot_settings": {"seconds": 1}},
     "bot_settings", "An installed bot takes no settings"),
    ({"bot_kind": "mcts", "installed_bot": "chatty"}, "installed_bot",
     "Only a bot of the kind 'installed' names an installed bot"),
])
def test_a_wrong_installed_bot_is_refused_and_nothing_changes(
    as_user: Any, club_a: Any, organizer: Any, installed_bots_dir: Any,
    fields: dict[str, Any], field: str, message: str,
) -> None:
    body = {"display_name": "Bot", "club": club_a.pk, "is_bot": True, **fields}
    response = as_user(organizer).post("/api/players/", body, format="json")
    assert response.status_code == 400, response.json()
    assert response.json()["errors"][field][0].startswith(message)
    assert not Player.objects.exists()


def test_an_uninstalled_bot_can_still_be_renamed_but_not_pointed_elsewhere(
    as_user: Any, club_a: Any, organizer: Any, installed_bots_dir: Any,
) -> None:
    player = installed(club_a, organizer, "chatty")
    (installed_bots_dir / "chatty").unlink()
    client = as_user(organizer)
    renamed = client.patch(f"/api/players/{player.pk}/", {"display_name": "Old chatty"},
                           format="json")
    assert renamed.status_code == 200, renamed.json()
    moved = client.patch(f"/api/players/{player.pk}/", {"installed_bot": "ghost"},
                         format="json")
    assert moved.status_code == 400
    assert "No bot 'ghost' is installed" in moved.json()["errors"]["installed_bot"][0]
    to_mcts = client.patch(f"/api/players/{player.pk}/",
                           {"bot_kind": "mcts", "installed_bot": ""}, format="json")
    assert to_mcts.status_code == 200, to_mcts.json()
    player.refresh_from_db()
    assert (player.display_name, player.bot_kind, player.installed_bot) == (
        "Old chatty", "mcts", "")


def test_the_database_keeps_the_name_and_the_kind_together(club_a: Any) -> None:
    for kind, name in (("installed", ""), ("random", "chatty")):
        with pytest.raises(IntegrityError), transaction.atomic():
            Player.objects.create(display_name="X", club=club_a, is_bot=True, bot_kind=kind,
                                  installed_bot=name)


def test_entering_a_tournament_checks_the_bot_plays_its_game(
    club_a: Any, organizer: Any, installed_bots_dir: Any,
) -> None:
    misere = tournament_services.tournament_create(
        actor=organizer, club=club_a, name="Misere", game="anti-kazambi", format="round_robin")
    chatty = installed(club_a, organizer, "chatty")
    example = installed(club_a, organizer, "random-example", "Example")
    with pytest.raises(ApplicationError, match="which does not play anti-kazambi"):
        tournament_services.entrant_register(actor=organizer, tournament=misere,
                                             player=chatty)
    tournament_services.entrant_register(actor=organizer, tournament=misere, player=example)
    (installed_bots_dir / "random-example").unlink()
    kugamai = tournament_services.tournament_create(
        actor=organizer, club=club_a, name="Chain", game="kugamai", format="round_robin")
    with pytest.raises(ApplicationError, match="which is not installed"):
        tournament_services.entrant_register(actor=organizer, tournament=kugamai,
                                             player=example)
    assert list(Entrant.objects.values_list("player__installed_bot", flat=True)) == [
        "random-example"]


def test_a_bot_run_does_not_start_when_a_bot_is_missing(
    club_a: Any, organizer: Any, installed_bots_dir: Any, tmp_path: Any,
) -> None:
    tournament = tournament_services.tournament_create(
        actor=organizer, club=club_a, name="Chain", game="kugamai", format="round_robin")
    for index, name in enumerate(("chatty", "random-example")):
        player = installed(club_a, organizer, name, f"Bot {index}")
        tournament_services.entrant_register(actor=organizer, tournament=tournament,
                                             player=player)
    moved = tmp_path / "elsewhere"
    shutil.move(installed_bots_dir / "chatty", moved)
    with pytest.raises(ApplicationError, match="'chatty', which is not installed"):
        bot_tournaments.bot_tournament_start(actor=organizer, tournament=tournament)
    tournament.refresh_from_db()
    assert tournament.status != "running" and not tournament.rounds.exists()


def test_the_admin_offers_the_installed_bots(
    admin_user: Any, club_a: Any, installed_bots_dir: Any,
) -> None:
    client = Client()
    client.force_login(admin_user)
    page = client.get("/admin/players/player/add/").content.decode()
    assert 'value="chatty"' in page and "chatty by tests (plays kugamai, kazambi)" in page
    form = {"display_name": "Sluggish", "club": club_a.pk, "is_bot": "on",
            "bot_kind": "installed", "installed_bot": "sluggish", "bot_settings": "{}",
            "fide_id": ""}
    refused = client.post("/admin/players/player/add/", {**form, "installed_bot": ""})
    assert refused.status_code == 200
    assert "Choose the installed bot" in refused.content.decode()
    assert not Player.objects.exists()
    response = client.post("/admin/players/player/add/", form)
    assert response.status_code == 302, response.content.decode()[:3000]
    player = Player.objects.get()
    assert (player.bot_kind, player.installed_bot) == ("installed", "sluggish")
    (installed_bots_dir / "sluggish").unlink()
    page = client.get(f"/admin/players/player/{player.pk}/change/").content.decode()
    assert "sluggish (not installed here)" in page


def test_a_team_of_bots_is_checked_member_by_member(
    club_a: Any, organizer: Any, installed_bots_dir: Any,
) -> None:
    pairs = tournament_services.tournament_create(
        actor=organizer, club=club_a, name="Pairs", game="kazambi-pairs", format="round_robin")
    team = services.team_create(actor=organizer, name="Programs", club=club_a, members=[
        installed(club_a, organizer, "random-example", "Example"),
        installed(club_a, organizer, "chatty"),
    ])
    with pytest.raises(ApplicationError, match="Program is the installed bot 'chatty', which "
                       "does not play kazambi-pairs"):
        tournament_services.entrant_register(actor=organizer, tournament=pairs, team=team)
    assert not Entrant.objects.exists()
