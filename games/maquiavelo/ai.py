"""Computer players and the "Sugerir" hint, deciding from one seat's view only.

- ``easy``: plays some valid meld it finds (three hand cards that form a meld on their own, or
  one hand card that the table can absorb), chosen at random; otherwise draws.
- ``normal``: the best play (most cards, then highest value) from the exact best-play finder.
- ``hard`` (``ai_hoard``): keeps its cards and draws, and goes out in one play as soon as the
  table and its hand split into melds (the table is shared and rearrangeable, so a play brings
  a seat no nearer to going out and only feeds the others); once the stock is empty it weighs
  its smallest plays, the best play and passing over worlds sampled from its view. (Session
  6's hard, a determinized search over variants of the best play, is ``ai_search.choose_hard``.)
"""

from __future__ import annotations

import itertools
import random
from collections import defaultdict
from collections.abc import Iterable, Sequence

from games.core.budget import Budget
from games.core.computer import computer_player
from games.maquiavelo import solver
from games.maquiavelo.actions import AnyAction, Draw, Pass, Play
from games.maquiavelo.view import CardView, MaquiaveloView

DEFAULT_BUDGET = Budget(iterations=16)  # hard, when the caller gives no think budget
# hard's end-phase checks (one choice in one sampled world: an exact solve of the table and each
# other hand), about 0.55 ms each (p90 1 ms) over 631 end-phase moves of 3- and 4-seat games of
# hard against itself; 2 s then buys more than the 16 worlds it ever samples (ai_hoard)
THINK_RATE = 1500


def _faces(cards: Iterable[CardView]) -> list[int]:
    return [c.id % 52 for c in cards]


def _table_faces(view: MaquiaveloView) -> list[int]:
    return [c.id % 52 for m in view.table for c in m.cards]


def _ids_for(faces: Sequence[int], cards: Iterable[CardView]) -> list[int]:
    """Pick physical ids of ``cards`` (CardViews) with the given faces."""
    pool: dict[int, list[int]] = defaultdict(list)
    for c in cards:
        pool[c.id % 52].append(c.id)
    return [pool[f].pop(0) for f in faces]


def best_play_action(view: MaquiaveloView) -> Play | None:
    """The best play for the viewer (the "Sugerir" hint), or None if no card can be played."""
    if not view.hand:
        return None
    best = solver.best_play(_table_faces(view), _faces(view.hand), _faces(view.helpers))
    return None if best is None else play_of(view, best)


def play_of(view: MaquiaveloView, best: solver.BestPlay) -> Play:
    """The Play of the viewer's cards with ``best``'s faces."""
    return Play(
        cards=tuple(
            _ids_for(best.hand_faces, view.hand or []) + _ids_for(best.helper_faces, view.helpers)
        )
    )


def _fallback(legal: Sequence[AnyAction]) -> AnyAction | None:
    for a in legal:
        if isinstance(a, Draw | Pass):
            return a
    return legal[0] if legal else None


def _easy(view: MaquiaveloView, rng: random.Random) -> Play | None:
    hand = view.hand or []
    table = _table_faces(view)
    candidates: list[tuple[int, ...]] = []
    seen: set[tuple[int, ...]] = set()
    for size in (3,):  # (a four-card meld holds a three-card one)
        for combo in itertools.combinations(hand, size):
            faces = tuple(sorted(c.id % 52 for c in combo))
            if faces in seen or solver.meld_kind(faces) is None:
                continue
            seen.add(faces)
            candidates.append(tuple(c.id for c in combo))
    if table:
        tried: set[int] = set()
        for c in hand:
            if c.id % 52 in tried:
                continue
            tried.add(c.id % 52)
            if solver.is_partitionable(table + [c.id % 52]):
                candidates.append((c.id,))
    if not candidates:
        return None
    return Play(cards=rng.choice(candidates))


def decide(
    view: MaquiaveloView, legal: list[AnyAction], level: str, rng: random.Random, budget: Budget
) -> AnyAction | None:
    if view.finished or view.seat is None or view.turn != view.seat:
        return None
    if level == "easy":
        play = _easy(view, rng)
        return play if play is not None else _fallback(legal)
    if level == "hard":
        from games.maquiavelo.ai_hoard import choose_hard

        return choose_hard(view, legal, rng, budget).action
    best = best_play_action(view)
    if best is None:
        return _fallback(legal)
    return best


choose_action = computer_player(decide, DEFAULT_BUDGET)
