"""What the bot hands a render worker per image: the job's pickled bytes and the CPU to pickle it
(bot) and unpickle it (worker), with the whole view against the view cut to the renderer's
declared inputs (``bot.ui.rendering.drawn_part``), both pickled as ``Connection.send`` pickles
them, and the cut view pickled as the render pool does (``bot.pipe_workers.compact_dumps``),
per game's table image after random moves; and each image's digest (``ImageRequest.digest``,
computed for every public payload). The last row: the render pool's figures in the load's mix
of games (``bench.render_interleaved.LOAD_SHARES``).

    .venv/bin/python bench/render_handoff.py [--games 6] [--moves 40] [--repeat 200]

Figures only (CPU time of this process); nothing is asserted.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from multiprocessing.reduction import ForkingPickler

from bench.render_interleaved import LOAD_SHARES
from bot.pipe_workers import compact_dumps
from bot.registry import load_games
from bot.ui.rendering import ImageRequest, _safe_render_args, image_inputs
from tests.playouts import played


def cpu_ms(func: Callable[[], Any], repeat: int) -> float:
    """CPU ms of this process per call of ``func``, over ``repeat`` calls."""
    start = time.process_time()
    for _ in range(repeat):
        func()
    return (time.process_time() - start) * 1000 / repeat


def _job(args: tuple[Any, ...]) -> bytes:
    """The bytes ``Connection.send`` writes to a worker's pipe for one render."""
    return bytes(ForkingPickler.dumps((_safe_render_args, args)))


def _compact_job(args: tuple[Any, ...]) -> bytes:
    """The bytes the render pool writes to a worker's pipe for one render."""
    return compact_dumps((_safe_render_args, args))


def _fresh(request: ImageRequest) -> ImageRequest:
    """``request`` built again (its digest is kept per request: the bot builds one a payload)."""
    return dataclasses.replace(request)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="random games per game kind")
    parser.add_argument("--moves", type=int, default=40, help="at most this many moves each")
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    print(
        "| game | images | whole view: bytes, pickle ms, unpickle ms |"
        " declared inputs: bytes, cut + pickle ms, unpickle ms |"
        " declared inputs, compact (the render pool's): bytes, cut + pickle ms, unpickle ms |"
        " digest ms |"
    )
    print("|---|---:|---|---|---|---:|")
    mix: dict[str, tuple[float, ...]] = {}
    for key, game in sorted(load_games().items()):
        inputs = image_inputs(key, "render_table")
        seats = [str(100 + i) for i in range(max(game.min_players, min(3, game.max_players)))]
        names = {s: f"Jugador {s}" for s in seats}
        rows: dict[str, list[tuple[int, float, float]]] = {"whole": [], "cut": [], "compact": []}
        digests: list[float] = []
        for n in range(args.games):
            state = game.new(seats, f"handoff-{key}-{n}", None)
            rng = random.Random(n)
            state = played(game, state, rng, rng.randint(1, args.moves))
            view = game.view(state, None)
            whole = ImageRequest(key, "render_table", view, "es", names, "t.png")
            cut = ImageRequest(key, "render_table", view, "es", names, "t.png", inputs=inputs)
            _ = cut.digest  # once untimed: the first digest of a game warms its look-ups
            digests.append(cpu_ms(lambda c=cut: _fresh(c).digest, args.repeat))
            for label, request, pickled in (
                ("whole", whole, _job),
                ("cut", cut, _job),
                ("compact", cut, _compact_job),
            ):
                data = pickled(request.args)
                sent = cpu_ms(lambda r=request, p=pickled: p(r.args), args.repeat)
                read = cpu_ms(lambda d=data: ForkingPickler.loads(d), args.repeat)
                rows[label].append((len(data), sent, read))
        cells = []
        for label in ("whole", "cut", "compact"):
            size, sent, read = (statistics.mean(r[i] for r in rows[label]) for i in range(3))
            cells.append(f"{size:.0f}, {sent:.3f}, {read:.3f}")
        shown = cells[1] if inputs is not None else "(no declared inputs)"
        digest = statistics.mean(digests)
        print(
            f"| {key} | {len(rows['whole'])} | {cells[0]} | {shown} | {cells[2]} | {digest:.3f} |"
        )
        compact = [statistics.mean(r[i] for r in rows["compact"]) for i in range(3)]
        mix[key] = (*compact, digest)
    total = sum(LOAD_SHARES[key] for key in mix)
    size, sent, read, digest = (
        sum(LOAD_SHARES[key] * figures[i] for key, figures in mix.items()) / total for i in range(4)
    )
    print(f"| load mix | | | | {size:.0f}, {sent:.3f}, {read:.3f} | {digest:.3f} |")


if __name__ == "__main__":
    main()
