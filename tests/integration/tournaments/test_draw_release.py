"""Draw release (drafts until released), unpairing the last round and hand edits of its
pairings, through the services, the API, the public pages and the admin's round page."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from core.errors import ApplicationError
from games.series.format import MatchScore
from matches.services import match_result_record
from tournaments import services
from tournaments.history import EventKind
from tournaments.models import Entrant, FirstColour, Pairing, Round, TournamentEvent
from tournaments.selectors import released_rounds

pytestmark = pytest.mark.django_db


def _drafting(make_tournament: Any, format: str = "swiss", entrants: int = 6,
              **fields: Any) -> Any:
    if format == "swiss":
        fields.setdefault("rounds_planned", 4)
    return make_tournament(format, entrants=entrants, release_pairings_at_once=False,
                           match_format="single", **fields)


ROUND_KINDS = (EventKind.ROUND_PAIRED, EventKind.ROUND_RELEASED, EventKind.ROUND_UNPAIRED,
               EventKind.PAIRING_EDITED)


def _kinds(tournament: Any) -> list[str]:
    """The history's lines about rounds (the other services write lines of their own)."""
    return list(TournamentEvent.objects.filter(tournament=tournament, kind__in=ROUND_KINDS)
                .order_by("id").values_list("kind", flat=True))


def _play(organizer: Any, round_: Round) -> None:
    for pairing in round_.pairings.filter(outcome="pending").order_by("board"):
        match_result_record(actor=organizer, pairing=pairing, score=MatchScore(1, 0),
                            expected_version=pairing.version)


def test_a_paired_round_is_a_draft_until_released(make_tournament: Any,
                                                  organizer: Any) -> None:
    tournament = _drafting(make_tournament)
    round_ = services.round_pair_next(actor=organizer, tournament=tournament)
    assert round_.released_at is None
    assert not released_rounds(tournament).exists()
    board = round_.pairings.filter(entrant_b__isnull=False)[0]
    with pytest.raises(ApplicationError, match="Round 1 is a draft: release its pairings"):
        match_result_record(actor=organizer, pairing=board, score=MatchScore(1, 0),
                            expected_version=board.version)
    released = services.round_release(actor=organizer, round_=round_)
    assert released.released_at is not None
    assert list(released_rounds(tournament)) == [released]
    with pytest.raises(ApplicationError, match="already released"):
        services.round_release(actor=organizer, round_=released)
    _play(organizer, released)
    assert _kinds(tournament) == [EventKind.ROUND_PAIRED, EventKind.ROUND_RELEASED]
    paired = TournamentEvent.objects.get(kind=EventKind.ROUND_PAIRED)
    assert paired.round_number == 1 and paired.data == {"boards": 3}


def test_release_at_once_and_imports_bots_and_demo_skip_the_draft(make_tournament: Any,
                                                                  organizer: Any) -> None:
    tournament = make_tournament("round_robin", entrants=4, release_pairings_at_once=True)
    round_ = services.round_pair_next(actor=organizer, tournament=tournament)
    assert round_.is_released
    assert _kinds(tournament) == [EventKind.ROUND_PAIRED, EventKind.ROUND_RELEASED]
    other = _drafting(make_tournament, "round_robin", entrants=4)
    assert services.round_pair_next(actor=organizer, tournament=other, release=True).is_released


