"""The ``hard`` computer's exact search, compiled: ``games.triad.kernel`` driven from Python.

``CompiledSolver`` searches a ``search.Problem`` (``solve``, ``move_scores``, within a
``search.Allowance``, answering ``Result``/``Move``) and finds the same values as the
pure-Python reference the tests compare it with (``tests/games/triad/solver.py``).

MTD(f) runs here: null-window passes of ``kernel.root_pass`` around a guess until the bounds
meet. The search runs in slices of nodes (the kernel stops when it reaches its node limit; a
slice may span several passes); when a slice is used up the budget is charged and looked at
(its clock is read here, never in compiled code), and an interrupted pass is started again,
the transposition table keeping what its finished subtrees proved. Slices start small and
double up to ``MAX_SLICE`` (tens of milliseconds), so a deadline is overshot by at most one
slice. The kernel's node count includes the positions with one or two empty cells (the
pure-Python search's does not), so the two counts are not comparable.
"""

from __future__ import annotations

import numpy as np

from games.triad import kernel as k
from games.triad.options import RuleSet
from games.triad.rules import NEIGHBOURS, modified_values
from games.triad.search import Allowance, Card, Move, OutOfBudget, Problem, Result

FIRST_SLICE = 4_096  # nodes of the first slice of a search
MAX_SLICE = 32_768  # nodes per slice at most (20-40 ms on a loaded core)


