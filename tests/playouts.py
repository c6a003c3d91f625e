"""Random games for tests that want states from every moment of a game (rendering, payloads,
alt texts): one loop, so every such test plays the same way and the same seed gives the same
game in every process."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any


def random_states(game: Any, state: Any, rng: random.Random, moves: int) -> Iterator[Any]:
    """``state``, then the state after each move of a random game from it: each move by a seat
    drawn among those with a legal action, in seat-id order (``to_act`` is a set, whose order
    changes with each process's string hashing), playing one of its legal actions drawn at
    random; until the game ends, nobody can act, or ``moves`` moves were made."""
    yield state
    for _ in range(moves):
        movers = sorted(s for s in game.to_act(state) if game.legal_actions(state, s))
        if game.outcome(state) is not None or not movers:
            return
        seat = rng.choice(movers)
        state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        yield state


def played(game: Any, state: Any, rng: random.Random, moves: int) -> Any:
    """The last state of ``random_states``."""
    *_, last = random_states(game, state, rng, moves)
    return last
