"""Adding a tournament system touches its module and the registry only: a toy system,
defined and registered here, runs a tournament's round planning, standings and pages
without any other change to the code."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import connection
from django.urls import reverse

from games.i18n import N_
from games.series.format import MatchScore
from pages import selectors as page_selectors
from tournaments import selectors
from tournaments.models import Format, Tournament
from tournaments.services.tournaments import default_tiebreaks
from tournaments.systems import (
    SYSTEMS,
    PlanError,
    Planned,
    State,
    TableKind,
    TournamentSystem,
    system_of,
)


@dataclass(frozen=True)
class Ladder(TournamentSystem):
    """A toy system: every round seeds 1-2, 3-4... meet, for the rounds planned."""

    table_kind: TableKind = "round_by_round"
    needs_rounds_planned: bool = True

    def plan_round(self, state: State, number: int) -> list[Planned]:
        if number > (state.settings.rounds_planned or 0):
            raise PlanError(N_("The ladder is over."))
        by_seed = state.seeded()
        seeds = sorted(by_seed)
        pairs = zip(seeds[::2], seeds[1::2], strict=False)
        planned = [Planned(by_seed[a].id, by_seed[b].id) for a, b in pairs]
        if len(seeds) % 2:
            planned.append(Planned(by_seed[seeds[-1]].id, None, "pairing_allocated",
                                   outcome="bye"))
        return planned

    def rounds_remaining(self, state: State) -> int:
        return max(0, (state.settings.rounds_planned or 0) - state.paired_rounds)


LADDER = Ladder("ladder", N_("Ladder"), default_tiebreaks=("wins",))


@pytest.fixture
def ladder(monkeypatch: Any) -> Iterator[Ladder]:
    """The ladder in the registry; the database takes its format value (what the migration
    a new format value brings does), for this test's transaction only."""
    monkeypatch.setitem(SYSTEMS, LADDER.name, LADDER)
    monkeypatch.setattr(Tournament._meta.get_field("format"), "choices",
                        [*Format.choices, (LADDER.name, LADDER.label)])
    monkeypatch.setattr(Tournament._meta, "constraints", [
        c for c in Tournament._meta.constraints if c.name != "tournament_format_known"])
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE tournaments_tournament "
                       "DROP CONSTRAINT tournament_format_known")
    yield LADDER


def test_the_registry_holds_every_stored_format() -> None:
    assert list(SYSTEMS) == list(Format.values)
    assert all(system_of(name).name == name for name in SYSTEMS)


@pytest.mark.django_db
def test_a_system_added_to_the_registry_runs_a_tournament(
        ladder: Ladder, make_tournament: Any, play_round: Any, organizer: Any,
        client: Any) -> None:
    from tournaments import services

    tournament = make_tournament("ladder", entrants=5, rounds_planned=2)
    assert tournament.tiebreaks == default_tiebreaks("ladder") == ["wins"]
    assert selectors.rounds_remaining(tournament) == 2

    round_ = play_round(tournament)
    boards = [(p.entrant_a.seed, p.entrant_b.seed if p.entrant_b else None, p.outcome)
              for p in round_.pairings.order_by("board").select_related("entrant_a",
                                                                         "entrant_b")]
    assert boards == [(1, 2, "a_wins"), (3, 4, "a_wins"), (5, None, "bye")]
    assert selectors.rounds_remaining(tournament) == 1

    rows = selectors.standings(tournament)["rows"]
    assert [row["seed"] for row in rows if row["points"] == 1] == [1, 3, 5]
    assert selectors.round_by_round(tournament)["rows"]

    tabs = page_selectors.tournament_tabs(tournament, page_selectors.round_links(tournament))
    assert [tab["label"] for tab in tabs] == ["Standings", "Rounds", "Round by round", "Lists"]
    page = client.get(reverse("pages:tournament-table", args=[tournament.club.slug,
                                                              tournament.slug]))
    assert page.status_code == 200

    play_round(tournament, lambda pairing: MatchScore(0, 1, 0))
    assert selectors.rounds_remaining(tournament) == 0
    with pytest.raises(Exception, match="The ladder is over."):
        services.round_pair_next(actor=organizer, tournament=tournament, release=True)


@pytest.mark.django_db
def test_pair_next_round_refuses_a_team_system(
        monkeypatch: Any, make_tournament: Any, organizer: Any) -> None:
    """A system that ``pairs_teams`` is planned by its league: the ordinary "pair next
    round" refuses it and creates no round."""
    from dataclasses import replace

    from core.errors import ApplicationError
    from tournaments import services

    tournament = make_tournament("round_robin", entrants=4)
    monkeypatch.setitem(SYSTEMS, "round_robin", replace(system_of("round_robin"),
                                                        pairs_teams=True))
    with pytest.raises(ApplicationError) as caught:
        services.round_pair_next(actor=organizer, tournament=tournament, release=True)
    assert caught.value.field == "format"
    assert "pair it from the league" in str(caught.value)
    assert not tournament.rounds.exists()
