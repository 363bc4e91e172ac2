"""Private links: issued, resolved by token only while live, re-issued with a new token, and
one per member of a partnership entrant; the database holds no token."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied

from core.errors import ApplicationError
from playerlinks import services, tokens
from playerlinks.models import EntrantLink

pytestmark = pytest.mark.django_db


def test_a_link_resolves_by_its_token_and_stops_when_revoked(make_event: Any,
                                                            organizer: Any) -> None:
    event = make_event("swiss", entrants=4, rounds_planned=3)
    entrant = event.entrants.first()
    link, token = services.link_issue(actor=organizer, entrant=entrant)
    assert services.link_from_token(token) == link
    assert services.link_token(link) == token
    assert token not in {link.nonce, link.token_hash}
    assert link.token_hash == tokens.token_hash(token)

    new, new_token = services.link_reissue(actor=organizer, link=link)
    assert services.link_from_token(token) is None
    assert services.link_from_token(new_token) == new


@pytest.mark.parametrize("bad", ["", "x" * 31, "x" * 33, "a" * 31 + "!", "a" * 31 + "\x00"])
def test_malformed_tokens_never_reach_the_database(bad: str,
                                                   django_assert_num_queries: Any) -> None:
    with django_assert_num_queries(0):
        assert services.link_from_token(bad) is None


def test_one_live_link_per_holder_and_missing_ones_issued_in_bulk(make_event: Any,
                                                                 organizer: Any) -> None:
    event = make_event("swiss", entrants=4, rounds_planned=3)
    assert services.links_issue_missing(actor=organizer, tournament=event) == 4
    assert services.links_issue_missing(actor=organizer, tournament=event) == 0
    with pytest.raises(ApplicationError, match="already has a live link"):
        services.link_issue(actor=organizer, entrant=event.entrants.first())
    assert EntrantLink.objects.live().count() == 4


def test_other_clubs_organizers_issue_nothing(make_event: Any, club_b: Any) -> None:
    event = make_event("swiss", entrants=2, rounds_planned=3)
    with pytest.raises(PermissionDenied):
        services.link_issue(actor=club_b.organizers.get(), entrant=event.entrants.first())
    assert not EntrantLink.objects.exists()
