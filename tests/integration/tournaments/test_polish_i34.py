"""Issue 34's leftovers in the admin (Django test client): game names from the games' facts
instead of their registered names, game options in words, Django's blank choice in Russian,
no draws where the game has none, and the other small defects of the walk-through."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

SLUGS = ("kazambi", "anti-kazambi", "kazambi-pairs", "anti-kazambi-pairs", "kugamai",
         "stolbiki")


@pytest.fixture
def client_of() -> Any:
    def login(user: Any) -> Client:
        client = Client()
        client.force_login(user)
        return client

    return login


def visible(page: str) -> str:
    """The page's text as read: no scripts, styles, attributes or tags."""
    page = re.sub(r"<(script|style)\b.*?</\1>", "", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]*>", "\n", page))


def slugs_in(text: str) -> set[str]:
    return {slug for slug in SLUGS if re.search(rf"(?<![\w-]){slug}(?![\w-])", text)}


@pytest.mark.parametrize("language", ["en", "ru"])
def test_people_read_game_labels_not_registered_names(
        language: str, admin_user: Any, client_of: Any, make_tournament: Any,
        play_round: Any) -> None:
    tournament = make_tournament("round_robin", entrants=2, game="kazambi")
    play_round(tournament)
    client = client_of(admin_user)
    for url in ("/admin/tournaments/tournament/", "/admin/tournaments/tournament/add/",
                f"/admin/tournaments/tournament/{tournament.pk}/change/",
                "/admin/matches/game/", "/admin/ratings/rating/",
                "/admin/ratings/ratingchange/"):
        page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert not slugs_in(visible(page)), url
    page = client.get("/admin/tournaments/tournament/add/",
                      HTTP_ACCEPT_LANGUAGE=language).content.decode()
    label = "Казамби мизер парами" if language == "ru" else "Anti-Kazambi pairs"
    assert f'value="anti-kazambi-pairs">{label}' in page


def test_the_dashboard_words_the_game_options(organizer: Any, client_of: Any,
                                              make_tournament: Any) -> None:
    tournament = make_tournament("round_robin", entrants=2, game="kazambi",
                                 game_options={"rows": 7, "cols": 8})
    url = f"/admin/tournaments/tournament/{tournament.pk}/dashboard/"
    client = client_of(organizer)
    english = visible(client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode())
    russian = visible(client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode())
    assert "rows 7" not in english and "board 7 × 8" in english
    assert "rows 7" not in russian and "доска 7 × 8" in russian


