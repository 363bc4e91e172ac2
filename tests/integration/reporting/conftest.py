from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from playerlinks import services as links
from playerlinks.models import EntrantLink
from tournaments.models import Pairing
from tournaments.services import round_pair_next


@pytest.fixture
def reporting_event(make_event: Any, organizer: Any) -> Callable[..., Any]:
    """A started event with round 1 paired and released, a live link per entrant;
    returns (tournament, round, {entrant_id: (link, token)})."""

    def make(format: str = "swiss", entrants: int = 4, **fields: Any) -> Any:
        fields.setdefault("rounds_planned", 3)
        tournament = make_event(format, entrants=entrants, **fields)
        round_ = round_pair_next(actor=organizer, tournament=tournament, release=True)
        links.links_issue_missing(actor=organizer, tournament=tournament)
        found = {}
        for link in EntrantLink.objects.filter(entrant__tournament=tournament):
            found[link.entrant_id] = (link, links.link_token(link))
        return tournament, round_, found

    return make


def board_links(pairing: Pairing, found: dict[int, Any]) -> tuple[Any, Any]:
    """The links of side A and of side B of ``pairing``."""
    assert pairing.entrant_b_id is not None
    return found[pairing.entrant_a_id][0], found[pairing.entrant_b_id][0]
