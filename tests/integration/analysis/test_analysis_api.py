"""The analysis API on PostgreSQL: a position answered now (good and bad input), and a
recorded game's analysis started by its club's organizers, run by the Celery task (eager
in the tests) exactly once, read with its progress."""

from __future__ import annotations

from typing import Any

import pytest

from analysis import services
from analysis.models import AnalysisStatus, GameAnalysis
from games.engines import get_engine
from tests.unit.analysis.exhaustive import blunder_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def blunder() -> tuple[dict[str, Any], int, set[str]]:
    record, number, _, _, better, _ = blunder_game(3)
    return record, number, better


@pytest.fixture
def recorded_game(make_event: Any, organizer: Any, blunder: Any) -> Any:
    from matches.models import Game
    from matches.services.games import game_entry_record
    from tournaments import services as tournament_services

    tournament = make_event(game="kugamai")
    round_ = tournament_services.round_pair_next(actor=organizer, tournament=tournament,
                                                 release=True)
    pairing = round_.pairings.exclude(entrant_b=None).order_by("board").first()
    assert pairing is not None
    game_entry_record(actor=organizer, pairing=pairing, expected_version=pairing.version,
                      record=blunder[0])
    return Game.objects.get(pairing=pairing, number=1)


def test_a_state_document_is_analysed(api: Any) -> None:
    engine = get_engine("kugamai")
    state = engine.play(engine.new_game(seed=3), "0-0")
    answer = api.post("/api/analysis/", {"state": engine.to_dict(state)}, format="json")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["method"] == "exact" and body["exact"] is True
    assert {move["move"] for move in body["moves"]} == set(engine.legal_moves(state))
    assert body["outcome"] in ("win", "draw", "loss")
    assert body["best_moves"] and all(
        move["value"] == body["value"] for move in body["moves"] if move["best"])


def test_a_record_and_move_number_are_analysed(api: Any, blunder: Any) -> None:
    record, number, better = blunder
    answer = api.post("/api/analysis/", {"record": record, "move": number - 1}, format="json")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["move_number"] == number - 1
    assert set(body["best_moves"]) == better
    played = next(move for move in body["moves"] if move["move"] == record["moves"][number - 1])
    assert played["value"] < body["value"]


def test_kazambi_and_stolbiki_answer_with_search_values(api: Any) -> None:
    kazambi = get_engine("kazambi")
    answer = api.post("/api/analysis/", {"state": kazambi.to_dict(kazambi.new_game(seed=1)),
                                         "iterations": 200, "seed": 5}, format="json")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["method"] == "mcts" and body["iterations"] == 200 and body["seed"] == 5
    assert all("visits" in move and "win_rate" in move for move in body["moves"])
    stolbiki = get_engine("stolbiki")
    state = stolbiki.new_game(seed=2)
    answer = api.post("/api/analysis/", {"state": stolbiki.to_dict(state), "iterations": 300},
                      format="json")
    body = answer.json()
    assert answer.status_code == 200 and body["method"] == "sampling"
    assert body["information"] == "observed"
    assert all("points" in move and "opponent_points" in move for move in body["moves"])


@pytest.mark.parametrize(("payload", "field", "words"), [
    ({}, "record", "either a state document or a game record"),
    ({"state": {"game": "chess"}}, "state", "must be one of"),
    ({"state": {"game": "kugamai", "hands": "nonsense"}}, "state", "not valid"),
    ({"state": [1, 2]}, "state", "JSON object"),
    ({"record": {"game": "kugamai"}}, "move", "move number"),
    ({"record": {"game": "kugamai"}, "move": -1}, "move", "greater than or equal to 0"),
    ({"state": {"game": "kugamai"}, "iterations": 10**6}, "iterations", "less than or equal"),
    ({"state": {"game": "kugamai"}, "seed": "x"}, "seed", "valid integer"),
])
def test_bad_input_is_a_400_naming_the_field(api: Any, payload: dict[str, Any], field: str,
                                              words: str) -> None:
    answer = api.post("/api/analysis/", payload, format="json")
    assert answer.status_code == 400, answer.content
    body = answer.json()
    assert field in body["errors"], body
    assert words in body["detail"] or words in str(body["errors"][field]), body


def test_an_illegal_record_names_the_move_number_and_the_rule(api: Any) -> None:
    engine = get_engine("kugamai")
    record = engine.record(engine.new_game(seed=1))
    record["moves"] = ["0-0", "6-6"]
    answer = api.post("/api/analysis/", {"record": record, "move": 1}, format="json")
    assert answer.status_code == 400
    message = answer.json()["errors"]["record"][0]
    assert message.startswith("move 2 (6-6) is illegal: ")
    record["moves"] = ["0-0"] * 401
    answer = api.post("/api/analysis/", {"record": record, "move": 1}, format="json")
    assert answer.status_code == 400 and "at most 400" in answer.json()["errors"]["record"][0]
    record["moves"] = ["0-0"]
    answer = api.post("/api/analysis/", {"record": record, "move": 2}, format="json")
    assert answer.status_code == 400 and "from 0 to 1" in answer.json()["errors"]["move"][0]


