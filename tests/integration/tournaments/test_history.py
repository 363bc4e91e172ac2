"""The tournament's history: every service writes its line (right facts, right actor)
inside its transaction, a refused step writes nothing, and the lines are worded in the
reader's language."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from core.errors import ApplicationError, ConflictError
from games.series import MatchScore
from matches.services import match_result_record
from matches.services.games import game_delete, game_entry_record
from matches.services.imports import tournament_import_trf, trf_import_preview
from players.models import Player
from players.permissions import SYSTEM
from tests.trf_samples import club_swiss_trf
from tournaments import services
from tournaments.entry_lists import EntryRow
from tournaments.history import EventKind, describe, record
from tournaments.models import Outcome, TournamentEvent
from tournaments.services.rounds import round_clock_update

pytestmark = pytest.mark.django_db


def lines(tournament: Any, kind: str) -> list[TournamentEvent]:
    return list(TournamentEvent.objects.filter(tournament=tournament, kind=kind)
                .order_by("id"))


def only(tournament: Any, kind: str) -> TournamentEvent:
    found = lines(tournament, kind)
    assert len(found) == 1, [describe(event) for event in found]
    return found[0]


def refused(call: Any, tournament: Any) -> None:
    """``call`` is refused and leaves the history as it was."""
    before = TournamentEvent.objects.filter(tournament=tournament).count()
    with pytest.raises((ApplicationError, ConflictError)):
        call()
    assert TournamentEvent.objects.filter(tournament=tournament).count() == before


# -- the tournament's lifecycle -----------------------------------------------------------


def test_created_opened_started_finished_reopened(make_tournament: Any, play_round: Any,
                                                   organizer: Any) -> None:
    tournament = make_tournament("round_robin", entrants=2, start=False)
    created = only(tournament, EventKind.TOURNAMENT_CREATED)
    assert created.data == {"name": "round_robin cup", "game": "kugamai",
                            "format": "round_robin"}
    assert created.actor == organizer and created.actor_name == organizer.username
    assert describe(created) == "Tournament round_robin cup created (Kugamai, Round robin)."

    services.tournament_open_registration(actor=organizer, tournament=tournament)
    assert describe(only(tournament, EventKind.REGISTRATION_OPENED)) == "Registration opened."
    refused(lambda: services.tournament_open_registration(actor=organizer,
                                                          tournament=tournament), tournament)

    tournament = services.tournament_start(actor=organizer, tournament=tournament)
    started = only(tournament, EventKind.TOURNAMENT_STARTED)
    assert started.data == {"entrants": 2}
    assert describe(started) == "Tournament started with 2 entrants; the seeds are fixed."

    round_ = services.round_pair_next(actor=organizer, tournament=tournament)
    refused(lambda: services.tournament_finish(actor=organizer, tournament=tournament),
            tournament)
    pairing = round_.pairings.get()
    match_result_record(actor=organizer, pairing=pairing, expected_version=pairing.version,
                        score=MatchScore(1, 0))
    services.tournament_finish(actor=organizer, tournament=tournament)
    assert describe(only(tournament, EventKind.TOURNAMENT_FINISHED)) == "Tournament finished."

    refused(lambda: services.tournament_reopen(actor=organizer, tournament=tournament,
                                               reason="  "), tournament)
    services.tournament_reopen(actor=organizer, tournament=tournament,
                               reason="board 1 was scored the wrong way")
    reopened = only(tournament, EventKind.TOURNAMENT_REOPENED)
    assert reopened.data == {"reason": "board 1 was scored the wrong way"}
    assert describe(reopened) == "Tournament reopened: board 1 was scored the wrong way"


def test_settings_changes_name_each_field_with_old_and_new_values(
        make_tournament: Any, organizer: Any) -> None:
    tournament = make_tournament("swiss", entrants=4, start=False, rounds_planned=3)
    services.tournament_update(actor=organizer, tournament=tournament, points_draw="0.25",
                               match_format="bo3", rounds_planned=3)
    line = only(tournament, EventKind.SETTINGS_CHANGED)
    assert line.data["changes"] == [
        {"field": "match_format", "before": {"kind": "single", "games": 1, "max_games": None,
                                             "duplicate": False},
         "after": {"kind": "best_of", "games": 3, "max_games": None, "duplicate": False}},
        {"field": "points_draw", "before": "0.5", "after": "0.25"},
    ]
    assert describe(line) == ("Settings changed: match format: a single game → best of 3; "
                              "points for a draw: 0.5 → 0.25.")
    with translation.override("ru"):
        assert describe(line) == ("Настройки изменены: формат матча: одна партия → "
                                  "большинство побед из 3; очки за ничью: 0.5 → 0.25.")
    services.tournament_update(actor=organizer, tournament=tournament, rounds_planned=3)
    assert len(lines(tournament, EventKind.SETTINGS_CHANGED)) == 1  # nothing changed
    refused(lambda: services.tournament_update(actor=organizer, tournament=tournament,
                                               points_draw="7"), tournament)


# -- entries ------------------------------------------------------------------------------


def test_registration_late_entry_with_byes_and_a_refusal(make_tournament: Any, play_round: Any,
                                                         organizer: Any, club_a: Any) -> None:
    tournament = make_tournament("swiss", entrants=4, rounds_planned=4)
    first = lines(tournament, EventKind.ENTRANT_REGISTERED)[0]
    assert first.data == {"name": "Player 1", "rating": 2000, "joined_round": 1, "byes": 0}
    assert describe(first) == "Player 1 entered (rating 2000)."
    play_round(tournament)
    play_round(tournament)
    late = Player.objects.create(display_name="Late Larry", club=club_a)
    services.entrant_register(actor=organizer, tournament=tournament, player=late,
                              rating=1500, late_byes="half_point")
    line = lines(tournament, EventKind.ENTRANT_REGISTERED)[-1]
    assert line.data == {"name": "Late Larry", "rating": 1500, "joined_round": 3, "byes": 2}
    assert describe(line) == ("Late Larry entered late, from round 3 (rating 1500). "
                              "2 half-point byes for the rounds missed.")
    with translation.override("ru"):
        assert describe(line) == ("Поздняя заявка: Late Larry, с тура 3 (рейтинг 1500). "
                                  "2 пропущенных тура засчитаны как пропуски с половиной "
                                  "очка.")
    refused(lambda: services.entrant_register(actor=organizer, tournament=tournament,
                                              player=late), tournament)


def test_remove_withdraw_reenter_and_ratings(make_tournament: Any, organizer: Any) -> None:
    tournament = make_tournament("swiss", entrants=5, start=False, rounds_planned=3)
    entrants = list(tournament.entrants.select_related("player").order_by("id"))
    services.entrant_ratings_update(actor=organizer, tournament=tournament,
                                    ratings={entrants[0].pk: 1234, entrants[1].pk: 1990})
    ratings = only(tournament, EventKind.RATINGS_CHANGED)
    assert ratings.data == {"changes": [{"name": "Player 1", "before": 2000, "after": 1234}]}
    assert describe(ratings) == "Rating at entry changed: Player 1 2000 → 1234."
    services.entrant_remove(actor=organizer, entrant=entrants[4])
    assert describe(only(tournament, EventKind.ENTRANT_REMOVED)) == \
        "Entry of Player 5 taken back."
    tournament = services.tournament_start(actor=organizer, tournament=tournament)
    refused(lambda: services.entrant_remove(actor=organizer, entrant=entrants[3]), tournament)
    refused(lambda: services.entrant_ratings_update(
        actor=organizer, tournament=tournament, ratings={entrants[0].pk: 1}), tournament)
    services.entrant_withdraw(actor=organizer, entrant=entrants[3], from_round=2)
    withdrawn = only(tournament, EventKind.ENTRANT_WITHDRAWN)
    assert withdrawn.data == {"name": "Player 4", "from_round": 2}
    assert describe(withdrawn) == "Player 4 withdrawn from round 2."
    refused(lambda: services.entrant_withdraw(actor=organizer, entrant=entrants[3]),
            tournament)
    services.entrant_reenter(actor=organizer, entrant=entrants[3])
    assert describe(only(tournament, EventKind.ENTRANT_REENTERED)) == \
        "Player 4 entered again from round 1."


def test_byes_and_forbidden_pairs(make_tournament: Any, organizer: Any,
                                  play_round: Any) -> None:
    tournament = make_tournament("swiss", entrants=4, rounds_planned=3)
    anna, boris = list(tournament.entrants.select_related("player").order_by("seed"))[:2]
    services.bye_request(actor=organizer, entrant=anna, round_number=2)
    services.bye_request(actor=organizer, entrant=anna, round_number=2, kind="zero")
    services.bye_request(actor=organizer, entrant=anna, round_number=2, kind="zero")
    requested = lines(tournament, EventKind.BYE_REQUESTED)
    assert [line.data for line in requested] == [
        {"name": "Player 1", "bye": "half_point", "was": ""},
        {"name": "Player 1", "bye": "zero", "was": "half_point"}]
    assert requested[0].round_number == 2
    assert describe(requested[1]) == ("Player 1 gets a zero-point bye in round 2. (It was a "
                                      "half-point bye.)")
    services.bye_cancel(actor=organizer, bye=anna.requested_byes.get())
    assert describe(only(tournament, EventKind.BYE_CANCELLED)) == \
        "Player 1 no longer gets a zero-point bye in round 2."
    refused(lambda: services.bye_request(actor=organizer, entrant=anna, round_number=9),
            tournament)

    forbidden = services.forbid_pairing(actor=organizer, tournament=tournament,
                                        entrant_a=anna, entrant_b=boris)
    added = only(tournament, EventKind.FORBIDDEN_PAIR_ADDED)
    assert added.data == {"names": ["Player 1", "Player 2"]}
    assert describe(added) == "Player 1 and Player 2 must not be paired together."
    services.forbidden_pairing_remove(actor=organizer, forbidden=forbidden)
    assert describe(only(tournament, EventKind.FORBIDDEN_PAIR_REMOVED)) == \
        "Player 1 and Player 2 may be paired together again."
    refused(lambda: services.forbid_pairing(actor=organizer, tournament=tournament,
                                            entrant_a=anna, entrant_b=anna), tournament)


def test_an_entry_list_is_one_line(make_tournament: Any, organizer: Any) -> None:
    tournament = make_tournament("swiss", entrants=0, start=False, rounds_planned=3)
    rows = [EntryRow(line=2, name="Anna Kowalska", rating=1800),
            EntryRow(line=3, name="Boris Ivanov")]
    services.entry_list_register(actor=organizer, tournament=tournament, rows=rows,
                                 file_name="club.csv")
    assert lines(tournament, EventKind.ENTRANT_REGISTERED) == []
    line = only(tournament, EventKind.ENTRY_LIST_UPLOADED)
    assert line.data == {"file": "club.csv", "count": 2, "new_players": 2,
                         "names": ["Anna Kowalska", "Boris Ivanov"]}
    assert describe(line) == ("Entry list club.csv: 2 entered (Anna Kowalska, Boris Ivanov). "
                              "2 new players created.")
    refused(lambda: services.entry_list_register(actor=organizer, tournament=tournament,
                                                 rows=rows), tournament)


def test_a_trf_import_is_one_line_and_its_preview_none(organizer: Any, club_a: Any) -> None:
    text = club_swiss_trf(rounds=2)
    trf_import_preview(actor=organizer, club=club_a, text=text)
    assert not TournamentEvent.objects.exists()
    tournament = tournament_import_trf(actor=organizer, club=club_a, text=text,
                                       file_name="spring.trf")
    line = TournamentEvent.objects.get(tournament=tournament)
    assert line.kind == EventKind.TRF_IMPORTED and line.actor == organizer
    players = tournament.entrants.count()
    assert line.data == {"file": "spring.trf", "players": players, "rounds": 2,
                         "results": line.data["results"]}
    assert line.data["results"] > 0
    assert describe(line).startswith(f"Imported from the TRF file spring.trf: {players} "
                                     "players, 2 rounds, ")


# -- rounds, results and games ------------------------------------------------------------


def test_round_paired_and_its_clock(make_tournament: Any, organizer: Any,
                                    play_round: Any) -> None:
    tournament = make_tournament("round_robin", entrants=4)
    round_ = services.round_pair_next(actor=organizer, tournament=tournament)
    paired = only(tournament, EventKind.ROUND_PAIRED)
    assert (paired.round_number, paired.data, paired.actor) == (1, {"boards": 2}, organizer)
    assert describe(paired) == "Round 1 paired (2 boards)."
    refused(lambda: services.round_pair_next(actor=organizer, tournament=tournament),
            tournament)
    round_.clock = "25+5"  # as the admin's form sets it before the service runs
    round_clock_update(actor=organizer, round_=round_, clock="25+5", time_slot_minutes=90)
    clock = only(tournament, EventKind.ROUND_CLOCK_CHANGED)
    assert clock.data == {"before": {"clock": "", "slot": None},
                          "after": {"clock": "25+5", "slot": 90}}
    assert describe(clock) == ("Round 1: clock the tournament's → 25+5; time slot none → "
                               "90 minutes.")
    refused(lambda: round_clock_update(actor=organizer, round_=round_, clock="x",
                                       time_slot_minutes=None), tournament)


def test_results_recorded_and_changed_in_words(make_tournament: Any, organizer: Any,
                                               play_round: Any) -> None:
    tournament = make_tournament("swiss", entrants=4, rounds_planned=3, match_format="bo3")
    round_ = services.round_pair_next(actor=organizer, tournament=tournament)
    board = round_.pairings.select_related("entrant_a__player", "entrant_b__player") \
        .get(board=1)
    assert board.entrant_b is not None
    a, b = f"1 {board.entrant_a.name}", f"3 {board.entrant_b.name}"
    recorded = match_result_record(actor=organizer, pairing=board, score=MatchScore(1, 2),
                                   expected_version=board.version).pairing
    line = only(tournament, EventKind.RESULT_RECORDED)
    assert (line.round_number, line.board, line.actor) == (1, 1, organizer)
    assert line.data == {"a": a, "b": b,
                         "before": {"outcome": "pending", "wins_a": 0, "wins_b": 0, "draws": 0},
                         "after": {"outcome": "b_wins", "wins_a": 1, "wins_b": 2, "draws": 0}}
    assert describe(line) == f"Board 1: 1-2 ({a} – {b})."
    refused(lambda: match_result_record(actor=organizer, pairing=board, score=MatchScore(2, 1),
                                        expected_version=board.version), tournament)
    match_result_record(actor=organizer, pairing=board, score=MatchScore(2, 1),
                        expected_version=recorded.version)
    changed = only(tournament, EventKind.RESULT_CHANGED)
    assert describe(changed) == f"Board 1: 1-2 → 2-1 ({a} – {b})."
    match_result_record(actor=organizer, pairing=board, outcome=Outcome.B_FORFEIT_WIN,
                        expected_version=recorded.version + 1)
    forfeit = lines(tournament, EventKind.RESULT_CHANGED)[-1]
    assert describe(forfeit) == f"Board 1: 2-1 → forfeit, {b} wins ({a} – {b})."
    with translation.override("ru"):
        assert describe(changed) == f"Доска 1: 1-2 → 2-1 ({a} – {b})."
        assert describe(forfeit) == f"Доска 1: 2-1 → неявка, побеждает {b} ({a} – {b})."
    change = board.changes.order_by("id").last()
    assert change is not None
    assert change.change_text() == f"2-1 → forfeit, {board.entrant_b.name} wins"
    assert "{" not in str(change)


def test_games_added_and_deleted(make_tournament: Any, organizer: Any) -> None:
    tournament = make_tournament("round_robin", entrants=2, match_format="bo3")
    board = services.round_pair_next(actor=organizer, tournament=tournament).pairings.get()
    game_entry_record(actor=organizer, pairing=board, expected_version=board.version,
                      result="a")
    board.refresh_from_db()
    second = game_entry_record(actor=organizer, pairing=board, expected_version=board.version,
                               result="b", termination="time_forfeit").game
    added = lines(tournament, EventKind.GAME_ADDED)
    assert [(line.board, line.data["number"], line.data["winner"]) for line in added] == [
        (1, 1, "a"), (1, 2, "b")]
    assert describe(added[1]) == "Board 1, game 2: 2 Player 2 wins on time."
    first = board.games.get(number=1)
    game_delete(actor=organizer, game=first)
    deleted = only(tournament, EventKind.GAME_DELETED)
    assert deleted.data["renumbered"] == 1
    assert describe(deleted) == ("Board 1: game 1 deleted (it was 1 Player 1 wins). "
                                 "1 later game renumbered.")
    second.refresh_from_db()
    assert second.number == 1
    board.refresh_from_db()
    refused(lambda: game_entry_record(actor=organizer, pairing=board,
                                      expected_version=board.version - 1, result="a"),
            tournament)


def test_the_system_writes_lines_without_a_user(make_tournament: Any) -> None:
    tournament = make_tournament("round_robin", entrants=2)
    line = record(tournament, EventKind.ROUND_RELEASED, actor=SYSTEM, round_number=1)
    assert line is not None and line.actor is None and line.actor_name == "system"


# -- words for the kinds the release helper writes ----------------------------------------


def test_release_unpair_and_pairing_edits_in_words(make_tournament: Any,
                                                   organizer: Any) -> None:
    tournament = make_tournament("round_robin", entrants=2)
    released = record(tournament, EventKind.ROUND_RELEASED, actor=organizer, round_number=3)
    unpaired = record(tournament, EventKind.ROUND_UNPAIRED, actor=organizer, round_number=3,
                      boards=5)
    edited = record(tournament, EventKind.PAIRING_EDITED, actor=organizer, round_number=3,
                    action="swap_first_move",
                    changes=[{"board": 3, "before": ["1 Anna", "2 Boris"],
                              "after": ["2 Boris", "1 Anna"]}],
                    broken=[{"rule": "repeat", "names": ["Anna", "Boris"]},
                            {"rule": "same_colour_three", "names": ["Boris"]}])
    by_hand = record(tournament, EventKind.PAIRING_EDITED, actor=organizer, round_number=3,
                     action="manual", changes=[{"board": 4, "before": ["3 Carl", ""],
                                                "after": ["3 Carl", "4 Dora"]}], broken=[])
    assert released is not None and unpaired is not None
    assert edited is not None and by_hand is not None
    assert describe(released) == "Round 3 released."
    assert describe(unpaired) == "Round 3 unpaired (5 boards removed)."
    assert describe(edited) == (
        "First move swapped. Board 3: 1 Anna – 2 Boris → 2 Boris – 1 Anna (breaks: Anna and "
        "Boris have met before; Boris would move first (or second) three rounds in a row)")
    assert describe(by_hand) == "Pairing made by hand. Board 4: 3 Carl – bye → 3 Carl – 4 Dora"
    with translation.override("ru"):
        assert describe(released) == "Тур 3 опубликован."
        assert describe(unpaired) == "Жеребьёвка тура 3 отменена (удалено 5 досок)."
        assert describe(edited) == (
            "Первый ход переставлен. Доска 3: 1 Anna – 2 Boris → 2 Boris – 1 Anna "
            "(нарушено: Anna и Boris уже встречались; у Boris был бы один и тот же первый "
            "ход три тура подряд)")


def test_every_kind_has_words_in_english_and_russian() -> None:
    from tournaments.history import DESCRIBERS, KIND_LABELS

    kinds = {value for name, value in vars(EventKind).items() if name.isupper()}
    assert kinds <= set(DESCRIBERS) == set(KIND_LABELS)  # the floors above add theirs
    kinds = set(DESCRIBERS)
    for kind in kinds:
        event = TournamentEvent(kind=kind, round_number=2, board=1, data={})
        english = describe(event)
        with translation.override("ru"):
            russian = describe(event)
            label = str(KIND_LABELS[kind])
        assert english and russian != english, kind
        assert any("а" <= char <= "я" for char in russian.lower() + label.lower()), kind


def test_plural_forms_in_russian(make_tournament: Any, organizer: Any) -> None:
    tournament = make_tournament("round_robin", entrants=2)
    words = []
    for boards in (1, 3, 5, 21):
        event = record(tournament, EventKind.ROUND_PAIRED, actor=organizer, round_number=2,
                       boards=boards)
        assert event is not None
        with translation.override("ru"):
            words.append(describe(event))
    assert words == ["Жеребьёвка тура 2 проведена (1 доска).",
                     "Жеребьёвка тура 2 проведена (3 доски).",
                     "Жеребьёвка тура 2 проведена (5 досок).",
                     "Жеребьёвка тура 2 проведена (21 доска)."]


def test_the_admin_upload_keeps_the_file_name_through_its_preview(
        client: Any, organizer: Any, make_tournament: Any) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.urls import reverse

    tournament = make_tournament("swiss", entrants=0, start=False, rounds_planned=3)
    url = reverse("admin:tournaments_tournament_entrants", args=[tournament.pk])
    client.force_login(organizer)
    upload = SimpleUploadedFile("spring-open.csv", b"name,rating\nAnna Kowalska,1800\n")
    preview = client.post(url, {"action": "upload", "file": upload}).content.decode()
    assert 'name="file_name" value="spring-open.csv"' in preview
    client.post(url, {"action": "upload_confirm", "text": "name,rating\nAnna Kowalska,1800\n",
                      "file_name": "spring-open.csv", "late_byes": "zero"})
    line = only(tournament, EventKind.ENTRY_LIST_UPLOADED)
    assert line.data["file"] == "spring-open.csv" and line.actor == organizer
