"""Exact Triple Triad search over one full-information position, in pure Python (moved out of
the product in issue 26: only tests and ``bench/triad_ai.py`` use it).

The ``hard`` computer runs the same search compiled (``games.triad.compiled``, numba); this one
is the reference it is tested against. It extends ``games.triad.search.Position`` (the compiled
position and its flips) with the search; ``Allowance``, ``Problem``, ``Move`` and ``Result`` are
shared by both.

The position is compiled into small integers so one search node is a handful of int operations:

- ``kinds``: the board's cards, 4 bits per cell (``kind + 1``, 0 = empty), where a *kind* is a
  distinct (printed values, element) pair among the ten cards in play: identical cards are one
  kind, so they share transposition entries and are tried once per hand.
- ``owner``: 9 bits, the cells showing side 0's colour; ``occ``: 9 bits, the occupied cells.
- ``hands``: one bit per card still in a hand (cards are numbered 0-9, side 0's first).
- ``dead``: occupied cells whose four neighbours are all occupied. Without Cadena such a card can
  never flip again (flips only reach the neighbours of the placed card), so its colour is a
  constant of the rest of the round: the search value leaves it out (*live value* = final score
  difference minus the dead cells' difference, for the side to move), and the transposition key
  forgets dead cells' cards and colours. Positions that differ only there share one entry. With
  Cadena a chain can reach a card with no empty neighbour, but only from a neighbour that beats
  it: such a card is dead only when none of its neighbours beats it (``Solver.frozen``).

The transposition key is the exact packed position (kinds and colours of live cells, hands,
occupancy: at most 64 bits), so entries never collide. Flips are those of ``rules.resolve``
(Igual, Pared, Suma, Cadena, Elemental), memoised per cell on the neighbours' kinds only: an
entry holds the neighbours the placed kind would take whatever their colours (``& opp`` gives
the cells taken), so one entry serves every colouring; under Cadena, when Igual or Suma took a
card, chains are followed on the board through the same memo.

The exact search is negamax alpha-beta, fail-soft, with the transposition table holding lower
and upper bounds, driven by MTD(f): null-window passes around a guess until the bounds meet.
Nodes with five or more empty cells order their children by the table (enhanced transposition
cutoff), cards taken now, history and guarded sides. The last three placements (most of the
tree) run as straight-line code on full-board values: no transposition table (positions so
near the end rarely repeat), no dead-cell bookkeeping, a bound that skips replies that cannot
matter. The search stops when its ``Allowance`` (nodes and/or a deadline on a clock the caller
passes in: ``games/`` reads no clock itself) runs out, raising ``OutOfBudget``; callers keep the
best result proven so far.
"""

from __future__ import annotations

from collections.abc import Callable

from games.triad.rules import NEIGHBOURS
from games.triad.search import (
    _CELLS_OF,
    _NB_LIST,
    _NB_MASK,
    _NB_NIBBLES,
    _POP,
    Allowance,
    Move,
    OutOfBudget,
    Position,
    Result,
)

INF = 100  # beyond any score difference (they lie in -10..10)
CHECK_EVERY = 1024  # nodes between two looks at the budget
ORDER_FROM = 5  # nodes with at least this many empty cells order their moves with the TT (ETC)
_EMPTY_OF = [tuple(c for c in range(9) if not m >> c & 1) for m in range(512)]
_NIBBLES = [sum(15 << 4 * c for c in _CELLS_OF[m]) for m in range(512)]


def _newly_dead(cell: int, occ: int) -> int:
    """Cells among ``cell`` and its neighbours with every neighbour occupied in ``occ``."""
    out = 0
    for q in (cell, *NEIGHBOURS[cell]):
        if q >= 0 and occ >> q & 1 and occ & _NB_MASK[q] == _NB_MASK[q]:
            out |= 1 << q
    return out


_DEAD_AFTER = [_newly_dead(c, occ) for c in range(9) for occ in range(512)]  # [c * 512 + occ]


