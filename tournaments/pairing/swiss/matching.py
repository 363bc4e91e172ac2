"""Maximum-weight matching in a dense graph, re-optimised after local changes.

The Dutch procedure solves one weighted matching problem many times over, each time
after changing the edges of one or two vertices (a player's candidate opponents get a
bonus, a pair is fixed). Solving from scratch each time costs O(n^3); this matcher keeps
the matching and the dual solution and repairs them instead, in O(n^2) per changed
vertex.

The method is the primal-dual blossom algorithm (Edmonds; Gabow; Galil, Micali and
Gabow), with integer duals kept doubled so that every step stays integral:

* each vertex has a dual ``Y[v] >= 0`` and each blossom ``B`` a dual ``Y[B] >= 0``;
* the slack of edge ``uv`` is ``Y[u] + Y[v] - 2 w(uv) + sum Y[B]`` over the blossoms
  containing both ends, never negative (dual feasibility);
* the matching is optimal when matched edges and the edges inside blossoms are tight
  (slack 0), every vertex with a positive dual is matched, and every blossom with a
  positive dual is full.

A changed vertex is *released*: taken out of its blossoms (their duals are handed down
to their vertices, which keeps inner edges tight), unmatched, and given the least dual
that keeps every one of its edges feasible. What is then out of order is a few exposed
vertices with positive duals. Each is first matched over a tight edge to another exposed
vertex when there is one (a one-edge augmenting path), else has its dual lowered as far
as its edges allow and is tried again (the first solve, with nothing matched, starts
every dual at the vertex's largest weight). Each search stage then starts trees from
the rest only, lowers their duals and raises the others' until it finds an augmenting
path, or until a tree vertex's dual reaches zero (the path to it is flipped so that it
becomes the exposed one). Exposed vertices whose dual is zero need nothing; a tree that
reaches one augments into it.
A scan walks only the vertices outside the scanned vertex's blossom, and a new outer
blossom's least-slack edges are looked for only when a dual step needs them.

Weights are non-negative integers of any size (Python integers); a weight of zero means
no edge, and such pairs are never matched.
"""

from __future__ import annotations

from collections.abc import Iterable

FREE, OUTER, INNER, ZERO = 0, 1, 2, 3  # labels of top-level blossoms during a stage


