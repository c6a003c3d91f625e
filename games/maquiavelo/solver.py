"""Exact partition solver for Maquiavelo tables (two decks, no jokers).

A *face* is a card without its deck: ``face = suit_index * 13 + (rank - 1)`` (suits in the order
of ``games.core.cards.SUITS``: S H D C), so there are 52 faces and every face exists twice.

Valid melds:
- set: 3 or 4 cards of one rank, all of different suits;
- run: 3 to 13 cards of one suit with consecutive ranks; the ace is low (A-2-3) or high (Q-K-A),
  never both in one run and never wrapping (K-A-2).

The solver is a dynamic programme over ranks (the classic exact method for Rummikub-like
problems): ranks are visited from A(low)=1 to A(high)=14 and, within a rank, suit by suit. The
state holds, per suit, the lengths of the runs still open (capped at 3, at most two since each
face exists twice) and how many aces that suit keeps back for rank 14, plus how many cards of the
current rank go to sets (whether one rank's set cards split into sets depends only on how many
cards each suit gives: ``_SET_OK``). Every card is either put in a set of its rank, extends an
open run, or starts a new run; a run may close only when it holds 3 or more cards. (A run of 14,
A..K..A, is never needed: it can always be split in two valid runs, so "at most 13" never makes
a multiset impossible; the DP still never builds one.)

Search: memoised fail-soft branch and bound (``_Problem.go``) with an upper bound of the score
still reachable, options tried best score first, dominated run states dropped (an open run of 3+
can do whatever a shorter one can), runs that cannot reach 3 cards pruned early; ``solve`` asks
"at least k hand cards?" from the most down, and the memo's bounds carry over between rounds. It
both proves impossibility and, with optional cards, finds the best subset to play (by count, then
by value, then fewest helpers).

Card categories per face (counts):
- ``fixed``: must be used anywhere (the table, and the hand cards a player chose);
- ``fixed_set``: must be used, only inside sets (the "ayuda" helpers a player chose);
- ``optional``: may be used anywhere, each worth ``CARD_SCORE + value`` (hand cards);
- ``optional_set``: may be used only inside sets, each worth ``HELPER_SCORE`` (helpers).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from games.core.cards import SUITS

NUM_FACES = 52
NEG = -(10**12)
CARD_SCORE = 100_000  # one more card played always beats any difference in value
VALUE_SCORE = 10  # then higher total value played (A=1 ... K=13)
HELPER_SCORE = -1  # then fewer helpers consumed

# Run states (per open run): 1, 2 = length; 3 = length >= 3; low-started runs (began with a low
# ace, so they may not take the high ace): 5, 6 = length 1, 2; 4 = length >= 3.
_EXTEND = {1: 2, 2: 3, 3: 3, 4: 4, 5: 6, 6: 4}
_CLOSABLE = {3, 4}


def face_of(rank: int, suit: str) -> int:
    return SUITS.index(suit) * 13 + (rank - 1)


def rank_of(face: int) -> int:
    return face % 13 + 1


def suit_of(face: int) -> str:
    return SUITS[face // 13]


def face_value(face: int) -> int:
    """Hand value of a card: A=1, 2-10 face value, J=11, Q=12, K=13."""
    return rank_of(face)


def counts_of(faces: Iterable[int]) -> list[int]:
    out = [0] * NUM_FACES
    for f in faces:
        out[f] += 1
    return out


def _set_ok(k1: int, k2: int) -> bool:
    """Can one rank's set cards (k1 suits giving 1 card, k2 suits giving 2) form sets of 3-4?"""
    if k2 == 0:
        return k1 in (0, 3, 4)
    if k2 == 2:
        return k1 == 2
    if k2 == 3:
        return k1 in (0, 1)
    return k2 == 4


_SET_OK = {(k1, k2): _set_ok(k1, k2) for k1 in range(5) for k2 in range(5) if k1 + k2 <= 4}


def _set_reachable(k1: int, k2: int, suits_left: int) -> bool:
    for a in range(suits_left + 1):
        for b in range(suits_left + 1 - a):
            if _SET_OK.get((k1 + a, k2 + b), False):
                return True
    return False


_REACHABLE = {
    (k1, k2, left): _set_reachable(k1, k2, left)
    for left in range(5)
    for k1 in range(5)
    for k2 in range(5)
    if k1 + k2 + left <= 4
}


