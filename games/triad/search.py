"""What the ``hard`` computer's exact Triple Triad search works on, and the one-ply look of
``normal``.

``Problem`` is one full-information round (``Card``, ``Move`` and ``Result`` its parts and
answer); ``Allowance`` is what a search may still spend of the think ``Budget`` (nodes and/or a
deadline on a clock the caller passes in: ``games/`` reads no clock itself), and a search that
runs out raises ``OutOfBudget``. The search itself is compiled (``games.triad.compiled`` over
``games.triad.kernel``, numba); its pure-Python reference, which the tests compare it with, is
``tests/games/triad/solver.py``.

``Position`` compiles a ``Problem`` into small integers: ``kinds`` (the board's cards, 4 bits
per cell, ``kind + 1``, 0 = empty; a *kind* is a distinct (printed values, element) pair among
the ten cards in play), ``owner`` (9 bits, the cells showing side 0's colour), ``occ`` (the
occupied cells), ``hands`` (one bit per card still in a hand) and ``dead`` (occupied cells whose
colour can no longer change: all four neighbours occupied, and under Cadena none of them beats
it, ``Position.frozen``). Flips are those of ``rules.resolve`` (Igual, Pared, Suma, Cadena,
Elemental), memoised per cell on the neighbours' kinds only, so one entry serves every
colouring. ``placement`` answers ``normal``'s question: what one card put on one cell takes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

from games.core.budget import Budget
from games.triad.options import RuleSet
from games.triad.rules import NEIGHBOURS, OPPOSITE, WALL_VALUE, modified_values

_POP = [bin(m).count("1") for m in range(1024)]
_CELLS_OF = [tuple(c for c in range(9) if m >> c & 1) for m in range(512)]
_NB_MASK = [sum(1 << q for q in NEIGHBOURS[c] if q >= 0) for c in range(9)]
_NB_NIBBLES = [sum(15 << 4 * q for q in NEIGHBOURS[c] if q >= 0) for c in range(9)]
_NB_LIST = [tuple((d, q) for d, q in enumerate(NEIGHBOURS[c]) if q >= 0) for c in range(9)]
_WALLS = [tuple(d for d, q in enumerate(NEIGHBOURS[c]) if q < 0) for c in range(9)]


class OutOfBudget(Exception):
    """The search's budget ran out; no result of the interrupted pass is valid."""


class Allowance:
    """What searches may still spend of a ``games.core.Budget``: at most ``nodes`` nodes, and/or
    until ``clock()`` passes ``clock() + seconds`` as read when the allowance is made. One
    allowance can be shared by several searches (the guesses of a hidden hand): ``spent``
    counts all their nodes."""

    def __init__(
        self,
        nodes: int | None = None,
        seconds: float | None = None,
        clock: Callable[[], float] | None = None,
    ) -> None:
        if seconds is not None and clock is None:
            raise ValueError("a time budget needs a clock")
        self.nodes = nodes
        self.clock = clock if seconds is not None else None
        self.deadline = clock() + seconds if clock is not None and seconds is not None else 0.0
        self.spent = 0

    @classmethod
    def of(cls, budget: Budget) -> Allowance:
        """The allowance of a think budget: its seconds on its clock when timed (the exact
        search then uses all the time it has), else its ``iterations`` as nodes."""
        if budget.timed():
            return cls(seconds=budget.seconds, clock=budget.clock)
        return cls(nodes=budget.iterations)

    def exhausted(self) -> bool:
        if self.nodes is not None and self.spent >= self.nodes:
            return True
        return self.clock is not None and self.clock() >= self.deadline


class Card(NamedTuple):
    printed: tuple[int, int, int, int]
    element: str | None


class Problem(NamedTuple):
    """A full-information round: ``board[c]`` is (card, colour) or None, ``hands[s]`` the cards
    side ``s`` holds, ``side`` the side to move (0/1), ``elements`` the cells' elements."""

    board: Sequence[tuple[Card, int] | None]
    hands: Sequence[Sequence[Card]]
    side: int
    elements: Sequence[str | None]
    rules: RuleSet

    def packed_board(self, kinds: Mapping[Card, int]) -> tuple[int, int, int]:
        """The board as bit fields: each cell's kind + 1 in 4 bits (0: empty), the cells of
        colour 0, the cells taken (``kinds``: each card's kind)."""
        packed = owner = occ = 0
        for c, entry in enumerate(self.board):
            if entry is not None:
                card, colour = entry
                packed |= (kinds[card] + 1) << 4 * c
                occ |= 1 << c
                if colour == 0:
                    owner |= 1 << c
        return packed, owner, occ


