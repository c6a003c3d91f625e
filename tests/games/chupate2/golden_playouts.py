"""Seeded Chúpate 2 playouts digested move by move, to compare one engine with another.

``digests()`` plays ``PLAYOUTS`` (option sets x seeds) with a seeded random choice among every
seat's legal actions and returns, per playout, a SHA-256 over each step's action text, events
and stored JSON (``dump_state``): two engines agree on a playout only if they agree on every
move, every event and every stored state along it.

``golden_playouts.json`` holds the digests of the engine of ``main`` @ 32a74a5 (the pydantic
state, before the slotted one). Regenerate it only when the rules change on purpose:

    PYTHONPATH=<checkout> python tests/games/chupate2/golden_playouts.py > golden_playouts.json

(this file imports nothing of ``tests``, so it runs against any checkout's ``games``).
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

from games.chupate2 import GAME

OPTION_SETS: dict[str, dict[str, Any]] = {
    "plain": {},
    "stack_last": {"stack_plus4": True, "last_card": True},
    "house": {"jump_in": True, "seven_o": True, "draw_until_playable": True, "last_card": True},
    "points_pairs": {"points": "150", "teams": "pairs", "stack_plus4": True},
}
SEATS = {"plain": 4, "stack_last": 3, "house": 4, "points_pairs": 4}
SEEDS = range(6)
MAX_STEPS = 4000
OUT_OF_TURN = 0.15  # share of steps where a seat outside ``to_act`` acts, when one can


def playout(options_key: str, seed: int) -> str:
    seats = [f"s{i}" for i in range(SEATS[options_key])]
    state = GAME.new(seats, f"golden-{options_key}-{seed}", OPTION_SETS[options_key])
    rng = random.Random(seed)
    digest = hashlib.sha256(GAME.dump_state(state).encode())
    for _ in range(MAX_STEPS):
        if GAME.is_over(state):
            break
        legal = {s: GAME.legal_actions(state, s) for s in seats}
        waiting = [s for s in seats if s in GAME.to_act(state) and legal[s]]
        others = [s for s in seats if s not in waiting and legal[s]]
        seat = rng.choice(others if others and rng.random() < OUT_OF_TURN else waiting)
        action = rng.choice(legal[seat])
        state, events = GAME.apply(state, seat, action)
        for part in (
            action.encode(),
            json.dumps([e.model_dump(mode="json") for e in events], sort_keys=True),
            GAME.dump_state(state),
        ):
            digest.update(part.encode())
    return digest.hexdigest()


def digests() -> dict[str, str]:
    return {f"{key}/{seed}": playout(key, seed) for key in OPTION_SETS for seed in SEEDS}


if __name__ == "__main__":
    print(json.dumps(digests(), indent=1, sort_keys=True))