class CompiledSolver:
    """Searches one ``Problem``; the transposition table lives as long as the solver."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        kinds: dict[Card, int] = {}
        for entry in problem.board:
            if entry is not None:
                kinds.setdefault(entry[0], len(kinds))
        self.slot_of: list[int] = []
        card_side: list[int] = []
        for s in (0, 1):
            for i, card in enumerate(problem.hands[s]):
                kinds.setdefault(card, len(kinds))
                card_side.append(s)
                self.slot_of.append(i)
        if len(kinds) > 15 or len(card_side) > 10:
            raise ValueError("at most ten cards in play")
        self.kind_of = [kinds[c] for s in (0, 1) for c in problem.hands[s]]
        ws = np.zeros(k.WS_SIZE, dtype=np.int64)
        for card, kind in kinds.items():
            ws[k.PRINTED + kind * 4 : k.PRINTED + kind * 4 + 4] = card.printed
            for cell in range(9):
                at = k.MOD + (kind * 9 + cell) * 4
                ws[at : at + 4] = modified_values(
                    card.printed, problem.elements[cell], card.element
                )
        rules = problem.rules
        ws[k.FLAGS + k.SAME] = rules.same
        ws[k.FLAGS + k.SAME_WALL] = rules.same and rules.same_wall
        ws[k.FLAGS + k.PLUS] = rules.plus
        ws[k.FLAGS + k.COMBO] = rules.combo
        for n, kind in enumerate(self.kind_of):
            ws[k.KIND + n] = kind
        self.hm = [0, 0]
        for n, s in enumerate(card_side):
            self.hm[s] |= 1 << n
        ws[k.HM] = self.hm[0]
        ws[k.HM + 1] = self.hm[1]
        self.ws = ws
        kb, owner, occ = problem.packed_board(kinds)
        self.root = (kb, owner, occ, (1 << len(card_side)) - 1, problem.side)
        self.keys, self.vals = k.new_table(9 - bin(occ).count("1"))
        self.slice = FIRST_SLICE
        self.credit = FIRST_SLICE  # nodes left in the current slice

    # ----- moves ------------------------------------------------------------------------------
    def root_moves(self) -> list[int]:
        """The mover's distinct moves (card * 9 + cell), one card per kind in hand, ordered by
        cards taken now, then how well the placed card guards its empty sides."""
        kb, owner, occ, hands, side = self.root
        opp = occ & ~owner if side == 0 else owner
        seen: set[int] = set()
        scored = []
        for n, kind in enumerate(self.kind_of):
            if not (hands & self.hm[side]) >> n & 1 or kind in seen:
                continue
            seen.add(kind)
            for cell in range(9):
                if occ >> cell & 1:
                    continue
                taken = int(k.flips(self.ws, cell, kind, kb, opp))
                at = k.MOD + (kind * 9 + cell) * 4
                guard = sum(
                    int(self.ws[at + d])
                    for d, q in enumerate(NEIGHBOURS[cell])
                    if q >= 0 and not occ >> q & 1
                )
                scored.append((bin(taken).count("1") * 64 + guard, n * 9 + cell))
        scored.sort(key=lambda t: -t[0])
        return [mv for _s, mv in scored]

    def to_move(self, mv: int) -> Move:
        return Move(self.slot_of[mv // 9], mv % 9)

    def guess(self) -> int:
        """The score difference for the mover if nothing more were taken: MTD(f)'s first guess."""
        _kb, owner, occ, hands, side = self.root
        return int(k.final_value(self.ws, owner, occ, hands, side))

    @property
    def nodes(self) -> int:
        return int(self.ws[k.CTR + k.NODES])

    # ----- searching in slices ------------------------------------------------------------------
    def _pass(self, budget: Allowance, moves: list[int], alpha: int, beta: int) -> tuple[int, int]:
        """(fail-soft value in (alpha, beta), index in ``moves`` of a move reaching it), in
        slices charged to ``budget``; raises ``OutOfBudget`` when it runs out first. A slice
        can span several passes (``move_scores`` makes many small ones): the budget is looked
        at whenever the current slice is used up."""
        kb, owner, occ, hands, side = self.root
        ws = self.ws
        order = np.array(moves, dtype=np.int64)
        while True:
            if self.credit <= 0:
                if budget.exhausted():
                    raise OutOfBudget
                self.slice = min(MAX_SLICE, self.slice * 2)
                self.credit = self.slice
            size = self.credit
            if budget.nodes is not None:
                size = min(size, budget.nodes - budget.spent)
                if size <= 0:
                    raise OutOfBudget
            before = int(ws[k.CTR + k.NODES])
            ws[k.CTR + k.LIMIT] = before + size
            ws[k.CTR + k.ABORTED] = 0
            value = k.root_pass(
                ws, self.keys, self.vals, kb, owner, occ, hands, side, order, alpha, beta
            )
            used = int(ws[k.CTR + k.NODES]) - before
            budget.spent += used
            self.credit -= used
            if not ws[k.CTR + k.ABORTED]:
                return int(value), int(ws[k.CTR + k.BEST])
            self.credit = 0

    # ----- drivers ------------------------------------------------------------------------------
    def solve(self, budget: Allowance) -> Result:
        """The exact best move by MTD(f), or (``exact`` False) the best found when ``budget``
        ran out: a move proven to reach the best lower bound, else the first of the order."""
        order = self.root_moves()
        if not order:
            raise ValueError("no move to make")
        start = self.nodes
        lo, hi = -k.INF, k.INF
        g = self.guess()
        proven: tuple[int, int] | None = None
        try:
            while lo < hi:
                beta = g if g > lo else lo + 1
                v, i = self._pass(budget, order, beta - 1, beta)
                if v < beta:
                    hi = v
                else:
                    lo = v
                    move = order.pop(i)
                    order.insert(0, move)
                    proven = (v, move)
                g = v
        except OutOfBudget:
            if proven is not None:
                return Result(self.to_move(proven[1]), proven[0], False, self.nodes - start)
            return Result(self.to_move(order[0]), g, False, self.nodes - start)
        assert proven is not None
        return Result(self.to_move(proven[1]), lo, True, self.nodes - start)

    def move_scores(self, budget: Allowance) -> tuple[dict[Move, int], bool]:
        """A score for every move: the exact value for the optimal ones, an upper bound (below
        the optimum) for the others, from one null-window test each after ``solve``. The bool
        is False when ``budget`` ran out (scores then come from ``solve``'s fallback alone)."""
        result = self.solve(budget)
        best = result.value
        scores = {result.move: best}
        if not result.exact:
            return scores, False
        try:
            for mv in self.root_moves():
                move = self.to_move(mv)
                if move in scores:
                    continue
                v, _i = self._pass(budget, [mv], best - 1, best)
                scores[move] = min(best, v)
        except OutOfBudget:
            return {result.move: best}, False
        return scores, True


def warm_up() -> None:
    """Compiles (or loads from numba's cache) the kernel by solving a small position, so no
    player's move waits for the compiler: worker processes call it when they start."""
    card = Card((1, 1, 1, 1), None)
    board: list[tuple[Card, int] | None] = [(card, c % 2) for c in range(4)] + [None] * 5
    problem = Problem(
        board, [[card] * 3, [card] * 3], 0, [None] * 9, RuleSet(True, True, True, True)
    )
    CompiledSolver(problem).solve(Allowance())


__all__ = ["CompiledSolver", "warm_up"]
