"""Copy-on-write working copies never alias a container that a later move changes.

Every game's ``copy_state`` shares the containers a move leaves alone with the state before it
(the rules replace a container they change instead of mutating it). These playouts keep every
state they pass through, branch off some of them again, and check at the end that each kept
state still dumps to the JSON it had when it was made: a container changed in place by a later
move would show up here as a changed earlier state.
"""

from __future__ import annotations

import random
from importlib import import_module

import pytest

GAMES = {
    "amapatolli": [None, {"powers": True}],
    "chupate2": [None, {"last_card": True, "jump_in": True, "seven_o": True}],
    "macarena": [None],
    "maquiavelo": [None, {"ayuda": True}],
}


def _cases() -> list[tuple[str, dict | None]]:
    return [(key, options) for key, sets in GAMES.items() for options in sets]


def _step(game, state, rng: random.Random):
    """One seeded random move of a seat that may act (out of turn too, now and then)."""
    legal = {s: game.legal_actions(state, s) for s in state.seats}
    waiting = [s for s in state.seats if s in game.to_act(state) and legal[s]]
    others = [s for s in state.seats if s not in waiting and legal[s]]
    pool = others if others and (not waiting or rng.random() < 0.2) else waiting
    seat = rng.choice(pool)
    return game.apply(state, seat, rng.choice(legal[seat]))[0]


@pytest.mark.parametrize(("key", "options"), _cases())
def test_later_moves_never_change_earlier_states(key: str, options: dict | None):
    game = import_module(f"games.{key}").GAME
    for seed in range(2):
        rng = random.Random(seed)
        state = game.new(["a", "b", "c", "d"], f"cow-{key}-{seed}", options)
        states, dumps = [state], [game.dump_state(state)]
        while not game.is_over(state) and len(states) < 600:
            state = _step(game, state, rng)
            states.append(state)
            dumps.append(game.dump_state(state))
        for kept in states[:: max(1, len(states) // 12)]:
            branch = kept
            for _ in range(5):  # a short branch off an earlier state
                if game.is_over(branch):
                    break
                branch = _step(game, branch, rng)
        assert [game.dump_state(s) for s in states] == dumps
