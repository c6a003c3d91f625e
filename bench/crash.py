"""Crash soak, the long run: the real bot process against the fake Discord and simulated
players, killed with SIGKILL 30+ times at random points (after an acknowledgement, at a game
end, at a Triple Triad payout, at random) and restarted each time; then a graceful SIGTERM.
Prints the counts (all should be 0 but kills and the figures) next to what main measured,
and the processes of the killed bots still alive 3 s after each kill (the bot runs with worker
pools, ``--workers`` search and ``--renders`` render processes, as in production).

    nice -n 10 .venv/bin/python bench/crash.py                 # 40 tables, 30 kills
    nice -n 10 .venv/bin/python bench/crash.py --tables 60 --kills 40 --seed 3
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.crash_soak import KILL_CYCLE, soak  # noqa: E402

# Besides the default points, right at a lobby's Start, at "Revancha" and at a Triple Triad
# payout pick (the players press "Revancha" after their games: --no-rematch opens new tables).
CYCLE = (*KILL_CYCLE, "start", "rematch", "rematch_lobby", "payout_pick")

# What issue 16 measured on main (59 kills under load).
MAIN = {
    "acknowledged_clicks_lost": 8,
    "interactions_unanswered": 274,
    "tables_behind": 22,
    "replay_mismatches": 0,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--kills", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2, help="search processes (0: a thread)")
    parser.add_argument("--renders", type=int, default=1, help="render processes (0: a thread)")
    parser.add_argument("--no-rematch", action="store_true", help="new tables with /play")
    parser.add_argument("--keep-dir", type=Path)
    args = parser.parse_args()
    folder = args.keep_dir or Path(tempfile.mkdtemp(prefix="mesa-crash-"))
    folder.mkdir(parents=True, exist_ok=True)
    start = time.monotonic()

    def progress(text: str) -> None:
        print(f"[crash {time.monotonic() - start:6.1f} s] {text}", file=sys.stderr, flush=True)

    result = asyncio.run(
        soak(
            folder,
            tables=args.tables,
            kills=args.kills,
            seed=args.seed,
            progress=progress,
            workers=args.workers,
            renders=args.renders,
            rematch=not args.no_rematch,
            cycle=CYCLE,
        )
    )
    counts = result.counts()
    counts["seconds"] = round(time.monotonic() - start, 1)
    print(json.dumps(counts))
    print(f"{'count':28} {'this branch':>12} {'main (59 kills)':>16}")
    for key, before in MAIN.items():
        print(f"{key:28} {counts[key]:>12} {before:>16}")
    print(f"{'kills':28} {result.kills:>12} {59:>16}")
    print(f"{'other interactions thinking':28} {result.commands_left_thinking:>12} {'-':>16}")
    print(f"{'open tables with no message':28} {result.tables_unshown:>12} {'-':>16}")
    print(f"{'shutdown (SIGTERM) s':28} {result.shutdown_seconds:>12.2f} {'killed at 10':>16}")
    after = counts["catch_up_after_connect_s"]
    spawn = counts["catch_up_after_spawn_s"]
    print(
        f"tables behind at a kill: {counts['behind_at_kill']}, never caught up:"
        f" {counts['never_caught_up']}; shown again after the restarted bot connected:"
        f" p50 {after.get('p50', '-')} s, max {after.get('max', '-')} s (after its process"
        f" started: p50 {spawn.get('p50', '-')} s, max {spawn.get('max', '-')} s;"
        " main: p50 6-11 s, up to 22 s, only on a player's click)"
    )
    gone = counts["children_gone_s"]
    print(
        f"orphans: {result.orphans} processes of the killed bots alive 3 s after their kill"
        f" ({counts['orphan_megabytes']} MB) of {result.children_at_kill} they had when killed"
        f" ({args.workers} search + {args.renders} render workers per bot); all gone after"
        f" p50 {gone.get('p50', '-')} s, max {gone.get('max', '-')} s"
        " (main: 94 workers, 5.2 GB after 25 kills)"
    )
    for line in result.details[:40]:
        print("  ", line)


if __name__ == "__main__":
    main()
