"""Table and hand images: the event loop vs threads vs processes, and PNG encoder settings.

    python bench/render_pool.py [--images 240] [--workers N]

Plays a few random moves of every game to collect real views (public tables and hands), then
renders the same list of images:
  * inline on the event loop, one after another (what the bot did before issue 15);
  * on a thread pool of N threads (the GIL: Python drawing code still runs one at a time, and
    holds the loop up; only zlib's encoding runs beside it);
  * on a process pool of N processes (``bot.workers.Workers``, the search pool's kind);
  * on N processes fed through one pipe each (``bot.pipe_workers.PipeWorkers``, the render
    pool since issue 29: no manager or feeder thread in the bot);
and prints, for each, renders/s, the bot process's own CPU per render and the event-loop lag a
5 ms ticker sees meanwhile; then, for the images produced, the size and encoding time of each
PNG ``compress_level``. Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image

from bot.pipe_workers import PipeWorkers
from bot.registry import load_games
from bot.ui.images import fonts
from bot.ui.rendering import ImageRequest, _safe_render
from bot.workers import Workers


def sample_requests(count: int) -> list[ImageRequest]:
    """``count`` image requests from random games (public tables and every seat's hand)."""
    rng = random.Random(15)
    games = load_games()
    out: list[ImageRequest] = []
    while len(out) < count:
        for key, game in sorted(games.items()):
            seats = [str(100 + i) for i in range(max(game.min_players, 2))]
            state = game.new(seats, f"bench-{len(out)}", None)
            for _ in range(rng.randint(0, 12)):
                if game.outcome(state) is not None:
                    break
                movers = [s for s in game.to_act(state) if game.legal_actions(state, s)]
                if not movers:
                    break
                seat = rng.choice(movers)
                state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
            names = {s: f"player{s}" for s in seats}
            out.append(
                ImageRequest(key, "render_table", game.view(state, None), "es", names, "t.png")
            )
            for seat in seats:
                out.append(
                    ImageRequest(key, "render_hand", game.view(state, seat), "es", None, "h.png")
                )
    return out[:count]


async def _ticker(lags: list[float], stop: asyncio.Event) -> None:
    """What the event loop feels: how late a 5 ms sleep wakes up, over and over."""
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        before = loop.time()
        await asyncio.sleep(0.005)
        lags.append((loop.time() - before - 0.005) * 1000)


async def run_mode(mode: str, requests: list[ImageRequest], n: int) -> dict[str, float]:
    loop = asyncio.get_running_loop()
    kind = {"processes": Workers, "pipes": PipeWorkers}.get(mode)
    workers = kind(n) if kind is not None else None
    threads = ThreadPoolExecutor(n) if mode == "threads" else None

    async def one(r: ImageRequest) -> None:
        if workers is not None:
            await workers.run(_safe_render, r)
        elif threads is not None:
            await loop.run_in_executor(threads, _safe_render, r)
        else:
            _safe_render(r)  # on the loop, as before issue 15
            await asyncio.sleep(0)

    try:
        await asyncio.gather(*(one(r) for r in requests[: n * 2]))  # warm up
        lags: list[float] = []
        stop = asyncio.Event()
        ticker = asyncio.create_task(_ticker(lags, stop))
        cpu, start = time.process_time(), time.perf_counter()
        await asyncio.gather(*(one(r) for r in requests))
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        stop.set()
        await ticker
    finally:
        if workers is not None:
            workers.shutdown()
        if threads is not None:
            threads.shutdown()
    lags.sort()
    return {
        "renders_per_s": len(requests) / seconds,
        "main_cpu_ms_per_render": cpu * 1000 / len(requests),
        "loop_lag_p50_ms": lags[len(lags) // 2] if lags else 0.0,
        "loop_lag_p99_ms": lags[int(len(lags) * 0.99)] if lags else seconds * 1000,
        "loop_lag_max_ms": lags[-1] if lags else seconds * 1000,
    }


def encoder_levels(images: list[bytes]) -> None:
    """RGB PNG per compress_level beside the palette PNG the renderers write (``fonts.png``)."""
    decoded = [Image.open(io.BytesIO(b)).convert("RGB") for b in images]
    print(
        "png encoding: mean KiB per image, mean CPU ms to encode (process time: a shared machine)"
    )

    def rgb(level: int) -> Callable[[Image.Image], bytes]:
        def encode(img: Image.Image) -> bytes:
            buffer = io.BytesIO()
            img.save(buffer, format="PNG", optimize=False, compress_level=level)
            return buffer.getvalue()

        return encode

    encoders = [(f"rgb level={level}", rgb(level)) for level in (0, 1, 3, 6, 9)]
    encoders.append((f"palette level={fonts.PNG_COMPRESS_LEVEL} (used)", fonts.png))
    for label, encode in encoders:
        sizes, times = [], []
        for img in decoded:
            start = time.process_time()
            data = encode(img)
            times.append((time.process_time() - start) * 1000)
            sizes.append(len(data) / 1024)
        print(f"  {label} kib={statistics.mean(sizes):.1f} encode_ms={statistics.mean(times):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--images", type=int, default=240)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    requests = sample_requests(args.images)
    print(f"{len(requests)} images (tables and hands of all games), {args.workers} workers")
    for r in requests[:10]:
        _safe_render(r)  # fonts and modules loaded
    for mode in ("loop", "threads", "processes", "pipes"):
        figures = asyncio.run(run_mode(mode, requests, args.workers))
        print(f"renders mode={mode} " + " ".join(f"{k}={v:.2f}" for k, v in figures.items()))
    encoder_levels([b for r in requests[:60] if (b := _safe_render(r))])


if __name__ == "__main__":
    main()