def test_a_draft_is_invisible_to_the_public_and_seen_by_its_organizers(
        make_tournament: Any, organizer: Any, api: Any, client: Client) -> None:
    tournament = _drafting(make_tournament)
    first = services.round_pair_next(actor=organizer, tournament=tournament, release=True)
    _play(organizer, first)
    draft = services.round_pair_next(actor=organizer, tournament=tournament)
    drafted_names = {p.entrant_a.name for p in draft.pairings.all()}
    # the API, anonymously: one round, its boards only, standings after round 1
    rounds = api.get(f"/api/tournaments/{tournament.pk}/rounds/").json()["results"]
    assert [r["number"] for r in rounds] == [1]
    assert api.get(f"/api/rounds/{draft.pk}/").status_code == 404
    listed = api.get("/api/rounds/", {"tournament": tournament.pk}).json()["results"]
    assert [r["number"] for r in listed] == [1]
    pairing = draft.pairings.all()[0]
    assert api.get(f"/api/pairings/{pairing.pk}/").status_code == 404
    boards = api.get("/api/pairings/", {"round": draft.pk}).json()["results"]
    assert boards == []
    standings = api.get(f"/api/tournaments/{tournament.pk}/standings/").json()
    assert standings["after_round"] == 1
    trf = api.get(f"/api/tournaments/{tournament.pk}/export.trf").content.decode()
    assert all(len(line.split()) < 15 for line in trf.splitlines() if line.startswith("001"))
    # the public pages: no round 2 tab, its page is a 404
    base = f"/tournaments/{tournament.club.slug}/{tournament.slug}/"
    overview = client.get(base).content.decode()
    assert f"{base}rounds/2/" not in overview
    assert client.get(f"{base}rounds/2/").status_code == 404
    round_one = client.get(f"{base}rounds/1/").content.decode()
    assert "Baku acceleration: off" in round_one
    assert "First move in round 1: Top seed moves first" in round_one
    # the organizer sees the draft in the API
    api.force_authenticate(user=organizer)
    mine = api.get(f"/api/tournaments/{tournament.pk}/rounds/").json()["results"]
    assert [(r["number"], r["released_at"] is None) for r in mine] == [(1, False), (2, True)]
    assert api.get(f"/api/pairings/{pairing.pk}/").status_code == 200
    # once released, everyone sees it
    services.round_release(actor=organizer, round_=draft)
    api.force_authenticate(user=None)
    assert len(api.get(f"/api/tournaments/{tournament.pk}/rounds/").json()["results"]) == 2
    page = client.get(f"{base}rounds/2/").content.decode()
    assert all(name in page for name in drafted_names)


def test_unpair_the_last_round_and_pair_it_again(make_tournament: Any,
                                                 organizer: Any) -> None:
    tournament = _drafting(make_tournament, first_colour=FirstColour.LOT)
    round_ = services.round_pair_next(actor=organizer, tournament=tournament)
    tournament.refresh_from_db()
    drawn = tournament.first_colour
    assert drawn in (FirstColour.WHITE, FirstColour.BLACK)
    before = list(round_.pairings.values_list("entrant_a_id", "entrant_b_id"))
    assert services.round_unpair(actor=organizer, round_=round_) == 3
    assert not Round.objects.filter(tournament=tournament).exists()
    assert not Pairing.objects.filter(round__tournament=tournament).exists()
    unpaired = TournamentEvent.objects.get(kind=EventKind.ROUND_UNPAIRED)
    assert unpaired.round_number == 1 and unpaired.data == {"boards": 3}
    again = services.round_pair_next(actor=organizer, tournament=tournament)
    tournament.refresh_from_db()
    assert again.number == 1 and tournament.first_colour == drawn  # the lot stays as drawn
    assert list(again.pairings.values_list("entrant_a_id", "entrant_b_id")) == before
    services.round_release(actor=organizer, round_=again)
    board = again.pairings.order_by("board")[0]
    match_result_record(actor=organizer, pairing=board, score=MatchScore(1, 0),
                        expected_version=board.version)
    with pytest.raises(ApplicationError, match="has a result on board 1"):
        services.round_unpair(actor=organizer, round_=again)
    assert Round.objects.filter(tournament=tournament).count() == 1


def test_only_the_last_round_unpairs(make_tournament: Any, organizer: Any) -> None:
    tournament = make_tournament("round_robin", entrants=4)
    first = services.round_pair_next(actor=organizer, tournament=tournament)
    _play(organizer, first)
    second = services.round_pair_next(actor=organizer, tournament=tournament)
    with pytest.raises(ApplicationError, match="only the last round"):
        services.round_unpair(actor=organizer, round_=first)
    assert services.round_unpair(actor=organizer, round_=second) == 2
    assert services.round_pair_next(actor=organizer, tournament=tournament).number == 2


def _labels(round_: Round) -> list[tuple[str, str]]:
    return [(f"{p.entrant_a.seed} {p.entrant_a.name}",
             f"{p.entrant_b.seed} {p.entrant_b.name}" if p.entrant_b else "")
            for p in round_.pairings.select_related("entrant_a__player", "entrant_b__player")
            .order_by("board")]


