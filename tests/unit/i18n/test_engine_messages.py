"""Engine, series and clock errors keep their marked template and parameters apart:
``str(error)`` is the English text, and ``core.engine_messages`` shows it in the active
language, the rule nested in a record error translated too."""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from django.utils import translation

from core.engine_messages import engine_error_message, game_label, game_label_lazy, translated
from games.clocks.setting import parse_setting
from games.engines import IllegalMoveError, OptionError, RecordError, get_engine
from games.i18n import N_, Message, MessageError
from games.series import MatchFormat, MatchScore
from games.series.format import SeriesError


def kazambi_record_with_a_repeated_move() -> dict[str, Any]:
    """A Kazambi record whose second move lays the first tile again on the same cells."""
    engine = get_engine("kazambi")
    state = engine.new_game(seed=3)
    record = engine.record(state)
    first = str(engine.legal_moves(state)[0])
    record["moves"] = [first, first]
    return record


def refused_record() -> RecordError:
    with pytest.raises(RecordError) as refused:
        get_engine("kazambi").replay(kazambi_record_with_a_repeated_move())
    return refused.value


def test_a_record_error_keeps_the_move_number_the_move_and_the_rule_apart() -> None:
    error = refused_record()
    move = kazambi_record_with_a_repeated_move()["moves"][1]
    cell = move.split("@")[1][:2]
    assert (error.move_number, error.move) == (2, move)
    assert error.rule_template == "cell %(cell)s is already taken"
    assert error.rule_params == {"cell": cell}
    assert error.template == "move %(number)d, %(move)s: %(rule)s"
    assert str(error) == f"move 2, {move}: cell {cell} is already taken"
    assert error.rule == f"cell {cell} is already taken"


def test_an_illegal_move_is_refused_in_russian_naming_the_move_number_and_the_rule() -> None:
    error = refused_record()
    with translation.override("ru"):
        russian = engine_error_message(error)
    assert russian == f"ход 2, {error.move}: клетка {error.rule_params['cell']} уже занята"
    with translation.override("en-gb"):
        assert engine_error_message(error) == str(error)


def test_an_illegal_move_error_translates_its_rule() -> None:
    engine = get_engine("kugamai")
    state = engine.new_game(seed=5)
    opening = engine.legal_moves(state)[0]
    state = engine.play(state, opening)
    with pytest.raises(IllegalMoveError) as refused:
        engine.play(state, "0-0")
    error = refused.value
    assert error.move == "0-0" and error.rule_template.startswith("tile %(tile)s is not in")
    assert str(error) == f"0-0: tile 0-0 is not in seat {error.rule_params['mover']}'s hand " \
                         "(it is on the table)"
    with translation.override("ru"):
        assert engine_error_message(error) == (
            f"0-0: камня 0-0 нет в руке места {error.rule_params['mover']} (он уже на столе)")


def test_nested_errors_messages_and_labels_are_translated() -> None:
    with pytest.raises(Exception) as refused:
        get_engine("stolbiki").from_dict({"game": "stolbiki", "options": {"deck": 40},
                                          "to_move": 0, "hands": [], "table": {}})
    with translation.override("ru"):
        assert engine_error_message(refused.value) == (
            "параметры документа: Столбики: в колоде должно быть 36 или 52 карты, а не 40")
        assert game_label("anti-kazambi-pairs") == "Казамби мизер парами"
        assert [str(game_label_lazy(name)) for name in ("kazambi", "kugamai", "stolbiki")] == [
            "Казамби", "Кугамай", "Столбики"]
        assert translated(MatchFormat(kind="best_of", games=5).description()) == (
            "большинство побед из 5")
        assert translated(MatchScore(2, 1, 1).label()) == "2-1 (ничьих: 1)"
    assert str(game_label_lazy("kazambi-pairs")) == "Kazambi pairs"


def test_series_and_clock_errors_are_translated() -> None:
    with pytest.raises(SeriesError) as series:
        MatchFormat.parse("bo4")
    with pytest.raises(ValueError) as clock:
        parse_setting("quick")
    assert str(series.value) == "best of 4 can end level: use an odd number"
    with translation.override("ru"):
        assert engine_error_message(series.value) == (
            "матч на большинство побед из 4 может закончиться вничью: возьмите нечётное число")
        assert engine_error_message(clock.value).startswith(
            "не удалось прочитать контроль времени 'quick'")
        assert engine_error_message(ValueError("plain")) == "plain"


def test_str_of_an_error_is_the_english_text_filled_in() -> None:
    error = OptionError(N_("%(game)s: unknown option %(key)r (options: %(known)s)"),
                        game="kazambi", key="size", known="cols, rows")
    assert str(error) == "kazambi: unknown option 'size' (options: cols, rows)"
    assert error.params == {"game": "kazambi", "key": "size", "known": "cols, rows"}
    assert isinstance(error, ValueError) and error.args == (str(error),)


def test_errors_survive_pickling_with_their_parameters() -> None:
    error = refused_record()
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is RecordError and str(copy) == str(error)
    assert (copy.move_number, copy.rule_template) == (2, error.rule_template)


def test_a_translation_that_does_not_fit_falls_back_to_english() -> None:
    message = Message(N_("move %(number)d, %(move)s: %(rule)s"), number=3, move="x",
                      rule=Message(N_("the game is over")))
    broken = {"move %(number)d, %(move)s: %(rule)s": "ход %(номер)d",
              "the game is over": "партия окончена"}
    assert message.render(lambda text: broken.get(text, text)) == "move 3, x: партия окончена"
    assert MessageError(message).render() == "move 3, x: the game is over"


def test_clock_advice_reasons_are_translated_and_stay_english_as_text() -> None:
    from games.clocks.advice import recommend_clock
    from games.clocks.estimates import default_move_estimate

    advice = recommend_clock(slot_minutes=90, match=MatchFormat.parse("bo5"),
                             moves=default_move_estimate("kazambi"), game_label="Kazambi")
    assert advice.reasons[0] == "The match (best of 5) can run to 5 games."
    assert advice.setting.describe() == "6 minutes + 5 s Fischer increment per move"
    with translation.override("ru"):
        shown = [translated(reason) for reason in advice.reason_messages]
        assert shown[0] == "Число партий в матче (большинство побед из 5) может дойти до 5."
        assert shown[1].startswith("Партия в Kazambi: ходов на игрока — до 14 (записанных "
                                   "партий нет; правила допускают не больше 14 на поле 7 x 8)")
        assert translated(advice.setting.description()) == (
            "6 мин + 5 с за ход (добавка по Фишеру)")
