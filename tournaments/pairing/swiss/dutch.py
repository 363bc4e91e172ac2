"""Pair one Swiss round by the FIDE Dutch system (C.04.3, 2025 rules).

The round is decided bracket by bracket from the top, as the rules say, but each
decision is taken by a maximum-weight matching over *all* players still unpaired,
so that the completion criterion (the rest of the round must stay pairable) holds at
every step. This is how the FIDE-endorsed program bbpPairings works, and this module
follows its published approach closely enough to give the same pairings:

1. Every edge (a legal pair, C1-C3) gets an integer weight whose bit fields encode the
   quality criteria in priority order: completion and bye eligibility; pairs and
   scores in the current bracket (C5, C6), then in the next one (C7, C8); the bye
   assignee's unplayed games (C9); colour criteria (C10-C13); repeated floats and
   their scores (C14-C21); and room at the bottom for tie-breaking bonuses.
2. An odd round first finds the score of the bye assignee.
3. For each bracket (moved-down players, the score group, and the next score group
   as the look-ahead), the weights of its edges are set and the matching re-solved;
   then, in this order, each choice is fixed by a small bonus on the edges of one
   player and one more solve: which moved-down players are paired here, whom each of
   them meets (the highest possible), which players of S1 are exchanged into S2 and
   back (the lowest and highest possible, C.04.3 exchange order), and finally the
   partner of each S1 player (the highest possible, as the transpositions order).
4. Players left over move down to the next bracket.

Because every choice is read from the set of optimal matchings (not from one
particular matching), the result does not depend on how the matcher breaks ties.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from tournaments.pairing.swiss.matching import Matcher
from tournaments.pairing.swiss.model import (
    WHITE,
    Colour,
    PairingError,
    Scoring,
    SwissPlayer,
    SwissRound,
)
from tournaments.pairing.swiss.state import Float, PlayerState, build_states, colour_for


def pair_round(
    players: Sequence[SwissPlayer],
    round_number: int,
    total_rounds: int,
    *,
    forbidden: Collection[frozenset[int]] = frozenset(),
    win_points: int = 2,
    draw_points: int | None = None,
    loss_points: int = 0,
    initial_colour: Colour = WHITE,
) -> SwissRound:
    """Pair round ``round_number`` of ``total_rounds``.

    ``players`` holds every entrant (absent ones too: their past games matter
    for the others' floats); each history must cover rounds 1..round_number-1.
    ``forbidden`` lists pairs that must not meet (besides earlier opponents).
    ``win_points`` is the value of a win in the caller's score unit (a draw is
    half of it unless ``draw_points`` says otherwise); ``initial_colour`` is the
    colour of the top seed in round 1 (E.5).
    """
    scoring = Scoring(
        win=win_points,
        draw=win_points // 2 if draw_points is None else draw_points,
        loss=loss_points,
    )
    _validate(players, round_number, total_rounds, scoring, initial_colour)
    banned: dict[int, set[int]] = {}
    for pair in forbidden:
        members = sorted(pair)
        for a in members:
            banned.setdefault(a, set()).update(b for b in members if b != a)
    states = build_states(players, round_number, scoring, banned)
    if not states:
        return SwissRound(pairs=(), bye=None)
    final_round = round_number - 1 >= total_rounds - 1
    threshold = (round_number - 1) * max(scoring.win, scoring.draw) // 2
    pairs, bye = _DutchRound(states, round_number - 1, final_round, threshold).pair()
    boards = [_board(states[a], states[b], initial_colour) for a, b in pairs]
    boards.sort(key=lambda board: board[0])
    return SwissRound(
        pairs=tuple(board[1] for board in boards),
        bye=states[bye].number if bye is not None else None,
    )


def _board(
    first: PlayerState, second: PlayerState, initial: Colour
) -> tuple[tuple[int, int, int], tuple[int, int]]:
    """(board sort key, (white, black)) for a pair."""
    low_id, high_id = (first, second) if first.number < second.number else (second, first)
    if colour_for(low_id, high_id, initial) == WHITE:
        white, black = low_id, high_id
    else:
        white, black = high_id, low_id
    higher, lower = (
        (first, second)
        if (first.raw_score, -first.rank) > (second.raw_score, -second.rank)
        else (second, first)
    )
    return (-higher.raw_score, -lower.raw_score, higher.rank), (white.number, black.number)


def _validate(
    players: Sequence[SwissPlayer],
    round_number: int,
    total_rounds: int,
    scoring: Scoring,
    initial_colour: str,
) -> None:
    if round_number < 1 or total_rounds < round_number:
        raise PairingError(
            f"round {round_number} cannot be paired in a tournament of {total_rounds} rounds"
        )
    if scoring.win < 1:
        raise PairingError("a win must be worth at least one score unit")
    if initial_colour not in ("W", "B"):
        raise PairingError(f"initial colour must be 'W' or 'B', not {initial_colour!r}")
    numbers = [player.number for player in players]
    if len(set(numbers)) != len(numbers):
        raise PairingError("two players share a pairing number")
    known = set(numbers)
    for player in players:
        if player.number < 1:
            raise PairingError(f"pairing number {player.number} is not positive")
        if len(player.history) != round_number - 1:
            raise PairingError(
                f"player {player.number} has {len(player.history)} rounds of history; "
                f"round {round_number} needs {round_number - 1}"
            )
        for index, record in enumerate(player.history, start=1):
            if record.opponent is not None and record.opponent not in known:
                raise PairingError(
                    f"player {player.number} met unknown player {record.opponent} "
                    f"in round {index}"
                )
            if record.opponent == player.number:
                raise PairingError(f"player {player.number} meets himself in round {index}")


def _bits(value: int) -> int:
    return value.bit_length()


class _DutchRound:
    """The state of one round's pairing: players in pairing order are vertices 0..n-1."""

    def __init__(
        self, states: list[PlayerState], played_rounds: int, final_round: bool, threshold: int
    ) -> None:
        self.p = states
        self.n = len(states)
        self.played = played_rounds
        self.final_round = final_round
        self.threshold = threshold
        # score groups and the bit layout of the score fields (lowest group first)
        self.shift: dict[int, int] = {}
        total = 0
        largest = 0
        index = self.n
        while index > 0:
            score = states[index - 1].score
            start = index
            while start > 0 and states[start - 1].score == score:
                start -= 1
            size = index - start
            self.shift[score] = total
            total += _bits(size)
            largest = max(largest, size)
            index = start
        self.score_bits = total
        self.size_bits = _bits(largest)
        self.bye_score = 0
        self.single_bye = False
        self.bye_ranks: dict[int, int] = {}
        self.matcher = Matcher(self.n)
        self.pairs: list[tuple[int, int]] = []
        self.snapshot: list[int] = []

    # -- criteria -------------------------------------------------------------------

    def compatible(self, a: PlayerState, b: PlayerState) -> bool:
        """C1-C3: no rematch, no forbidden pair, no clash of absolute colour preferences
        (which topscorers may overrule in the last round)."""
        if b.number in a.excluded:
            return False
        if not (a.absolute and b.absolute and a.preference == b.preference):
            return True
        return self.final_round and (a.score > self.threshold or b.score > self.threshold)

    def bye_candidate(self, player: PlayerState) -> bool:
        return player.bye_eligible and player.score <= self.bye_score

    def weight(self, h: int, lo: int, in_current: bool, in_next: bool) -> int:
        """The weight of pairing vertex ``h`` with the lower vertex ``lo`` (h < lo)."""
        higher = self.p[h]
        lower = self.p[lo]
        if not self.compatible(higher, lower):
            return 0
        b = self.size_bits
        s = self.score_bits
        shift = self.shift
        r = 1 + (not self.bye_candidate(higher)) + (not self.bye_candidate(lower))
        # C5, C6: pairs and paired scores in the current bracket; C7, C8: the next one
        r = (r << b) | in_current
        r <<= s
        if in_current:
            r |= 1 << shift[higher.score]
        r = (r << b) | in_next
        r <<= s
        if in_next:
            r |= 1 << shift[higher.score]
        # C9: the bye assignee has played as many games as possible
        r <<= 2 * b
        if self.single_bye:
            if higher.score == self.bye_score:
                r += self.bye_ranks[higher.played_games]
            if lower.score == self.bye_score:
                r += self.bye_ranks[lower.played_games]
        # C10-C13: colours (satisfied criteria count)
        for ok in self._colour_bits(lower, higher):
            r = (r << b) | (in_current and ok)
        h_down = higher.score <= lower.score
        up_pair = higher.score > lower.score
        if self.played >= 1:
            r <<= b
            if in_current:
                r += (lower.float1 == Float.DOWN) + (h_down and higher.float1 == Float.DOWN)
            r <<= b
            if in_current:
                r |= not (up_pair and lower.float1 == Float.UP)
        if self.played >= 2:
            r <<= b
            if in_current:
                r += (lower.float2 == Float.DOWN) + (h_down and higher.float2 == Float.DOWN)
            r <<= b
            if in_current:
                r |= not (up_pair and lower.float2 == Float.UP)
        if self.played >= 1:
            r <<= s
            if in_current:
                r += (lower.float1 == Float.DOWN) << shift[lower.score]
                r += (higher.float1 == Float.DOWN) << shift[higher.score]
            r <<= s
            if in_current and not (lower.float1 == Float.UP and up_pair):
                r |= 1 << shift[higher.score]
        if self.played >= 2:
            r <<= s
            if in_current:
                r += (lower.float2 == Float.DOWN) << shift[lower.score]
                r += (higher.float2 == Float.DOWN) << shift[higher.score]
            r <<= s
            if in_current and not (lower.float2 == Float.UP and up_pair):
                r |= 1 << shift[higher.score]
        # room for the bonuses that order candidates of equal quality
        return r << (3 * b + 1)

    @staticmethod
    def _colour_bits(player: PlayerState, opponent: PlayerState) -> tuple[bool, bool, bool, bool]:
        same = player.preference == opponent.preference
        # C10: no colour difference beyond two (matters for topscorers only)
        c10 = not player.absolute_imbalance or not opponent.absolute_imbalance or not same
        # C11: no three same colours in a row
        if not player.absolute or not opponent.absolute or not same:
            c11 = True
        elif player.imbalance == opponent.imbalance:
            c11 = player.repeated is None or player.repeated != opponent.repeated
        else:
            loser = opponent if player.imbalance > opponent.imbalance else player
            c11 = player.preference is None or loser.repeated != _other(player.preference)
        # C12: both colour preferences can be granted
        c12 = player.preference is None or opponent.preference is None or not same
        # C13: no strong preference is denied
        weak_player = not player.strong and not player.absolute
        weak_opponent = not opponent.strong and not opponent.absolute
        c13 = (
            weak_player
            or weak_opponent
            or (player.absolute and opponent.absolute)
            or not same
        )
        return c10, c11, c12, c13

    # -- the procedure --------------------------------------------------------------

    def set_weight(self, modified: int, other: int, weight: int) -> None:
        self.matcher.set_weight(modified, other, weight)

    def solve(self) -> None:
        """Re-optimise, and take the snapshot of the matching that choices are read from
        (it stays as it is while weights change, until the next solve)."""
        self.matcher.solve()
        self.snapshot = self.matcher.matching()

    def mate(self, v: int) -> int:
        return self.snapshot[v]

    def pair(self) -> tuple[list[tuple[int, int]], int | None]:
        n = self.n
        p = self.p
        top_score = p[0].score
        if n % 2:
            s = self.score_bits
            b = self.size_bits
            for v in range(n):
                for u in range(v):
                    if self.compatible(p[v], p[u]):
                        weight = 1 + (not p[v].bye_eligible) + (not p[u].bye_eligible)
                        weight = (weight << s) | (self.shift[p[v].score] + self.shift[p[u].score])
                        weight = (weight << b) | (p[v].score >= top_score)
                        self.set_weight(v, u, weight)
        else:
            for v in range(n):
                for u in range(v):
                    self.set_weight(v, u, self.weight(u, v, False, False))
        self.solve()
        self._check_complete()
        if n % 2:
            bye = next(v for v in range(n) if self.mate(v) == v)
            self.bye_score = p[bye].score
            if self.bye_score >= top_score:
                self.single_bye = all(
                    p[self.mate(v)].score >= top_score
                    for v in range(n)
                    if p[v].score >= top_score
                )
            counts = sorted(
                (state.played_games for state in p if state.score == self.bye_score),
                reverse=True,
            )
            for rank, count in enumerate(counts):
                self.bye_ranks[count] = rank
            for v in range(n):
                for u in range(v):
                    self.set_weight(v, u, self.weight(u, v, False, False))
        return self._brackets()

    def _check_complete(self) -> None:
        unmatched = [v for v in range(self.n) if self.mate(v) == v]
        if len(unmatched) == 0:
            return
        if len(unmatched) == 1 and self.p[unmatched[0]].bye_eligible:
            return
        raise PairingError(self._explain_unpairable())

    def _explain_unpairable(self) -> str:
        p = self.p
        lonely = [
            state.number
            for state in p
            if not any(self.compatible(state, other) for other in p if other is not state)
        ]
        if lonely:
            names = ", ".join(str(number) for number in sorted(lonely))
            return (
                f"no legal pairing exists: player(s) {names} can meet nobody (all have been "
                "met, are forbidden, or clash on an absolute colour preference)"
            )
        if self.n % 2 and not any(state.bye_eligible for state in p):
            return (
                "no legal pairing exists: the number of players is odd and every player "
                "already had the pairing-allocated bye or a win without playing (C2)"
            )
        return (
            "no legal pairing exists: the players cannot all be paired without a rematch, "
            "a forbidden pair or a clash of absolute colour preferences (C1, C3), with "
            "at most one player, eligible for it, left for the bye (C2)"
        )

    def _brackets(self) -> tuple[list[tuple[int, int]], int | None]:
        n = self.n
        p = self.p
        matched = [False] * n
        # members: bracket players (moved down, then residents), then the next group
        cursor = 0
        members: list[int] = []
        while cursor < n and p[cursor].score >= p[0].score:
            members.append(cursor)
            cursor += 1
        moved = 0  # moved-down players at the head of members
        group_start = 0  # first vertex of the current score group
        while len(members) > 1 or cursor < n:
            next_begin = len(members)
            next_group_start = group_start + (next_begin - moved)
            next_group_cursor = cursor
            if cursor < n:
                score = p[cursor].score
                while cursor < n and p[cursor].score >= score:
                    members.append(cursor)
                    cursor += 1
            base: dict[tuple[int, int], int] = {}
            for large in range(moved, len(members)):
                lv = members[large]
                in_current = large < next_begin
                for small in range(large):
                    sv = members[small]
                    weight = self.weight(sv, lv, in_current, not in_current)
                    base[sv, lv] = weight
                    self.set_weight(lv, sv, weight)
            self.solve()

            def in_group(v: int, lo: int = group_start, hi: int = next_group_start) -> bool:
                return lo <= v < hi

            residents = members[moved:next_begin]
            resident_count = len(residents)

            # which moved-down players are paired in this bracket
            remaining = remaining_matched = 0
            level: int | None = None
            for index in range(moved):
                v = members[index]
                if level is None or p[v].score < level:
                    level = p[v].score
                    remaining = remaining_matched = 0
                    for other in members[index:moved]:
                        if p[other].score < level:
                            break
                        remaining += 1
                        if in_group(self.mate(other)):
                            remaining_matched += 1
                if not remaining_matched:
                    continue
                if remaining <= remaining_matched:
                    matched[v] = True
                    continue
                remaining -= 1
                if not in_group(self.mate(v)):
                    for o in residents:
                        weight = base[v, o]
                        if weight:
                            self.set_weight(v, o, weight | 1)
                    self.solve()
                if in_group(self.mate(v)):
                    matched[v] = True
                    remaining_matched -= 1
                    for o in residents:
                        weight = base[v, o]
                        if weight:
                            self.set_weight(v, o, (weight | resident_count) + 1)

            # their opponents: the highest possible
            for index in range(moved):
                v = members[index]
                if not matched[v]:
                    continue
                bonus = len(members)
                for o in reversed(residents):
                    if matched[o]:
                        continue
                    weight = base[v, o]
                    if weight:
                        self.set_weight(v, o, weight + bonus)
                        bonus += 1
                self.solve()
                partner = self.mate(v)
                matched[partner] = True
                self._fix(v, partner)

            # the remainder: S1 (paired with a later player) and S2
            remainder = [o for o in residents if self.mate(o) >= group_start]
            pairs_here = sum(1 for o in remainder if self.mate(o) < o)
            b = self.size_bits

            def bonus_weight(small: int, large: int, small_index: int) -> int:
                weight = base[small, large]
                if not weight:
                    return 0
                addend = ((small_index < pairs_here) << (2 * b)) - small_index
                return weight + (addend << 1)

            position = {o: index for index, o in enumerate(remainder)}
            for large in remainder:
                for small in remainder:
                    if small >= large:
                        break
                    self.set_weight(small, large, bonus_weight(small, large, position[small]))
            self.solve()

            def is_lower(v: int) -> bool:  # paired with a later player of the group
                m = self.mate(v)
                return v < m < next_group_start

            s1 = remainder[:pairs_here]
            exchanges = sum(1 for v in s1 if not is_lower(v))
            # S1 players moved to S2: the lowest possible first
            left = exchanges
            index = pairs_here
            while index > 0 and left:
                index -= 1
                v = remainder[index]
                later = remainder[index + 1 :]
                if is_lower(v):
                    for o in later:
                        weight = bonus_weight(v, o, index)
                        if weight:
                            self.set_weight(v, o, weight - 1)
                    self.solve()
                exchange = not is_lower(v)
                left -= exchange
                for o in later:
                    if exchange:
                        base[v, o] = 0
                    self.set_weight(v, o, bonus_weight(v, o, index))
            # S2 players moved to S1: the highest possible first
            left = exchanges
            for index in range(pairs_here, len(remainder)):
                if left <= 1:
                    break
                v = remainder[index]
                later = remainder[index + 1 :]
                already = is_lower(v)
                if not already:
                    for o in later:
                        weight = bonus_weight(v, o, index)
                        if weight:
                            self.set_weight(v, o, weight + 1)
                    self.solve()
                if is_lower(v):
                    left -= 1
                    for o in remainder[:index]:
                        base[o, v] = 0
                        self.set_weight(v, o, 0)
                    for o in members[next_begin:]:
                        base[v, o] = 0
                        self.set_weight(v, o, 0)
                if not already:
                    for o in later:
                        self.set_weight(v, o, bonus_weight(v, o, index))
            # fix who is in S1 and who in S2, and drop the bonuses
            lower_now = {v: is_lower(v) for v in remainder}
            for i, v in enumerate(remainder):
                for o in remainder[i + 1 :]:
                    if not lower_now[v] or lower_now[o]:
                        base[v, o] = 0
                    self.set_weight(v, o, base[v, o])
            # each S1 player's partner: the highest possible
            for v in remainder:
                if not is_lower(v):
                    continue
                bonus = 0
                for o in reversed(remainder):
                    if o <= v or matched[o]:
                        continue
                    weight = base[v, o]
                    if weight:
                        self.set_weight(v, o, weight + bonus)
                    bonus += 1
                self.solve()
                partner = self.mate(v)
                matched[v] = matched[partner] = True
                self._fix(v, partner)

            # the next bracket: players left over move down
            carried: list[int] = []
            moved_before = moved
            moved = 0
            self.single_bye = bool(
                n % 2 and next_group_cursor < n and self.bye_score >= p[next_group_cursor].score
            )
            for index, v in enumerate(members):
                if index < next_begin and matched[v]:
                    continue
                carried.append(v)
                if index < next_begin:
                    moved += 1
                if self.single_bye and p[self.mate(v)].score < p[next_group_cursor].score:
                    self.single_bye = False
            if carried == members and moved == moved_before and cursor >= n:
                raise PairingError("the pairing procedure made no progress (internal error)")
            members = carried
            group_start = next_group_start
        bye = members[0] if members else None
        return self.pairs, bye

    def _fix(self, v: int, u: int) -> None:
        if self.mate(v) != u:
            raise PairingError("the pairing procedure lost a fixed pair (internal error)")
        self.pairs.append((v, u))
        self.matcher.retire(v, u)

    def _fixed(self, v: int) -> bool:
        return not self.matcher.alive[v]


def _other(colour: Colour) -> Colour:
    return "B" if colour == "W" else "W"
