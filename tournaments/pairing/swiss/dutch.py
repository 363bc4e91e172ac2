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
from dataclasses import dataclass, field

from games.i18n import N_
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
            N_("round %(round)d cannot be paired in a tournament of %(total)d rounds"),
            round=round_number, total=total_rounds,
        )
    if scoring.win < 1:
        raise PairingError(N_("a win must be worth at least one score unit"))
    if initial_colour not in ("W", "B"):
        raise PairingError(N_("initial colour must be 'W' or 'B', not %(colour)r"),
                           colour=initial_colour)
    numbers = [player.number for player in players]
    if len(set(numbers)) != len(numbers):
        raise PairingError(N_("two players share a pairing number"))
    known = set(numbers)
    for player in players:
        if player.number < 1:
            raise PairingError(N_("pairing number %(number)d is not positive"),
                               number=player.number)
        if len(player.history) != round_number - 1:
            raise PairingError(
                N_("player %(player)d has %(rounds)d rounds of history; round %(round)d "
                   "needs %(needed)d"),
                player=player.number, rounds=len(player.history), round=round_number,
                needed=round_number - 1,
            )
        for index, record in enumerate(player.history, start=1):
            if record.opponent is not None and record.opponent not in known:
                raise PairingError(
                    N_("player %(player)d met unknown player %(opponent)d in round %(round)d"),
                    player=player.number, opponent=record.opponent, round=index,
                )
            if record.opponent == player.number:
                raise PairingError(N_("player %(player)d meets himself in round %(round)d"),
                                   player=player.number, round=index)


# what the colour criteria of a player depend on: imbalance, preference, repeated, strong
_ColourKind = tuple[int, Colour | None, Colour | None, bool]
_ColourBits = tuple[bool, bool, bool, bool]


def _bits(value: int) -> int:
    return value.bit_length()