def meld_kind(faces: Sequence[int]) -> str | None:
    """``"set"``, ``"run"`` or ``None`` (not a valid meld)."""
    n = len(faces)
    if n < 3:
        return None
    ranks = [rank_of(f) for f in faces]
    suits = [suit_of(f) for f in faces]
    if len(set(ranks)) == 1:
        return "set" if n <= 4 and len(set(suits)) == n else None
    if len(set(suits)) != 1 or len(set(ranks)) != n or n > 13:
        return None
    low = sorted(ranks)
    if low[-1] - low[0] == n - 1:
        return "run"
    if low[0] == 1:
        high = sorted(14 if r == 1 else r for r in ranks)
        if high[-1] - high[0] == n - 1:
            return "run"
    return None


def run_order(faces: Sequence[int]) -> list[int]:
    """A valid run's faces in ascending order (the ace last when it is high)."""
    ranks = sorted(rank_of(f) for f in faces)
    ace_high = ranks[0] == 1 and ranks[-1] - ranks[0] != len(ranks) - 1
    return sorted(faces, key=lambda f: 14 if ace_high and rank_of(f) == 1 else rank_of(f))


def normalise_meld(faces: Sequence[int]) -> list[int]:
    """Display order: runs ascending, sets by suit order."""
    kind = meld_kind(faces)
    if kind == "run":
        return run_order(faces)
    return sorted(faces)


# ----------------------------------------------------------------------------------------------
# Per-suit transitions (independent of the problem, cached globally)


@dataclass(frozen=True)
class _Choice:
    """What one suit does at one rank."""

    used_opt: int  # optional cards used
    used_opt_set: int  # optional set-only cards used
    extend: tuple[bool, ...]  # per open run (aligned with the sorted run tuple): extended?
    new_runs: int
    defer: int  # aces kept for rank 14 (rank 1 only)
    to_set: int  # cards of this suit going to sets of this rank
    set_only: int  # of those, how many are set-only cards


# (optional used, set-only optional used, cards to sets, new run states, kept aces, choice)
_SuitOption = tuple[int, int, int, tuple[int, ...], int, _Choice]
_OPTS_CACHE: dict[tuple, list[_SuitOption]] = {}
# a problem's scored options of one suit state at one cell, keyed by everything they depend on
# (``_Problem._cell_key``)
_SCORED_CACHE: dict[int, list] = {}


def _suit_options(
    r: int, runs: tuple[int, ...], d: int, f: int, fs: int, o: int, os_: int
) -> list[_SuitOption]:
    """Every way one suit can use its cards at rank r (1..13), as
    (optional used, set-only optional used, cards to sets, new run states, kept aces, choice).

    Problem-independent (cached globally); the problem scores and prunes them."""
    key = (r, runs, d, f, fs, o, os_)
    hit = _OPTS_CACHE.get(key)
    if hit is not None:
        return hit
    out: list[_SuitOption] = []
    seen = set()
    for u in range(o + 1):
        for v in range(os_ + 1):
            a = f + u
            so = fs + v
            if a + so > 2:
                continue
            for ext in itertools.product((True, False), repeat=len(runs)):
                if any(not e and runs[i] not in _CLOSABLE for i, e in enumerate(ext)):
                    continue
                e_count = sum(ext)
                if e_count > a:
                    continue
                rem = a - e_count
                max_new = rem if r <= 12 else 0
                for k in range(max_new + 1):
                    rem2 = rem - k
                    for dd in range(rem2 + 1) if r == 1 else (0,):
                        x = rem2 - dd
                        m = x + so
                        new_runs = [_EXTEND[runs[i]] for i, e in enumerate(ext) if e]
                        new_runs += [5 if r == 1 else 1] * k
                        nd = dd if r == 1 else d
                        if nd == 0:  # no high ace to come: low-started runs behave as normal
                            new_runs = [_PLAIN.get(x, x) for x in new_runs]
                        nr = tuple(sorted(new_runs))
                        sig = (u, v, m, nr, nd)
                        if sig in seen:
                            continue
                        seen.add(sig)
                        out.append((u, v, m, nr, nd, _Choice(u, v, ext, k, dd, m, so)))
    # drop options whose run state is dominated by another with the same cards and score
    kept = []
    for opt in out:
        u, v, m, nr, nd, _ch = opt
        if any(
            o2 is not opt
            and o2[:3] == (u, v, m)
            and o2[4] == nd
            and o2[3] != nr
            and _dominates(o2[3], nr)
            for o2 in out
        ):
            continue
        kept.append(opt)
    _OPTS_CACHE[key] = kept
    return kept


_PLAIN = {4: 3, 5: 1, 6: 2}
# "kept aces" value of the relaxed suit state ``_tighten`` starts from: at rank 14 up to two
# high aces may extend runs, as many as fit (a real state keeps an exact number, 0..2)
_FREE_ACES = 3
# a -> states b that a can always replace (every way to finish b also finishes a); 0 = no run
_DOMINATES = {
    3: {0, 1, 2, 3, 4, 5, 6},
    2: {1, 2, 5, 6},
    1: {1, 5},
    6: {5, 6},
    4: {0, 4},
    5: {5},
    0: {0},
}