def test_the_blank_choice_is_russian_in_russian(organizer: Any, client_of: Any) -> None:
    page = client_of(organizer).get("/admin/tournaments/tournament/add/",
                                    HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Select an option" not in page and "— выберите —" in page


def _kazambi_and_kugamai(make_tournament: Any, play_round: Any, organizer: Any) -> Any:
    from tournaments import services

    kazambi = make_tournament("round_robin", entrants=4, game="kazambi")
    kugamai = make_tournament("round_robin", entrants=4, game="kugamai")
    play_round(kazambi)
    play_round(kugamai)
    return [services.round_pair_next(actor=organizer, tournament=t) for t in (kazambi, kugamai)]


def test_kazambi_pages_offer_no_draws(organizer: Any, client_of: Any, make_tournament: Any,
                                      play_round: Any) -> None:
    """The game's facts say Kazambi has no draws: no drawn-games box and no Draw outcome on
    the round page, no draw on the slips, the game entry or the board's page; Kugamai keeps
    them all."""
    client = client_of(organizer)
    for round_, draws in zip(_kazambi_and_kugamai(make_tournament, play_round, organizer),
                             (False, True), strict=True):
        board = round_.pairings.exclude(entrant_b=None).first()
        pages = {
            "round": client.get(f"/admin/tournaments/round/{round_.pk}/change/"),
            "slips": client.get(f"/admin/tournaments/round/{round_.pk}/slips/"),
            "add game": client.get(f"/admin/tournaments/pairing/{board.pk}/add-game/"),
            "board": client.get(f"/admin/tournaments/pairing/{board.pk}/change/"),
        }
        text = {name: response.content.decode() for name, response in pages.items()}
        assert ('name="pairings-0-draws"' in text["round"]) is draws
        assert ('<option value="draw">' in text["round"]) is draws
        assert ("½ each for a draw" in text["slips"]) is draws
        assert ('<option value="draw">' in text["add game"]) is draws
        assert ("field-draws" in text["board"]) is draws
        if not draws:
            assert "Kazambi has no draws" in text["slips"]


def test_a_kazambi_round_saves_without_a_draws_box(organizer: Any, client_of: Any,
                                                   make_tournament: Any) -> None:
    from tournaments import services

    tournament = make_tournament("round_robin", entrants=2, game="kazambi")
    round_ = services.round_pair_next(actor=organizer, tournament=tournament)
    board = round_.pairings.get()
    data = {"pairings-TOTAL_FORMS": "1", "pairings-INITIAL_FORMS": "1",
            "pairings-MIN_NUM_FORMS": "0", "pairings-MAX_NUM_FORMS": "0",
            "pairings-0-id": board.pk, "pairings-0-round": round_.pk,
            "pairings-0-version": board.version, "pairings-0-wins_a": "1",
            "pairings-0-wins_b": "0", "pairings-0-outcome": "pending",
            "clock": "", "time_slot_minutes": ""}
    client_of(organizer).post(f"/admin/tournaments/round/{round_.pk}/change/", data)
    board.refresh_from_db()
    assert board.outcome == "a_wins"
    game = board.games.get()
    assert game.order_recorded  # one game: it is game 1, there is no order to lose


def test_the_public_table_explains_no_drawn_match_for_kazambi(
        organizer: Any, make_tournament: Any, play_round: Any) -> None:
    kazambi = make_tournament("round_robin", entrants=4, game="kazambi")
    play_round(kazambi)
    page = Client().get(f"/tournaments/{kazambi.club.slug}/{kazambi.slug}/table/")
    legend = re.search(r'<dl class="legend".*?</dl>', page.content.decode(), re.S)
    assert legend and "<dt>½</dt>" not in legend.group(0) and "<dt>1</dt>" in legend.group(0)


def test_a_single_game_match_does_not_say_order_not_recorded(
        organizer: Any, make_tournament: Any, play_round: Any) -> None:
    kazambi = make_tournament("round_robin", entrants=4, game="kazambi")
    play_round(kazambi)
    page = Client().get(f"/tournaments/{kazambi.club.slug}/{kazambi.slug}/rounds/1/")
    assert page.status_code == 200
    assert "order not recorded" not in visible(page.content.decode())


def test_before_round_one_has_results_the_dashboard_shows_the_starting_list(
        organizer: Any, client_of: Any, make_tournament: Any) -> None:
    from tournaments import services

    tournament = make_tournament("swiss", entrants=4, rounds_planned=3)
    services.round_pair_next(actor=organizer, tournament=tournament)
    page = visible(client_of(organizer).get(
        f"/admin/tournaments/tournament/{tournament.pk}/dashboard/").content.decode())
    assert "after round 0" not in page and "Starting list" in page


def test_a_negative_number_does_not_hide_other_boards_errors(
        organizer: Any, client_of: Any, make_tournament: Any) -> None:
    from tournaments import services

    tournament = make_tournament("round_robin", entrants=4, game="kugamai")
    round_ = services.round_pair_next(actor=organizer, tournament=tournament)
    boards = list(round_.pairings.order_by("board"))
    data: dict[str, Any] = {
        "pairings-TOTAL_FORMS": len(boards), "pairings-INITIAL_FORMS": len(boards),
        "pairings-MIN_NUM_FORMS": "0", "pairings-MAX_NUM_FORMS": "0",
        "clock": "", "time_slot_minutes": ""}
    typed = {1: ("-1", "0"), 2: ("3", "0")}  # board 2: three wins in a one-game match
    for index, board in enumerate(boards):
        wins_a, wins_b = typed[board.board]
        data.update({f"pairings-{index}-id": board.pk, f"pairings-{index}-round": round_.pk,
                     f"pairings-{index}-version": board.version,
                     f"pairings-{index}-wins_a": wins_a, f"pairings-{index}-wins_b": wins_b,
                     f"pairings-{index}-draws": "0", f"pairings-{index}-outcome": "pending"})
    page = client_of(organizer).post(f"/admin/tournaments/round/{round_.pk}/change/", data)
    text = visible(page.content.decode())
    assert "Nothing was saved: fix boards 1, 2 and save again." in text
    assert "greater than or equal to 0" in text and "Board 2" in text
    assert not round_.pairings.exclude(outcome="pending").exists()


def _record_with_a_pass(name: str) -> dict[str, Any]:
    import random

    from games.engines import get_engine
    from games.series import deal_for_game, game_roles

    engine = get_engine(name)
    for seed in range(200):
        state = engine.new_game(deal=deal_for_game(name, {}, seed, game_roles(name, 0)))
        rng = random.Random(seed)
        while not engine.is_over(state):
            state = engine.play(state, rng.choice(engine.legal_moves(state)))
        record: dict[str, Any] = engine.record(state)
        if "pass" in record["moves"]:
            return record
    raise AssertionError("no random game with a pass")


@pytest.mark.parametrize(("language", "word"), [("ru", "пас"), ("en", "pass")])
def test_the_viewer_words_a_pass_in_the_readers_language(
        language: str, word: str, organizer: Any, make_tournament: Any) -> None:
    from matches.services.games import game_entry_record
    from tournaments import services

    tournament = make_tournament("round_robin", entrants=2, game="kugamai")
    round_ = services.round_pair_next(actor=organizer, tournament=tournament)
    board = round_.pairings.get()
    recorded = game_entry_record(actor=organizer, pairing=board, expected_version=board.version,
                                 result=None, termination="normal",
                                 record=_record_with_a_pass("kugamai"))
    page = Client().get(f"/games/{recorded.game.pk}/", HTTP_ACCEPT_LANGUAGE=language)
    text = visible(page.content.decode())
    assert re.search(rf"\b{word}\b", text)
    if language == "ru":
        assert not re.search(r"\bpass\b", text)
        assert 'data-move="pass"' not in page.content.decode()