def test_only_the_clubs_organizers_and_staff_start_a_game_analysis(
        api: Any, as_user: Any, make_user: Any, club_b: Any, recorded_game: Any) -> None:
    url = f"/api/games/{recorded_game.pk}/analysis/"
    assert api.post(url, {}, format="json").status_code in (401, 403)
    assert api.get(url).status_code == 404  # nothing started
    stranger = club_b.organizers.get()
    assert as_user(stranger).post(url, {}, format="json").status_code == 403
    assert as_user(make_user("plain")).post(url, {}, format="json").status_code == 403
    assert not GameAnalysis.objects.exists()
    staff = make_user("staffer", is_staff=True)
    assert as_user(staff).post(url, {"iterations": 0}, format="json").status_code == 400
    assert not GameAnalysis.objects.exists()


def test_a_game_analysis_runs_once_and_marks_the_blunder(
        api: Any, as_user: Any, organizer: Any, recorded_game: Any, blunder: Any,
        django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    record, number, better = blunder
    runs: list[int] = []
    real_run = services.game_analysis_run

    def counted_run(pk: int) -> str:
        runs.append(pk)
        return real_run(pk)

    monkeypatch.setattr(services, "game_analysis_run", counted_run)
    url = f"/api/games/{recorded_game.pk}/analysis/"
    client = as_user(organizer)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        answer = client.post(url, {"iterations": 100}, format="json")
    assert answer.status_code == 202, answer.content
    assert len(callbacks) == 1 and len(runs) == 1  # the eager task ran the service
    body = api.get(url).json()
    assert body["status"] == "done" and body["progress"] == 1.0
    assert body["moves_done"] == body["moves_total"] == len(record["moves"])
    assert body["started_at"] and body["finished_at"]
    note = body["result"]["moves"][number - 1]
    assert note["blunder"] is True and note["better_move"] in better
    assert number in body["result"]["blunders"]
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        again = client.post(url, {}, format="json")
    assert again.status_code == 200 and callbacks == [] and len(runs) == 1
    assert services.game_analysis_run(body["id"]) == "skipped"
    assert GameAnalysis.objects.count() == 1


def test_a_failed_analysis_is_started_again_and_a_queued_one_is_not(
        organizer: Any, recorded_game: Any, django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        analysis, queued = services.game_analysis_start(actor=organizer, game=recorded_game)
        again, queued_again = services.game_analysis_start(actor=organizer, game=recorded_game)
    assert queued and not queued_again and again.pk == analysis.pk and len(callbacks) == 1
    assert analysis.status == AnalysisStatus.QUEUED and analysis.moves_total > 0
    GameAnalysis.objects.filter(pk=analysis.pk).update(status=AnalysisStatus.FAILED,
                                                       message="worker lost")
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        restarted, queued = services.game_analysis_start(actor=organizer, game=recorded_game,
                                                         iterations=50)
    assert queued and len(callbacks) == 1
    restarted.refresh_from_db()
    assert restarted.status == AnalysisStatus.DONE and restarted.message == ""
    assert restarted.iterations == 50


def test_the_viewer_marks_the_stored_blunder(client: Any, organizer: Any, recorded_game: Any,
                                            blunder: Any) -> None:
    record, number, better = blunder
    page = client.get(f"/games/{recorded_game.pk}/").content.decode()
    assert 'id="analysis-panel"' in page and "analysis.js" in page and "blunder-mark" not in page
    analysis, _ = services.game_analysis_start(actor=organizer, game=recorded_game,
                                               iterations=50)
    services.game_analysis_run(analysis.pk)
    page = client.get(f"/games/{recorded_game.pk}/").content.decode()
    assert page.count('class="blunder-mark"') >= 1
    played = record["moves"][number - 1]
    assert f'data-step-link="{number}">{played}</button> <span class="blunder-mark"' in page
    marked = page.split(f'data-step-link="{number}">')[1].split("</li>")[0]
    assert any(f"better {move}" in marked for move in better)
    assert "exact blunder" in page


@pytest.mark.django_db(transaction=True)
def test_two_organizers_starting_at_once_queue_one_analysis(
        organizer: Any, recorded_game: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Threads on two database connections: the game row's lock orders them, the second
    finds the first one's analysis and queues nothing."""
    import threading

    from django.db import connection

    published: list[int] = []
    monkeypatch.setattr(services, "_publish", published.append)
    barrier = threading.Barrier(2)
    outcomes: list[bool] = []

    def start() -> None:
        try:
            barrier.wait()
            outcomes.append(services.game_analysis_start(actor=organizer, game=recorded_game)[1])
        finally:
            connection.close()

    threads = [threading.Thread(target=start) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(outcomes) == [False, True]
    assert GameAnalysis.objects.count() == 1 and len(published) == 1
