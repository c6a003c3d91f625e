"""Table and hand images: the event loop vs threads vs processes, and PNG encoder settings.

    python bench/render_pool.py [--images 240] [--workers N]

Plays a few random moves of every game to collect real views (public tables and hands), then
renders the same list of images:
  * inline, one after another (what the bot did on its event loop before issue 15);
  * on a thread pool of N threads (the GIL: barely faster, or slower, than inline);
  * on a process pool of N processes (``bot.workers.Workers``, what the bot now uses);
and prints renders/s for each, plus, for the images produced, the size and encoding time of
each PNG ``compress_level``. Figures only; nothing is asserted.
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
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image  # noqa: E402

from bot.registry import load_games  # noqa: E402
from bot.ui.rendering import ImageRequest, _safe_render  # noqa: E402
from bot.workers import Workers  # noqa: E402


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


def inline(requests: list[ImageRequest]) -> float:
    start = time.perf_counter()
    for r in requests:
        _safe_render(r)
    return time.perf_counter() - start


def threads(requests: list[ImageRequest], n: int) -> float:
    with ThreadPoolExecutor(n) as pool:
        list(pool.map(_safe_render, requests[:n]))  # warm up
        start = time.perf_counter()
        list(pool.map(_safe_render, requests))
        return time.perf_counter() - start


async def processes(requests: list[ImageRequest], n: int) -> float:
    workers = Workers(n)
    try:
        await asyncio.gather(*(workers.run(_safe_render, r) for r in requests[: n * 2]))
        start = time.perf_counter()
        await asyncio.gather(*(workers.run(_safe_render, r) for r in requests))
        return time.perf_counter() - start
    finally:
        workers.shutdown()


def encoder_levels(images: list[bytes]) -> None:
    decoded = [Image.open(io.BytesIO(b)).copy() for b in images]
    print("png compress_level: mean KiB per image, mean ms to encode")
    for level in (0, 1, 3, 6, 9):
        sizes, times = [], []
        for img in decoded:
            start = time.perf_counter()
            buffer = io.BytesIO()
            img.save(buffer, format="PNG", optimize=False, compress_level=level)
            times.append((time.perf_counter() - start) * 1000)
            sizes.append(len(buffer.getvalue()) / 1024)
        print(
            f"  level={level} kib={statistics.mean(sizes):.1f} "
            f"encode_ms={statistics.mean(times):.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--images", type=int, default=240)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    requests = sample_requests(args.images)
    print(f"{len(requests)} images (tables and hands of all games), {args.workers} workers")
    inline(requests[:10])  # fonts and modules loaded
    results = {
        "loop": inline(requests),
        "threads": threads(requests, args.workers),
        "processes": asyncio.run(processes(requests, args.workers)),
    }
    for name, seconds in results.items():
        print(
            f"renders mode={name} renders_per_s={len(requests) / seconds:.1f} "
            f"ms_per_render={seconds * 1000 / len(requests):.2f}"
        )
    encoder_levels([b for r in requests[:60] if (b := _safe_render(r))])


if __name__ == "__main__":
    main()
