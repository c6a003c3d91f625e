"""Hard computer near the end of a hand: determinized Monte-Carlo search (``games.core.search``).

The worlds are ``ai_rollout.sample_world`` (the unseen cards — the other hands and the stock —
dealt at random; the pozos' piles and the others' collections are known from the plays, all
made face up; from the seat's view only); rollouts are played by ``ai_rollout.greedy_action``
to the end of the hand (or a horizon, then the hand is scored as if it ended there) and scored
by what the engine awards (``ai_rollout.hand_score``: elements 1, coins ¼, relative to the
others), mapped to [0, 1]; LA MACARENA (the game) is 1 or 0, and so (``game_value``, hard's
setting) is a hand whose end reaches the objective: what decides a game is its last hand, where
a linear count of tokens misses that one more element wins (or loses) everything. UCB spends
the rollouts on the candidates that look best, and the n-th rollout of every candidate plays
the same world (common random numbers).
"""

from __future__ import annotations

import random
from typing import Any

from games.core.engine import Seat
from games.core.search import Budget, determinized_search
from games.macarena.actions import MacarenaAction
from games.macarena.ai_rollout import (
    Engine,
    forced_end,
    forced_end_score,
    game_result,
    greedy_action,
    hand_score,
    sample_world,
)
from games.macarena.state import MacarenaState
from games.macarena.view import MacarenaView

SCORE_SCALE = 0.1  # one element won (relative to the others) is worth this much of [0, 1]


def determinize(view: MacarenaView, rng: random.Random) -> MacarenaState:
    return sample_world(view, rng)


def _unit(score: float) -> float:
    return max(0.0, min(1.0, 0.5 + SCORE_SCALE * score))


class MacarenaSearch:
    """The rest of the current hand as the search sees it (``games.core.search.Searchable``)."""

    def __init__(self, engine: Engine, hand_number: int, game_value: bool = False) -> None:
        self.engine = engine
        self.hand = hand_number
        self.game_value = game_value

    def determinize(self, view: Any, rng: random.Random) -> MacarenaState:
        return determinize(view, rng)

    def done(self, state: MacarenaState) -> bool:
        if state.macarena is not None or state.finished:
            return True
        if state.hand_number != self.hand:
            return True
        result = state.hand_result
        return result is not None and result.hand == self.hand and result.revealed

    def step(self, state: MacarenaState, rng: random.Random) -> MacarenaState:
        actor = sorted(self.engine.to_act(state))[0]
        return self.engine.apply(state, actor, greedy_action(self.engine, state, actor, rng))[0]

    def play(self, state: MacarenaState, seat: Seat, action: MacarenaAction) -> MacarenaState:
        return self.engine.apply(state, seat, action)[0]

    def value(self, state: MacarenaState, seat: Seat, finished: bool) -> float:
        if state.macarena is not None:
            return 1.0 if state.macarena == seat else 0.0
        if self.game_value:  # a hand that ends the game is scored by the game's result
            ended = state if finished else forced_end(state)
            result = game_result(ended, seat)
            return _unit(hand_score(ended, seat)) if result is None else result
        if finished:
            return _unit(hand_score(state, seat))
        return _unit(forced_end_score(state, seat))


def choose_hard(
    engine: Engine,
    view: MacarenaView,
    candidates: list[MacarenaAction],
    default: int,
    rng: random.Random,
    budget: Budget,
    horizon: int,
    game_value: bool = False,
) -> MacarenaAction:
    """The search's choice; ``candidates[default]`` (the heuristic's) unless clearly worse.
    ``game_value``: a rollout whose hand ends the game scores the game's result (won 1, lost
    0) instead of the hand's tokens (main's hard, which ``bench/ai_strength.py`` replays as
    "before", searches without it)."""
    assert view.seat is not None
    search = MacarenaSearch(engine, view.hand_number, game_value)
    result = determinized_search(search, view, view.seat, candidates, rng, budget, horizon, default)
    return result.choice
