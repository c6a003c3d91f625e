"""A render worker's "unpickle" stage per image (its CPU to read a job: the drawn part rebuilt
from its JSON, ``bot.ui.rendering.view_from_json``), as the bot's render pool meters it
(``bot.pipe_workers.CPU_METRIC``), in real pipe workers drawing real images between two jobs
(their caches as cold as a live worker's): two one-worker pools side by side, one rebuilding
parts by their ``trusted_json.Decoder`` (this tree's way), one validating them
(``view_validated_from_json``, the way before), each image sent to both, which goes first
alternating (a machine's drift hits both alike). The images are the load's mix: each game's
tables (as ``bench/render_instructions.py`` picks them) in ``LOAD_SHARES`` and its hands.

    .venv/bin/python bench/worker_rebuild.py [--images 48] [--rounds 3]

Prints per way the first round's stage per image (fresh workers: per-process models and
decoders built at their first image) and the later rounds' (median of rounds), mean and p90,
and the draw's ("run") for scale, and the read stage's (the job read from the pipe by a worker
woken for it). Figures only (CPU time of the workers); nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

WAYS = ("decoder", "validated")


def validating() -> None:
    """A worker's initializer: its drawn parts validated (the way before the decoders)."""
    from bot.ui import rendering

    rendering._decoder = lambda model, inputs: None  # type: ignore[assignment]


def requests(images: int) -> list[Any]:
    """Each game's table images in the load's shares and as many hand images, interleaved."""
    from render_instructions import _hand_requests, _table_requests
    from render_interleaved import LOAD_SHARES

    top = max(LOAD_SHARES.values())
    per_game = []
    for key, share in LOAD_SHARES.items():
        count = max(2, round(images * share / top))
        per_game.append(_table_requests(key, count) + _hand_requests(key, count // 2))
    out = []
    while any(per_game):
        for queue in per_game:
            if queue:
                out.append(queue.pop(0))
    return out


async def measure(images: int, rounds: int) -> dict[str, list[list[tuple[float, float, float]]]]:
    """Per way, per round, each image's (unpickle, run, read) CPU in ms."""
    import dataclasses

    from bot import metrics
    from bot.pipe_workers import CPU_METRIC, PipeWorkers
    from bot.ui.alt_text import render_described
    from bot.ui.rendering import Renderer
    from bot.workers import RENDER_POOL

    wanted = requests(images)
    pools = {
        "decoder": PipeWorkers(1, name=RENDER_POOL),
        "validated": PipeWorkers(1, initializer=validating, name=RENDER_POOL),
    }
    for pool in pools.values():
        pool.start()
    unpickle = metrics.histograms[CPU_METRIC + "unpickle"]
    run = metrics.histograms[CPU_METRIC + "run"]
    read = metrics.histograms[CPU_METRIC + "read"]
    out: dict[str, list[list[tuple[float, float, float]]]] = {way: [] for way in WAYS}
    try:
        for n in range(rounds):
            renderers = {way: Renderer(pool, job=render_described) for way, pool in pools.items()}
            for way in WAYS:
                out[way].append([])
            for i, request in enumerate(wanted):
                order = WAYS if (i + n) % 2 == 0 else WAYS[::-1]
                for way in order:
                    before = unpickle.total, run.total, read.total
                    fresh = dataclasses.replace(request)  # (each renderer its own request)
                    await renderers[way].render(fresh, place=("table", i))
                    out[way][-1].append(
                        (
                            unpickle.total - before[0],
                            run.total - before[1],
                            read.total - before[2],
                        )
                    )
    finally:
        for pool in pools.values():
            pool.shutdown()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--images", type=int, default=48, help="Triple Triad's table images")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    figures = asyncio.run(measure(args.images, args.rounds))
    count = len(figures[WAYS[0]][0])
    print(f"{count} images a round (the load's mix), {args.rounds} rounds, one worker per way")
    print(
        "| way | first round: unpickle ms/image | later: unpickle mean | later: p90 | run ms"
        " | later: read mean ms |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for way in WAYS:
        first = figures[way][0]
        later = figures[way][1:] or figures[way]
        means = [statistics.fmean(u for u, _, _ in r) for r in later]
        p90s = [statistics.quantiles([u for u, _, _ in r], n=10)[-1] for r in later]
        runs = [statistics.fmean(d for _, d, _ in r) for r in later]
        reads = [statistics.fmean(g for _, _, g in r) for r in later]
        print(
            f"| {way} | {statistics.fmean(u for u, _, _ in first):.3f}"
            f" | {statistics.median(means):.3f} | {statistics.median(p90s):.3f}"
            f" | {statistics.median(runs):.2f} | {statistics.median(reads):.3f} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
