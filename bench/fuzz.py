"""Fuzz, the long run (issue 27): the real bot on the fake Discord takes ``--inputs``
interactions (half slash commands with options drawn from their synced schema, half clicks on
every custom_id family with forged parts; ``tests/e2e/fuzz_kit.py``) and must answer every one
without logging a traceback. Prints the counts.

    nice -n 10 .venv/bin/python bench/fuzz.py                   # 10,000 inputs
    nice -n 10 .venv/bin/python bench/fuzz.py --inputs 2000 --seed 7
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, given, seed, settings  # noqa: E402

from tests.e2e.fuzz_kit import LiveBot, custom_ids, slash_inputs  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    half = max(1, args.inputs // 2)
    run = settings(
        max_examples=half,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    bot = LiveBot(Path(tempfile.mkdtemp(prefix="mesa-fuzz-")))
    started = time.monotonic()
    bot.start()
    try:

        @seed(args.seed)
        @run
        @given(slash_inputs(bot))
        def slash(given_input):
            bot.slash(*given_input)

        @seed(args.seed)
        @run
        @given(custom_ids(bot))
        def clicks(given_input):
            bot.click(*given_input)

        slash()
        print(f"[fuzz {time.monotonic() - started:.0f} s] slash commands done", file=sys.stderr)
        clicks()
        violations = bot.settle()
    finally:
        bot.stop()
    stats = bot.stats
    counts = {
        "inputs_sent": stats.sent,
        "answered": stats.answered,
        "unanswered": len(stats.unanswered),
        "not_sendable": stats.refused_by_fake,
        "tracebacks": len(bot.tracebacks.records),
        "fake_violations": len(violations),
        "seconds": round(time.monotonic() - started, 1),
    }
    print(json.dumps(counts))
    print(
        f"{stats.sent} inputs sent ({stats.refused_by_fake} more drawn that Discord would not"
        f" send), {stats.answered} answered, {len(stats.unanswered)} unanswered,"
        f" {len(bot.tracebacks.records)} tracebacks/errors logged, {len(violations)} violations"
        " (goal: >= 10,000 inputs, 0 unanswered, 0 tracebacks)"
    )
    for line in (stats.unanswered + violations)[:20]:
        print("  ", line)
    for record in bot.tracebacks.records[:20]:
        print("  ", record.name, record.getMessage())


if __name__ == "__main__":
    main()
