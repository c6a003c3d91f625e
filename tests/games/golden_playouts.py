"""Seeded playouts of every game digested move by move, to compare one engine with another.

``digests()`` plays each game's option sets x seeds with a seeded random choice among the legal
actions of every seat (a seat outside ``to_act`` now and then: call-outs, jump-ins) and returns
per playout its length and a SHA-256 over each step's action text, events and stored JSON: two
engines agree on a playout only if they agree on every move, event and stored state along it.

``golden_playouts.json`` holds the digests of ``main`` @ 32a74a5 (before the copy-on-write
working copies, Chúpate 2's slotted state and the bulk shuffle), regenerated once by issue 26
when the stored shapes changed by design: the common moves' texts (``d``/``x`` ->
``draw``/``pass``, ``ce``/``uno`` -> ``announce``, ``call.N`` -> ``catch.N``) and ``current`` ->
``turn`` in the stored states. Every playout kept its length; the 12 without such a move or
field (Triple Triad's six, six of Amapatolli's) kept their digests; and
``bench/old_shape_replay.py`` replayed every playout of the old engines here with equal events
and states at every step (``tests/games/test_old_shapes.py`` keeps some). Regenerated once
more by issue 26 (session 11) when every game got the one event log (``games.core.eventlog``:
``log_versions`` in Amapatolli's, Maquiavelo's and Macarena's stored states, a log in Triple
Triad's): all 57 playouts kept their length, Chúpate 2's 24 (whose log already had that form)
kept their digests, and ``bench/old_shape_replay.py --before <main @ 55d6706>`` replayed all
57, 51,787 steps, with equal events and states. Regenerated a third time by issue 26 (session
12) when the five games took one event code per shared event (``play``/``placed`` ->
``played``, ``draw`` -> ``drew``, ``ce``/``last_card_called`` -> ``announced``, ``callout`` ->
``caught``, ...: docs/architecture.md "Events"): all 57 playouts kept their length (51,787
steps), Maquiavelo's 12 (no renamed event in them) kept their digests, and
``bench/old_shape_replay.py --before <main @ 81bcd3a>`` replayed all 57 with the same actions,
equal events under today's codes and equal states. Regenerate it only when the rules or the
stored shapes change on purpose:

    PYTHONPATH=<checkout> python tests/games/golden_playouts.py > tests/games/golden_playouts.json

(this file imports nothing of ``tests``, so it runs against any checkout's ``games``).
"""

from __future__ import annotations

import hashlib
import json
import random
from importlib import import_module
from typing import Any

# Per game: (players, options) of each playout family; Chúpate 2 with its house rules too.
OPTION_SETS: dict[str, list[tuple[int, dict[str, Any] | None]]] = {
    "amapatolli": [(4, None), (4, {"powers": True})],
    "chupate2": [
        (4, None),
        (3, {"stack_plus4": True, "last_card": True}),
        (4, {"jump_in": True, "seven_o": True, "draw_until_playable": True, "last_card": True}),
        (4, {"points": "150", "teams": "pairs", "stack_plus4": True}),
    ],
    "macarena": [(4, None)],
    "maquiavelo": [(4, None), (4, {"ayuda": True})],
    "triad": [(2, None)],
}
SEEDS = {"amapatolli": 6, "chupate2": 6, "macarena": 3, "maquiavelo": 6, "triad": 6}
MAX_STEPS = 4000
OUT_OF_TURN = 0.2


def playout(key: str, players: int, options: dict[str, Any] | None, seed: int) -> list[Any]:
    game = import_module(f"games.{key}").GAME
    seats = [f"s{i}" for i in range(players)]
    state = game.new(seats, f"golden-{key}-{seed}", options)
    rng = random.Random(seed)
    digest = hashlib.sha256(game.dump_state(state).encode())
    steps = 0
    while not game.is_over(state) and steps < MAX_STEPS:
        legal = {s: game.legal_actions(state, s) for s in seats}
        waiting = [s for s in seats if s in game.to_act(state) and legal[s]]
        others = [s for s in seats if s not in waiting and legal[s]]
        pool = others if others and (not waiting or rng.random() < OUT_OF_TURN) else waiting
        seat = rng.choice(pool)
        action = rng.choice(legal[seat])
        state, events = game.apply(state, seat, action)
        for part in (
            action.encode(),
            json.dumps([e.model_dump(mode="json") for e in events], sort_keys=True),
            game.dump_state(state),
        ):
            digest.update(part.encode())
        steps += 1
    return [steps, digest.hexdigest()]


def digests() -> dict[str, list[Any]]:
    return {
        f"{key}/{i}/{seed}": playout(key, players, options, seed)
        for key, sets in OPTION_SETS.items()
        for i, (players, options) in enumerate(sets)
        for seed in range(SEEDS[key])
    }


if __name__ == "__main__":
    print(json.dumps(digests(), indent=1, sort_keys=True))
