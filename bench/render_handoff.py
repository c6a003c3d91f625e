"""What the bot hands a render worker per table image: the job's pickled bytes, the CPU to build
and pickle it (bot: the ``ImageRequest`` made anew, its digest, then its ``args``) and to unpickle
it and get the view back (worker), per game after random moves: the view pickled as a model cut
to the renderer's declared inputs (session 19) against its drawn fields' JSON (``DrawnJson``:
the digest's, validated back in the worker).

    .venv/bin/python bench/render_handoff.py [--games 6] [--moves 40] [--repeat 200]

Figures only (CPU time of this process); nothing is asserted.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from multiprocessing.reduction import ForkingPickler

from bot.registry import load_games
from bot.ui.rendering import DrawnJson, ImageRequest, _safe_render_args, image_inputs
from games.core import PlayerView
from tests.playouts import played


def _cpu_ms(func: Callable[[], Any], repeat: int) -> float:
    start = time.process_time()
    for _ in range(repeat):
        func()
    return (time.process_time() - start) * 1000 / repeat


def cut_model(view: PlayerView, inputs: frozenset[str] | None) -> PlayerView:
    """Session 19's hand-off: the view model with only the declared inputs' fields (a shallow
    copy, the others deleted), pickled whole."""
    if inputs is None:
        return view
    kept = {name.partition(".")[0] for name in inputs}
    part = view.model_copy()
    for name in [name for name in part.__dict__ if name not in kept]:
        del part.__dict__[name]
    part.model_fields_set.intersection_update(kept)
    return part


def _job(args: tuple[Any, ...]) -> bytes:
    """The bytes ``bot.pipe_workers`` writes to a worker's pipe for one render."""
    return bytes(ForkingPickler.dumps((_safe_render_args, args)))


def _worker_view(data: bytes) -> Any:
    """What the worker does before drawing: unpickle the job, get the view back."""
    _, args = ForkingPickler.loads(data)
    view = args[2]
    return view.view() if isinstance(view, DrawnJson) else view


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="random games per game kind")
    parser.add_argument("--moves", type=int, default=40, help="at most this many moves each")
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    print(
        "| game | images | model cut (s19): bytes, bot ms, worker ms |"
        " drawn JSON: bytes, bot ms, worker ms |"
    )
    print("|---|---:|---|---|")
    totals: dict[str, list[tuple[int, float, float]]] = {"model": [], "json": []}
    for key, game in sorted(load_games().items()):
        inputs = image_inputs(key, "render_table")
        seats = [str(100 + i) for i in range(max(game.min_players, min(3, game.max_players)))]
        names = {s: f"Jugador {s}" for s in seats}
        rows: dict[str, list[tuple[int, float, float]]] = {"model": [], "json": []}
        for n in range(args.games):
            state = game.new(seats, f"handoff-{key}-{n}", None)
            rng = random.Random(n)
            state = played(game, state, rng, rng.randint(1, args.moves))
            view = game.view(state, None)

            made = {"view": view, "key": key, "names": names, "inputs": inputs}

            def request(m: dict[str, Any] = made) -> ImageRequest:
                new = ImageRequest(
                    m["key"], "render_table", m["view"], "es", m["names"], "t.png",
                    inputs=m["inputs"],
                )  # fmt: skip
                assert new.digest  # the bot computes it for every image (its cache key)
                return new

            def model_job(m: dict[str, Any] = made) -> bytes:
                new = request(m)
                cut = cut_model(m["view"], m["inputs"])
                return _job((m["key"], "render_table", cut, "es", m["names"], new.extras))

            def json_job(m: dict[str, Any] = made) -> bytes:
                return _job(request(m).args)

            for label, build in (("model", model_job), ("json", json_job)):
                data = build()
                sent = _cpu_ms(build, args.repeat)
                read = _cpu_ms(lambda d=data: _worker_view(d), args.repeat)
                rows[label].append((len(data), sent, read))
        cells = []
        for label in ("model", "json"):
            size, sent, read = (statistics.mean(r[i] for r in rows[label]) for i in range(3))
            cells.append(f"{size:.0f}, {sent:.3f}, {read:.3f}")
            totals[label] += rows[label]
        print(f"| {key} | {len(rows['model'])} | {cells[0]} | {cells[1]} |")
    cells = []
    for label in ("model", "json"):
        size, sent, read = (statistics.mean(r[i] for r in totals[label]) for i in range(3))
        cells.append(f"{size:.0f}, {sent:.3f}, {read:.3f}")
    print(f"| **all** (unweighted) | {len(totals['model'])} | {cells[0]} | {cells[1]} |")


if __name__ == "__main__":
    main()
