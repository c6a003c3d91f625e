"""A render's whole round trip as the bot makes it, CPU only: the loop thread's CPU per image
(the request's digest, the job's pickling and pipe write, the reply's read and unpickling, the
future) and the render workers' CPU per image by stage (``bot.pipe_workers.STAGES``, as each
worker reports it), through the bot's own ``Renderer`` on a ``PipeWorkers`` pool.

The images are the load's: many tables of the five games playing at once in the load's shares
(``bench.render_interleaved.LOAD_SHARES``), each table's players named as ``bench/load.py``
names them, a table's image sent only when its drawn inputs changed, each table's images to one
worker (the pool's affinity, as the bot asks). ``--rounds`` passes over the same images, each in
fresh worker processes warmed up first on as many images of other tables; the figures are the mean and the best round (CPU time: a loaded machine
slows them less than wall time, but a busy core's caches still cost a little).

    .venv/bin/python bench/render_roundtrip.py [--images 600] [--rounds 3] [--tree PATH]

``--tree`` runs another checkout's bot code (a before/after on the same images: run the two
back to back). Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--images", type=int, default=600, help="images per round (600)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--in-flight", type=int, default=4, help="renders asked at once (4)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--tree", type=Path, default=ROOT, help="the bot code to run")
    return parser.parse_args()


ARGS = _parse() if __name__ == "__main__" else None
sys.path.insert(0, str((ARGS.tree if ARGS else ROOT).resolve()))
if ARGS is not None and ARGS.tree.resolve() != ROOT:
    sys.path.insert(1, str(ROOT))  # this tree's benches (the load's tables), the other's bot

import asyncio  # noqa: E402
import dataclasses  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from typing import Any  # noqa: E402

from bench.render_interleaved import LOAD_SHARES, interleaved_tables, load_names  # noqa: E402
from bot import metrics  # noqa: E402
from bot.pipe_workers import CPU_METRIC, STAGES, PipeWorkers  # noqa: E402
from bot.ui.rendering import ImageRequest, Renderer, image_inputs  # noqa: E402


def load_requests(images: int, tables: int, seed: int = 1) -> list[tuple[int, ImageRequest]]:
    """(table, request) of the load's mix, a table's request only when its image changed."""
    total = sum(LOAD_SHARES.values())
    out: list[tuple[int, ImageRequest]] = []
    for index, key in enumerate(LOAD_SHARES):
        share = round(images * 1.6 * LOAD_SHARES[key] / total)
        inputs = image_inputs(key, "render_table")
        last: dict[int, str] = {}
        for table, view in interleaved_tables(key, tables, share, seed):
            names = load_names(key, table, list(view.seats))
            request = ImageRequest(key, "render_table", view, "es", names, "t.png", inputs=inputs)
            if last.get(table) == request.digest:
                continue
            last[table] = request.digest
            out.append((index * tables + table, request))
    random.Random(seed).shuffle(out)  # the games interleaved, the same way every run
    return out[:images]


async def one_round(
    requests: list[tuple[int, ImageRequest]], warm_up: list[ImageRequest], args: Any
) -> dict[str, float]:
    pool = PipeWorkers(args.workers, name="mesa-render")
    renderer = Renderer(pool)
    pool.start()
    try:
        # The workers' imports and per-process caches (fixed layers, sprites, fonts) warmed
        # on other tables' images, as a long-lived worker's are
        await asyncio.gather(*(renderer.render(dataclasses.replace(r)) for r in warm_up))
        metrics.histograms.clear()
        free = asyncio.Semaphore(args.in_flight)

        async def render(table: int, request: ImageRequest) -> int:
            async with free:
                fresh = dataclasses.replace(request)  # built per payload: its digest too
                image = await renderer.render(fresh, place=("table", table))
                return len(image or b"")

        start = time.thread_time()
        sizes = await asyncio.gather(*(render(t, r) for t, r in requests))
        loop_ms = (time.thread_time() - start) * 1000
    finally:
        pool.shutdown()
    n = len(requests)
    stages = {s: metrics.histograms[CPU_METRIC + s].total / n for s in STAGES}
    out = {"loop": loop_ms / n, **stages}
    out["worker"] = sum(stages.values())
    out["kib"] = sum(sizes) / n / 1024
    return out


async def main(args: Any) -> None:
    requests = load_requests(args.images, args.tables)
    warm_up = [r for _, r in load_requests(args.images, args.tables, seed=2)]
    rounds = [await one_round(requests, warm_up, args) for _ in range(args.rounds)]
    print(
        f"{args.tree}: {len(requests)} images x {args.rounds} rounds, {args.workers} workers,"
        f" {args.in_flight} in flight; CPU ms per image, mean (best) over rounds"
    )
    for key in ("loop", *STAGES, "worker", "kib"):
        values = [r[key] for r in rounds]
        print(f"  {key:9} {statistics.mean(values):7.3f} ({min(values):.3f})")


if __name__ == "__main__":
    asyncio.run(main(ARGS))