class Matcher:
    """A dense graph on vertices ``0..n-1`` with a maximum-weight matching kept up to date.

    Call :meth:`set_weight` (or :meth:`set_row`) for the edges that change, then
    :meth:`solve`; :meth:`mate` reads the result. :meth:`retire` takes a matched pair out
    of the graph for good.
    """

    def __init__(self, size: int) -> None:
        self.n = size
        self.w = [[0] * size for _ in range(size)]
        self.w2 = [[0] * size for _ in range(size)]  # the weights doubled, for the slacks
        self.alive = [True] * size
        self.live = list(range(size))  # the vertices still alive, in order
        self.mate = [-1] * size
        total = 2 * size
        self.Y = [0] * total  # doubled duals of vertices and blossoms
        self.parent = [-1] * total
        self.childs: list[list[int]] = [[] for _ in range(total)]
        # links[b][i] = (x, y): x in childs[b][i], y in childs[b][i+1 mod k]; tight edges
        self.links: list[list[tuple[int, int]]] = [[] for _ in range(total)]
        self.base = list(range(size)) + [-1] * size
        self.leafs: list[list[int]] = [[v] for v in range(size)] + [[] for _ in range(size)]
        self.top = list(range(size))
        self.unused = list(range(total - 1, size - 1, -1))
        self.released: set[int] = set()
        # per-stage state
        self.label = [FREE] * total
        self.lend: list[tuple[int, int] | None] = [None] * total
        self.tmark = [False] * size
        self.tlend: list[tuple[int, int] | None] = [None] * size
        self.best: list[tuple[int, int] | None] = [None] * total
        # the slack of ``best[x]`` at the current duals, kept when the duals move
        self.bestslack = [0] * total
        self.bestlist: list[list[tuple[int, int]] | None] = [None] * total
        self.unsettled = [False] * total  # outer blossoms whose least-slack edges are not known
        self.queue: list[int] = []

    # -- public interface -----------------------------------------------------------

    def set_weight(self, v: int, u: int, weight: int) -> None:
        """Set the weight of edge ``vu``; ``v`` is released (unmatched) for the next solve."""
        if weight < 0:
            raise ValueError("edge weights are non-negative")
        if v not in self.released:
            self._release(v)
        self.w[v][u] = weight
        self.w[u][v] = weight
        self.w2[v][u] = self.w2[u][v] = 2 * weight

    def set_row(self, v: int, weights: Iterable[tuple[int, int]]) -> None:
        """Set several edges of ``v`` at once: ``(neighbour, weight)`` pairs."""
        if v not in self.released:
            self._release(v)
        w = self.w
        w2 = self.w2
        row = w[v]
        row2 = w2[v]
        for u, weight in weights:
            if weight < 0:
                raise ValueError("edge weights are non-negative")
            row[u] = w[u][v] = weight
            row2[u] = w2[u][v] = 2 * weight

    def weight(self, v: int, u: int) -> int:
        return self.w[v][u]

    def mate_of(self, v: int) -> int:
        """The vertex matched to ``v``, or ``v`` itself when it is unmatched."""
        m = self.mate[v]
        return v if m < 0 else m

    def retire(self, v: int, u: int) -> None:
        """Remove the matched pair ``vu`` from the graph (both vertices must be matched
        to each other); the rest of the matching stays optimal for the rest of the graph."""
        if self.mate[v] != u:
            raise ValueError(f"{v} and {u} are not matched to each other")
        for x in (v, u):
            while self.top[x] != x:
                b = self.top[x]
                # taking the blossom apart loosens the edges leaving it: the base's
                # outside match (if it is not the pair itself) is undone, to be repaired
                base = self.base[b]
                m = self.mate[base]
                if m >= 0 and m not in (v, u):
                    self.mate[base] = -1
                    self.mate[m] = -1
                self._dissolve(b)
        for x in (v, u):
            self.alive[x] = False
            self.released.discard(x)
        self.live = [x for x in self.live if x != v and x != u]

    def solve(self) -> None:
        alive = self.alive
        live = self.live
        Y = self.Y
        w2 = self.w2
        mate = self.mate
        top = self.top
        if all(mate[v] < 0 for v in live):
            # nothing matched yet (so no blossom either): each vertex's dual is its
            # largest weight (half of the doubled one), which makes tight every edge
            # that is the heaviest of both its ends; with many equal weights most
            # vertices are paired just below
            for v in live:
                Y[v] = max([w2[v][u] for u in live], default=0) // 2
        else:
            # a released vertex gets the least dual that keeps its edges feasible
            for v in self.released:
                if alive[v]:
                    row = w2[v]
                    Y[v] = max(0, max([row[u] - Y[u] for u in live if u != v], default=0))
        self.released.clear()
        # then every exposed single vertex with a positive dual is matched over a tight
        # edge to another exposed single vertex when there is one (an augmenting path of
        # one edge, found without growing every tree), else has its dual lowered as far
        # as its edges allow (what the first dual step of its tree would do) and is
        # tried again; a matched vertex's dual does not change any more
        exposed = [u for u in live if mate[u] < 0 and top[u] == u]
        for v in exposed:
            if mate[v] >= 0 or not Y[v]:
                continue
            row = w2[v]
            for lowered in (False, True):
                if lowered:
                    least = max(0, max([row[u] - Y[u] for u in live if u != v], default=0))
                    if least == Y[v]:
                        break
                    Y[v] = least
                    if not least:
                        break
                yv = Y[v]
                partner = next(
                    (
                        u
                        for u in exposed
                        if mate[u] < 0 and u != v and row[u] and yv + Y[u] == row[u]
                    ),
                    -1,
                )
                if partner >= 0:
                    mate[v] = partner
                    mate[partner] = v
                    break
        self._even_roots()
        while self._stage():
            pass

    def matching(self) -> list[int]:
        return [self.mate_of(v) for v in range(self.n)]

    # -- blossom structure --------------------------------------------------------------

    def _leaves(self, b: int) -> list[int]:
        """The vertices inside ``b`` (a list kept with the blossom: do not change it)."""
        return self.leafs[b]

    def _set_top(self, b: int) -> None:
        top = self.top
        for v in self._leaves(b):
            top[v] = b

    def _dissolve(self, b: int) -> None:
        """Remove top-level blossom ``b``, handing half its dual to each of its vertices;
        its children become top-level with the matching inside unchanged."""
        half = self.Y[b] // 2
        if half:
            Y = self.Y
            for v in self._leaves(b):
                Y[v] += half
        for c in self.childs[b]:
            self.parent[c] = -1
            self._set_top(c)
        self._free_blossom(b)

    def _free_blossom(self, b: int) -> None:
        self.childs[b] = []
        self.links[b] = []
        self.leafs[b] = []
        self.base[b] = -1
        self.Y[b] = 0
        self.label[b] = FREE
        self.lend[b] = None
        self.best[b] = None
        self.bestlist[b] = None
        self.unsettled[b] = False
        self.unused.append(b)

    def _release(self, v: int) -> None:
        b = self.top[v]
        base = self.base[b]
        m = self.mate[base]
        if m >= 0:
            self.mate[base] = -1
            self.mate[m] = -1
        if b != v:
            self._rotate(b, v)
            self.mate[v] = -1
            while self.top[v] != v:
                self._dissolve(self.top[v])
        self.released.add(v)

    def _even_roots(self) -> None:
        """Give every exposed vertex an even dual, so that all search trees share a parity
        and every step of a stage stays integral."""
        n = self.n
        Y = self.Y
        for b in range(2 * n):
            if b < n:
                if not self.alive[b] or self.top[b] != b:
                    continue
            elif self.base[b] < 0 or self.parent[b] != -1:
                continue
            base = self.base[b]
            if self.mate[base] >= 0 or Y[base] % 2 == 0:
                continue
            x = b
            while x >= n and Y[x] == 0:
                self._dissolve(x)
                x = self.top[base]
            if x >= n:
                Y[x] -= 2
                for v in self._leaves(x):
                    Y[v] += 1
            else:
                Y[x] += 1

    def _rotate(self, b: int, v: int) -> None:
        """Make vertex ``v`` the base of blossom ``b`` by flipping the even alternating path
        from its child to the base child (all edges on it are tight)."""
        n = self.n
        t = v
        while self.parent[t] != b:
            t = self.parent[t]
        if t >= n:
            self._rotate(t, v)
        childs = self.childs[b]
        links = self.links[b]
        k = len(childs)
        i = childs.index(t)
        mate = self.mate
        pairs = range(i - 2, -1, -2) if i % 2 == 0 else range(i + 1, k, 2)
        for j in pairs:
            x, y = links[j]
            cx, cy = childs[j], childs[(j + 1) % k]
            if cx >= n:
                self._rotate(cx, x)
            if cy >= n:
                self._rotate(cy, y)
            mate[x] = y
            mate[y] = x
        self.childs[b] = childs[i:] + childs[:i]
        self.links[b] = links[i:] + links[:i]
        self.base[b] = v

    # -- one search stage -----------------------------------------------------------------

    def _slack(self, u: int, v: int) -> int:
        return self.Y[u] + self.Y[v] - 2 * self.w[u][v]

    def _stage(self) -> bool:
        n = self.n
        total = 2 * n
        alive = self.alive
        label = self.label
        label[:] = [FREE] * total
        self.lend[:] = [None] * total
        self.best[:] = [None] * total
        self.bestlist[:] = [None] * total
        self.unsettled[:] = [False] * total
        self.tmark[:] = [False] * n
        self.tlend[:] = [None] * n
        self.queue = []
        any_root = False
        for b in range(total):
            if b < n:
                if not alive[b] or self.top[b] != b:
                    continue
            elif self.base[b] < 0 or self.parent[b] != -1:
                continue
            base = self.base[b]
            if self.mate[base] >= 0:
                continue
            if self.Y[base] > 0:
                self._assign(base, OUTER, None)
                any_root = True
            else:
                label[b] = ZERO
        if not any_root:
            return False
        while True:
            result = self._scan()
            if result is not None:
                kind, x, y = result
                if kind == "augment":
                    self._augment(x, y)
                    break
            # no augmenting path with the edges tight now: change the duals
            event = self._dual_step()
            if event is None:
                raise AssertionError("matching stage found no dual step")
            kind, x, y = event
            if kind == "expose":
                self._expose(x)
                break
            if kind == "expand":
                self._expand(x, end_of_stage=False)
            else:  # an edge became tight: scan its outer end again
                self.queue.append(x)
        # blossoms with a zero dual are taken apart between stages
        for b in range(n, total):
            if self.parent[b] == -1 and self.base[b] >= 0 and label[b] == OUTER and self.Y[b] == 0:
                self._expand(b, end_of_stage=True)
        return True

    def _scan(self) -> tuple[str, int, int] | None:
        w2 = self.w2
        Y = self.Y
        top = self.top
        label = self.label
        tmark = self.tmark
        best = self.best
        bestslack = self.bestslack
        queue = self.queue
        live = self.live
        others: list[int] = []
        others_of = -1
        while queue:
            v = queue.pop()
            bv = top[v]
            if bv != others_of:
                # the vertices outside v's blossom (its members would be skipped anyway)
                others = [u for u in live if top[u] != bv]
                others_of = bv
            row = w2[v]
            yv = Y[v]
            own = bestslack[bv] if best[bv] is not None else None
            for u in others:
                wt = row[u]
                if not wt:
                    continue
                bu = top[u]
                if bu == bv:
                    continue
                slack = yv + Y[u] - wt
                lu = label[bu]
                if slack == 0:
                    if lu == FREE:
                        self._assign(u, INNER, (v, u))
                    elif lu == ZERO:
                        return ("augment", v, u)
                    elif lu == OUTER:
                        base = self._find_base(v, u)
                        if base >= 0:
                            self._add_blossom(base, v, u)
                            bv = top[v]
                            own = bestslack[bv] if best[bv] is not None else None
                        else:
                            return ("augment", v, u)
                    elif not tmark[u]:
                        tmark[u] = True
                        self.tlend[u] = (v, u)
                elif lu == OUTER:
                    if own is None or slack < own:
                        best[bv] = (v, u)
                        bestslack[bv] = own = slack
                elif not tmark[u] and (best[u] is None or slack < bestslack[u]):
                    best[u] = (v, u)
                    bestslack[u] = slack
        return None

    def _dual_step(self) -> tuple[str, int, int] | None:
        n = self.n
        Y = self.Y
        top = self.top
        label = self.label
        alive = self.alive
        best = self.best
        bestslack = self.bestslack
        delta: int | None = None
        event: tuple[str, int, int] | None = None
        waiting: list[int] = []  # non-tree vertices with a least-slack edge
        for v in self.live:
            lv = label[top[v]]
            if lv == OUTER:
                if delta is None or Y[v] < delta:
                    delta = Y[v]
                    event = ("expose", v, -1)
            elif lv in (FREE, ZERO):
                edge = best[v]
                if edge is not None:
                    waiting.append(v)
                    slack = bestslack[v]
                    if delta is None or slack < delta:
                        delta = slack
                        event = ("tight", edge[0], edge[1])
        outer: list[int] = []  # top-level outer blossoms with a least-slack edge
        for b in range(2 * n):
            if b < n:
                if not alive[b] or top[b] != b:
                    continue
            elif self.base[b] < 0 or self.parent[b] != -1:
                continue
            if label[b] == OUTER:
                if self.unsettled[b]:
                    self._settle(b)
                edge = best[b]
                if edge is not None:
                    outer.append(b)
                    slack = bestslack[b]
                    if slack % 2:
                        raise AssertionError("odd slack between outer blossoms")
                    if delta is None or slack // 2 < delta:
                        delta = slack // 2
                        event = ("tight", edge[0], edge[1])
            elif label[b] == INNER and b >= n and (delta is None or Y[b] // 2 < delta):
                delta = Y[b] // 2
                event = ("expand", b, -1)
        if delta is None:
            return None
        if delta:
            for v in self.live:
                lv = label[top[v]]
                if lv == OUTER:
                    Y[v] -= delta
                elif lv == INNER:
                    Y[v] += delta
            for b in range(n, 2 * n):
                if self.base[b] >= 0 and self.parent[b] == -1:
                    if label[b] == OUTER:
                        Y[b] += 2 * delta
                    elif label[b] == INNER:
                        Y[b] -= 2 * delta
            for v in waiting:
                bestslack[v] -= delta
            double = 2 * delta
            for b in outer:
                bestslack[b] -= double
        return event

    def _assign(self, u: int, kind: int, edge: tuple[int, int] | None) -> None:
        b = self.top[u]
        self.label[b] = kind
        self.lend[b] = edge
        self.best[b] = None
        if u < self.n:
            self.best[u] = None
        if kind == OUTER:
            self.queue.extend(self._leaves(b))
        else:
            self.tmark[u] = True
            self.tlend[u] = edge
            base = self.base[b]
            m = self.mate[base]
            self._assign(m, OUTER, (base, m))

    def _find_base(self, v: int, u: int) -> int:
        """Walk up from both ends of a tight outer-outer edge; the base of the first blossom
        met twice closes a new blossom, or -1 when the walks reach two roots."""
        top = self.top
        seen: list[int] = []
        marked: set[int] = set()
        result = -1
        a, c = v, u
        while a != -1 or c != -1:
            if a != -1:
                b = top[a]
                if b in marked:
                    result = self.base[b]
                    break
                marked.add(b)
                seen.append(b)
                edge = self.lend[b]
                if edge is None:
                    a = -1
                else:
                    t = edge[0]
                    tedge = self.lend[top[t]]
                    assert tedge is not None
                    a = tedge[0]
            if c != -1:
                a, c = c, a
        return result

    def _add_blossom(self, base: int, v: int, u: int) -> None:
        top = self.top
        bb = top[base]
        bv = top[v]
        bu = top[u]
        b = self.unused.pop()
        self.base[b] = base
        self.parent[b] = -1
        self.parent[bb] = b
        vchain: list[int] = []
        vlinks: list[tuple[int, int]] = []
        while bv != bb:
            self.parent[bv] = b
            vchain.append(bv)
            edge = self.lend[bv]
            assert edge is not None
            vlinks.append(edge)  # (vertex in parent, vertex in bv)
            bv = top[edge[0]]
        uchain: list[int] = []
        ulinks: list[tuple[int, int]] = []
        while bu != bb:
            self.parent[bu] = b
            uchain.append(bu)
            edge = self.lend[bu]
            assert edge is not None
            ulinks.append((edge[1], edge[0]))  # (vertex in bu, vertex in parent)
            bu = top[edge[0]]
        childs = [bb, *reversed(vchain), *uchain]
        links = [*reversed(vlinks), (v, u), *ulinks]
        self.childs[b] = childs
        self.links[b] = links
        leafs = self.leafs
        leafs[b] = [leaf for c in childs for leaf in leafs[c]]
        self.label[b] = OUTER
        self.lend[b] = self.lend[bb]
        self.Y[b] = 0
        label = self.label
        queue = self.queue
        for leaf in leafs[b]:
            if label[top[leaf]] == INNER:
                queue.append(leaf)
            top[leaf] = b
        # its least-slack edges wait for the next dual step (the stage may end first)
        self.unsettled[b] = True
        self.best[b] = None

    def _settle(self, b: int) -> None:
        """Find the least-slack edges from the new outer blossom ``b`` to every other outer
        blossom, indexed by that blossom (``reached`` keeps the order in which they were
        first met): from its children's lists where they have one, else from their
        vertices' rows; children that are themselves unsettled are opened in turn."""
        self.unsettled[b] = False
        top = self.top
        label = self.label
        leafs = self.leafs
        slackto: list[int | None] = [None] * (2 * self.n)
        bestto: list[tuple[int, int] | None] = [None] * (2 * self.n)
        reached: list[int] = []
        w2 = self.w2
        Y = self.Y
        outer = [
            (y, Y[y], top[y]) for y in self.live if top[y] != b and label[top[y]] == OUTER
        ]
        childs = list(self.childs[b])
        for c in childs:
            if self.unsettled[c]:
                self.unsettled[c] = False
                childs.extend(self.childs[c])
                continue
            known = self.bestlist[c]
            if known is None:
                for x in leafs[c]:
                    row = w2[x]
                    yx = Y[x]
                    for y, yy, by in outer:
                        wt = row[y]
                        if wt:
                            slack = yx + yy - wt
                            current = slackto[by]
                            if current is None:
                                reached.append(by)
                            elif slack >= current:
                                continue
                            slackto[by] = slack
                            bestto[by] = (x, y)
            else:
                for x, y in known:
                    if top[y] == b:
                        x, y = y, x
                    by = top[y]
                    if by != b and label[by] == OUTER:
                        slack = Y[x] + Y[y] - w2[x][y]
                        current = slackto[by]
                        if current is None:
                            reached.append(by)
                        elif slack >= current:
                            continue
                        slackto[by] = slack
                        bestto[by] = (x, y)
            self.bestlist[c] = None
            self.best[c] = None
        edges: list[tuple[int, int]] = []
        chosen = None
        low = None
        for by in reached:
            edge = bestto[by]
            assert edge is not None
            edges.append(edge)
            least = slackto[by]
            assert least is not None
            if low is None or least < low:
                low = least
                chosen = edge
        self.bestlist[b] = edges
        self.best[b] = chosen
        if low is not None:
            self.bestslack[b] = low

    def _augment(self, v: int, u: int) -> None:
        for s, p in ((v, u), (u, v)):
            self._flip_path(s, p)

    def _expose(self, v: int) -> None:
        self._flip_path(v, -1)

    def _flip_path(self, s: int, p: int) -> None:
        """Match ``s`` to ``p`` (or leave it exposed when ``p`` is -1) and flip the
        alternating path from ``s`` up to the root of its tree."""
        n = self.n
        top = self.top
        mate = self.mate
        while True:
            bs = top[s]
            if bs >= n:
                self._rotate(bs, s)
            mate[s] = p
            edge = self.lend[bs]
            if edge is None:
                return
            t = edge[0]
            bt = top[t]
            tedge = self.lend[bt]
            assert tedge is not None
            s2, j = tedge
            if bt >= n:
                self._rotate(bt, j)
            mate[j] = s2
            s, p = s2, j

    def _expand(self, b: int, end_of_stage: bool) -> None:
        n = self.n
        Y = self.Y
        for c in self.childs[b]:
            self.parent[c] = -1
            if c < n:
                self.top[c] = c
            elif end_of_stage and Y[c] == 0:
                self._expand(c, end_of_stage)
            else:
                self._set_top(c)
        if not end_of_stage and self.label[b] == INNER:
            self._relabel_expanded(b)
        self._free_blossom(b)

    def _relabel_expanded(self, b: int) -> None:
        """An inner blossom was taken apart in mid-stage: its children on the even path
        from the entry child to the base child keep the tree going; the others become
        free unless an outer vertex already reaches one of their vertices tightly."""
        top = self.top
        childs = self.childs[b]
        links = self.links[b]
        k = len(childs)
        entry_edge = self.lend[b]
        assert entry_edge is not None
        entry_child = top[entry_edge[1]]
        j = childs.index(entry_child)
        edge = entry_edge
        if j % 2:
            step = 1
            while j < k:  # child j is inner, entered by `edge`; child j+1 is its mate's
                self.tmark[edge[1]] = False
                self._assign(edge[1], INNER, edge)
                edge = links[j + 1]
                j += 2
        else:
            step = -1
            while j > 0:
                self.tmark[edge[1]] = False
                self._assign(edge[1], INNER, edge)
                x, y = links[j - 2]
                edge = (y, x)
                j -= 2
        base_child = childs[0]
        entry = edge[1]
        self.label[base_child] = INNER
        self.lend[base_child] = edge
        self.best[base_child] = None
        self.tmark[entry] = True
        self.tlend[entry] = edge
        # the other children, walking on from the base child towards the entry child
        j = step % k
        while childs[j] != entry_child:
            c = childs[j]
            if self.label[c] != OUTER:
                reached = next((leaf for leaf in self._leaves(c) if self.tmark[leaf]), -1)
                if reached >= 0:
                    reach = self.tlend[reached]
                    assert reach is not None
                    self.tmark[reached] = False
                    self._assign(reached, INNER, reach)
            j = (j + step) % k