class _Meter:
    """Counts a solver's nodes into its budget, looking at the budget every ``CHECK_EVERY``."""

    def __init__(self, solver: Solver, budget: Allowance) -> None:
        self.solver = solver
        self.budget = budget
        self.counted = solver.nodes
        self.next_check = solver.nodes + CHECK_EVERY

    def flush(self) -> None:
        self.budget.spent += self.solver.nodes - self.counted
        self.counted = self.solver.nodes

    def check(self) -> None:
        self.flush()
        self.next_check = self.solver.nodes + CHECK_EVERY
        if self.budget.exhausted():
            raise OutOfBudget


class Solver(Position):
    """Searches one ``Problem``; the transposition table lives as long as the solver."""

    # ----- exact search -------------------------------------------------------------------
    def make_search(self, budget: Allowance) -> Callable[..., int]:
        """The negamax function ``ab(kinds, owner, occ, dead, hands, side, alpha, beta,
        empties)`` -> live value (fail-soft) counting nodes against ``budget``.

        Written as closures over local tables: this is the hot loop, and local and closure
        variables are the fastest names CPython reads."""
        tt = self.tt
        tt_get = tt.get
        reps = self.reps
        hand_mask = self.hand_mask
        hm0, hm1 = hand_mask
        mod = self.mod
        history = self.history
        memo = self.flip_memo
        n_kinds = self.n_kinds
        entry_for = self.flip_entry
        chained = self.chained
        pop = _POP
        empty_of = _EMPTY_OF
        nibbles = _NIBBLES
        nb_nibbles = _NB_NIBBLES
        dead_after = _DEAD_AFTER
        combo = self.combo
        frozen = self.frozen
        nb_list = _NB_LIST
        solver = self
        meter = _Meter(self, budget)
        self.meter = meter

        def row_of(cell, kinds_b):
            key = kinds_b & nb_nibbles[cell]
            m = memo[cell]
            row = m.get(key)
            if row is None:
                row = m[key] = [None] * n_kinds
            return row

        def flips(cell, kind, kinds_b, opp):
            key = kinds_b & nb_nibbles[cell]
            m = memo[cell]
            row = m.get(key)
            if row is None:
                row = m[key] = [None] * n_kinds
            e = row[kind]
            if e is None:
                e = entry_for(cell, kind, kinds_b, row)
            if e > 511 and e >> 9 & opp:
                return chained(e, kinds_b, opp)
            return e & opp

        def final_value(owner, occ, dead, hands, side):
            live = occ & ~dead
            mine = owner if side == 0 else occ & ~owner
            return (
                2 * pop[live & mine] - pop[live] + pop[hands & hm0] - pop[hands & hm1]
                if (side == 0)
                else 2 * pop[live & mine] - pop[live] + pop[hands & hm1] - pop[hands & hm0]
            )

        # The last SMALL placements are searched on full-board values (final score difference
        # for the mover, ``mine`` = the mover's cells): no dead cells, no transposition table
        # (positions so near the end rarely repeat), no node-count bookkeeping per child.

        def last(kinds_b, mine, occ, hands, side):
            """One empty cell: the mover's best card there."""
            (cell,) = empty_of[occ]
            if side == 0:
                mm, tm = hm0, hm1
            else:
                mm, tm = hm1, hm0
            base = pop[hands & mm] - 1 - pop[hands & tm] - 9
            opp = occ & ~mine
            mine1 = mine | 1 << cell
            best = -INF
            for _n, kind in reps[side][hands & mm]:
                v = 2 * pop[mine1 | flips(cell, kind, kinds_b, opp)]
                if v > best:
                    best = v
            if best == -INF:  # no card left: the round ends here
                return 2 * pop[mine] - pop[occ] + pop[hands & mm] - pop[hands & tm]
            return best + base

        def two(kinds_b, mine, occ, hands, side, alpha, beta):
            """Two empty cells: every (card, cell) of the mover, then each reply on the other
            cell."""
            solver.nodes += 1
            if solver.nodes >= meter.next_check:
                meter.check()
            c1, c2 = empty_of[occ]
            if side == 0:
                mm, tm = hm0, hm1
                their_reps = reps[1]
            else:
                mm, tm = hm1, hm0
                their_reps = reps[0]
            my_reps = reps[side][hands & mm]
            if not my_reps:
                return 2 * pop[mine] - pop[occ] + pop[hands & mm] - pop[hands & tm]
            n_mine = pop[hands & mm]
            n_theirs = pop[hands & tm]
            base = n_mine - n_theirs - 9  # hands after both place: (n_mine - 1) - (n_theirs - 1)
            cut = alpha - base  # a reply leaving 2 * pop[mine3] <= cut refutes the move
            opp = occ & ~mine
            their = their_reps[hands & tm]
            best = -INF
            for cell, rest in ((c1, c2), (c2, c1)):
                bit = 1 << cell
                row = row_of(cell, kinds_b)
                rest_memo = memo[rest]
                rest_nibbles = nb_nibbles[rest]
                for _n, kind in my_reps:
                    f = row[kind]
                    if f is None:
                        f = entry_for(cell, kind, kinds_b, row)
                    f = chained(f, kinds_b, opp) if f > 511 and f >> 9 & opp else f & opp
                    mine2 = mine | bit | f
                    if their:
                        # the reply only takes cards: an upper bound; no better than alpha?
                        v = 2 * pop[mine2]
                        if v <= cut:
                            v += base
                            if v > best:
                                best = v
                            continue
                    kb2 = kinds_b | (kind + 1) << 4 * cell
                    key = kb2 & rest_nibbles
                    row2 = rest_memo.get(key)
                    if row2 is None:
                        row2 = rest_memo[key] = [None] * n_kinds
                    worst = INF
                    for _m, k2 in their:
                        f2 = row2[k2]
                        if f2 is None:
                            f2 = entry_for(rest, k2, kb2, row2)
                        f2 = chained(f2, kb2, mine2) if f2 > 511 and f2 >> 9 & mine2 else f2 & mine2
                        v = 2 * pop[mine2 & ~f2]
                        if v < worst:
                            worst = v
                            if v <= cut:
                                break
                    if worst == INF:  # the opponent holds no card: the round ends here
                        v = 2 * pop[mine2] - pop[occ | bit] + n_mine - 1 - n_theirs
                    else:
                        v = worst + base
                    if v > best:
                        best = v
                        if v >= beta:
                            return v
                        if v > alpha:
                            alpha = v
                            cut = v - base
            return best

        def three(kinds_b, mine, occ, hands, side, alpha, beta):
            """Three empty cells: each (card, cell) of the mover, then ``two``."""
            solver.nodes += 1
            if solver.nodes >= meter.next_check:
                meter.check()
            mm = hm0 if side == 0 else hm1
            my_reps = reps[side][hands & mm]
            if not my_reps:
                return 2 * pop[mine] - pop[occ] + pop[hands & mm] - pop[hands & ~mm]
            opp = occ & ~mine
            other = 1 - side
            best = -INF
            for cell in empty_of[occ]:
                bit = 1 << cell
                occ2 = occ | bit
                row = row_of(cell, kinds_b)
                for n, kind in my_reps:
                    f = row[kind]
                    if f is None:
                        f = entry_for(cell, kind, kinds_b, row)
                    f = chained(f, kinds_b, opp) if f > 511 and f >> 9 & opp else f & opp
                    theirs2 = occ2 & ~(mine | bit | f)
                    v = -two(
                        kinds_b | (kind + 1) << 4 * cell,
                        theirs2,
                        occ2,
                        hands & ~(1 << n),
                        other,
                        -beta,
                        -alpha,
                    )
                    if v > best:
                        best = v
                        if v >= beta:
                            return v
                        if v > alpha:
                            alpha = v
            return best

        def small(kinds_b, owner, occ, dead, hands, side, alpha, beta, empties):
            """Live value (as ``ab``) of a position with at most three empty cells."""
            mine = owner if side == 0 else occ & ~owner
            dd = 2 * pop[dead & mine] - pop[dead]
            if empties == 3:
                return three(kinds_b, mine, occ, hands, side, alpha + dd, beta + dd) - dd
            if empties == 2:
                return two(kinds_b, mine, occ, hands, side, alpha + dd, beta + dd) - dd
            if empties == 1:
                return last(kinds_b, mine, occ, hands, side) - dd
            return final_value(owner, occ, dead, hands, side)

        def ab(kinds_b, owner, occ, dead, hands, side, alpha, beta, empties):
            if empties <= 3:
                return small(kinds_b, owner, occ, dead, hands, side, alpha, beta, empties)
            solver.nodes += 1
            if solver.nodes >= meter.next_check:
                meter.check()
            live = occ & ~dead
            key = ((((kinds_b & nibbles[live]) << 9 | (owner & live)) << 10 | hands) << 9) | occ
            tt_move = -1
            entry = tt_get(key)
            if entry is not None:
                lo, hi, tt_move = entry
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo == hi:
                    return lo
            my_reps = reps[side][hands & (hm0 if side == 0 else hm1)]
            if not my_reps:
                return final_value(owner, occ, dead, hands, side)
            cells = empty_of[occ]
            opp = occ & ~owner if side == 0 else owner
            other = 1 - side
            best = -INF
            best_move = -1
            a = alpha
            if empties == 4:
                # The children are ``three`` positions, searched on full-board values: shift
                # the window by the dead cells' difference, order by cards taken now, history
                # and how well the placed card guards its empty sides (no TT below).
                mine = owner if side == 0 else occ & ~owner
                dd = 2 * pop[dead & mine] - pop[dead]
                children4 = []
                for cell in cells:
                    nbs = nb_list[cell]
                    bit = 1 << cell
                    occ2 = occ | bit
                    for n, kind in my_reps:
                        f = flips(cell, kind, kinds_b, opp)
                        mv = n * 9 + cell
                        if mv == tt_move:
                            score = 1 << 60
                        else:
                            m = mod[kind * 9 + cell]
                            guard = 0
                            for d, q in nbs:
                                if not occ >> q & 1:
                                    guard += m[d]
                            score = (pop[f] << 30) + (history[mv] << 6) + guard
                        children4.append((score, mv, kind, cell, f, n))
                children4.sort(reverse=True)
                for _score, mv, kind, cell, f, n in children4:
                    bit = 1 << cell
                    occ2 = occ | bit
                    v = (
                        -three(
                            kinds_b | (kind + 1) << 4 * cell,
                            occ2 & ~(mine | bit | f),
                            occ2,
                            hands & ~(1 << n),
                            other,
                            -beta - dd,
                            -a - dd,
                        )
                        - dd
                    )
                    if v > best:
                        best = v
                        best_move = mv
                        if v > a:
                            a = v
                            if v >= beta:
                                history[mv] += 16
                                break
            elif empties >= ORDER_FROM:
                # Every child is made first: a child already known (from another path or an
                # earlier pass) to be bad enough for the opponent cuts at once (enhanced
                # transposition cutoff); the others are ordered by cards taken now, history
                # of earlier cutoffs, and how well the placed card guards its empty sides.
                children = []
                for cell in cells:
                    nbs = nb_list[cell]
                    bit = 1 << cell
                    occ2 = occ | bit
                    for n, kind in my_reps:
                        f = flips(cell, kind, kinds_b, opp)
                        if side == 0:
                            o2 = owner | bit | f
                            mine = o2
                        else:
                            o2 = owner & ~f
                            mine = occ2 & ~o2
                        kb2 = kinds_b | (kind + 1) << 4 * cell
                        nd = dead_after[cell * 512 + occ2]
                        if nd and combo:
                            nd = frozen(nd, kb2)
                        delta = 2 * pop[nd & mine] - pop[nd]
                        d2 = dead | nd
                        h2 = hands & ~(1 << n)
                        live2 = occ2 & ~d2
                        key2 = (
                            (((kb2 & nibbles[live2]) << 9 | (o2 & live2)) << 10 | h2) << 9
                        ) | occ2
                        mv = n * 9 + cell
                        known = tt_get(key2)
                        if known is not None:
                            if delta - known[1] >= beta:
                                best = delta - known[1]
                                lo = -INF if entry is None else entry[0]
                                tt[key] = (max(lo, best), INF if entry is None else entry[1], mv)
                                return best
                            score = (INF - known[1]) << 40
                        else:
                            score = 0
                        if mv == tt_move:
                            score = 1 << 60
                        else:
                            m = mod[kind * 9 + cell]
                            guard = 0
                            for d, q in nbs:
                                if not occ >> q & 1:
                                    guard += m[d]
                            score += (pop[f] << 30) + (history[mv] << 6) + guard
                        children.append((score, mv, kb2, o2, occ2, d2, h2, delta))
                children.sort(reverse=True)
                for _score, mv, kb2, o2, occ2, d2, h2, delta in children:
                    v = delta - ab(
                        kb2, o2, occ2, d2, h2, other, delta - beta, delta - a, empties - 1
                    )
                    if v > best:
                        best = v
                        best_move = mv
                        if v > a:
                            a = v
                            if v >= beta:
                                history[mv] += empties * empties
                                break
            else:
                moves = [(n, kind, cell) for cell in cells for n, kind in my_reps]
                if tt_move >= 0:
                    for i, mv3 in enumerate(moves):
                        if mv3[0] * 9 + mv3[2] == tt_move:
                            moves.insert(0, moves.pop(i))
                            break
                for n, kind, cell in moves:
                    f = flips(cell, kind, kinds_b, opp)
                    bit = 1 << cell
                    occ2 = occ | bit
                    if side == 0:
                        o2 = owner | bit | f
                        mine = o2
                    else:
                        o2 = owner & ~f
                        mine = occ2 & ~o2
                    kb2 = kinds_b | (kind + 1) << 4 * cell
                    nd = dead_after[cell * 512 + occ2]
                    if nd and combo:
                        nd = frozen(nd, kb2)
                    delta = 2 * pop[nd & mine] - pop[nd]
                    v = delta - ab(
                        kb2,
                        o2,
                        occ2,
                        dead | nd,
                        hands & ~(1 << n),
                        other,
                        delta - beta,
                        delta - a,
                        empties - 1,
                    )
                    if v > best:
                        best = v
                        best_move = n * 9 + cell
                        if v > a:
                            a = v
                            if v >= beta:
                                history[best_move] += empties * empties
                                break
            if entry is None:
                lo, hi = -INF, INF
            else:
                lo, hi = entry[0], entry[1]
            if best <= alpha:
                hi = best
            elif best >= beta:
                lo = best
            else:
                lo = hi = best
            tt[key] = (lo, hi, best_move)
            return best

        return ab

    # ----- drivers --------------------------------------------------------------------------
    def root_moves(self) -> list[tuple[int, int, int]]:
        """(card number, kind, cell) of the mover's distinct moves."""
        kinds_b, owner, occ, dead, hands, side = self.root_state
        return [
            (n, kind, cell)
            for cell in _EMPTY_OF[occ]
            for n, kind in self.reps[side][hands & self.hand_mask[side]]
        ]

    def child_value(
        self, ab: Callable[..., int], move: tuple[int, int, int], alpha: int, beta: int
    ) -> int:
        """Fail-soft live value, for the mover at the root, of playing ``move``."""
        kinds_b, owner, occ, dead, hands, side = self.root_state
        n, kind, cell = move
        bit = 1 << cell
        occ2 = occ | bit
        opp = occ & ~owner if side == 0 else owner
        f = self.flips(cell, kind, kinds_b, opp)
        if side == 0:
            o2 = owner | bit | f
            mine = o2
        else:
            o2 = owner & ~f
            mine = occ2 & ~o2
        kb2 = kinds_b | (kind + 1) << 4 * cell
        nd = _DEAD_AFTER[cell * 512 + occ2]
        if nd and self.combo:
            nd = self.frozen(nd, kb2)
        delta = 2 * _POP[nd & mine] - _POP[nd]
        empties = len(_EMPTY_OF[occ]) - 1
        return delta - ab(
            kb2,
            o2,
            occ2,
            dead | nd,
            hands & ~(1 << n),
            1 - side,
            delta - beta,
            delta - alpha,
            empties,
        )

    def root(
        self, ab: Callable[..., int], order: list[tuple[int, int, int]], alpha: int, beta: int
    ) -> tuple[int, tuple[int, int, int]]:
        """Fail-soft root search in (alpha, beta): (live value, a move reaching it)."""
        best, best_move = -INF, order[0]
        a = alpha
        for move in order:
            v = self.child_value(ab, move, a, beta)
            if v > best:
                best, best_move = v, move
                if v > a:
                    a = v
                    if v >= beta:
                        break
        return best, best_move

    def shallow_order(self) -> tuple[list[tuple[int, int, int]], int]:
        """Root moves ordered by a two-ply look (cards taken now minus the most the best reply
        takes back, then how well the placed card guards its empty sides), and a guess of the
        root's live value (the live cells and hands as they stand) for MTD(f)."""
        kinds_b, owner, occ, dead, hands, side = self.root_state
        other = 1 - side
        opp = occ & ~owner if side == 0 else owner
        scored = []
        for n, kind, cell in self.root_moves():
            bit = 1 << cell
            occ2 = occ | bit
            f = self.flips(cell, kind, kinds_b, opp)
            mine = (owner | bit | f) if side == 0 else occ2 & ~(owner & ~f)
            kb2 = kinds_b | (kind + 1) << 4 * cell
            their_cards = self.reps[other][hands & ~(1 << n) & self.hand_mask[other]]
            retaken = max(
                (
                    _POP[self.flips(c2, k2, kb2, mine)]
                    for c2 in _EMPTY_OF[occ2]
                    for _m, k2 in their_cards
                ),
                default=0,
            )
            m = self.mod[kind * 9 + cell]
            guard = sum(m[d] for d, q in _NB_LIST[cell] if not occ2 >> q & 1)
            scored.append(((_POP[f] - retaken) * 64 + guard, (n, kind, cell)))
        scored.sort(key=lambda t: -t[0])
        live = occ & ~dead
        mine_now = owner if side == 0 else occ & ~owner
        guess = (
            2 * _POP[live & mine_now]
            - _POP[live]
            + _POP[hands & self.hand_mask[side]]
            - _POP[hands & self.hand_mask[other]]
        )
        return [m for _s, m in scored], guess

    def solve(self, budget: Allowance) -> Result:
        """The exact best move by MTD(f), or (``exact`` False) the best found when ``budget``
        ran out: a move proven to reach the best lower bound, else the shallow order's first."""
        order, guess = self.shallow_order()
        if not order:
            raise ValueError("no move to make")
        start = self.nodes
        offset = self.root_dead_diff
        ab = self.make_search(budget)
        lo, hi = -INF, INF
        g = guess
        proven: tuple[int, tuple[int, int, int]] | None = None  # a move reaching value
        try:
            while lo < hi:
                beta = g if g > lo else lo + 1
                v, move = self.root(ab, order, beta - 1, beta)
                if v < beta:
                    hi = v
                else:
                    lo = v
                    proven = (v, move)
                    order.remove(move)
                    order.insert(0, move)
                g = v
        except OutOfBudget:
            if proven is not None:
                return Result(
                    self.to_move(proven[1]), proven[0] + offset, False, self.nodes - start
                )
            return Result(self.to_move(order[0]), guess + offset, False, self.nodes - start)
        finally:
            self.meter.flush()
        assert proven is not None
        return Result(self.to_move(proven[1]), lo + offset, True, self.nodes - start)

    def move_scores(self, budget: Allowance) -> tuple[dict[Move, int], bool]:
        """A score for every move: the exact value for the optimal ones, an upper bound (below
        the optimum) for the others, from one null-window test each after ``solve``. The bool
        is False when ``budget`` ran out (scores then come from ``solve``'s fallback alone)."""
        result = self.solve(budget)
        best = result.value
        scores = {result.move: best}
        if not result.exact:
            return scores, False
        offset = self.root_dead_diff
        ab = self.make_search(budget)
        try:
            for move in self.root_moves():
                mv = self.to_move(move)
                if mv in scores:
                    continue
                live = best - offset
                v = self.child_value(ab, move, live - 1, live)
                scores[mv] = min(best, v + offset)
        except OutOfBudget:
            return {result.move: best}, False
        finally:
            self.meter.flush()
        return scores, True


__all__ = ["Solver"]
