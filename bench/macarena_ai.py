"""Macarena benchmarks: engine speed and computer-player strength (printed, never asserted).

    .venv/bin/python bench/macarena_ai.py [games]

Prints one JSON object per line: apply/legal/view throughput over random playouts, and the
share of games won by each level in head-to-head matches (seats rotate between games).
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections import Counter

from games.macarena import GAME


def playout(levels: list[str], seed: str) -> tuple[list[str], int, int]:
    seats = [f"s{i}" for i in range(len(levels))]
    level = dict(zip(seats, levels, strict=True))
    state = GAME.new(seats, seed)
    rng = random.Random(seed)
    steps = 0
    while GAME.outcome(state) is None:
        seat = sorted(GAME.to_act(state))[0]
        legal = GAME.legal_actions(state, seat)
        action = GAME.choose_action(GAME.view(state, seat), legal, level[seat], rng)
        state, _ = GAME.apply(state, seat, action)
        steps += 1
    winners = GAME.outcome(state).winners
    return [level[s] for s in winners], steps, state.hand_number


def speed(games: int) -> dict:
    steps = 0
    hands = 0
    t0 = time.perf_counter()
    for g in range(games):
        _, s, h = playout(["easy", "easy", "easy"], f"speed{g}")
        steps += s
        hands += h
    elapsed = time.perf_counter() - t0
    return {
        "bench": "macarena_playout_easy3",
        "games": games,
        "hands": hands,
        "steps": steps,
        "seconds": round(elapsed, 3),
        "steps_per_s": round(steps / elapsed),
        "ms_per_step_incl_view_ai": round(1000 * elapsed / steps, 4),
    }


def decision_times(games: int) -> dict:
    """Mean and worst milliseconds per computer decision, by level (2-player games)."""
    times: dict[str, list[float]] = {"easy": [], "normal": [], "hard": []}
    for g in range(games):
        seats = ["s0", "s1"]
        state = GAME.new(seats, f"timing{g}")
        rng = random.Random(g)
        while GAME.outcome(state) is None:
            seat = sorted(GAME.to_act(state))[0]
            view, legal = GAME.view(state, seat), GAME.legal_actions(state, seat)
            for level in times:
                t0 = time.perf_counter()
                GAME.choose_action(view, legal, level, random.Random(rng.random()))
                times[level].append(1000 * (time.perf_counter() - t0))
            action = GAME.choose_action(view, legal, "normal", rng)
            state, _ = GAME.apply(state, seat, action)
    return {
        "bench": "macarena_decision_ms",
        "games": games,
        **{
            level: {"mean": round(sum(v) / len(v), 3), "max": round(max(v), 1)}
            for level, v in times.items()
        },
    }


def match(a: str, b: str, games: int, players: int = 2) -> dict:
    wins: Counter = Counter()
    for g in range(games):
        levels = [a if (i + g) % 2 == 0 else b for i in range(players)]
        winners, _, _ = playout(levels, f"match-{a}-{b}-{players}-{g}")
        for w in set(winners):
            wins[w] += 1 / len(winners)
    return {
        "bench": f"macarena_{a}_vs_{b}_{players}p",
        "games": games,
        "win_share": {k: round(v / games, 3) for k, v in wins.items()},
    }


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    print(json.dumps(speed(max(5, games // 6))))
    print(json.dumps(decision_times(max(3, games // 20))))
    for a, b in (("normal", "easy"), ("hard", "normal"), ("hard", "easy")):
        print(json.dumps(match(a, b, games)))
    print(json.dumps(match("hard", "normal", games, players=4)))


if __name__ == "__main__":
    main()