def test_swap_who_moves_first_and_between_boards_logs_the_facts(make_tournament: Any,
                                                                organizer: Any) -> None:
    tournament = _drafting(make_tournament)
    first = services.round_pair_next(actor=organizer, tournament=tournament, release=True)
    _play(organizer, first)
    round_ = services.round_pair_next(actor=organizer, tournament=tournament)
    before = _labels(round_)
    plan = services.pairing_edit(actor=organizer, round_=round_, action="swap_first_move",
                                 board=1)
    after = _labels(round_)
    assert after[0] == before[0][::-1] and after[1:] == before[1:]
    event = TournamentEvent.objects.filter(kind=EventKind.PAIRING_EDITED).get()
    assert event.round_number == 2
    assert event.data["action"] == "swap_first_move"
    assert event.data["changes"] == [{"board": 1, "before": list(before[0]),
                                      "after": list(after[0])}]
    assert event.data["broken"] == plan.broken
    # swap the first movers of boards 1 and 2
    a1 = round_.pairings.get(board=1).entrant_a
    a2 = round_.pairings.get(board=2).entrant_a
    check = services.pairing_edit_check(round_=round_, action="swap_boards",
                                        entrants=[a1.pk, a2.pk])
    services.pairing_edit(actor=organizer, round_=round_, action="swap_boards",
                          entrants=[a1.pk, a2.pk])
    assert round_.pairings.get(board=1).entrant_a == a2
    assert round_.pairings.get(board=2).entrant_a == a1
    last = TournamentEvent.objects.filter(kind=EventKind.PAIRING_EDITED).latest("id")
    assert last.data == {"action": "swap_boards", "changes": check.changes,
                         "broken": check.broken}
    assert [c["board"] for c in last.data["changes"]] == [1, 2]
    assert set(last.data) == {"action", "changes", "broken"}


def test_an_edit_names_the_rules_it_breaks(make_tournament: Any, organizer: Any) -> None:
    tournament = _drafting(make_tournament, entrants=5)
    first = services.round_pair_next(actor=organizer, tournament=tournament, release=True)
    _play(organizer, first)
    met = first.pairings.filter(entrant_b__isnull=False).order_by("board")[0]
    assert met.entrant_b is not None
    pair = [met.entrant_b.pk, met.entrant_a.pk]
    bye = first.pairings.get(entrant_b__isnull=True).entrant_a
    round_ = services.round_pair_next(actor=organizer, tournament=tournament)
    # pair round 1's first board again, by hand: a repeat; their partners lose their boards
    plan = services.pairing_edit_check(round_=round_, action="manual",
                                       entrants=pair)
    rules = {item["rule"] for item in plan.broken}
    assert "repeat" in rules and "unpaired" in rules
    repeat = next(item for item in plan.broken if item["rule"] == "repeat")
    assert repeat["names"] == [met.entrant_b.name, met.entrant_a.name]
    services.pairing_edit(actor=organizer, round_=round_, action="manual",
                          entrants=pair)
    with pytest.raises(ApplicationError, match="have no board in round 2"):
        services.round_release(actor=organizer, round_=round_)
    # round 1's bye gets a second pairing-allocated bye
    if round_.pairings.filter(entrant_a=bye, entrant_b__isnull=True).exists() is False:
        again = services.pairing_edit_check(round_=round_, action="manual", entrants=[bye.pk])
        assert {"rule": "bye_again", "names": [bye.name]} in again.broken
    event = TournamentEvent.objects.filter(kind=EventKind.PAIRING_EDITED).get()
    assert event.data["action"] == "manual"
    assert any(item["rule"] == "repeat" for item in event.data["broken"])


def test_edits_are_refused_outside_a_swiss_and_after_results(make_tournament: Any,
                                                             organizer: Any) -> None:
    robin = make_tournament("round_robin", entrants=4)
    round_ = services.round_pair_next(actor=organizer, tournament=robin)
    with pytest.raises(ApplicationError, match="unpair the round and pair it again"):
        services.pairing_edit(actor=organizer, round_=round_, action="swap_first_move",
                              board=1)
    swiss = make_tournament("swiss", entrants=4, rounds_planned=3, match_format="single")
    played = services.round_pair_next(actor=organizer, tournament=swiss)
    board = played.pairings.get(board=2)
    match_result_record(actor=organizer, pairing=board, score=MatchScore(1, 0),
                        expected_version=board.version)
    with pytest.raises(ApplicationError, match="has a result on board 2"):
        services.pairing_edit(actor=organizer, round_=played, action="swap_first_move",
                              board=1)
    assert not TournamentEvent.objects.filter(kind=EventKind.PAIRING_EDITED).exists()


