from __future__ import annotations

import itertools
from typing import Any

import pytest

from games.series import MatchFormat, MatchScore, SeriesError, game_roles


@pytest.mark.parametrize(
    "text", ["single", "bo3", "bo5", "ft3", "ft3/9", "fixed4", "fixed2+dup", "ft3/9+dup"]
)
def test_text_round_trip(text: str) -> None:
    fmt = MatchFormat.parse(text)
    assert str(fmt) == text
    assert MatchFormat.from_dict(fmt.to_dict()) == fmt


@pytest.mark.parametrize("text", ["bo4", "ft0", "ft3/2", "fixed0", "best3", "single+dup", ""])
def test_bad_formats_are_refused(text: str) -> None:
    with pytest.raises(SeriesError):
        MatchFormat.parse(text)


def test_bad_documents_are_refused() -> None:
    docs: list[Any] = [{"kind": "bo"}, {"kind": "fixed", "games": "x"}, {"colour": 1}, []]
    for doc in docs:
        with pytest.raises(SeriesError):
            MatchFormat.from_dict(doc)


def test_kugamai_first_to_three_ignores_draws() -> None:
    fmt = MatchFormat.parse("ft3/9")
    assert not fmt.is_decided(MatchScore(2, 2, 4))
    assert fmt.is_decided(MatchScore(3, 2, 0))
    assert fmt.is_decided(MatchScore(2, 2, 5))
    assert fmt.winner(MatchScore(2, 2, 5)) is None
    assert fmt.winner(MatchScore(2, 1, 6)) == 0


def test_first_to_three_cannot_end_three_all() -> None:
    with pytest.raises(SeriesError, match="cannot end 3-3"):
        MatchFormat.parse("ft3").check_final(MatchScore(3, 3))


def test_best_of_stops_early() -> None:
    fmt = MatchFormat.parse("bo5")
    assert fmt.wins_needed == 3
    assert fmt.is_decided(MatchScore(3, 0))
    with pytest.raises(SeriesError, match="already decided"):
        fmt.check_next_game(MatchScore(3, 1))
    with pytest.raises(SeriesError, match="not over"):
        fmt.check_final(MatchScore(2, 1))
    with pytest.raises(SeriesError):
        fmt.check_final(MatchScore(4, 1))


def test_fixed_match_plays_every_game() -> None:
    fmt = MatchFormat.parse("fixed4")
    assert not fmt.is_decided(MatchScore(3, 0))
    assert fmt.is_decided(MatchScore(2, 1, 1))
    assert fmt.winner(MatchScore(2, 2)) is None


def test_every_reachable_final_score_is_accepted() -> None:
    """Play out every sequence of game results; the final scores pass check_final."""
    for text in ("single", "bo3", "bo5", "ft2/5", "fixed3"):
        fmt = MatchFormat.parse(text)
        limit = fmt.max_games_needed() or 6
        finals = set()
        for results in itertools.product((0, 1, None), repeat=limit):
            score = MatchScore()
            for winner in results:
                if fmt.is_decided(score):
                    break
                score = score.add(winner)
            if fmt.is_decided(score):
                finals.add(score)
                fmt.check_final(score)
        assert finals


def test_first_move_alternates() -> None:
    assert [game_roles("kazambi", k).first_side for k in range(4)] == [0, 1, 0, 1]
    assert [game_roles("stolbiki", k, first_side=1).first_side for k in range(3)] == [1, 0, 1]
    assert game_roles("kugamai", 0).first_side_meaning == "low_doubles"


def test_duplicate_pairs_share_a_deal_with_roles_swapped() -> None:
    roles = [game_roles("kazambi", k, duplicate=True) for k in range(4)]
    assert [r.deal_index for r in roles] == [0, 0, 1, 1]
    assert [r.mirrored for r in roles] == [False, True, False, True]
    assert [r.first_side for r in roles] == [0, 1, 0, 1]


@pytest.mark.parametrize("game", ["kazambi", "kazambi-pairs", "kugamai", "stolbiki"])
def test_deals_follow_the_roles(game: str) -> None:
    from games.engines import get_engine
    from games.series import deal_for_game

    engine = get_engine(game)
    first = deal_for_game(game, {}, 7, game_roles(game, 0, duplicate=True))
    second = deal_for_game(game, {}, 7, game_roles(game, 1, duplicate=True))
    key = "low_doubles_seat" if game == "kugamai" else "first"
    assert first[key] % 2 == 0 and second[key] % 2 == 1
    # the mirrored game gives each side the hands the other side had
    assert second["hands"][0] == first["hands"][1]
    assert second["hands"][1] == first["hands"][0]
    for deal in (first, second):
        engine.new_game(deal=deal)


def test_record_checked_against_roles() -> None:
    from games.engines import DocumentError, RecordError, get_engine
    from games.series import check_record, deal_for_game

    engine = get_engine("kugamai")
    deal = deal_for_game("kugamai", {}, 3, game_roles("kugamai", 1))
    state = engine.new_game(deal=deal)
    while not engine.is_over(state):
        state = engine.play(state, engine.legal_moves(state)[0])
    record = engine.record(state)
    checked = check_record("kugamai", {}, record, first_side=1)
    assert checked.winner_side == engine.result(state)["winner"]
    with pytest.raises(DocumentError, match="should hold the low doubles"):
        check_record("kugamai", {}, record, first_side=0)
    broken = {**record, "moves": [*record["moves"][:3], "6-6", *record["moves"][4:]]}
    with pytest.raises(RecordError, match="move 4"):
        check_record("kugamai", {}, broken, first_side=1)


def test_head_to_head_on_duplicate_deals() -> None:
    from games.bots.evaluation import Sprt
    from games.series.head_to_head import play_match
    from games.series.referee import BotSpec

    report = play_match("kugamai", BotSpec("greedy"), BotSpec("random"), pairs=6, seed=2,
                        secret="test")
    assert report.wins + report.draws + report.losses == 12
    assert sum(report.pairs) == 6
    again = play_match("kugamai", BotSpec("greedy"), BotSpec("random"), pairs=6, seed=2,
                        secret="test")
    assert again == report
    stopped = play_match("kugamai", BotSpec("mcts", {"iterations": 60}), BotSpec("random"),
                         pairs=40, seed=1, sprt=Sprt(elo0=0, elo1=150),
                         secret="test")
    assert stopped.sprt_decision == "H1"
    assert sum(stopped.pairs) < 40
