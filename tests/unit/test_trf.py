"""TRF-16 reading, writing and pairing of hand-made cases derived from the Dutch rules."""

import pytest

from tournaments.trf import (
    TrfError,
    add_round,
    format_pairings,
    main,
    pair_trf,
    read_trf,
    write_trf,
)

NAMES = ["Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf", "Hotel"]


def player_line(rank: int, blocks: str = "") -> str:
    name = f"{NAMES[rank - 1]}, X"
    rating = 2500 - 100 * rank
    base = (
        f"001 {rank:>4} m    {name:<33} {rating:>4} NED {10000000 + rank:>11} 1990/01/01 "
        f" 0.0 {rank:>4}"
    )
    return (base + blocks).rstrip()


def trf(count: int, rounds: dict[int, str] | None = None, extra: str = "XXC white1") -> str:
    rounds = rounds or {}
    lines = ["012 Test Open", "XXR 5", extra]
    lines += [player_line(rank, rounds.get(rank, "")) for rank in range(1, count + 1)]
    return "\n".join(lines) + "\n"


def test_round_one_pairs_top_half_against_bottom_half_with_white_to_player_one() -> None:
    assert pair_trf(trf(8)) == [(1, 5), (6, 2), (3, 7), (8, 4)]


def test_round_one_black1_gives_player_one_the_second_move() -> None:
    assert pair_trf(trf(8, extra="XXC black1")) == [(5, 1), (2, 6), (7, 3), (4, 8)]


def test_round_one_odd_field_gives_the_bye_to_the_lowest_seed() -> None:
    assert pair_trf(trf(7)) == [(1, 4), (5, 2), (3, 6), (7, 0)]


def test_round_two_pairs_each_score_group_and_alternates_colours() -> None:
    rounds = {
        1: "     5 w 1",
        5: "     1 b 0",
        2: "     6 b 0",
        6: "     2 w 1",
        3: "     7 w 1",
        7: "     3 b 0",
        4: "     8 b 0",
        8: "     4 w 1",
    }
    assert pair_trf(trf(8, rounds)) == [(6, 1), (8, 3), (2, 5), (4, 7)]


def test_bye_goes_to_lowest_eligible_player_not_to_last_rounds_bye() -> None:
    rounds = {
        1: "     4 w 1",
        4: "     1 b 0",
        5: "     2 w 0",
        2: "     5 b 1",
        3: "     6 w 1",
        6: "     3 b 0",
        7: "  0000 - U",
    }
    # 1-3 would deny a colour preference (C12); the first transposition, 1-7 and 2-3, does not.
    assert pair_trf(trf(7, rounds)) == [(7, 1), (2, 3), (4, 5), (6, 0)]


def test_players_who_met_are_not_paired_again() -> None:
    rounds = {1: "     3 w =", 3: "     1 b =", 2: "     4 b =", 4: "     2 w ="}
    # 1-3 is a rematch; 1-2 and 3-4 satisfy every colour preference, 1-4 and 2-3 would not.
    assert pair_trf(trf(4, rounds)) == [(2, 1), (3, 4)]


def test_a_forfeited_game_is_no_meeting() -> None:
    rounds = {1: "     3 w +", 3: "     1 b -", 2: "     4 b +", 4: "     2 w -"}
    pairs = pair_trf(trf(4, rounds))
    assert {frozenset(pair) for pair in pairs} == {frozenset((1, 2)), frozenset((3, 4))}


def test_xxp_forbids_a_pair() -> None:
    text = trf(4) + "XXP 1 3\n"
    assert pair_trf(text) == [(1, 4), (3, 2)]


def test_downfloaters_move_to_the_next_group_and_meet_its_top() -> None:
    rounds = {
        1: "     4 w 1",
        4: "     1 b 0",
        5: "     2 w 0",
        2: "     5 b 1",
        3: "     6 w =",
        6: "     3 b =",
    }
    assert pair_trf(trf(6, rounds)) == [(2, 1), (4, 3), (6, 5)]


def test_absence_entered_for_the_round_to_pair_removes_the_player() -> None:
    rounds = {8: "  0000 - H"}
    pairs = pair_trf(trf(8, rounds))
    assert all(8 not in pair for pair in pairs)
    assert pairs[-1][1] == 0 and len(pairs) == 4


def test_round_trip_keeps_every_line() -> None:
    rounds = {1: "     4 w 1     2 b =", 4: "     1 b 0  0000 - H", 2: "  0000 - Z     1 w ="}
    text = trf(6, rounds) + "XXP 2 5\n"
    assert write_trf(read_trf(text)) == text
    tournament = read_trf(text)
    assert tournament.total_rounds == 5
    assert tournament.initial_colour == "W"
    assert tournament.forbidden == {frozenset((2, 5))}
    assert tournament.players[0].rounds[1].result == "="
    assert tournament.players[3].rounds[1].opponent is None


