"""Computer play for Triple Triad, deciding only from one seat's view.

Levels:
- ``easy``: a random legal action (a random card when paid).
- ``normal``: greedy: the placement that flips most cards now (every rule in force), minus the
  exposure of the placed card (its low sides left facing empty cells); ties at random. When paid
  it takes the loser's strongest card (level, then sum of edges).
- ``hard``: negamax alpha-beta with a transposition table (Zobrist keys) over the rest of the
  round, under a node budget. Shallow iterations (depths 1-3) order the moves; then, when the
  budget makes it likely to finish, an exact MTD(f) search to the end of the round (values are
  the final score difference, so the move is optimal for both sides playing perfectly); if that
  does not fit, depth-limited iterations whose leaves are evaluated by score difference plus
  the exposure of each side's cards. The deepest finished search decides.

Hidden information: the search never reads a hidden hand (it only gets the seat's view). Under
Abierto (or once every card of the opponent's hand has been seen on the board, in a Sudden Death
rematch) it searches the true position. Otherwise it determinises: it draws ``HIDDEN_SAMPLES``
guesses of the unseen cards from the catalogue, at the levels of the opponent's cards already
seen (or, before any is seen, the levels of its own hand), one level either side, searches each
guess with an equal share of the node budget, and plays the move most guesses chose (ties: the
larger summed value). ``normal`` evaluates immediate flips on one such guess.

``games/`` may not read a clock, so the budget is a node count: callers turn a time setting into
nodes with ``node_budget_for(seconds)``; the default ``DEFAULT_NODE_BUDGET`` is
``DEFAULT_TIME_BUDGET`` (2 s) at ``NODES_PER_SECOND`` (see ``bench/triad_ai.py``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.triad import cards as catalogue
from games.triad.actions import PickCard, PlaceCard
from games.triad.options import RuleSet
from games.triad.rules import NEIGHBOURS, OPPOSITE, WALL_VALUE, modified_values
from games.triad.view import CardFace, TriadView

DEFAULT_TIME_BUDGET = 2.0  # seconds
NODES_PER_SECOND = 200_000  # measured by bench/triad_ai.py (2-core machine, shared)
HIDDEN_SAMPLES = 4
WIN = 100  # value of one card of score difference; evaluations stay within (-WIN, WIN)
SHALLOW_DEPTH = 3  # iterations run first, for move ordering and a fallback move
# Typical nodes of the exact search by empty cells (bench/triad_ai.py, open hands, medians x2):
# the exact search is tried first when three quarters of the budget reach half of it.
EXACT_COST = {9: 6_000_000, 8: 300_000, 7: 40_000, 6: 8_000, 5: 1_600}


def node_budget_for(seconds: float) -> int:
    """The node budget equivalent to ``seconds`` of thinking for ``hard``."""
    return max(200, int(seconds * NODES_PER_SECOND))


DEFAULT_NODE_BUDGET = node_budget_for(DEFAULT_TIME_BUDGET)


# ----- fast flips ------------------------------------------------------------------------------


def flips(
    cell: int,
    side: int,
    printed: Sequence[Sequence[int] | None],
    modified: Sequence[Sequence[int] | None],
    owner: Sequence[int],
    same: bool,
    wall: bool,
    plus: bool,
    combo: bool,
) -> list[int]:
    """The cells that flip (any rule), as ``rules.resolve(...).all`` but faster and unsorted.

    The placed card must already be in ``printed``/``modified``; ``owner`` is before the move.
    """
    opp = 1 - side
    nbs = NEIGHBOURS[cell]
    mp = printed[cell]
    mm = modified[cell]
    assert mp is not None and mm is not None
    special: list[int] = []
    if same or plus:
        matched = 0
        same_hits: list[int] = []
        sums: list[tuple[int, int]] = []
        for d in (0, 1, 2, 3):
            q = nbs[d]
            if q < 0:
                if wall and mp[d] == WALL_VALUE:
                    matched += 1
                continue
            tp = printed[q]
            if tp is None:
                continue
            tv = tp[OPPOSITE[d]]
            if same and mp[d] == tv:
                matched += 1
                same_hits.append(q)
            if plus:
                sums.append((mp[d] + tv, q))
        if same and matched >= 2:
            special = [q for q in same_hits if owner[q] == opp]
        if plus and len(sums) >= 2:
            for i, (s, q) in enumerate(sums):
                if owner[q] == opp and q not in special:
                    for j, (s2, _q2) in enumerate(sums):
                        if j != i and s2 == s:
                            special.append(q)
                            break
    taken = list(special)
    for d in (0, 1, 2, 3):
        q = nbs[d]
        if (
            q >= 0
            and owner[q] == opp
            and q not in taken
            and (theirs := modified[q]) is not None
            and mm[d] > theirs[OPPOSITE[d]]
        ):
            taken.append(q)
    if combo and special:
        frontier = list(special)
        while frontier:
            x = frontier.pop()
            xm = modified[x]
            assert xm is not None
            xn = NEIGHBOURS[x]
            for d in (0, 1, 2, 3):
                q = xn[d]
                if (
                    q >= 0
                    and owner[q] == opp
                    and q not in taken
                    and (theirs := modified[q]) is not None
                    and xm[d] > theirs[OPPOSITE[d]]
                ):
                    taken.append(q)
                    frontier.append(q)
    return taken


# ----- the searchable position -----------------------------------------------------------------


class SearchCard:
    """A card for the search: printed values, element, and its values on each cell."""

    __slots__ = ("printed", "element", "on_cell", "kind", "strength")

    def __init__(
        self, printed: Sequence[int], element: str | None, elements: Sequence[str | None], kind: int
    ) -> None:
        self.printed = tuple(printed)
        self.element = element
        self.on_cell = [modified_values(self.printed, e, element) for e in elements]
        self.kind = kind
        self.strength = sum(self.printed)


class Position:
    """A full-information Triple Triad round: board, both hands, side to move."""

    def __init__(
        self,
        printed: list,
        modified: list,
        owner: list[int],
        hands: list[list[SearchCard]],
        side: int,
        rules: RuleSet,
        kinds: list[int],
    ) -> None:
        self.printed = printed
        self.modified = modified
        self.owner = owner
        self.hands = hands
        self.side = side
        self.rules = rules
        self.kinds = kinds  # kind id of the card on each cell (-1 empty)


class _KindTable:
    """Numbers distinct (printed values, element) pairs so identical cards share TT keys."""

    def __init__(self) -> None:
        self.ids: dict[tuple, int] = {}

    def __call__(self, printed: Sequence[int], element: str | None) -> int:
        return self.ids.setdefault((tuple(printed), element), len(self.ids))


def _view_parts(view: TriadView) -> tuple[int, list[str | None], RuleSet]:
    if view.me is None:
        raise ValueError("the computer plays a seat")
    elements = list(view.elements)
    return view.me, elements, view.options.rule_set


def position_from_view(
    view: TriadView,
    guesses: Sequence[SearchCard] | None = None,
    kinds: _KindTable | None = None,
) -> Position:
    """The position seen by ``view.me``; hidden opponent cards are taken from ``guesses``."""
    me, elements, rules = _view_parts(view)
    kinds = kinds or _KindTable()
    seats = view.seats
    printed: list = [None] * 9
    modified: list = [None] * 9
    owner = [-1] * 9
    kind_on = [-1] * 9
    for cv in view.board:
        if cv.card is not None and cv.holder is not None:
            printed[cv.cell] = tuple(cv.card.printed)
            modified[cv.cell] = tuple(cv.card.values)
            owner[cv.cell] = seats.index(cv.holder)
            kind_on[cv.cell] = kinds(cv.card.printed, cv.card.element)
    hands: list[list[SearchCard]] = [[], []]
    pending = list(guesses or [])
    for s, seat in enumerate(seats):
        for face in view.hands[seat]:
            if face is None:
                if not pending:
                    raise ValueError("hidden card without a guess")
                g = pending.pop(0)
                hands[s].append(
                    SearchCard(g.printed, g.element, elements, kinds(g.printed, g.element))
                )
            else:
                hands[s].append(
                    SearchCard(
                        face.printed, face.element, elements, kinds(face.printed, face.element)
                    )
                )
    side = seats.index(view.turn) if view.turn is not None else me
    return Position(printed, modified, owner, hands, side, rules, kind_on)


# ----- search ----------------------------------------------------------------------------------


class BudgetExhausted(Exception):
    pass


EXACT, LOWER, UPPER = 0, 1, 2


class Searcher:
    """Negamax alpha-beta with a transposition table over one full-information position.

    Values are from the point of view of the side to move: ``WIN`` x (own score - other's) at
    the end of the round; evaluations add an exposure term smaller than ``WIN``.
    """

    def __init__(self, pos: Position, node_budget: int, seed: int = 0) -> None:
        self.pos = pos
        self.budget = node_budget
        self.nodes = 0
        self.tt: dict[int, tuple[int, int, int, tuple[int, int] | None]] = {}
        rng = random.Random(f"triad-zobrist:{seed}")
        n_kinds = 1 + max(
            [k for k in pos.kinds if k >= 0] + [c.kind for hand in pos.hands for c in hand] + [0]
        )
        # key of (cell, kind, placer, holder)
        self.z = [
            [[[rng.getrandbits(64) for _h in range(2)] for _p in range(2)] for _k in range(n_kinds)]
            for _c in range(9)
        ]
        self.placer = [-1] * 9  # unknown for cards on the board at the root: use holder
        for c in range(9):
            if pos.owner[c] >= 0:
                self.placer[c] = pos.owner[c]
        self.completed_depth = 0

    # -- helpers --
    def _root_hash(self) -> int:
        h = 0
        pos = self.pos
        for c in range(9):
            if pos.owner[c] >= 0:
                h ^= self.z[c][pos.kinds[c]][self.placer[c]][pos.owner[c]]
        return h

    def _evaluate(self, side: int, empties: int) -> int:
        pos = self.pos
        owner = pos.owner
        score = [len(pos.hands[0]), len(pos.hands[1])]
        exposure = 0
        modified = pos.modified
        for c in range(9):
            o = owner[c]
            if o < 0:
                continue
            score[o] += 1
            m = modified[c]
            nbs = NEIGHBOURS[c]
            risk = 0
            for d in (0, 1, 2, 3):
                q = nbs[d]
                if q >= 0 and owner[q] < 0:
                    risk += m[d] - 6
            exposure += risk if o == side else -risk
        exposure = max(-WIN // 2, min(WIN // 2, exposure))
        return WIN * (score[side] - score[1 - side]) + exposure

    def _final(self, side: int) -> int:
        pos = self.pos
        mine = len(pos.hands[side]) + sum(1 for o in pos.owner if o == side)
        theirs = len(pos.hands[1 - side]) + sum(1 for o in pos.owner if o == 1 - side)
        return WIN * (mine - theirs)

    def moves(self, side: int) -> list[tuple[int, int]]:
        """(hand slot, cell) pairs, one slot per distinct card, likely best first: most
        opponent cards beaten by the basic rule, then cells with more contact, stronger cards."""
        pos = self.pos
        owner = pos.owner
        modified = pos.modified
        other = 1 - side
        seen: set[int] = set()
        cards = []
        for i, card in enumerate(pos.hands[side]):
            if card.kind not in seen:
                seen.add(card.kind)
                cards.append((i, card.on_cell, card.strength))
        keyed = []
        for cell in range(9):
            if owner[cell] >= 0:
                continue
            rivals = []
            contact = 0
            for d, q in enumerate(NEIGHBOURS[cell]):
                if q >= 0 and owner[q] >= 0:
                    contact += 1
                    if owner[q] == other:
                        rivals.append((d, modified[q][OPPOSITE[d]]))
            base = contact * 64
            for i, on_cell, strength in cards:
                values = on_cell[cell]
                gain = 0
                for d, theirs in rivals:
                    if values[d] > theirs:
                        gain += 1
                # one int per move: gain, contact, strength (< 64), then slot and cell
                keyed.append((((gain * 512 + base + strength) * 8 + i) * 16) + cell)
        keyed.sort(reverse=True)
        return [((k >> 4) & 7, k & 15) for k in keyed]

    # -- the search --
    def search(self, side: int, depth: int, alpha: int, beta: int, h: int, empties: int) -> int:
        self.nodes += 1
        if self.nodes > self.budget:
            raise BudgetExhausted
        if empties == 0:
            return self._final(side)
        if depth <= 0:
            return self._evaluate(side, empties)
        if depth > empties:
            depth = empties
        tt = self.tt
        entry = tt.get(h)
        best_move = None
        if entry is not None:
            e_depth, flag, value, best_move = entry
            if e_depth >= depth:
                if flag == EXACT:
                    return value
                if flag == LOWER:
                    if value >= beta:
                        return value
                elif value <= alpha:
                    return value
        alpha0 = alpha
        pos = self.pos
        printed, modified, owner, kinds = pos.printed, pos.modified, pos.owner, pos.kinds
        hand = pos.hands[side]
        rules = pos.rules
        same, wall, plus, combo = rules.same, rules.same_wall, rules.plus, rules.combo
        z = self.z
        other = 1 - side
        moves = self.moves(side)
        if best_move is not None:
            for i, mv in enumerate(moves):
                if hand[mv[0]].kind == best_move[0] and mv[1] == best_move[1]:
                    moves.insert(0, moves.pop(i))
                    break
        best = -WIN * 100
        best_mv: tuple[int, int] | None = None
        for slot, cell in moves:
            card = hand.pop(slot)
            kind = card.kind
            printed[cell] = card.printed
            modified[cell] = card.on_cell[cell]
            kinds[cell] = kind
            flipped = flips(cell, side, printed, modified, owner, same, wall, plus, combo)
            owner[cell] = side
            nh = h ^ z[cell][kind][side][side]
            for q in flipped:
                zq = z[q][kinds[q]][self.placer[q]]
                nh ^= zq[other] ^ zq[side]
                owner[q] = side
            self.placer[cell] = side
            try:
                value = -self.search(other, depth - 1, -beta, -alpha, nh, empties - 1)
            finally:
                for q in flipped:
                    owner[q] = other
                owner[cell] = -1
                printed[cell] = None
                modified[cell] = None
                kinds[cell] = -1
                self.placer[cell] = -1
                hand.insert(slot, card)
            if value > best:
                best = value
                best_mv = (kind, cell)
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        flag = EXACT
        if best <= alpha0:
            flag = UPPER
        elif best >= beta:
            flag = LOWER
        tt[h] = (depth, flag, best, best_mv)
        return best

    def root(
        self, depth: int, alpha: int, beta: int, first: tuple[int, int] | None = None
    ) -> tuple[int, tuple[int, int]]:
        """Fail-soft search of the root to ``depth`` in the window (alpha, beta): (value, move).

        A value >= beta comes with a move achieving it; ``first`` is tried first."""
        pos = self.pos
        side = pos.side
        empties = sum(1 for o in pos.owner if o < 0)
        moves = self.moves(side)
        if first is not None and first in moves:
            moves.remove(first)
            moves.insert(0, first)
        h0 = self._root_hash()
        printed, modified, owner, kinds = pos.printed, pos.modified, pos.owner, pos.kinds
        hand = pos.hands[side]
        rules = pos.rules
        other = 1 - side
        best_value, best_move = -WIN * 100, moves[0]
        for slot, cell in moves:
            card = hand.pop(slot)
            printed[cell] = card.printed
            modified[cell] = card.on_cell[cell]
            kinds[cell] = card.kind
            flipped = flips(
                cell,
                side,
                printed,
                modified,
                owner,
                rules.same,
                rules.same_wall,
                rules.plus,
                rules.combo,
            )
            owner[cell] = side
            nh = h0 ^ self.z[cell][card.kind][side][side]
            for q in flipped:
                zq = self.z[q][kinds[q]][self.placer[q]]
                nh ^= zq[other] ^ zq[side]
                owner[q] = side
            self.placer[cell] = side
            try:
                value = -self.search(
                    other, depth - 1, -beta, -max(alpha, best_value), nh, empties - 1
                )
            finally:
                for q in flipped:
                    owner[q] = other
                owner[cell] = -1
                printed[cell] = None
                modified[cell] = None
                kinds[cell] = -1
                self.placer[cell] = -1
                hand.insert(slot, card)
            if value > best_value:
                best_value, best_move = value, (slot, cell)
                if value >= beta:
                    break
        return best_value, best_move

    def exact(self, guess: int, first: tuple[int, int] | None) -> tuple[int, tuple[int, int]]:
        """MTD(f) to the end of the round: null-window searches around ``guess`` until the
        bounds meet (final values are multiples of 2 x WIN, so few passes are needed)."""
        empties = sum(1 for o in self.pos.owner if o < 0)
        lower, upper = -WIN * 100, WIN * 100
        g = guess
        move = first
        while lower < upper:
            beta = max(g, lower + 1)
            g, m = self.root(empties, beta - 1, beta, move)
            if g < beta:
                upper = g
            else:
                lower = g
                move = m
        assert move is not None
        return g, move

    def best(self) -> tuple[tuple[int, int], int, bool]:
        """The move within the node budget: (slot, cell), value, exact?

        Shallow iterations (depths 1-3) order the moves; then, when the budget makes it likely
        to finish (``EXACT_COST``), an exact MTD(f) search gets three quarters of the budget; if
        it does not finish (or is not tried), deeper depth-limited iterations use the rest."""
        empties = sum(1 for o in self.pos.owner if o < 0)
        move: tuple[int, int] | None = None
        value = 0
        full = WIN * 100
        budget = self.budget
        try:
            for depth in range(1, min(SHALLOW_DEPTH, empties) + 1):
                value, move = self.root(depth, -full, full, move)
                self.completed_depth = depth
        except BudgetExhausted:
            pass
        if move is None:  # not even one ply fitted: the first move in search order
            return self.moves(self.pos.side)[0], 0, False
        if self.completed_depth == empties:
            return move, value, True
        if (budget - budget // 4) * 2 >= EXACT_COST.get(empties, 0):
            self.budget = budget - budget // 4
            try:
                guess = 2 * WIN * round(value / (2 * WIN))
                value, move = self.exact(guess, move)
                self.completed_depth = empties
                return move, value, True
            except BudgetExhausted:
                pass
            finally:
                self.budget = budget
        for depth in range(self.completed_depth + 1, empties + 1):
            try:
                value, move = self.root(depth, -full, full, move)
            except BudgetExhausted:
                break
            self.completed_depth = depth
        return move, value, self.completed_depth == empties


def search_best(
    pos: Position, node_budget: int = DEFAULT_NODE_BUDGET
) -> tuple[tuple[int, int], int, bool, int]:
    """Best (slot, cell) for the side to move, its value, exactness and nodes searched."""
    s = Searcher(pos, node_budget)
    move, value, exact = s.best()
    return move, value, exact, s.nodes


# ----- hidden cards -----------------------------------------------------------------------------


def _guess_pool(view: TriadView) -> list[catalogue.Card]:
    me = view.me
    assert me is not None
    opp_seat = view.seats[1 - me]
    seen_levels = [
        cv.card.level for cv in view.board if cv.card is not None and cv.card.owner == opp_seat
    ]
    seen_levels += [f.level for f in view.hands[opp_seat] if f is not None]
    if not seen_levels:
        seen_levels = [f.level for f in view.hands[view.seats[me]] if f is not None]
    lo = max(1, min(seen_levels, default=3) - 1)
    hi = min(10, max(seen_levels, default=3) + 1)
    return [c for c in catalogue.catalogue().cards if lo <= c.level <= hi]


def _guesses(view: TriadView, rng: random.Random, count: int) -> list[SearchCard]:
    pool = _guess_pool(view)
    return [
        SearchCard(c.edges, c.element, view.elements, -1)
        for c in (rng.choice(pool) for _ in range(count))
    ]


# ----- the three levels -------------------------------------------------------------------------


def _place_for(
    view: TriadView, legal: Sequence[PlaceCard], slot: int, cell: int
) -> PlaceCard | None:
    """The legal placement of hand slot ``slot`` on ``cell`` (or of the same card, when the
    engine lists only one of several copies)."""
    for a in legal:
        if a.slot == slot and a.cell == cell:
            return a
    face = view.hands[view.seats[view.me or 0]][slot]
    card = face.card if face is not None else None
    for a in legal:
        if a.card == card and a.cell == cell:
            return a
    return None


def _best_pick(view: TriadView, picks: list[PickCard]) -> PickCard:
    def strength(a: PickCard) -> tuple[int, int, int]:
        c = catalogue.card(a.card)
        return (c.level, c.strength, -a.index)

    return max(picks, key=strength)


def greedy_score(pos: Position, slot: int, cell: int) -> int:
    """``normal``: 10 per card flipped now, minus the weakness of sides left facing empty cells."""
    side = pos.side
    card = pos.hands[side][slot]
    printed, modified, owner = pos.printed, pos.modified, pos.owner
    printed[cell] = card.printed
    modified[cell] = card.on_cell[cell]
    try:
        taken = flips(cell, side, printed, modified, owner, *pos.rules)
    finally:
        printed[cell] = None
        modified[cell] = None
    values = card.on_cell[cell]
    exposure = sum(
        max(0, 7 - values[d])
        for d in (0, 1, 2, 3)
        if NEIGHBOURS[cell][d] >= 0 and owner[NEIGHBOURS[cell][d]] < 0
    )
    return 10 * len(taken) - exposure


def _normal(view: TriadView, places: list[PlaceCard], rng: random.Random) -> PlaceCard:
    assert view.me is not None
    n_hidden = sum(1 for f in view.hands[view.seats[1 - view.me]] if f is None)
    pos = position_from_view(view, _guesses(view, rng, n_hidden))
    scored = [(greedy_score(pos, a.slot, a.cell), a) for a in places]
    top = max(s for s, _ in scored)
    return rng.choice([a for s, a in scored if s == top])


def _hard(
    view: TriadView,
    places: list[PlaceCard],
    rng: random.Random,
    node_budget: int,
    stats: dict | None,
) -> PlaceCard:
    assert view.me is not None
    opp = view.seats[1 - view.me]
    n_hidden = sum(1 for f in view.hands[opp] if f is None)
    stats = stats if stats is not None else {}
    stats.update(nodes=0, exact=True, samples=0)
    if n_hidden == 0:
        (slot, cell), _v, exact, nodes = search_best(position_from_view(view), node_budget)
        stats.update(nodes=nodes, exact=exact, samples=1)
        return _place_for(view, places, slot, cell) or places[0]
    votes: dict[tuple[int, int], list[int]] = {}
    share = max(200, node_budget // HIDDEN_SAMPLES)
    for _ in range(HIDDEN_SAMPLES):
        pos = position_from_view(view, _guesses(view, rng, n_hidden))
        (slot, cell), value, exact, nodes = search_best(pos, share)
        stats["nodes"] += nodes
        stats["exact"] = stats["exact"] and exact
        stats["samples"] += 1
        tally = votes.setdefault((slot, cell), [0, 0])
        tally[0] += 1
        tally[1] += value
    (slot, cell) = max(votes, key=lambda k: (votes[k][0], votes[k][1], -k[1], -k[0]))
    return _place_for(view, places, slot, cell) or places[0]


def choose_action(
    view: TriadView,
    legal: Sequence[PlaceCard | PickCard],
    level: str,
    rng: random.Random,
    *,
    node_budget: int | None = None,
    stats: dict | None = None,
) -> PlaceCard | PickCard | None:
    """The computer's action for ``view.me`` (``None`` when it has nothing to do).

    ``node_budget`` bounds ``hard`` (default: ``DEFAULT_NODE_BUDGET``, about 2 s); ``stats``, if
    given, receives ``nodes`` searched, ``exact`` (every search reached the end of the round)
    and ``samples`` (guesses of the hidden hand searched)."""
    if not legal:
        return None
    picks = [a for a in legal if isinstance(a, PickCard)]
    if picks:
        return rng.choice(picks) if level == "easy" else _best_pick(view, picks)
    places = [a for a in legal if isinstance(a, PlaceCard)]
    if level == "easy":
        return rng.choice(places)
    if level == "normal":
        return _normal(view, places, rng)
    if level == "hard":
        return _hard(view, places, rng, node_budget or DEFAULT_NODE_BUDGET, stats)
    raise ValueError(f"unknown level {level!r}")


__all__ = [
    "DEFAULT_NODE_BUDGET",
    "DEFAULT_TIME_BUDGET",
    "CardFace",
    "Position",
    "Searcher",
    "choose_action",
    "flips",
    "node_budget_for",
    "position_from_view",
    "search_best",
]
