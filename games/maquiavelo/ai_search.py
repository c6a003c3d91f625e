"""Hard computer: determinized Monte-Carlo search (``games.core.search``) from the seat's view.

The choices searched are what the seat can do this turn: ``normal``'s best play (most cards,
then value, from the exact solver), the same play holding back one card that still fits the new
table (a reserve for the next turn), and drawing (or passing) instead. ``determinize`` deals the
cards the seat has not seen (both decks minus its hand, the table and the helpers) at random into
the other hands and the stock, in the counts the view shows. Rollouts are played by the ``normal``
computer of every seat for two more turns, the reply and our next one (each turn costs an exact solve); a
finished game scores 1 for a win (a share of first place: its fraction), a rollout stopped at the
horizon scores by hand sizes and values. The best play stays unless another choice beats it by
``CONFIDENCE`` standard errors over at least ``OVERRIDE_ROUNDS`` worlds (a few two-turn rollouts
are noise, and a noisy override gives a card away).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from games.core.engine import Seat
from games.core.search import Budget, determinized_search, engine_step, view_policy
from games.maquiavelo import solver
from games.maquiavelo.actions import AnyAction, Play
from games.maquiavelo.cards import NUM_CARDS, hand_value, sort_key
from games.maquiavelo.state import MaquiaveloState
from games.maquiavelo.view import MaquiaveloView

if TYPE_CHECKING:
    from games.maquiavelo.game import MaquiaveloGame

HORIZON = 2  # moves (turns) per rollout after the root choice: the reply and our next turn
RESERVE_VARIANTS = 3  # at most this many "hold one card back" variants of the best play
CONFIDENCE = 2.0  # standard errors by which the search must beat the best play
OVERRIDE_ROUNDS = 8  # ... and only after this many sampled worlds (fewer are noise)


def determinize(view: MaquiaveloView, rng: random.Random) -> MaquiaveloState:
    """A full state agreeing with ``view``; the unseen cards shuffled into the hidden places."""
    me = view.seat
    assert me is not None and view.hand is not None, "a world is sampled for a seat"
    seats = list(view.seats)
    table = [[c.id for c in m.cards] for m in view.table]
    helpers = [c.id for c in view.helpers]
    own = [c.id for c in view.hand]
    seen = set(own) | set(helpers) | {c for m in table for c in m}
    pool = [c for c in range(NUM_CARDS) if c not in seen]
    rng.shuffle(pool)
    hands: dict[str, list[int]] = {}
    for s in seats:
        if s == me:
            hands[s] = list(own)
        else:
            n = view.hand_counts[s]
            hands[s] = sorted(pool[:n], key=sort_key)
            pool = pool[n:]
    current = seats.index(view.turn) if view.turn in seats else 0
    return MaquiaveloState(
        seed=f"world{rng.random()}",
        seats=seats,
        options=view.options,
        dealer=seats.index(view.dealer) if view.dealer in seats else 0,
        turn=current,
        hands=hands,
        stock=pool[: view.stock_count],
        helpers=helpers,
        table=table,
        passes=view.passes,
        finished=view.finished,
        winners=list(view.winners),
        last_play=list(view.last_play),
    )


def candidates(view: MaquiaveloView, best: Play, fallback: AnyAction) -> list[AnyAction]:
    """The best play, the best play holding back one card (a few), and ``fallback`` (draw)."""
    hand_ids = {c.id for c in view.hand or []}
    played_hand = [c for c in best.cards if c in hand_ids]
    out: list[AnyAction] = [best]
    if len(played_hand) > 1 and len(played_hand) < len(hand_ids):
        table = [c.id % 52 for m in view.table for c in m.cards]
        helpers = [c % 52 for c in best.cards if c not in hand_ids]
        faces_done: set[int] = set()
        for held in sorted(played_hand, key=lambda c: (-(c % 13), c)):  # high cards first
            if held % 52 in faces_done:
                continue
            faces_done.add(held % 52)
            rest = [c % 52 for c in played_hand if c != held]
            if solver.is_partitionable(table + rest, helpers):
                out.append(Play(cards=tuple(c for c in best.cards if c != held)))
                if len(out) > RESERVE_VARIANTS:
                    break
    if len(played_hand) < len(hand_ids):  # going out is never worse than drawing
        out.append(fallback)
    return out


class MaquiaveloSearch:
    """The game as the search sees it (``games.core.search.Searchable``)."""

    def __init__(self, engine: MaquiaveloGame) -> None:
        self.engine = engine
        self.policy = view_policy(engine, "normal")

    def determinize(self, view: Any, rng: random.Random) -> MaquiaveloState:
        return determinize(view, rng)

    def done(self, state: MaquiaveloState) -> bool:
        return state.finished

    def step(self, state: MaquiaveloState, rng: random.Random) -> MaquiaveloState:
        out: MaquiaveloState = engine_step(self.engine, state, rng, self.policy, False)
        return out

    def play(self, state: MaquiaveloState, seat: Seat, action: AnyAction) -> MaquiaveloState:
        return self.engine.apply(state, seat, action)[0]

    def value(self, state: MaquiaveloState, seat: Seat, finished: bool) -> float:
        if finished:
            return (1.0 / len(state.winners)) if seat in state.winners else 0.0
        mine = len(state.hands[seat])
        others = [s for s in state.seats if s != seat]
        fewest = min(len(state.hands[s]) for s in others)
        points = hand_value(state.hands[seat]) - min(hand_value(state.hands[s]) for s in others)
        edge = (fewest - mine) - points / 40.0
        return 0.5 + 0.05 * max(-9.0, min(9.0, edge))


def choose_hard(
    view: MaquiaveloView, best: Play, fallback: AnyAction, rng: random.Random, budget: Budget
) -> AnyAction:
    """The search's choice; the best play (``normal``'s, candidate 0) unless clearly worse."""
    from games.maquiavelo import GAME

    assert view.seat is not None
    options = candidates(view, best, fallback)
    result = determinized_search(
        MaquiaveloSearch(GAME),
        view,
        view.seat,
        options,
        rng,
        budget,
        HORIZON,
        default=0,
        confidence=CONFIDENCE,
        override_rounds=OVERRIDE_ROUNDS,
    )
    return result.choice