def _dominates(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    a2 = list(a) + [0] * (2 - len(a))
    b2 = list(b) + [0] * (2 - len(b))
    return any(
        all(y in _DOMINATES[x] for x, y in zip(perm, b2, strict=True))
        for perm in ((a2[0], a2[1]), (a2[1], a2[0]))
    )


@cache
def _short_runs(runs: tuple[int, ...]) -> tuple[int, int]:
    """How many of these open runs still need one more card, and how many need two."""
    return sum(1 for st in runs if st in (1, 2, 5, 6)), sum(1 for st in runs if st in (1, 5))


def _canon(runs: tuple[int, ...], ahead: int) -> tuple[int, ...]:
    """The open runs (sorted states) after a rank whose next rank has ``ahead`` cards of the
    suit that could extend a run: the short runs must all extend, so only ``ahead`` minus their
    number of the closable runs can; the others close now (the ones that may still take a high
    ace kept first: state 3 sorts before 4). Equal futures get one state, so one memo entry."""
    closable = [st for st in runs if st in _CLOSABLE]
    room = ahead - (len(runs) - len(closable))
    if len(closable) <= room:
        return runs
    short = [st for st in runs if st not in _CLOSABLE]
    return tuple(sorted(short + closable[: max(room, 0)]))


def _high_ace_ok(runs: tuple[int, ...], d: int) -> tuple[bool, ...] | None:
    """At rank 14: the d kept aces must each extend a run of length >= 2 (not low-started);
    every other run must already be closable. Returns the extend flags or None."""
    for ext in itertools.product((True, False), repeat=len(runs)):
        if sum(ext) != d and not (d == _FREE_ACES and sum(ext) <= 2):
            continue
        good = True
        for st, e in zip(runs, ext, strict=True):
            if e and st not in (2, 3):
                good = False
            if not e and st not in _CLOSABLE:
                good = False
        if good:
            return ext
    return None


# ----------------------------------------------------------------------------------------------
# The DP


# Suit states (open runs, kept aces) are interned as small ints; a full state packs the four
# suits in 7 bits each. ``kc`` packs the set counts of the current rank as k1 * 5 + k2.
_SUIT_IDS: dict[tuple[tuple[int, ...], int], int] = {}
_SUIT_STATES: list[tuple[tuple[int, ...], int]] = []


def _suit_id(runs: tuple[int, ...], d: int) -> int:
    key = (runs, d)
    sid = _SUIT_IDS.get(key)
    if sid is None:
        sid = len(_SUIT_STATES)
        assert sid < 128
        _SUIT_IDS[key] = sid
        _SUIT_STATES.append(key)
    return sid


assert _suit_id((), 0) == 0  # _START relies on it
_M_DELTA = (0, 5, 1)  # m = 0, 1, 2 cards of one suit to this rank's sets
_KC_REACH = [
    [(_REACHABLE.get((kc // 5, kc % 5, 3 - s), False)) for kc in range(25)] for s in range(4)
]
_FINAL_OK: dict[int, bool] = {}


def _final_ok(state: int) -> bool:
    hit = _FINAL_OK.get(state)
    if hit is None:
        hit = all(
            _high_ace_ok(*_SUIT_STATES[(state >> (7 * s)) & 127]) is not None for s in range(4)
        )
        _FINAL_OK[state] = hit
    return hit


class _OutOfBudget(Exception):
    """A search ran out of the nodes it was given (its memo stays valid: see ``go``)."""


class _Problem:
    def __init__(
        self,
        fixed: Sequence[int],
        fixed_set: Sequence[int],
        optional: Sequence[int],
        optional_set: Sequence[int],
        mirrored: bool = False,
    ) -> None:
        """``mirrored``: the problem with ranks 2..K reversed (see ``_MIRROR``), searched K->A;
        the scores keep each card's own value."""
        optional, optional_set = _usable(fixed, fixed_set, optional, optional_set)
        self.mirrored = mirrored
        if mirrored:
            fixed, fixed_set, optional, optional_set = (
                [counts[_MIRROR[f]] for f in range(NUM_FACES)]
                for counts in (fixed, fixed_set, optional, optional_set)
            )
        self.fixed = fixed
        self.fixed_set = fixed_set
        self.optional = optional
        self.optional_set = optional_set
        self.memo: dict[int, int] = {}  # key -> value * 2 + (1 if exact else 0)
        # key of an exact memo entry -> the option that reaches its value (for ``reconstruct``)
        self.chosen: dict[int, tuple | None] = {}
        self._best: int | None = None
        self._count = [0, 1 << 62]  # ``nodes`` so far and their ``limit``
        # per position (r-1)*4 + s, r = 1..13
        cells: list[tuple[int, int, int, int, int, int]] = []
        card_score: list[int] = []  # per position: what one optional card there is worth
        self.cells = cells
        self.card_score = card_score
        for r in range(1, 14):
            for s in range(4):
                face = s * 13 + r - 1
                cells.append(
                    (r, s, fixed[face], fixed_set[face], optional[face], optional_set[face])
                )
                value = (_MIRROR[face] % 13 + 1) if mirrored else r  # ``face_value``
                card_score.append(CARD_SCORE + VALUE_SCORE * value)
        # suffix upper bounds of optional score
        self.bound = bound = [0] * (len(cells) + 1)
        total = 0
        for i in range(len(cells) - 1, -1, -1):
            o = cells[i][4]
            if o:
                total += o * card_score[i]
            bound[i] = total
        self.end = len(self.cells)
        self.plain_bound = list(self.bound)  # ``bound`` before ``_tighten`` lowers it
        self._tightened = 0  # how many of ``TIGHTEN_RANKS`` ``_tighten`` has done
        # cells without a card: a suit with no open run passes them by without a choice (a
        # sentinel after the last cell stops the skipping in ``go``)
        self.empty = [not any(cell[2:]) for cell in self.cells] + [False]
        # per suit, per rank 1..13: the cards that could extend a run there (index 0 unused)
        self.run_cards = [
            [0] + [fixed[s * 13 + r - 1] + optional[s * 13 + r - 1] for r in range(1, 14)]
            for s in range(4)
        ]
        self.cell_key = self._cell_keys()

    def options(self, pos: int, sid: int) -> list:
        """(score, m, new suit id, u, v, choice) for the suit of ``pos``, best score first."""
        key = self.cell_key[pos] | sid
        hit = _SCORED_CACHE.get(key)
        if hit is None:
            hit = _SCORED_CACHE[key] = self._score_options(pos, sid)
        return hit

    def _cell_keys(self) -> list[int]:
        """Per cell, everything its options depend on besides the suit state, as one int (the
        suit id goes in its low 7 bits): problems share the options (``_SCORED_CACHE``)."""
        keys = []
        card_score = self.card_score
        for pos, (r, s, f, fs, o, os_) in enumerate(self.cells):
            ahead = self.run_cards[s]
            a1 = ahead[r + 1] if r <= 12 else 0
            a2 = ahead[r + 2] if r <= 11 else 0
            aces = ahead[12] * 3 + ahead[13] if r == 1 else 0
            value = (card_score[pos] - CARD_SCORE) // VALUE_SCORE  # 1..13
            key = (
                ((((r * 81 + f * 27 + fs * 9 + o * 3 + os_) * 14 + value) * 9) + a1 * 3 + a2) * 9
            ) + aces
            keys.append(key << 7)
        return keys

    def _score_options(self, pos: int, sid: int) -> list:
        r, s, f, fs, o, os_ = self.cells[pos]
        runs, d = _SUIT_STATES[sid]
        card = self.card_score[pos]
        ahead = self.run_cards[s]
        scored = []
        for u, v, m, nr, nd, ch in _suit_options(r, runs, d, f, fs, o, os_):
            # prune: runs shorter than 3 need the next ranks; kept aces need a Q and a K
            if r == 1 and nd and (ahead[12] < nd or ahead[13] < nd):
                continue
            need1, need2 = _short_runs(nr)
            aces = 2 if nd == _FREE_ACES else nd  # high aces to come
            if need1 and (
                (aces if r == 13 else ahead[r + 1]) < need1
                or (aces if r == 12 else 0 if r == 13 else ahead[r + 2]) < need2
            ):
                continue
            if r <= 12:
                nr = _canon(nr, ahead[r + 1])
            scored.append((u * card + v * HELPER_SCORE, m, _suit_id(nr, nd), u, v, ch))
        scored.sort(key=lambda t: -t[0])
        # options made equal by ``_canon`` (same score, set cards and next state) are one
        seen = set()
        unique = []
        for option in scored:
            if option[:3] not in seen:
                seen.add(option[:3])
                unique.append(option)
        return unique

    @property
    def nodes(self) -> int:
        """Calls of ``go`` so far (the ones that got past the trivial cases)."""
        return self._count[0]

    @property
    def limit(self) -> int:
        """How many ``nodes`` ``go`` may reach before it raises ``_OutOfBudget``."""
        return self._count[1]

    @limit.setter
    def limit(self, value: int) -> None:
        self._count[1] = value

    def _make_go(self) -> tuple[Callable[[int, int, int, int], int], Callable[[], None]]:
        """``go`` as a closure over the problem's tables (read from cells, not attributes: the
        search's inner loop runs ~100-1,000 times per solve), and what ends its reference to
        itself: a recursive closure is a reference cycle (with the problem it closes over,
        which the bot's frozen heap would keep until its thaw: ``bot/ops/collector.py``)."""
        empty = self.empty
        end = self.end
        count = self._count
        bound = self.bound  # changed in place by ``_tighten``
        memo = self.memo
        chosen_of = self.chosen
        cell_key = self.cell_key
        cached_options = _SCORED_CACHE
        options_of = self.options
        reach_of = _KC_REACH
        final_reach = _KC_REACH[3]
        m_delta = _M_DELTA

        def go(pos: int, state: int, kc: int, need: int) -> int:
            """Fail-soft branch and bound: the exact best score from here if it is >= ``need``,
            otherwise some upper bound below ``need``. Memo entries remember which of the two."""
            while empty[pos] and not (state >> (7 * (pos & 3))) & 127:
                # no card here and no run open in this suit: nothing to choose (see ``empty``)
                if pos & 3 == 3:
                    if not final_reach[kc]:
                        return NEG
                    kc = 0
                pos += 1
            if pos == end:
                return 0 if _final_ok(state) else NEG
            count[0] += 1
            if count[0] > count[1]:
                raise _OutOfBudget  # nothing half-done is in the memo: entries are written last
            if bound[pos] < need:
                return bound[pos]
            key = ((state * 25 + kc) << 6) | pos
            hit = memo.get(key)
            if hit is not None:  # value * 2 + 1 if exact, value * 2 if an upper bound
                if hit & 1 or hit >> 1 < need:
                    return hit >> 1
            s = pos & 3
            shift = 7 * s
            sid = (state >> shift) & 127
            base = state ^ (sid << shift)
            reach = reach_of[s]
            best = NEG
            upper = NEG
            next_bound = bound[pos + 1]
            nxt = pos + 1
            options = cached_options.get(cell_key[pos] | sid)
            if options is None:
                options = options_of(pos, sid)
            chosen = None
            for option in options:
                sc, m, nsid, _u, _v, _ch = option
                goal = need if need > best else best + 1
                if sc + next_bound < goal:
                    if sc + next_bound > upper:
                        upper = sc + next_bound
                    break
                nkc = kc + m_delta[m]
                if not reach[nkc]:
                    continue
                val = go(nxt, base | (nsid << shift), 0 if s == 3 else nkc, goal - sc)
                if val == NEG:
                    continue
                if val >= goal - sc:
                    best = sc + val
                    chosen = option
                elif sc + val > upper:
                    upper = sc + val
            if best >= need:
                memo[key] = best * 2 + 1
                chosen_of[key] = chosen
                return best
            result = best if best > upper else upper
            memo[key] = result * 2
            return result

        def release() -> None:
            nonlocal go
            del go

        return go, release

    def solve(self) -> int:
        """Exact best score, or NEG if the fixed cards cannot be arranged.

        MTD(f)-style: search with the aspiration "at least ``need``", starting from the upper
        bound; a failed search returns a lower upper bound, which becomes the next aspiration.
        Bounds learnt stay valid in the memo between rounds, so every round is pruned hard."""
        if self._best is None:
            go, release = self._make_go()
            try:
                self._best = self._search(go)
            finally:
                release()
        return self._best

    def _search(self, go: Callable[[int, int, int, int], int]) -> int:
        if not any(self.optional) and not any(self.optional_set):
            return go(0, _START, 0, NEG + 1)
        if not self._tighten(go):
            return NEG
        # aspiration on whole cards: "k cards at least", k from the top down (the value
        # is optimised by the last, successful search itself); below k = 0 the fixed cards
        # themselves cannot be arranged. A search stopped by its budget is resumed by
        # calling ``solve`` again: the rounds already answered come back from the memo.
        if not self.mirrored:  # one search for the best: no re-search
            value = go(0, _START, 0, -100)
            return value if value >= -100 else NEG
        # aspiration rounds: prune hard where the first sweep wandered
        need = self.bound[0] // CARD_SCORE * CARD_SCORE - 100
        while need >= -100:
            value = go(0, _START, 0, need)
            if value >= need:
                return value
            if value == NEG:
                break
            need = min((value + 100) // CARD_SCORE * CARD_SCORE - 100, need - CARD_SCORE)
        return NEG

    def _tighten(self, go: Callable[[int, int, int, int], int]) -> bool:
        """Lower the score bounds with the exact best of the suffixes from the ranks of
        ``TIGHTEN_RANKS`` on, from the last down, each started in ``_ANY_RUNS`` (which can do
        whatever any state at a rank's start can: see ``_DOMINATES`` and ``_FREE_ACES``), so it
        bounds every way of reaching that rank. A forward sweep meets a contradiction among the last ranks only there; these
        bounds see it from the start. False if even the suffix cannot be arranged.

        Resumable after ``_OutOfBudget`` (the ranks done stay done, the memo stays valid; its
        entries are this problem's own, so the main search reuses them)."""
        bound = self.bound
        while self._tightened < len(TIGHTEN_RANKS):
            start = (TIGHTEN_RANKS[self._tightened] - 1) * 4
            best = go(start, _ANY_RUNS, 0, NEG + 1)
            if best == NEG:
                return False
            plain = self.plain_bound
            for q in range(start + 1):
                tighter = plain[q] - plain[start] + best
                if tighter < bound[q]:
                    bound[q] = tighter
            self._tightened += 1
        return True

    def reconstruct(self) -> tuple[list[tuple[list[int], list[str]]], list[int], list[int]]:
        """Melds as (faces, tags) where tag "h" marks a slot for a set-only card; plus the
        per-face counts of optional and optional set-only cards used."""
        total = self.solve()
        if total == NEG:
            raise ValueError("no solution")
        used_opt = [0] * NUM_FACES
        used_opt_set = [0] * NUM_FACES
        melds: list[tuple[list[int], list[str]]] = []
        open_runs: list[list[tuple[int, list[int]]]] = [[] for _ in range(4)]  # (state, faces)
        state = _START
        kc = 0
        rank_sets: list[tuple[int, int, int]] = []  # (suit, m, set_only) of the current rank
        chosen_of = self.chosen
        cells = self.cells
        empty = self.empty
        for pos in range(self.end):
            r, s, *_ = cells[pos]
            shift = 7 * s
            sid = (state >> shift) & 127
            if empty[pos] and not sid:  # passed by without a choice (see ``go``)
                if s == 3:
                    kc = 0
                    if rank_sets:
                        melds.extend(_build_sets(r, rank_sets))
                        rank_sets = []
                continue
            # the search left the best option of every node on the best line in ``chosen``
            chosen = chosen_of[((state * 25 + kc) << 6) | pos]
            assert chosen is not None  # an exact entry's best line
            _sc, m, nsid, u, v, ch = chosen
            if sid or nsid:  # runs open before or after: follow them card by card
                state ^= (sid ^ nsid) << shift
                face = s * 13 + r - 1
                used_opt[face] += u
                used_opt_set[face] += v
                # concrete runs of suit s, in the order of the sorted state tuple
                concrete = open_runs[s]
                if len(concrete) > 1:
                    concrete.sort(key=_first)
                kept = []
                for (st, faces), e in zip(concrete, ch.extend, strict=True):
                    if e:
                        faces.append(face)
                        kept.append((_EXTEND[st], faces))
                    else:
                        melds.append((faces, ["a"] * len(faces)))
                for _ in range(ch.new_runs):
                    kept.append((5 if r == 1 else 1, [face]))
                nd = _SUIT_STATES[nsid][1]
                if r == 1 and nd == 0:  # low-started states exist only while aces are kept
                    kept = [(_PLAIN.get(st, st), fc) for st, fc in kept]
                if r <= 12 and len(kept) > self.run_cards[s][r + 1]:  # ``_canon`` closed some
                    kept.sort(key=_first)
                    states = _canon(tuple(st for st, _ in kept), self.run_cards[s][r + 1])
                    if len(states) < len(kept):
                        still = list(states)
                        staying = []
                        for st, fc in kept:
                            if st in still:
                                still.remove(st)
                                staying.append((st, fc))
                            else:
                                melds.append((fc, ["a"] * len(fc)))
                        kept = staying
                open_runs[s] = kept
            elif u or v:
                face = s * 13 + r - 1
                used_opt[face] += u
                used_opt_set[face] += v
            if m:
                kc += _M_DELTA[m]
                rank_sets.append((s, m, ch.set_only))
            if s == 3:
                kc = 0
                if rank_sets:
                    melds.extend(_build_sets(r, rank_sets))
                    rank_sets = []
        # rank 14: kept aces extend runs
        for s in range(4):
            runs, d = _SUIT_STATES[(state >> (7 * s)) & 127]
            ext = _high_ace_ok(runs, d)
            assert ext is not None
            concrete = sorted(open_runs[s], key=lambda t: t[0])
            for (_st, faces), e in zip(concrete, ext, strict=True):
                faces = faces + [s * 13] if e else faces
                melds.append((faces, ["a"] * len(faces)))
        return melds, used_opt, used_opt_set


def _first(item: tuple[int, list[int]]) -> int:
    return item[0]


_START = 0  # every suit: no open run, no kept ace (suit id 0)

# The mirror image of a face: ranks 2..K reversed (2 <-> K, 3 <-> Q, ...), the ace kept. Runs
# stay runs (A-2-3 <-> A-K-Q, i.e. Q-K-A) and sets stay sets, so a table and its mirror image
# have the same arrangements; the sweep over the mirror image meets the high ranks first.
_MIRROR: tuple[int, ...] = tuple(
    f if f % 13 == 0 else f - f % 13 + 13 - f % 13 for f in range(NUM_FACES)
)
# Suit state ((3, 3), _FREE_ACES): two open runs of 3+ cards and up to two high aces to come
# (used or not) in every suit
_ANY_RUNS = sum(_suit_id((3, 3), _FREE_ACES) << (7 * s) for s in range(4))
# the ranks whose suffixes ``_tighten`` bounds, last first (measured best for 40+11 and 60+20:
# every rank from K to 8 cost ~4 % more at the median, K,J,9 or Q,9 a worse p95)
TIGHTEN_RANKS = (12, 10, 8)
FIRST_BUDGET = 700  # nodes each direction searches before the other's turn (then doubled)


def _solved(
    fixed: Sequence[int],
    fixed_set: Sequence[int],
    optional: Sequence[int],
    optional_set: Sequence[int],
) -> _Problem:
    """The problem searched to its end, sweeping A->K and (on the mirror image) K->A in turns.

    One direction often meets a contradiction only at its last ranks and wanders long before it
    does, while the other meets it at once; each takes turns with a budget of nodes, doubled
    every round, and the first to finish answers (both are exact). The memo of each carries over
    between its turns, so the cost stays within a small factor of the faster direction's."""
    problems = [_Problem(fixed, fixed_set, optional, optional_set)]
    budget = FIRST_BUDGET
    while True:
        for prob in problems:
            prob.limit = prob.nodes + budget
            try:
                prob.solve()
            except _OutOfBudget:
                continue
            prob.limit = 1 << 62
            return prob
        if len(problems) == 1:  # most positions never need the mirror image
            problems.append(_Problem(fixed, fixed_set, optional, optional_set, mirrored=True))
        else:
            budget *= 2


def _usable(fixed, fixed_set, optional, optional_set) -> tuple[list[int], list[int]]:
    """Drop optional cards that fit in no meld at all, even with every other card available
    (iterated to a fixed point); this only tightens the search bound."""
    opt = list(optional)
    opt_set = list(optional_set)
    avail = [fixed[f] + fixed_set[f] + opt[f] + opt_set[f] for f in range(NUM_FACES)]
    while True:
        changed = False
        for f in range(NUM_FACES):
            if not opt[f] and not opt_set[f]:
                continue
            s, r0 = divmod(f, 13)
            set_ok = (avail[r0] > 0) + (avail[13 + r0] > 0) + (avail[26 + r0] > 0) + (
                avail[39 + r0] > 0
            ) >= 3
            if set_ok:
                continue
            if opt_set[f]:  # set-only cards fit in sets only
                avail[f] -= opt_set[f]
                opt_set[f] = 0
                changed = True
            if opt[f] and not _in_some_run(avail, s * 13, r0):
                avail[f] -= opt[f]
                opt[f] = 0
                changed = True
        if not changed:
            return opt, opt_set


def _in_some_run(avail: list[int], base: int, r0: int) -> bool:
    """Is there a window of three consecutive ranks (the ace low or high) around rank index
    ``r0`` (0 = ace) whose cards of the suit starting at face ``base`` are all available?"""
    # ranks as 1..14 (14 = the high ace); window starts 1..12
    for rank in (1, 14) if r0 == 0 else (r0 + 1,):
        for start in range(max(1, rank - 2), min(rank, 12) + 1):
            if (
                avail[base + (start - 1) % 13]
                and avail[base + start % 13]
                and avail[base + (start + 1) % 13]
            ):
                return True
    return False


def _build_sets(r: int, parts: list[tuple[int, int, int]]) -> list[tuple[list[int], list[str]]]:
    """Split one rank's set cards into 1 or 2 sets of distinct suits.

    parts: (suit, m, set_only) with m cards of that suit, set_only of them set-only cards."""
    if not parts:
        return []
    doubles = [p for p in parts if p[1] == 2]
    singles = [p for p in parts if p[1] == 1]
    groups: list[list[tuple[int, str]]] = [[]] if not doubles else [[], []]
    for s, _m, so in doubles:
        face = s * 13 + r - 1
        tags = ["h"] * so + ["a"] * (2 - so)
        groups[0].append((face, tags[0]))
        groups[1].append((face, tags[1]))
    for s, _m, so in singles:
        face = s * 13 + r - 1
        target = min(groups, key=len) if len(groups) == 2 else groups[0]
        target.append((face, "h" if so else "a"))
    out = []
    for g in groups:
        assert 3 <= len(g) <= 4
        out.append(([f for f, _ in g], [t for _, t in g]))
    return out


# ----------------------------------------------------------------------------------------------
# Public API


@dataclass
class Solution:
    melds: list[list[int]]  # faces, display order
    tags: list[list[str]]  # per slot: "h" = reserved for a set-only card, "a" = any card
    used_optional: list[int]  # per face
    used_optional_set: list[int]  # per face
    score: int

    @property
    def optional_faces(self) -> list[int]:
        return [f for f in range(NUM_FACES) for _ in range(self.used_optional[f])]

    @property
    def optional_set_faces(self) -> list[int]:
        return [f for f in range(NUM_FACES) for _ in range(self.used_optional_set[f])]


def _zeros() -> list[int]:
    return [0] * NUM_FACES


def solve(
    fixed: Sequence[int],
    fixed_set: Sequence[int] | None = None,
    optional: Sequence[int] | None = None,
    optional_set: Sequence[int] | None = None,
) -> Solution | None:
    """Best partition (or ``None``): all fixed cards used, optional ones chosen to maximise
    (count, value, -helpers). Arguments are per-face count vectors of length 52."""
    fixed_set = fixed_set or _zeros()
    optional = optional or _zeros()
    optional_set = optional_set or _zeros()
    for f in range(NUM_FACES):
        if fixed[f] + fixed_set[f] + optional[f] + optional_set[f] > 2:
            raise ValueError(f"face {f} appears more than twice")
    prob = _solved(fixed, fixed_set, optional, optional_set)
    if prob.solve() == NEG:
        return None
    raw, uo, uos = prob.reconstruct()
    if prob.mirrored:  # back from the mirror image
        raw = [([_MIRROR[f] for f in faces], tg) for faces, tg in raw]
        uo = [uo[_MIRROR[f]] for f in range(NUM_FACES)]
        uos = [uos[_MIRROR[f]] for f in range(NUM_FACES)]
    melds, tags = [], []
    for faces, tg in raw:
        if faces[0] % 13 != faces[1] % 13:  # a run (a set's cards share their rank)
            # ascending order as built (ace high last); a mirrored sweep built it descending
            if prob.mirrored:
                faces, tg = faces[::-1], tg[::-1]
            melds.append(faces)
            tags.append(tg)
        else:
            order = sorted(range(len(faces)), key=faces.__getitem__)
            melds.append([faces[i] for i in order])
            tags.append([tg[i] for i in order])
    return Solution(melds, tags, uo, uos, prob.solve())


def partition(faces: Iterable[int], set_only: Iterable[int] = ()) -> list[list[int]] | None:
    """Partition exactly these faces into valid melds (``set_only`` ones inside sets)."""
    sol = solve(counts_of(faces), counts_of(set_only))
    return None if sol is None else sol.melds


def is_partitionable(faces: Iterable[int], set_only: Iterable[int] = ()) -> bool:
    return feasible(counts_of(faces), counts_of(set_only))


def feasible(counts: Sequence[int], set_only_counts: Sequence[int] | None = None) -> bool:
    """Can these per-face counts be arranged (the set-only ones inside sets)?"""
    return _solved(counts, set_only_counts or _zeros(), _zeros(), _zeros()).solve() != NEG


@dataclass
class BestPlay:
    hand_faces: list[int]  # faces of the hand to play
    helper_faces: list[int]  # faces of the helpers to use
    melds: list[list[int]]  # a full table arrangement (faces)

    @property
    def count(self) -> int:
        return len(self.hand_faces)

    @property
    def value(self) -> int:
        return sum(face_value(f) for f in self.hand_faces)


def best_play(
    table: Iterable[int], hand: Iterable[int], helpers: Iterable[int] = ()
) -> BestPlay | None:
    """The largest subset of ``hand`` (by count, then value) that can join ``table``; helpers
    may be used, inside sets only. ``None`` if no hand card can be played (or the table itself
    is invalid)."""
    fixed = counts_of(table)
    hand_c = counts_of(hand)
    help_c = counts_of(helpers)
    # a face can be in hand and helpers at once, but never more than twice in all
    sol = solve(fixed, None, hand_c, help_c)
    if sol is None or not any(sol.used_optional):
        return None
    return BestPlay(sol.optional_faces, sol.optional_set_faces, sol.melds)