def test_add_round_then_pair_the_next() -> None:
    text = trf(8)
    pairs = pair_trf(text)
    with_round = read_trf(write_trf(add_round(read_trf(text), pairs)))
    assert with_round.players[0].rounds[0].opponent == 5


def test_xxc_rank_takes_the_order_of_the_player_lines_as_pairing_order() -> None:
    lines = trf(4, extra="XXC white1 rank").splitlines()
    # player 4's line first and player 1's last: 4 is paired as the top seed
    lines[3], lines[6] = lines[6], lines[3]
    pairs = pair_trf("\n".join(lines) + "\n")
    assert pairs == [(4, 3), (1, 2)]


def test_format_pairings() -> None:
    assert format_pairings([(12, 5), (7, 0)]) == "2\n12 5\n7 0\n"


def test_errors_are_clear() -> None:
    with pytest.raises(TrfError, match="XXR"):
        pair_trf("012 x\n" + player_line(1) + "\n" + player_line(2) + "\n")
    with pytest.raises(TrfError, match="line 2"):
        read_trf("012 x\n001    x m\n")
    rounds = {1: "     2 w 1", 2: "     1 b 0"}
    with pytest.raises(TrfError, match="no legal pairing"):
        pair_trf(trf(2, rounds))


def test_command_line_prints_pairings(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "t.trf"
    path.write_text(trf(4))
    assert main([str(path)]) == 0
    assert capsys.readouterr().out == "2\n1 3\n4 2\n"


# -- hardening: one parser refuses bad input with the line and column ------------------


def test_utf8_with_byte_order_mark_cp1252_and_latin1_are_read() -> None:
    from tournaments.trf import decode_trf

    text = trf(4).replace("Alpha, X     ", "Müller, Zoë €")  # same width
    assert read_trf(decode_trf(b"\xef\xbb\xbf" + text.encode("utf-8"))).players[0].name == (
        "Müller, Zoë €"
    )
    assert read_trf(decode_trf(text.encode("cp1252"))).players[0].name == "Müller, Zoë €"
    latin = trf(4).replace("Alpha, X", "Alpha, ß").encode("latin-1")
    assert read_trf(decode_trf(latin)).players[0].name == "Alpha, ß"
    # a byte that Windows-1252 leaves undefined decodes to a control character: refused
    with pytest.raises(TrfError, match="line 4, column 15: the name holds a control"):
        read_trf(decode_trf(trf(4).replace("Alpha, X", "Alpha, \x81").encode("latin-1")))


def test_carriage_return_line_ends_as_the_fide_programs_write() -> None:
    assert pair_trf(trf(8).replace("\n", "\r")) == pair_trf(trf(8))
    assert pair_trf(trf(8).replace("\n", "\r\n")) == pair_trf(trf(8))


def test_a_player_who_meets_himself_is_refused_with_line_and_column() -> None:
    text = trf(4, {1: "     1 w 1"})
    with pytest.raises(TrfError, match=r"line 4, column 92: round 1: player 1 is his own"):
        read_trf(text)


def test_asymmetric_pairings_are_refused() -> None:
    text = trf(4, {1: "     2 w 1", 2: "     3 b 0", 3: "     2 w 1"})
    with pytest.raises(TrfError, match="line 4.*player 1 meets 2, but player 2 .*meets 3"):
        read_trf(text)
    text = trf(4, {1: "     2 w 1", 2: "     1 w 0"})
    with pytest.raises(TrfError, match="does not match"):
        read_trf(text)


def test_round_counts_are_bounded() -> None:
    with pytest.raises(TrfError, match="line 2, column 5: the number of rounds must be between"):
        read_trf(trf(4).replace("XXR 5", "XXR 99999"))
    with pytest.raises(TrfError, match="line 2"):
        read_trf(trf(4).replace("XXR 5", "XXR five"))


def test_an_overlong_name_nul_and_invisible_names_are_refused() -> None:
    long_line = player_line(1).replace("Alpha, X", "A" * 5000)
    with pytest.raises(TrfError, match="line 1, column 1100: a player line has at most"):
        read_trf(long_line + "\n")
    with pytest.raises(TrfError, match="line 4, column .*NUL"):
        read_trf(trf(4).replace("Alpha, X", "Alp\x00ha"))
    for invisible in ("\u200b\u200b", "\u202e\u202d", "\u2066\ufeff"):
        with pytest.raises(TrfError, match="line 4, column 15: the name is made only of invisible"):
            read_trf(trf(4).replace("Alpha, X", invisible.ljust(8)))


def test_bad_codes_name_their_column() -> None:
    with pytest.raises(TrfError, match="line 4, column 97: round 1: colour must be"):
        read_trf(trf(4, {1: "     2 x 1", 2: "     1 b 0"}))
    with pytest.raises(TrfError, match="line 4, column 99: round 1: unknown result code"):
        read_trf(trf(4, {1: "     2 w 7", 2: "     1 b 0"}))
    with pytest.raises(TrfError, match="line 4, column 92: round 1: opponent 'x2'"):
        read_trf(trf(4, {1: "    x2 w 1"}))
    with pytest.raises(TrfError, match="start rank 2 is used again"):
        read_trf(trf(3).replace("001    3", "001    2"))


def test_no_legal_pairing_is_its_own_error_and_exit_status_one(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    from tournaments.trf import UnpairableError

    rounds = {1: "     2 w 1", 2: "     1 b 0"}
    with pytest.raises(UnpairableError, match="round 2: no legal pairing exists: player"):
        pair_trf(trf(2, rounds))
    path = tmp_path / "t.trf"
    path.write_text(trf(2, rounds))
    assert main([str(path)]) == 1
    assert "no legal pairing" in capsys.readouterr().err


def test_every_odd_player_had_the_bye_is_explained() -> None:
    from tournaments.trf import UnpairableError

    rounds = {1: "  0000 - U", 2: "     3 w 1", 3: "     2 b 0"}
    text = trf(3, rounds)
    # 1 had the PAB; 2 and 3 met: 1-2 and 1-3 are possible, but the bye can go to nobody
    # eligible but 2 or 3, who then leave 1 with the one he can meet... all fine here:
    assert pair_trf(text)[-1][1] == 0
    rounds = {1: "  0000 - U", 2: "  0000 - F", 3: "  0000 - U"}
    with pytest.raises(UnpairableError, match="C2"):
        pair_trf(trf(3, rounds))


# -- extensions ---------------------------------------------------------------------------


def test_baku_line_and_the_same_virtual_points_as_xxa_lines_pair_alike() -> None:
    baku = trf(8).replace("XXC white1", "XXC white1\n192 FIDE_DUTCH_2025_BAKU")
    tournament = read_trf(baku)
    # 8 players, 5 rounds: the top half gets a win's worth in rounds 1-2, a draw's in 3
    assert tournament.accelerations() == {n: [10, 10, 5] for n in (1, 2, 3, 4)}
    manual = trf(8) + "".join(f"XXA {n:>4}  1.0  1.0  0.5\n" for n in (1, 2, 3, 4))
    assert pair_trf(baku) == pair_trf(manual)
    # round 1 with virtual points: 1-4 meet in the top group, 5-8 below
    assert {frozenset(pair) for pair in pair_trf(baku)} == {
        frozenset(pair) for pair in [(1, 3), (2, 4), (5, 7), (6, 8)]
    }


def test_240_line_enters_byes_for_the_round_to_pair() -> None:
    pairs = pair_trf(trf(8) + "240 H   1    7    8\n")
    assert all(7 not in pair and 8 not in pair for pair in pairs)
    assert len(pairs) == 3


def test_first_colour_is_inferred_when_the_file_does_not_say_it() -> None:
    rounds = {
        1: "     5 b 1", 5: "     1 w 0", 2: "     6 w 0", 6: "     2 b 1",
        3: "     7 b 1", 7: "     3 w 0", 4: "     8 w 0", 8: "     4 b 1",
    }
    assert read_trf(trf(8, rounds, extra="012 no colour line")).initial_colour == "B"


def test_point_values_and_unsupported_lines() -> None:
    tournament = read_trf(trf(4) + "BBW  3.0\nBBD  1.0\n")
    assert (tournament.points.win, tournament.points.draw, tournament.points.pab) == (30, 10, 30)
    with pytest.raises(TrfError, match="team tournaments are not supported"):
        read_trf(trf(4) + "013 Team A    1    2\n")
    with pytest.raises(TrfError, match="unsupported pairing system"):
        read_trf(trf(4) + "192 FIDE_BURSTEIN\n").baku  # noqa: B018


def test_pair_trf_command_prints_pairings_and_fails_with_status_one(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    from django.core.management import call_command
    from django.core.management.base import CommandError

    good = tmp_path / "good.trf"
    good.write_bytes(trf(4).replace("Alpha, X", "Alpha, ß").encode("cp1252"))
    call_command("pair_trf", str(good))
    assert capsys.readouterr().out == "2\n1 3\n4 2\n"
    stuck = tmp_path / "stuck.trf"
    stuck.write_text(trf(2, {1: "     2 w 1", 2: "     1 b 0"}))
    with pytest.raises(CommandError, match="round 2: no legal pairing exists") as raised:
        call_command("pair_trf", str(stuck))
    assert raised.value.returncode == 1
    broken = tmp_path / "broken.trf"
    broken.write_text(trf(4, {1: "     1 w 1"}))
    with pytest.raises(CommandError, match="line 4, column 92"):
        call_command("pair_trf", str(broken))
