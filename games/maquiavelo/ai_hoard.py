"""Hard computer: keep the cards, draw, and go out in one play.

Why: the table is shared and may be rearranged freely, so a seat can go out exactly when the
table and its hand *together* split into melds. Playing cards moves them from the hand to the
table and leaves that union unchanged: a play brings the seat no nearer to going out, while
every card on the table is one more that the others can build on (``normal`` plays all it can
every turn, and so feeds the table). Drawing instead adds a card to the union, one more that
may complete what the seat holds. So ``hard``:

1. goes out as soon as the table and its hand split into melds (the best play is the hand);
2. otherwise draws while the stock lasts, and plays nothing;
3. once the stock is empty (no more drawing, and a round of passes ends the game, the fewest
   cards winning): ``end_phase`` weighs a few of its smallest plays (``small_plays``) and
   passing over worlds sampled from its view (``ai_search.determinize``; with two seats the unseen
   cards are the other hand, so one world is the truth): a choice after which another seat
   could go out at once scores 0 in that world; a pass that ends the game scores the share of
   first place it gives; any other choice 1/2. The best total wins; ties go to the smallest
   play (it keeps the most cards back for the turns to come, and a seat that plays does not
   pass), then bigger plays, then passing.

Budget: the end phase makes at most ``budget.iterations`` checks (one choice in one world: an
exact solve per other seat), never fewer than one world, and stops at ``budget.seconds`` of
``budget.clock``. Before the end phase a move costs one exact check (can the seat go out?).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from games.core.budget import Budget
from games.maquiavelo import ai_search, solver
from games.maquiavelo.actions import AnyAction, Draw, Pass, Play
from games.maquiavelo.ai import best_play_action
from games.maquiavelo.cards import hand_value
from games.maquiavelo.state import MaquiaveloState
from games.maquiavelo.view import MaquiaveloView

SMALL_PLAYS = 3  # at most this many distinct smallest plays weighed in the end phase
SMALL_PLAY_SOLVES = 12  # exact checks spent looking for them
MAX_WORLDS = 16  # worlds sampled in the end phase (with two seats: one, the truth)


@dataclass
class Decision:
    """What ``choose_hard`` chose, and how many end-phase checks it made."""

    action: AnyAction
    checks: int = 0


def _faces(view: MaquiaveloView) -> tuple[list[int], list[int], list[int]]:
    table = [c.id % 52 for m in view.table for c in m.cards]
    hand = [c.id % 52 for c in view.hand or []]
    helpers = [c.id % 52 for c in view.helpers]
    return table, hand, helpers


def _stranded(counts: Sequence[int], helpers: Sequence[int]) -> bool:
    """Whether some card of ``counts`` fits no meld these cards could make at all (no two
    other suits of its rank, with the helpers, and no two neighbours in its suit): a quick
    "no" before the exact check, which may take long to prove one on a big table."""
    present = [c > 0 for c in counts]
    in_sets = list(present)
    for f in helpers:
        in_sets[f] = True
    for f in range(solver.NUM_FACES):
        if not counts[f]:
            continue
        rank, base = f % 13, f - f % 13
        if sum(in_sets[s * 13 + rank] for s in range(4)) >= 3:
            continue
        ranks = [present[base + r % 13] for r in range(14)]  # index 13: the ace again, high
        r = rank if rank else 0
        near = [(r - 2, r - 1), (r - 1, r + 1), (r + 1, r + 2)]
        if rank == 0:
            near += [(11, 12)]  # Q-K-A
        if not any(0 <= a and b <= 13 and ranks[a] and ranks[b] for a, b in near):
            return True
    return False


def goes_out(table: Sequence[int], hand: Sequence[int], helpers: Sequence[int] = ()) -> bool:
    """Whether the table and this whole hand split into melds (helpers usable in sets)."""
    if _stranded(solver.counts_of([*table, *hand]), helpers):
        return False
    if not helpers:
        return solver.is_partitionable([*table, *hand])
    fixed = solver.counts_of([*table, *hand])
    return solver.solve(fixed, None, None, solver.counts_of(helpers)) is not None


def choose_hard(
    view: MaquiaveloView, legal: Sequence[AnyAction], rng: random.Random, budget: Budget
) -> Decision:
    """Hard's move from ``view`` (its turn; ``legal`` holds the draw or the pass)."""
    table, hand, helpers = _faces(view)
    if hand and goes_out(table, hand, helpers):
        best = best_play_action(view)  # the whole hand (and the helpers it needs)
        if best is not None:
            return Decision(best)
    draw = next((a for a in legal if isinstance(a, Draw)), None)
    if draw is not None:
        return Decision(draw)
    passing = next((a for a in legal if isinstance(a, Pass)), None)
    return end_phase(view, passing, rng, budget)