class Move(NamedTuple):
    side_slot: int  # index into the mover's hand (``Problem.hands[side]``)
    cell: int


class Result(NamedTuple):
    move: Move
    value: int  # final score difference for the mover (exact only when ``exact``)
    exact: bool
    nodes: int


class Position:
    """One ``Problem`` compiled for searching: the root position, its cards' kinds and values,
    and the flip memo. The search's transposition table, node count and history live here too,
    for as long as the position."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        rules = problem.rules
        kinds: dict[Card, int] = {}
        cards: list[Card] = []
        for entry in problem.board:
            if entry is not None:
                kinds.setdefault(entry[0], len(kinds))
        self.card_side: list[int] = []
        self.slot_of: list[int] = []  # card number -> index in its side's hand
        for s in (0, 1):
            for i, card in enumerate(problem.hands[s]):
                kinds.setdefault(card, len(kinds))
                cards.append(card)
                self.card_side.append(s)
                self.slot_of.append(i)
        if len(kinds) > 15 or len(cards) > 10:
            raise ValueError("at most ten cards in play")
        self.kind_of = [kinds[c] for c in cards]
        by_kind = sorted(kinds, key=kinds.__getitem__)
        n_kinds = len(by_kind)
        self.n_kinds = n_kinds
        elements = problem.elements
        # values of kind k: printed[k][d]; on cell c: mod[k * 9 + c][d]
        self.printed = [tuple(c.printed) for c in by_kind]
        self.mod = [
            modified_values(c.printed, elements[cell], c.element)
            for c in by_kind
            for cell in range(9)
        ]
        self.rules = rules
        self.combo = rules.combo
        self.hand_mask = [0, 0]
        for n, s in enumerate(self.card_side):
            self.hand_mask[s] |= 1 << n
        # representatives: for each subset of a side's cards, the first card of each kind
        self.reps: list[dict[int, tuple[tuple[int, int], ...]]] = [{}, {}]
        for s in (0, 1):
            own_cards = [n for n in range(len(cards)) if self.card_side[n] == s]
            for sub in range(1 << len(own_cards)):
                seen: set[int] = set()
                out = []
                mask = 0
                for j, n in enumerate(own_cards):
                    if sub >> j & 1:
                        mask |= 1 << n
                        if self.kind_of[n] not in seen:
                            seen.add(self.kind_of[n])
                            out.append((n, self.kind_of[n]))
                self.reps[s][mask] = tuple(out)
        self.flip_memo: list[dict[int, list[int | None]]] = [{} for _ in range(9)]
        # the root position
        kinds_b, owner, occ = problem.packed_board(kinds)
        dead = 0
        for c in range(9):
            if occ >> c & 1 and occ & _NB_MASK[c] == _NB_MASK[c]:
                dead |= 1 << c
        if self.combo:
            dead = self.frozen(dead, kinds_b)
        hands = (1 << len(cards)) - 1
        self.root_state = (kinds_b, owner, occ, dead, hands, problem.side)
        root_mine = owner if problem.side == 0 else occ & ~owner
        self.root_dead_diff = 2 * _POP[dead & root_mine] - _POP[dead]
        self.tt: dict[int, tuple[int, int, int]] = {}
        self.nodes = 0
        self.history = [0] * (10 * 9)

    # ----- flips ----------------------------------------------------------------------------
    def local_flips(self, cell: int, kind: int, kinds_b: int) -> tuple[int, int]:
        """(the neighbours Igual/Pared/Suma would take, the neighbours the basic rule would
        take) when ``kind`` is put on the empty ``cell``, whatever their colours: only the
        opponent's among them are taken. Only the neighbours' kinds are read."""
        rules = self.rules
        printed = self.printed
        mod = self.mod
        mine_p = printed[kind]
        mine_m = mod[kind * 9 + cell]
        special = 0
        beats = 0
        sums: list[tuple[int, int]] = []
        matched = 0
        n_matched = 0
        for d, q in _NB_LIST[cell]:
            kq = (kinds_b >> 4 * q & 15) - 1
            if kq < 0:
                continue
            if mine_m[d] > mod[kq * 9 + q][OPPOSITE[d]]:
                beats |= 1 << q
            theirs = printed[kq][OPPOSITE[d]]
            if mine_p[d] == theirs:
                matched |= 1 << q
                n_matched += 1
            sums.append((mine_p[d] + theirs, q))
        if rules.same:
            if rules.same_wall:
                for d in _WALLS[cell]:
                    if mine_p[d] == WALL_VALUE:
                        n_matched += 1
            if n_matched >= 2:
                special = matched
        if rules.plus:
            for i, (total, q) in enumerate(sums):
                for j, (other_total, _q) in enumerate(sums):
                    if j != i and other_total == total:
                        special |= 1 << q
                        break
        return special, beats

    def frozen(self, cells: int, kinds_b: int) -> int:
        """Cadena: those of ``cells`` (each with four occupied neighbours) that no neighbour
        beats by the basic rule. Only a chain could flip such a card, and a chain moves from a
        card to a neighbour it beats, so it never will: it is dead like any card without Cadena.
        """
        mod = self.mod
        out = 0
        for q in _CELLS_OF[cells]:
            qm = mod[((kinds_b >> 4 * q & 15) - 1) * 9 + q]
            for d, r in _NB_LIST[q]:
                if mod[((kinds_b >> 4 * r & 15) - 1) * 9 + r][OPPOSITE[d]] > qm[d]:
                    break
            else:
                out |= 1 << q
        return out

    def flip_row(self, cell: int, kinds_b: int) -> list[int | None]:
        """The memo row of ``cell`` for its neighbours' kinds: one entry per kind put there
        (``None`` until ``flip_entry`` computes it). Loops that try several cards on one cell
        look the row up once."""
        key = kinds_b & _NB_NIBBLES[cell]
        memo = self.flip_memo[cell]
        row = memo.get(key)
        if row is None:
            row = memo[key] = [None] * self.n_kinds
        return row

    def flip_entry(self, cell: int, kind: int, kinds_b: int, row: list[int | None]) -> int:
        """Computes and stores in ``row`` the entry for ``kind`` on ``cell``: the neighbours
        it would take (bits 0-8: ``entry & opp`` are the cells taken from the opponent
        ``opp``). Under Cadena, when Igual/Suma would take some, also those (bits 9-17: where
        chains start) and the ones the basic rule alone would take (bits 18-26: where a chain
        goes on from this card); see ``chained``. Colour-free: one entry serves every
        colouring of the neighbours."""
        special, beats = self.local_flips(cell, kind, kinds_b)
        entry = special | beats
        if self.combo and special:
            entry |= special << 9 | beats << 18
        row[kind] = entry
        return entry

    def chained(self, entry: int, kinds_b: int, opp: int) -> int:
        """Every cell taken from ``opp`` for a memo ``entry`` with chain starts (Cadena:
        cards taken by Igual/Suma take, by the basic rule, the opponent's neighbours they
        beat, and so on; a card already taken is not taken again)."""
        taken = entry & opp
        frontier = entry >> 9 & opp & 511
        memo = self.flip_memo
        n_kinds = self.n_kinds
        while frontier:
            low = frontier & -frontier
            frontier ^= low
            x = low.bit_length() - 1
            kx = (kinds_b >> 4 * x & 15) - 1
            key = kinds_b & _NB_NIBBLES[x]
            row = memo[x].get(key)
            if row is None:
                row = memo[x][key] = [None] * n_kinds
            e = row[kx]
            if e is None:
                e = self.flip_entry(x, kx, kinds_b, row)
            new = (e >> 18 if e > 511 else e) & opp & ~taken
            if new:
                taken |= new
                frontier |= new
        return taken

    def flips(self, cell: int, kind: int, kinds_b: int, opp: int) -> int:
        """Every cell taken when ``kind`` is put on the empty ``cell`` against ``opp``."""
        row = self.flip_row(cell, kinds_b)
        entry = row[kind]
        if entry is None:
            entry = self.flip_entry(cell, kind, kinds_b, row)
        if entry > 511:
            return self.chained(entry, kinds_b, opp)
        return entry & opp

    def placement(self, slot: int, cell: int) -> tuple[int, tuple[int, int, int, int], int]:
        """For the mover's hand slot ``slot`` put on the empty ``cell`` at the root: (the cells
        it takes, its values on that cell, the root's occupied cells)."""
        kinds_b, owner, occ, _dead, _hands, side = self.root_state
        n = slot + (len(self.problem.hands[0]) if side == 1 else 0)
        kind = self.kind_of[n]
        opp = occ & ~owner if side == 0 else owner
        return self.flips(cell, kind, kinds_b, opp), self.mod[kind * 9 + cell], occ

    def to_move(self, move: tuple[int, int, int]) -> Move:
        n, _kind, cell = move
        return Move(self.slot_of[n], cell)


__all__ = ["Allowance", "Card", "Move", "OutOfBudget", "Position", "Problem", "Result"]
