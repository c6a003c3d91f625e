"""Triple Triad ``hard`` computer: time per move at each ply from the opening, and nodes/s.

Plays ``--deals`` random deals (random hands from the whole catalogue) with ``hard`` on both
sides at the default node budget, and prints per ply (0 = the opening move) the median and
worst time per move, the median nodes searched, and the share of moves searched exactly to the
end of the round; then the overall nodes per second. Three settings: open hands with the basic
rule, open hands with every flip rule (Igual, Pared, Suma, Cadena, Elemental), and hidden hands
(the computer determinises the unseen cards). The last line is machine-readable JSON.

    .venv/bin/python bench/triad_ai.py [--deals 12] [--seconds 2.0]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.triad import GAME  # noqa: E402
from games.triad.ai import NODES_PER_SECOND, choose_action, node_budget_for  # noqa: E402
from games.triad.cards import catalogue  # noqa: E402

SEATS = ["a", "b"]
SETTINGS = {
    "open_basic": {"open": True},
    "open_all_rules": {
        "open": True,
        "same": True,
        "same_wall": True,
        "plus": True,
        "combo": True,
        "elemental": True,
    },
    "hidden_basic": {},
}


def run(setting: str, deals: int, budget: int) -> dict:
    ids = [c.id for c in catalogue().cards]
    per_ply: dict[int, list[tuple[float, int, bool]]] = {p: [] for p in range(9)}
    for n in range(deals):
        rng = random.Random(n)
        hands = {s: rng.sample(ids, 5) for s in SEATS}
        state = GAME.new(SEATS, f"bench-{n}", SETTINGS[setting], hands=hands)
        ply = 0
        while state.phase == "play":
            seat = SEATS[state.turn]
            legal = GAME.legal_actions(state, seat)
            view = GAME.view(state, seat)
            stats: dict = {}
            t0 = time.perf_counter()
            action = choose_action(view, legal, "hard", rng, node_budget=budget, stats=stats)
            dt = time.perf_counter() - t0
            per_ply[ply].append((dt, stats["nodes"], stats["exact"]))
            state, _ = GAME.apply(state, seat, action)
            ply += 1
    rows = []
    total_nodes = sum(n for v in per_ply.values() for _, n, _ in v)
    total_time = sum(t for v in per_ply.values() for t, _, _ in v)
    for ply, samples in per_ply.items():
        times = [t for t, _, _ in samples]
        rows.append(
            {
                "ply": ply,
                "moves": len(samples),
                "median_s": round(statistics.median(times), 4),
                "worst_s": round(max(times), 4),
                "median_nodes": int(statistics.median(n for _, n, _ in samples)),
                "exact_share": round(sum(e for _, _, e in samples) / len(samples), 2),
            }
        )
    return {
        "setting": setting,
        "deals": deals,
        "budget": budget,
        "plies": rows,
        "nodes_per_second": int(total_nodes / total_time) if total_time else 0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--settings", default=",".join(SETTINGS))
    args = parser.parse_args()
    budget = node_budget_for(args.seconds)
    print(
        f"hard: node budget {budget} (= {args.seconds} s at the assumed {NODES_PER_SECOND} nodes/s)"
    )
    results = []
    for setting in args.settings.split(","):
        r = run(setting, args.deals, budget)
        results.append(r)
        print(f"\n{setting}: {args.deals} deals, {r['nodes_per_second']} nodes/s")
        print("ply  moves  median_s  worst_s  median_nodes  exact")
        for row in r["plies"]:
            print(
                f"{row['ply']:>3}  {row['moves']:>5}  {row['median_s']:>8.3f}  "
                f"{row['worst_s']:>7.3f}  {row['median_nodes']:>12}  {row['exact_share']:>5.2f}"
            )
    print(json.dumps({"bench": "triad_ai", "results": results}))


if __name__ == "__main__":
    main()