def small_plays(view: MaquiaveloView, limit: int = SMALL_PLAYS) -> list[Play]:
    """Up to ``limit`` small plays of hand cards (distinct by faces, smallest first): single
    cards the table takes (high ones first, at most ``SMALL_PLAY_SOLVES`` exact checks), then
    melds of three hand cards on their own (always playable). ``normal``'s best play when
    neither exists (it may need two hand cards and a rearrangement); none if no card fits."""
    table, _, _ = _faces(view)
    by_face: dict[int, list[int]] = {}
    for c in view.hand or []:
        by_face.setdefault(c.id % 52, []).append(c.id)
    out: list[Play] = []
    for f in sorted(by_face, key=lambda f: (-(f % 13), f))[:SMALL_PLAY_SOLVES]:
        if len(out) >= limit:
            return out
        if solver.is_partitionable([*table, f]):
            out.append(Play(cards=(by_face[f][0],)))
    for meld in _hand_melds(sorted(by_face)):
        if len(out) >= limit:
            return out
        out.append(Play(cards=tuple(by_face[f][0] for f in meld)))
    if not out:
        best = best_play_action(view)
        out = [best] if best is not None else []
    return out


def _hand_melds(faces: Sequence[int]) -> list[tuple[int, ...]]:
    """Three-card melds among these distinct faces: sets of one rank, then runs."""
    have = set(faces)
    melds: list[tuple[int, ...]] = []
    for rank in range(13):
        suits = [s * 13 + rank for s in range(4) if s * 13 + rank in have]
        if len(suits) >= 3:
            melds.append(tuple(suits[:3]))
    for f in sorted(have):
        rank, base = f % 13, f - f % 13
        up = [base + (rank + k) % 13 for k in (1, 2)]
        if rank <= 11 and all(g in have for g in up):  # (Q-K-A: rank 11 wraps to the ace)
            melds.append((f, *up))
    return melds


def end_phase(
    view: MaquiaveloView, passing: Pass | None, rng: random.Random, budget: Budget
) -> Decision:
    """The stock is empty and the seat cannot go out: see the module's docstring (3)."""
    table, _, _ = _faces(view)
    options: list[AnyAction] = list(small_plays(view))
    if passing is not None:
        options.append(passing)
    if len(options) <= 1:
        return Decision(options[0] if options else passing or Pass.instance())
    totals = [0.0] * len(options)
    clock = budget.clock if budget.timed() else None
    deadline = (clock() + (budget.seconds or 0.0)) if clock is not None else 0.0
    known = len(view.seats) == 2  # the unseen cards are the other hand
    checks = worlds = 0
    while worlds < (1 if known else MAX_WORLDS):
        if worlds and checks + len(options) > budget.iterations:
            break
        if worlds and clock is not None and clock() >= deadline:
            break
        world = ai_search.determinize(view, rng)
        for k, option in enumerate(options):
            totals[k] += _score(view, world, table, option)
            checks += 1
        worlds += 1
    top = max(totals)
    return Decision(options[totals.index(top)], checks)  # ties: the earlier option


def _score(
    view: MaquiaveloView, world: MaquiaveloState, table: list[int], option: AnyAction
) -> float:
    """One choice in one world: 0 if another seat could then go out at once, a pass that ends
    the game the share of first place it gives, else 1/2."""
    if isinstance(option, Pass) and view.passes + 1 >= len(world.seats):
        return _blocked_share(world, view.seat)
    cards = option.cards if isinstance(option, Play) else ()
    new_table = table + [c % 52 for c in cards]
    used = set(cards)  # a helper the play used is gone (its replacement is not known)
    left = [c.id % 52 for c in view.helpers if c.id not in used]
    for seat in world.seats:
        if seat != view.seat and goes_out(new_table, [c % 52 for c in world.hands[seat]], left):
            return 0.0
    return 0.5


def _blocked_share(world: MaquiaveloState, me: str | None) -> float:
    """Share of first place ``me`` gets if the game ends blocked now (fewest cards, then
    lowest value)."""
    key = {s: (len(h), hand_value(h)) for s, h in world.hands.items()}
    top = min(key.values())
    first = [s for s in world.seats if key[s] == top]
    return 1.0 / len(first) if me in first else 0.0
