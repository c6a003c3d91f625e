"""Triple Triad's compiled search (``games/triad/kernel.py``): its speed on exact first moves.

Solves the first move of ``--deals`` random deals (``bench/triad_ai.py``'s) under each of its
``FIRST_RULES`` without a budget, and prints one JSON line: CPU seconds, nodes, M nodes per CPU
second, and a digest of every solve's (value, nodes, move). A change of the kernel that keeps
the search keeps the nodes and the digest; its speed is the rate. To compare two trees, run it
in each (a ``git worktree`` of the old commit), interleaved, with its own ``NUMBA_CACHE_DIR``
so neither recompiles the other's kernel:

    NUMBA_CACHE_DIR=/tmp/nb-new nice -n 10 .venv/bin/python bench/triad_kernel.py [--deals 12]

The compile (``compiled.warm_up``) happens before the clock starts.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.triad_ai import FIRST_RULES, SEATS, deal, unbounded  # noqa: E402
from games.triad import (  # noqa: E402
    GAME,
    compiled,
    search,
)
from games.triad import ai as triad_ai  # noqa: E402
from tests.games.triad.randomgames import rule_sets  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=12)
    args = parser.parse_args()
    compiled.warm_up()
    cpu = 0.0
    nodes = 0
    digest = hashlib.sha256()
    for name in FIRST_RULES:
        for n in range(args.deals):
            state, _ = deal(n, rule_sets()[name])
            problem = triad_ai.problem_from_view(GAME.view(state, SEATS[state.turn]))
            start = time.process_time()
            result = compiled.CompiledSolver(problem).solve(unbounded(search))
            cpu += time.process_time() - start
            nodes += result.nodes
            digest.update(repr((result.value, result.nodes, tuple(result.move))).encode())
    rate = nodes / cpu / 1e6
    print(
        json.dumps(
            {"cpu_s": round(cpu, 3), "nodes": nodes, "Mnodes_per_cpu_s": round(rate, 3)}
            | {"digest": digest.hexdigest()[:16]}
        )
    )


if __name__ == "__main__":
    main()
