"""The compiled core of the exact Triple Triad search (numba, cached on disk).

Plain integers and three int64 arrays; ``games.triad.compiled`` builds them from a
``Problem`` and drives these functions (MTD(f), the budget, the clock). Flips are those of
``rules.resolve`` (Igual, Pared, Suma, Cadena, Elemental), computed on the spot for each
placement: a handful of compares, no memo needed in compiled code.

A position is five integers:

- ``kb``: the board's card kinds, 4 bits per cell (``kind + 1``, 0 = empty); a *kind* is a
  distinct (printed values, element) pair, so identical cards are tried once per hand;
- ``owner``: 9 bits, the cells showing side 0's colour; ``occ``: the occupied cells;
- ``hands``: one bit per card still in a hand (cards 0-9, side 0's first);
- ``side``: the side to move.

Unlike ``search.Solver`` it keeps no dead-cell bookkeeping (values and keys cover the whole
board): simpler, and fast enough without it (whether it would pay off here is not measured).

Values are final score differences (cards on the board in one's colour plus cards in hand,
minus the opponent's) for the side to move, fail-soft negamax.

``ws`` (the workspace, ``WS_SIZE`` int64) holds the problem (printed and cell-modified values
per kind, the rule flags, each card's kind, the hands' masks), the counters (``CTR + NODES``,
...), the history of cutoffs and per-depth move buffers. One array instead of many keeps
every recursive call cheap (numba passes and reference-counts each array argument).

The transposition table is ``keys`` and ``vals`` (a power of two entries, ``TABLE_BITS`` by
the root's empty cells, in buckets of two: one kept for the deeper search, one always
replaced), keyed by the exact position packed in 55 bits (``kb | owner << 36 | hands << 45``),
so a hit is never a collision; ``vals`` packs the lower and upper bounds, the best move found
(card * 9 + cell) and the empty cells. Positions with four or more empty cells are stored.
Children at five or more empty cells are ordered by the table (enhanced transposition cutoff),
cards taken now, a history of earlier cutoffs and how well the placed card guards its empty
sides (at four, without the table); the last three placements are loops without table or
ordering, the last two with a bound that skips replies that cannot matter.

Compiled code is cached on disk (numba's ``cache=True``: ``__pycache__`` beside this file, or
the user's cache directory when that is read-only, or ``NUMBA_CACHE_DIR``); where no cache
directory is writable at all the functions are compiled in every process instead (``_jit``),
which takes seconds: ``compiled.warm_up`` does it when a worker process starts.

The budget is a node limit (``ws[CTR + LIMIT]``): past it the search sets ``ABORTED`` and
unwinds, storing nothing more; the caller (in Python, where the clock is) searches in slices
and starts the interrupted pass again, the table keeping what the finished subtrees proved.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numba import njit

from games.triad.rules import NEIGHBOURS, OPPOSITE, WALL_VALUE

INF = 100  # beyond any score difference (they lie in -10..10)
# log2 of the transposition table's entries by the root's empty cells: several times what the
# exact solve of a position with Igual, Pared, Suma, Cadena and Elemental stores (at most ~140k
# at nine empty cells, ~20k at eight, ~2k at seven: bench/triad_ai.py's deals)
TABLE_BITS = (12, 12, 12, 12, 12, 12, 12, 14, 17, 20)
ORDER_FROM = 5  # nodes with at least this many empty cells use the table to order children
MAX_KINDS = 16
MAX_MOVES = 48

# the workspace layout
PRINTED = 0  # [kind * 4 + side]
MOD = PRINTED + MAX_KINDS * 4  # [(kind * 9 + cell) * 4 + side]
FLAGS = MOD + MAX_KINDS * 9 * 4  # [SAME], [SAME_WALL], [PLUS], [COMBO]
KIND = FLAGS + 4  # [card]
HM = KIND + 10  # [side]: the cards of each side
CTR = HM + 2  # [NODES], [LIMIT], [ABORTED], [BEST]
HIST = CTR + 4  # [card * 9 + cell]
MV = HIST + 90  # [empties * MAX_MOVES + i]
SC = MV + 10 * MAX_MOVES
WS_SIZE = SC + 10 * MAX_MOVES

SAME, SAME_WALL, PLUS, COMBO = 0, 1, 2, 3
NODES, LIMIT, ABORTED, BEST = 0, 1, 2, 3

NB = np.array(NEIGHBOURS, dtype=np.int64)
OPP = np.array(OPPOSITE, dtype=np.int64)
POP = np.array([bin(m).count("1") for m in range(1 << 10)], dtype=np.int64)
LOW = np.array([(m & -m).bit_length() - 1 for m in range(1 << 10)], dtype=np.int64)  # lowest bit
WALL = WALL_VALUE
HASH = -7046029254386353131  # 0x9E3779B97F4A7C15 as int64 (Fibonacci hashing)


def _jit(**options: Any) -> Callable[[Callable[..., Any]], Any]:
    """``njit`` cached on disk, or not cached when numba finds no writable cache directory."""

    def wrap(fn: Callable[..., Any]) -> Any:
        try:
            return njit(cache=True, **options)(fn)
        except RuntimeError:  # "cannot cache function ...: no locator available"
            return njit(**options)(fn)

    return wrap


def new_table(empties: int) -> tuple[np.ndarray, np.ndarray]:
    """An empty transposition table for a root with ``empties`` empty cells: keys (0 = free: no
    stored position packs to 0, it would have no card in hand) and packed values. Zeroed
    memory: pages are touched only when used."""
    size = 1 << TABLE_BITS[empties]
    return np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.int64)


@_jit(inline="always")
def _kind(kb, cell):
    return ((kb >> (4 * cell)) & 15) - 1


@_jit(inline="always")
def _one_per_kind(ws, cards):
    """The cards of ``cards`` (a bit per card) that are the first of their kind: another card of
    the same kind would make the same moves."""
    firsts = 0
    seen = 0
    while cards:
        n = LOW[cards]
        cards &= cards - 1
        k = ws[KIND + n]
        if not (seen >> k) & 1:
            seen |= 1 << k
            firsts |= 1 << n
    return firsts


@_jit(inline="always")
def _after(ws, kb, owner, occ, hands, side, opp, mv):
    """The position after ``side`` plays ``mv`` (card * 9 + cell): the board's kinds, the cells
    of side 0, the cells taken, the cards in hand."""
    n = mv // 9
    cell = mv - n * 9
    k = ws[KIND + n]
    bit = 1 << cell
    f = flips(ws, cell, k, kb, opp)
    o2 = owner | bit | f if side == 0 else owner & ~f
    return kb | (k + 1) << (4 * cell), o2, occ | bit, hands & ~(1 << n)


@_jit()
def flips(ws, cell, kind, kb, opp):
    """The cells of ``opp`` taken when ``kind`` is put on the empty ``cell`` of board ``kb``
    (``rules.resolve``: Igual with Pared, Suma, the basic rule, Cadena chains)."""
    pk = PRINTED + kind * 4
    mk = MOD + (kind * 9 + cell) * 4
    special = 0
    beats = 0
    matched = 0
    n_matched = 0
    sums = 0  # 5 bits per side
    present = 0  # sides with a neighbour card
    for d in range(4):
        q = NB[cell, d]
        if q < 0:
            if ws[FLAGS + SAME_WALL] and ws[pk + d] == WALL:
                n_matched += 1
            continue
        kq = _kind(kb, q)
        if kq < 0:
            continue
        od = OPP[d]
        if ws[mk + d] > ws[MOD + (kq * 9 + q) * 4 + od]:
            beats |= 1 << q
        mine = ws[pk + d]
        theirs = ws[PRINTED + kq * 4 + od]
        if mine == theirs:
            matched |= 1 << q
            n_matched += 1
        sums |= (mine + theirs) << (5 * d)
        present |= 1 << d
    if ws[FLAGS + SAME] and n_matched >= 2:
        special = matched
    if ws[FLAGS + PLUS]:
        for d1 in range(3):
            if not (present >> d1) & 1:
                continue
            s1 = (sums >> (5 * d1)) & 31
            for d2 in range(d1 + 1, 4):
                if (present >> d2) & 1 and (sums >> (5 * d2)) & 31 == s1:
                    special |= (1 << NB[cell, d1]) | (1 << NB[cell, d2])
    taken = (special | beats) & opp
    if ws[FLAGS + COMBO]:
        frontier = special & opp
        while frontier:
            x = 0
            while not (frontier >> x) & 1:
                x += 1
            frontier ^= 1 << x
            xm = MOD + (_kind(kb, x) * 9 + x) * 4
            for d in range(4):
                r = NB[x, d]
                if r >= 0 and (opp >> r) & 1 and not (taken >> r) & 1:
                    if ws[xm + d] > ws[MOD + (_kind(kb, r) * 9 + r) * 4 + OPP[d]]:
                        taken |= 1 << r
                        frontier |= 1 << r
    return taken


@_jit()
def final_value(ws, owner, occ, hands, side):
    """The score difference for ``side`` when the round ends in this position."""
    mine = owner if side == 0 else occ & ~owner
    return 2 * POP[mine] - POP[occ] + POP[hands & ws[HM + side]] - POP[hands & ws[HM + 1 - side]]


@_jit(inline="always")
def _slot(keys, key):
    return (((key * HASH) >> 24) & (keys.shape[0] - 1)) & ~1


@_jit()
def _store(keys, vals, key, lo, hi, move, empties):
    i = _slot(keys, key)
    if not (keys[i] == key or keys[i] == 0 or empties >= (vals[i] >> 24)):
        i += 1
    keys[i] = key
    vals[i] = (lo + 128) | (hi + 128) << 8 | (move + 1) << 16 | empties << 24


@_jit()
def _two(ws, kb, mine, occ, hands, side, alpha, beta):
    """Two empty cells, on full-board values: every (card, cell) of the mover, then each reply
    on the other cell; a move whose value without any reply is no better than ``alpha`` is
    not looked at further."""
    c1 = 0
    while (occ >> c1) & 1:
        c1 += 1
    c2 = c1 + 1
    while (occ >> c2) & 1:
        c2 += 1
    mm = ws[HM + side]
    tm = ws[HM + 1 - side]
    my_cards = hands & mm
    their_cards = hands & tm
    n_mine = POP[my_cards]
    n_theirs = POP[their_cards]
    if n_mine == 0:  # no card left: the round ends here
        return 2 * POP[mine] - POP[occ] - n_theirs
    base = n_mine - n_theirs - 9  # hands after both place: (n_mine - 1) - (n_theirs - 1)
    opp = occ & ~mine
    best = -INF
    cut = alpha - base  # a reply leaving 2 * pop(mine3) <= cut refutes the move
    my_firsts = _one_per_kind(ws, my_cards)
    their_firsts = _one_per_kind(ws, their_cards)
    for turn in range(2):
        cell = c1 if turn == 0 else c2
        rest = c2 if turn == 0 else c1
        bit = 1 << cell
        todo = my_firsts
        while todo:
            k = ws[KIND + LOW[todo]]
            todo &= todo - 1
            mine2 = mine | bit | flips(ws, cell, k, kb, opp)
            if their_cards == 0:
                v = 2 * POP[mine2] - POP[occ | bit] + n_mine - 1
            else:
                v = 2 * POP[mine2]
                if v > cut:
                    kb2 = kb | (k + 1) << (4 * cell)
                    worst = INF
                    replies = their_firsts
                    while replies:
                        k2 = ws[KIND + LOW[replies]]
                        replies &= replies - 1
                        w = 2 * POP[mine2 & ~flips(ws, rest, k2, kb2, mine2)]
                        if w < worst:
                            worst = w
                            if w <= cut:
                                break
                    v = worst
                v += base
            if v > best:
                best = v
                if v >= beta:
                    return v
                if v > alpha:
                    alpha = v
                    cut = v - base
    return best


@_jit()
def negamax(ws, keys, vals, kb, owner, occ, hands, side, alpha, beta, empties):  # noqa: C901 - one compiled hot loop
    """Fail-soft value for ``side`` of the position, searched in (alpha, beta)."""
    ws[CTR + NODES] += 1
    if ws[CTR + NODES] >= ws[CTR + LIMIT]:
        ws[CTR + ABORTED] = 1
        return 0
    mine = owner if side == 0 else occ & ~owner
    my_cards = hands & ws[HM + side]
    if empties == 0 or my_cards == 0:
        return 2 * POP[mine] - POP[occ] + POP[my_cards] - POP[hands & ws[HM + 1 - side]]
    if empties == 2:
        return _two(ws, kb, mine, occ, hands, side, alpha, beta)
    opp = occ & ~mine
    other = 1 - side
    if empties == 1:
        cell = 0
        while (occ >> cell) & 1:
            cell += 1
        bit = 1 << cell
        firsts = _one_per_kind(ws, my_cards)
        best = -INF
        for n in range(10):
            if not (firsts >> n) & 1:
                continue
            v = 2 * POP[mine | bit | flips(ws, cell, ws[KIND + n], kb, opp)]
            if v > best:
                best = v
        return best - 9 + POP[my_cards] - 1 - POP[hands & ws[HM + other]]

    if empties == 3:
        best = -INF
        firsts = _one_per_kind(ws, my_cards)
        for n in range(10):
            if not (firsts >> n) & 1:
                continue
            k = ws[KIND + n]
            for cell in range(9):
                if (occ >> cell) & 1:
                    continue
                bit = 1 << cell
                f = flips(ws, cell, k, kb, opp)
                # the opponent's cells after the move, i.e. ``mine`` for the opponent
                v = -_two(
                    ws,
                    kb | (k + 1) << (4 * cell),
                    (occ | bit) & ~(mine | bit | f),
                    occ | bit,
                    hands & ~(1 << n),
                    other,
                    -beta,
                    -alpha,
                )
                if v > best:
                    best = v
                    if v >= beta:
                        return v
                    alpha = max(alpha, v)
        return best

    key = kb | owner << 36 | hands << 45
    tt_move = -1
    lo = -INF
    hi = INF
    i = _slot(keys, key)
    if keys[i] != key:
        i += 1
    if keys[i] == key:
        e = vals[i]
        lo = (e & 255) - 128
        hi = ((e >> 8) & 255) - 128
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo == hi:
            return lo
        tt_move = ((e >> 16) & 255) - 1

    # the moves: (card, cell) for the first card of each kind in hand, on every empty cell
    mvb = MV + empties * MAX_MOVES
    scb = SC + empties * MAX_MOVES
    count = 0
    firsts = _one_per_kind(ws, my_cards)
    for n in range(10):
        if not (firsts >> n) & 1:
            continue
        k = ws[KIND + n]
        mk = MOD + k * 36
        for cell in range(9):
            if (occ >> cell) & 1:
                continue
            mv = n * 9 + cell
            if mv == tt_move:
                score = 1 << 60
            else:
                f = flips(ws, cell, k, kb, opp)
                guard = 0
                for d in range(4):
                    q = NB[cell, d]
                    if q >= 0 and not (occ >> q) & 1:
                        guard += ws[mk + cell * 4 + d]
                score = (POP[f] << 30) + (ws[HIST + mv] << 6) + guard
                if empties >= ORDER_FROM:
                    # enhanced transposition cutoff: a child known bad enough for the opponent
                    o2 = owner | (1 << cell) | f if side == 0 else owner & ~f
                    key2 = (kb | (k + 1) << (4 * cell)) | o2 << 36 | (hands & ~(1 << n)) << 45
                    j = _slot(keys, key2)
                    if keys[j] != key2:
                        j += 1
                    if keys[j] == key2:
                        known = ((vals[j] >> 8) & 255) - 128
                        if -known >= beta:
                            _store(keys, vals, key, max(lo, -known), hi, mv, empties)
                            return -known
                        score += (INF - known) << 40
            # insertion sort, best first
            j = count
            while j > 0 and ws[scb + j - 1] < score:
                ws[scb + j] = ws[scb + j - 1]
                ws[mvb + j] = ws[mvb + j - 1]
                j -= 1
            ws[scb + j] = score
            ws[mvb + j] = mv
            count += 1

    best = -INF
    best_move = -1
    a = alpha
    for j in range(count):
        mv = ws[mvb + j]
        kb2, o2, occ2, hands2 = _after(ws, kb, owner, occ, hands, side, opp, mv)
        v = -negamax(ws, keys, vals, kb2, o2, occ2, hands2, other, -beta, -a, empties - 1)
        if ws[CTR + ABORTED]:
            return 0
        if v > best:
            best = v
            best_move = mv
            if v > a:
                a = v
                if v >= beta:
                    ws[HIST + mv] += empties * empties
                    break
    if best <= alpha:
        hi = best
    elif best >= beta:
        lo = best
    else:
        lo = best
        hi = best
    _store(keys, vals, key, lo, hi, best_move, empties)
    return best


@_jit()
def root_pass(ws, keys, vals, kb, owner, occ, hands, side, moves, alpha, beta):
    """Fail-soft value in (alpha, beta) of the best of ``moves`` (card * 9 + cell, tried in
    that order) at the root; ``ws[CTR + BEST]`` gets the index in ``moves`` of a move reaching
    it. Meaningless when ``ws[CTR + ABORTED]`` is set."""
    empties = 9 - POP[occ]
    opp = occ & ~owner if side == 0 else owner
    best = -INF
    ws[CTR + BEST] = 0
    a = alpha
    for i in range(moves.shape[0]):
        child = _after(ws, kb, owner, occ, hands, side, opp, moves[i])
        v = -negamax(ws, keys, vals, *child, 1 - side, -beta, -a, empties - 1)
        if ws[CTR + ABORTED]:
            break  # the value is meaningless now: the caller sees ABORTED
        if v > best:
            best = v
            ws[CTR + BEST] = i
            if v > a:
                a = v
                if v >= beta:
                    break
    return best