@dataclass(slots=True)
class _Bracket:
    """One pairing bracket: ``members`` holds the moved-down players, the residents of
    the score group (vertices ``group_start``..``group_end``-1) and, from ``next_begin``
    on, the next score group; ``base`` the edge weights set for it."""

    members: list[int]
    moved: int
    next_begin: int
    group_start: int
    group_end: int
    size_bits: int = 0
    base: dict[tuple[int, int], int] = field(default_factory=dict)
    remainder: list[int] = field(default_factory=list)
    pairs: int = 0

    @property
    def residents(self) -> list[int]:
        return self.members[self.moved : self.next_begin]

    def in_group(self, v: int) -> bool:
        return self.group_start <= v < self.group_end

    def bonus_weight(self, small: int, large: int, small_index: int) -> int:
        """The base weight with the remainder's orders: fewest exchanges (an S1 player
        paired downwards), then the least difference of exchanged players' numbers."""
        weight = self.base[small, large]
        if not weight:
            return 0
        addend = ((small_index < self.pairs) << (2 * self.size_bits)) - small_index
        return weight + (addend << 1)


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
        # the bits after C9 in a weight: colours, floats, room for the bonuses
        floats = (2 * self.size_bits + 2 * self.score_bits) * min(played_rounds, 2)
        self._tail_bits = 4 * self.size_bits + floats + 3 * self.size_bits + 1
        self.bye_ranks: dict[int, int] = {}
        # the colour criteria depend on these alone: computed once per pair of kinds
        self._colour_kind = [
            (state.imbalance, state.preference, state.repeated, state.strong) for state in states
        ]
        self._colour_cache: dict[tuple[_ColourKind, _ColourKind], _ColourBits] = {}
        self.matcher = Matcher(self.n)
        self.pairs: list[tuple[int, int]] = []
        self.snapshot: list[int] = []
        self.matched: list[bool] = []

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
        if not in_current and not in_next:
            # outside both brackets only completion, byes and C9 count: the same bit
            # layout as below with every bracket field zero
            r <<= 4 * b + 2 * s
            if self.single_bye:
                if higher.score == self.bye_score:
                    r += self.bye_ranks[higher.played_games]
                if lower.score == self.bye_score:
                    r += self.bye_ranks[lower.played_games]
            return r << self._tail_bits
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
        kinds = (self._colour_kind[lo], self._colour_kind[h])
        colours = self._colour_cache.get(kinds)
        if colours is None:
            colours = self._colour_cache[kinds] = self._colour_bits(lower, higher)
        for ok in colours:
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
            self._set_outside_weights()
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
            self._set_outside_weights()
        return self._brackets()

    def _set_outside_weights(self) -> None:
        """Every edge's weight outside both brackets (as :meth:`weight` gives it), row by
        row: completion, bye eligibility and C9 only."""
        p = self.p
        field = 4 * self.size_bits + 2 * self.score_bits
        terms = []
        for player in p:
            term = (not self.bye_candidate(player)) << field
            if self.single_bye and player.score == self.bye_score:
                term += self.bye_ranks[player.played_games]
            terms.append(term)
        one = 1 << field
        tail = self._tail_bits
        compatible = self.compatible
        for v in range(self.n):
            lower = p[v]
            own = one + terms[v]
            self.matcher.set_row(
                v,
                [
                    (u, (own + terms[u]) << tail if compatible(p[u], lower) else 0)
                    for u in range(v)
                ],
            )

    def _check_complete(self) -> None:
        unmatched = [v for v in range(self.n) if self.mate(v) == v]
        if len(unmatched) == 0:
            return
        if len(unmatched) == 1 and self.p[unmatched[0]].bye_eligible:
            return
        raise self._unpairable()

    def _unpairable(self) -> PairingError:
        """Why no legal pairing exists."""
        p = self.p
        lonely = [
            state.number
            for state in p
            if not any(self.compatible(state, other) for other in p if other is not state)
        ]
        if lonely:
            names = ", ".join(str(number) for number in sorted(lonely))
            return PairingError(
                N_("no legal pairing exists: player(s) %(players)s can meet nobody (all have "
                   "been met, are forbidden, or clash on an absolute colour preference)"),
                players=names,
            )
        if self.n % 2 and not any(state.bye_eligible for state in p):
            return PairingError(
                N_("no legal pairing exists: the number of players is odd and every player "
                   "already had the pairing-allocated bye or a win without playing (C2)")
            )
        return PairingError(
            N_("no legal pairing exists: the players cannot all be paired without a rematch, "
               "a forbidden pair or a clash of absolute colour preferences (C1, C3), with "
               "at most one player, eligible for it, left for the bye (C2)")
        )

    def _brackets(self) -> tuple[list[tuple[int, int]], int | None]:
        n = self.n
        p = self.p
        self.matched = [False] * n
        cursor = 0
        members: list[int] = []
        while cursor < n and p[cursor].score >= p[0].score:
            members.append(cursor)
            cursor += 1
        moved = 0
        group_start = 0
        while len(members) > 1 or cursor < n:
            next_begin = len(members)
            next_group = cursor
            if cursor < n:
                score = p[cursor].score
                while cursor < n and p[cursor].score >= score:
                    members.append(cursor)
                    cursor += 1
            bracket = _Bracket(
                members=members,
                moved=moved,
                next_begin=next_begin,
                group_start=group_start,
                group_end=group_start + (next_begin - moved),
                size_bits=self.size_bits,
            )
            self._set_bracket_weights(bracket)
            self._pair_moved_down(bracket)
            self._pair_remainder(bracket)
            # players left over move down to the next bracket
            carried: list[int] = []
            moved_before = moved
            moved = 0
            self.single_bye = bool(
                n % 2 and next_group < n and self.bye_score >= p[next_group].score
            )
            for index, v in enumerate(members):
                if index < next_begin and self.matched[v]:
                    continue
                carried.append(v)
                if index < next_begin:
                    moved += 1
                if self.single_bye and p[self.mate(v)].score < p[next_group].score:
                    self.single_bye = False
            if carried == members and moved == moved_before and cursor >= n:
                raise PairingError("the pairing procedure made no progress (internal error)")
            members = carried
            group_start = bracket.group_end
        bye = members[0] if members else None
        return self.pairs, bye

    def _set_bracket_weights(self, bracket: _Bracket) -> None:
        """Weights of every edge whose lower end is in the score group or the next one."""
        members = bracket.members
        base = bracket.base
        weight = self.weight
        for large in range(bracket.moved, len(members)):
            lv = members[large]
            in_current = large < bracket.next_begin
            row = [(sv, weight(sv, lv, in_current, not in_current)) for sv in members[:large]]
            for sv, value in row:
                base[sv, lv] = value
            self.matcher.set_row(lv, row)
        self.solve()

    def _pair_moved_down(self, bracket: _Bracket) -> None:
        """Which moved-down players are paired in the bracket (the most, highest scores
        first, then the highest ranked), and each one's opponent (the highest possible)."""
        p = self.p
        members = bracket.members
        base = bracket.base
        residents = bracket.residents
        in_group = bracket.in_group
        matched = self.matched
        remaining = remaining_matched = 0
        level: int | None = None
        for index in range(bracket.moved):
            v = members[index]
            if level is None or p[v].score < level:
                level = p[v].score
                remaining = remaining_matched = 0
                for other in members[index : bracket.moved]:
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
                    if base[v, o]:
                        self.set_weight(v, o, base[v, o] | 1)
                self.solve()
            if in_group(self.mate(v)):
                matched[v] = True
                remaining_matched -= 1
                for o in residents:
                    if base[v, o]:
                        self.set_weight(v, o, (base[v, o] | len(residents)) + 1)
        for index in range(bracket.moved):
            v = members[index]
            if not matched[v]:
                continue
            candidates = [o for o in residents if not matched[o] and base[v, o]]
            planned = {
                o: base[v, o] + bonus
                for bonus, o in enumerate(reversed(candidates), start=len(members))
            }
            if not self._settled(v, candidates, planned):
                for o, weight in planned.items():
                    self.set_weight(v, o, weight)
                self.solve()
            partner = self.mate(v)
            matched[partner] = True
            self._fix(v, partner)

    def _pair_remainder(self, bracket: _Bracket) -> None:
        """The residents left: the fewest exchanges between S1 and S2, the lowest of S1
        and the highest of S2 exchanged first, then each S1 player's partner (the highest
        possible), as the Dutch transposition and exchange order gives."""
        remainder = [o for o in bracket.residents if self.mate(o) >= bracket.group_start]
        bracket.remainder = remainder
        bracket.pairs = sum(1 for o in remainder if self.mate(o) < o)
        for index, large in enumerate(remainder):
            for small_index, small in enumerate(remainder[:index]):
                self.set_weight(small, large, bracket.bonus_weight(small, large, small_index))
        self.solve()
        exchanges = sum(1 for v in remainder[: bracket.pairs] if not self._is_lower(bracket, v))
        self._exchange_down(bracket, exchanges)
        self._exchange_up(bracket, exchanges)
        base = bracket.base
        lower_now = {v: self._is_lower(bracket, v) for v in remainder}
        for i, v in enumerate(remainder):
            for o in remainder[i + 1 :]:
                if not lower_now[v] or lower_now[o]:
                    base[v, o] = 0
                self.set_weight(v, o, base[v, o])
        matched = self.matched
        for v in remainder:
            if not self._is_lower(bracket, v):
                continue
            later = [o for o in remainder if o > v and not matched[o]]
            planned = {
                o: base[v, o] + bonus for bonus, o in enumerate(reversed(later)) if base[v, o]
            }
            candidates = [o for o in later if base[v, o]]
            if not self._settled(v, candidates, planned):
                for o, weight in planned.items():
                    self.set_weight(v, o, weight)
                self.solve()
            partner = self.mate(v)
            matched[v] = matched[partner] = True
            self._fix(v, partner)

    def _settled(self, v: int, candidates: list[int], planned: dict[int, int]) -> bool:
        """Whether ``v``'s partner after giving its edges the ``planned`` weights (the
        best of ``candidates`` first) is known without solving: the snapshot, an optimum
        of the current weights, pairs ``v`` with the first candidate, the matcher holds
        that pair and has no pending change, and the planned weights raise that edge by
        strictly more than any other edge of ``v`` (edges not planned do not change).
        Every matching then gains less than the snapshot's, so every optimum after the
        change pairs ``v`` the same way: one solve fewer, and as the pair is retired
        next, its edges' weights need not be set."""
        if not candidates or self.matcher.released:
            return False
        first = candidates[0]
        if self.mate(v) != first or self.matcher.mate[v] != first:
            return False
        weight = self.matcher.weight
        gain = planned[first] - weight(v, first)
        return gain > 0 and all(
            planned[o] - weight(v, o) < gain for o in planned if o != first
        )

    def _is_lower(self, bracket: _Bracket, v: int) -> bool:
        """``v`` is paired with a later player of its score group (it stands in S1)."""
        return v < self.mate(v) < bracket.group_end

    def _exchange_down(self, bracket: _Bracket, exchanges: int) -> None:
        """S1 players that move to S2: tried from the bottom of S1 up."""
        remainder = bracket.remainder
        left = exchanges
        index = bracket.pairs
        while index > 0 and left:
            index -= 1
            v = remainder[index]
            later = remainder[index + 1 :]
            if self._is_lower(bracket, v):
                for o in later:
                    weight = bracket.bonus_weight(v, o, index)
                    if weight:
                        self.set_weight(v, o, weight - 1)
                self.solve()
            exchange = not self._is_lower(bracket, v)
            left -= exchange
            for o in later:
                if exchange:
                    bracket.base[v, o] = 0
                self.set_weight(v, o, bracket.bonus_weight(v, o, index))

    def _exchange_up(self, bracket: _Bracket, exchanges: int) -> None:
        """S2 players that move to S1: tried from the top of S2 down."""
        remainder = bracket.remainder
        base = bracket.base
        left = exchanges
        for index in range(bracket.pairs, len(remainder)):
            if left <= 1:
                break
            v = remainder[index]
            later = remainder[index + 1 :]
            already = self._is_lower(bracket, v)
            if not already:
                for o in later:
                    weight = bracket.bonus_weight(v, o, index)
                    if weight:
                        self.set_weight(v, o, weight + 1)
                self.solve()
            if self._is_lower(bracket, v):
                left -= 1
                for o in remainder[:index]:
                    base[o, v] = 0
                    self.set_weight(v, o, 0)
                for o in bracket.members[bracket.next_begin :]:
                    base[v, o] = 0
                    self.set_weight(v, o, 0)
            if not already:
                for o in later:
                    self.set_weight(v, o, bracket.bonus_weight(v, o, index))

    def _fix(self, v: int, u: int) -> None:
        if self.mate(v) != u:
            raise PairingError("the pairing procedure lost a fixed pair (internal error)")
        self.pairs.append((v, u))
        self.matcher.retire(v, u)

    def _fixed(self, v: int) -> bool:
        return not self.matcher.alive[v]


def _other(colour: Colour) -> Colour:
    return "B" if colour == "W" else "W"