def test_the_round_page_releases_edits_and_unpairs(make_tournament: Any, organizer: Any,
                                                   client: Client) -> None:
    tournament = _drafting(make_tournament, baku_acceleration=True)
    round_ = services.round_pair_next(actor=organizer, tournament=tournament)
    client.force_login(organizer)
    url = reverse("admin:tournaments_round_change", args=[round_.pk])
    page = client.get(url).content.decode()
    assert 'id="round-draft"' in page and 'id="release-round"' in page
    assert 'id="unpair-round"' in page and 'id="edit-pairings"' in page
    assert "Baku acceleration: on" in page and "First move in round 1: Top seed moves" in page
    # an edit shows its changes first, then saves when confirmed
    edit = reverse("admin:tournaments_round_edit", args=[round_.pk])
    before = _labels(round_)
    preview = client.post(edit, {"action": "swap_first_move", "board": "2"})
    assert preview.status_code == 200 and 'id="confirm-edit"' in preview.content.decode()
    assert _labels(round_) == before
    client.post(edit, {"action": "swap_first_move", "board": "2", "confirm": "1"})
    assert _labels(round_)[1] == before[1][::-1]
    refused = client.post(edit, {"action": "swap_first_move", "board": "9"}, follow=True)
    assert "Choose a board of the round." in refused.content.decode()
    client.post(reverse("admin:tournaments_round_release", args=[round_.pk]))
    round_.refresh_from_db()
    assert round_.is_released
    page = client.get(url).content.decode()
    assert 'id="round-draft"' not in page and 'id="release-round"' not in page
    response = client.post(reverse("admin:tournaments_round_unpair", args=[round_.pk]))
    assert response.status_code == 302
    assert not Round.objects.filter(pk=round_.pk).exists()
    assert _kinds(tournament) == [EventKind.ROUND_PAIRED, EventKind.PAIRING_EDITED,
                                  EventKind.ROUND_RELEASED, EventKind.ROUND_UNPAIRED]


def test_the_round_page_tools_need_an_organizer(make_tournament: Any, organizer: Any,
                                                client: Client, club_b: Any) -> None:
    tournament = _drafting(make_tournament)
    round_ = services.round_pair_next(actor=organizer, tournament=tournament)
    client.force_login(club_b.organizers.get())
    response = client.post(reverse("admin:tournaments_round_release", args=[round_.pk]))
    assert response.status_code == 403
    round_.refresh_from_db()
    assert not round_.is_released
    assert Entrant.objects.filter(tournament=tournament).count() == 6


def test_a_draft_round_page_waits_for_the_release(make_tournament: Any, organizer: Any,
                                                  client: Client) -> None:
    """A draft's boxes are shown but closed: results come once the round is released."""
    tournament = _drafting(make_tournament)
    round_ = services.round_pair_next(actor=organizer, tournament=tournament)
    client.force_login(organizer)
    url = reverse("admin:tournaments_round_change", args=[round_.pk])
    page = client.get(url).content.decode()
    assert 'name="pairings-0-wins_a"' in page
    assert page.count("disabled") >= 3  # both scores and the outcome of the first board
    services.round_release(actor=organizer, round_=round_)
    assert "disabled" not in client.get(url).content.decode().split('id="pairings-group"')[1]


def test_another_clubs_organizer_cannot_open_a_draft_in_the_admin(
        make_tournament: Any, organizer: Any, client: Client, club_b: Any) -> None:
    tournament = _drafting(make_tournament)
    round_ = services.round_pair_next(actor=organizer, tournament=tournament)
    board = round_.pairings.order_by("board").first()
    assert board is not None
    client.force_login(club_b.organizers.get())
    round_url = reverse("admin:tournaments_round_change", args=[round_.pk])
    board_url = reverse("admin:tournaments_pairing_change", args=[board.pk])
    assert client.get(round_url).status_code == 302  # the admin's "does not exist" redirect
    assert client.get(board_url).status_code == 302
    services.round_release(actor=organizer, round_=round_)
    assert client.get(round_url).status_code == 200
    assert client.get(board_url).status_code == 200
