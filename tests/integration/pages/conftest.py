"""The tournament fixtures of the tournament tests, for the page tests."""

from tests.integration.tournaments.conftest import (  # noqa: F401 (fixtures)
    make_players,
    make_tournament,
    play_round,
)
