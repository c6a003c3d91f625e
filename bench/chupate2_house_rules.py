"""Chúpate 2 house rules: game length and playout throughput per option set (4 players,
uniformly random plays preferred over draws, every out-of-turn option taken when offered).

Run: ``.venv/bin/python bench/chupate2_house_rules.py [games_per_set]``. Prints one JSON object
per option set; never asserts on timings.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.chupate2 import GAME

SEATS = ["p0", "p1", "p2", "p3"]
OPTION_SETS = [
    {},
    {"jump_in": True},
    {"seven_o": True},
    {"draw_until_playable": True},
    {"jump_in": True, "seven_o": True, "draw_until_playable": True, "last_card": True},
]


def playout(options: dict, seed: int) -> tuple[int, int, int]:
    """(actions, jump-ins, hand exchanges) of one random game."""
    rng = random.Random(seed)
    state = GAME.new(SEATS, f"bench-{seed}", options)
    steps = jumps = exchanges = 0
    while not GAME.is_over(state):
        (turn,) = GAME.to_act(state)
        others = [s for s in SEATS if s != turn and GAME.legal_actions(state, s)]
        seat = others[0] if others and rng.random() < 0.5 else turn
        legal = GAME.legal_actions(state, seat)
        plays = [a for a in legal if a.kind in ("play", "swap")]
        action = rng.choice(plays) if plays and rng.random() < 0.9 else rng.choice(legal)
        state, events = GAME.apply(state, seat, action)
        steps += 1
        jumps += sum(e.code == "jumped_in" for e in events)
        exchanges += sum(e.code in ("hands_swapped", "hands_passed") for e in events)
    return steps, jumps, exchanges


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    for options in OPTION_SETS:
        start = time.perf_counter()
        totals = [playout(options, seed) for seed in range(games)]
        wall = time.perf_counter() - start
        steps = sum(t[0] for t in totals)
        print(
            json.dumps(
                {
                    "bench": "chupate2/house_rules",
                    "options": options,
                    "games": games,
                    "mean_actions": round(steps / games, 1),
                    "jump_ins_per_game": round(sum(t[1] for t in totals) / games, 2),
                    "exchanges_per_game": round(sum(t[2] for t in totals) / games, 2),
                    "actions_per_s": round(steps / wall),
                    "games_per_s": round(games / wall, 1),
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
