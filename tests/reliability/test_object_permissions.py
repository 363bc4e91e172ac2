"""Every writable API endpoint refuses another club's organizer and anonymous clients, and
leaves the database as it was.

The endpoints come from the OpenAPI schema, so a new writable endpoint fails this test until
it gets a recipe below (an object of club A to aim at and a request body that would be valid
for club A's own organizer).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
from django.apps import apps
from rest_framework.test import APIClient

from players.models import Club
from tests.reliability.world import World

pytestmark = pytest.mark.django_db

WRITE_METHODS = {"post", "put", "patch", "delete"}
# Writable operations that change no object of a club: the public login (throttled and
# guarded) and the analysis of a position (public, throttled, computes and stores nothing).
NOT_OBJECT_WRITES = {("post", "/api/auth/token/"), ("post", "/api/analysis/")}
SNAPSHOT_APPS = {"players", "tournaments", "matches", "ratings", "botruns", "analysis", "auth",
                 "authtoken"}


Recipe = Callable[[World], tuple[int | None, dict[str, Any] | None]]

RECIPES: dict[tuple[str, str], Recipe] = {
    ("post", "/api/clubs/"): lambda w: (None, {"name": "Gamma Club"}),
    ("patch", "/api/clubs/{id}/"): lambda w: (w.club.pk, {"name": "Taken over"}),
    ("put", "/api/clubs/{id}/rating-settings/"): lambda w: (
        w.club.pk, {"rating_settings": {"system": "elo"}}),
    ("post", "/api/players/"): lambda w: (None, {"display_name": "Intruder",
                                                 "club": w.club.pk}),
    ("patch", "/api/players/{id}/"): lambda w: (w.player.pk, {"display_name": "Renamed"}),
    ("post", "/api/teams/"): lambda w: (None, {"name": "Intruders", "club": w.club.pk}),
    ("patch", "/api/teams/{id}/"): lambda w: (w.team.pk, {"name": "Renamed"}),
    ("post", "/api/teams/{id}/add-member/"): lambda w: (w.team.pk,
                                                        {"player": w.spare_player.pk}),
    ("post", "/api/teams/{id}/remove-member/"): lambda w: (w.team.pk, {"player": w.player.pk}),
    ("post", "/api/tournaments/"): lambda w: (None, {
        "club": w.club.pk, "name": "Intruders' cup", "game": "kugamai",
        "format": "round_robin"}),
    ("patch", "/api/tournaments/{id}/"): lambda w: (w.running.pk, {"name": "Renamed"}),
    ("post", "/api/tournaments/{id}/open-registration/"): lambda w: (w.draft.pk, None),
    ("post", "/api/tournaments/{id}/register/"): lambda w: (w.draft.pk,
                                                           {"player": w.spare_player.pk}),
    ("post", "/api/tournaments/{id}/start/"): lambda w: (w.draft.pk, None),
    ("post", "/api/tournaments/{id}/finish/"): lambda w: (w.running.pk, None),
    ("post", "/api/tournaments/{id}/pair-next-round/"): lambda w: (w.running.pk, None),
    ("post", "/api/tournaments/{id}/withdraw/"): lambda w: (
        w.running.pk, {"entrant": w.entrants[3].pk}),
    ("post", "/api/tournaments/{id}/request-bye/"): lambda w: (
        w.running.pk, {"entrant": w.entrants[2].pk, "round_number": 3}),
    ("post", "/api/tournaments/{id}/forbid-pairing/"): lambda w: (
        w.running.pk, {"entrant_a": w.entrants[0].pk, "entrant_b": w.entrants[3].pk}),
    ("post", "/api/rounds/{id}/release/"): lambda w: (w.pairing.round_id, None),
    ("post", "/api/rounds/{id}/unpair/"): lambda w: (w.pairing.round_id, None),
    ("post", "/api/pairings/{id}/result/"): lambda w: (
        w.pairing.pk, {"version": w.pairing.version, "wins_a": 1, "wins_b": 0}),
    ("post", "/api/pairings/{id}/games/"): lambda w: (
        w.pairing.pk, {"version": w.pairing.version, "result": "a"}),
    ("post", "/api/bot-runs/"): lambda w: (None, {"tournament": w.running.pk, "seed": 1}),
    ("post", "/api/games/{id}/analysis/"): lambda w: (w.game.pk, {}),
}


@cache
def writable_operations() -> list[tuple[str, str]]:
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    return sorted(
        (method, path)
        for path, operations in schema["paths"].items()
        for method in operations
        if method in WRITE_METHODS and (method, path) not in NOT_OBJECT_WRITES
    )


def snapshot() -> dict[str, list[dict[str, Any]]]:
    """Every row of the service's tables (and users, tokens), in primary-key order."""
    return {
        model._meta.label: list(model._default_manager.order_by("pk").values())
        for model in apps.get_models()
        if model._meta.app_label in SNAPSHOT_APPS
    }


def send(client: APIClient, method: str, path: str, world: World) -> Any:
    recipe = RECIPES[(method, path)]
    object_id, body = recipe(world)
    url = path.replace("{id}", str(object_id)) if object_id is not None else path
    return getattr(client, method)(url, body or {}, format="json")


def test_every_writable_endpoint_has_a_recipe() -> None:
    missing = [op for op in writable_operations() if op not in RECIPES]
    assert not missing, (
        f"writable endpoints without a permission recipe: {missing}; add one to RECIPES")


def test_another_clubs_organizer_is_refused_everywhere_and_nothing_changes(
    world: World, club_b: Club
) -> None:
    client = APIClient()
    client.force_authenticate(club_b.organizers.get())
    before = snapshot()
    answers = {op: send(client, *op, world).status_code for op in writable_operations()}
    wrong = {op: code for op, code in answers.items() if code not in (403, 404)}
    assert not wrong, f"expected 403 or 404: {wrong}"
    assert snapshot() == before


def test_anonymous_clients_are_refused_everywhere_and_nothing_changes(world: World) -> None:
    client = APIClient()
    before = snapshot()
    answers = {op: send(client, *op, world).status_code for op in writable_operations()}
    wrong = {op: code for op, code in answers.items() if code not in (401, 403)}
    assert not wrong, f"expected 401 or 403: {wrong}"
    assert snapshot() == before


@pytest.mark.parametrize("operation", sorted(RECIPES))
def test_the_recipe_passes_the_permission_check_for_the_clubs_own_organizer(
    world: World, club_a: Club, operation: tuple[str, str]
) -> None:
    """Checks the recipes themselves: club A's organizer (a superuser for creating clubs)
    gets past the permission check, so Bob's 403 above is about permission, not input."""
    if operation not in writable_operations():
        pytest.skip(f"{operation} is not in this version of the API")
    client = APIClient()
    alice = club_a.organizers.get()
    if operation == ("post", "/api/clubs/"):
        alice.is_superuser = True
        alice.save()
    client.force_authenticate(alice)
    response = send(client, *operation, world)
    assert response.status_code not in (401, 403, 404), response.content
