"""Instructions per image of the bot's side of a render (valgrind's callgrind: a count no other
process on a loaded machine changes), piece by piece, per game and image kind (table, hand):

- ``digest``: ``ImageRequest.digest`` of a fresh request (every payload with an image asks it,
  drawn or not: a message showing that image already is neither drawn nor uploaded);
- ``job``: the bytes the render pool writes to a worker's pipe for it (``request.args``, the
  view cut to the renderer's declared inputs, pickled as the pool pickles it), part of the next;
- ``round trip``: ``Renderer.render`` on a one-worker ``PipeWorkers`` pool, its digest already
  known: the job ordered, pickled and written, the reply read, unpickled and metered, the
  futures settled (the worker's own CPU is not counted: valgrind follows no child process);
- ``attachment``: the PNG wrapped as the payload's attachment (``messages._png``);
- ``worker: job unpickled``: the job's bytes unpickled (the worker's first stage, counted here
  in this process: what the bot's side saves must not move there).

The tables' images are the load's (``bench.render_interleaved``: many tables of a game, their
moves interleaved, ``bench/load.py``'s names, an image only when its drawn inputs changed), the
hands' each seat's after random moves (its ``hand_image_extras``); the last row is the tables'
in the load's mix of games (``LOAD_SHARES``). Everything runs once untimed first, then each
piece between two ``math.gcd`` calls that make callgrind dump its count (``--dump-before``).

    .venv/bin/python bench/render_instructions.py [--root /other/checkout] [--images 24]

Needs valgrind. Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import gc
import math
import pickle
import random
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PIECES = ("digest", "job", "round trip", "attachment", "worker unpickle")
KINDS = ("render_table", "render_hand")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=HERE.parent, help="the tree whose bot runs")
    parser.add_argument("--images", type=int, default=24, help="images per game and kind")
    parser.add_argument("--games", nargs="+", default=None, help="only these games (keys)")
    parser.add_argument("--run", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.run:
        return _counted(args)
    from count_request_instructions import callgrind_dumps  # (a sibling script)

    argv = [__file__, "--run", "--root", str(args.root), "--images", str(args.images)]
    argv += ["--games", *args.games] if args.games else []
    counts, stdout = callgrind_dumps(argv, "mesa-render-instructions-")
    lines = stdout.splitlines()
    groups = [line.split("\t") for line in lines if line.count("\t") == 4]
    # the dump before the first marker: start-up and the untimed run; then each group's
    # pieces and one more dump (what runs between two groups)
    measured = counts[1 : 1 + len(groups) * (len(PIECES) + 1)]
    print(f"bot from {args.root}: instructions per image (callgrind), bot process only")
    print(
        "| game | image | images | digest | job (pickled) | round trip on the loop"
        " | attachment | digest + round trip + attachment | worker: job unpickled"
        " | job bytes | PNG KiB |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    tables: dict[str, list[float]] = {}
    for index, (key, function, images, job_bytes, kib) in enumerate(groups):
        n = int(images)
        per = [measured[index * (len(PIECES) + 1) + i] / n for i in range(len(PIECES))]
        whole = per[0] + per[2] + per[3]
        kind = "table" if function == "render_table" else "hand"
        print(
            f"| {key} | {kind} | {n} | {per[0]:,.0f} | {per[1]:,.0f} | {per[2]:,.0f}"
            f" | {per[3]:,.0f} | {whole:,.0f} | {per[4]:,.0f} | {float(job_bytes):,.0f}"
            f" | {float(kib):.1f} |"
        )
        if kind == "table":
            tables[key] = [*per[:4], whole, per[4], float(job_bytes), float(kib)]
    from render_interleaved import LOAD_SHARES

    shares = {key: LOAD_SHARES[key] for key in tables if key in LOAD_SHARES}
    if shares:
        total = sum(shares.values())
        mix = [sum(shares[k] * tables[k][i] for k in shares) / total for i in range(8)]
        print(
            f"| load mix | table | | {mix[0]:,.0f} | {mix[1]:,.0f} | {mix[2]:,.0f}"
            f" | {mix[3]:,.0f} | {mix[4]:,.0f} | {mix[5]:,.0f} | {mix[6]:,.0f} | {mix[7]:.1f} |"
        )
    return 0


def _counted(args: argparse.Namespace) -> int:
    """In the process callgrind counts (the bot's loop: uvloop's, where installed)."""
    sys.path.insert(0, str(args.root))
    sys.path.insert(0, str(HERE))
    try:
        import uvloop

        factory: Any = uvloop.new_event_loop
    except ImportError:  # pragma: no cover - uvloop is a dependency on Linux
        factory = None
    with asyncio.Runner(loop_factory=factory) as runner:
        return runner.run(_pieces(args))


def _table_requests(key: str, count: int) -> list[Any]:
    """The load's table images of ``key``: interleaved tables, a table's image only when its
    drawn inputs changed."""
    from render_interleaved import interleaved_tables, load_names

    from bot.ui.rendering import ImageRequest, image_inputs

    inputs = image_inputs(key, "render_table")
    last: dict[int, str] = {}
    out = []
    for table, view in interleaved_tables(key, 40, count * 4, seed=1):
        names = load_names(key, table, list(view.seats))
        request = ImageRequest(key, "render_table", view, "es", names, "table.png", inputs=inputs)
        if last.get(table) == request.digest:
            continue
        last[table] = request.digest
        out.append(request)
    return out[:count]


def _hand_requests(key: str, count: int) -> list[Any]:
    """Each seat's hand image after random moves, with its presenter's extras."""
    from bot.registry import load_games
    from bot.ui.presenter import presenter_for
    from bot.ui.rendering import ImageRequest, image_inputs
    from tests.playouts import random_states

    game = load_games()[key]
    presenter = presenter_for(game)
    inputs = image_inputs(key, "render_hand")
    seats = [str(100 + i) for i in range(max(game.min_players, min(3, game.max_players)))]
    out: list[Any] = []
    seen: set[str] = set()
    for n in range(50):
        start = game.new(seats, f"hands-{key}-{n}", None)
        for state in random_states(game, start, random.Random(n), 60):
            for seat in seats:
                view = game.view(state, seat)
                extras = presenter.hand_image_extras(view, game.legal_actions(state, seat))
                request = ImageRequest(
                    key, "render_hand", view, "es", None, "hand.png", extras, inputs
                )
                if request.digest in seen:
                    continue
                seen.add(request.digest)
                out.append(request)
                if len(out) == count:
                    return out
    return out


def _unmarked(*_: int) -> None:
    return None


def _job_bytes(pool: Any, job: Any, request: Any) -> bytes:
    """What the render ``pool`` writes to a worker's pipe for ``request``: its ``sent_args`` as
    the pool pickles them at a worker's later jobs (the job's function by its index, a tree
    since session 30; before: the function itself; a tree before those: its ``args``, by
    ``compact_dumps``)."""
    from bot.pipe_workers import compact_dumps

    sent = getattr(request, "sent_args", None)
    dumps = getattr(pool, "_dumps", compact_dumps)
    if hasattr(pool, "_message"):
        return bytes(dumps((0, sent if sent is not None else request.args)))
    return bytes(dumps((job, sent if sent is not None else request.args)))


async def _pieces(args: argparse.Namespace) -> int:
    from bot.pipe_workers import PipeWorkers
    from bot.registry import load_games
    from bot.ui import messages
    from bot.ui.alt_text import render_described
    from bot.ui.rendering import Renderer
    from bot.workers import RENDER_POOL

    keys = sorted(args.games or load_games())
    groups = []
    for key in keys:
        groups.append((key, "render_table", _table_requests(key, args.images)))
        groups.append((key, "render_hand", _hand_requests(key, args.images)))
    pool = PipeWorkers(1, name=RENDER_POOL)
    pool.start()

    def fresh(requests: list[Any], digested: bool) -> list[Any]:
        """The requests built again (a payload builds its own), their digests known or not."""
        copies = [dataclasses.replace(r) for r in requests]
        if digested:
            for copy in copies:
                _ = copy.digest
        return copies

    async def round_trip(requests: list[Any]) -> list[bytes | None]:
        renderer = Renderer(pool, job=render_described)  # an empty cache: every image drawn
        return [
            await renderer.render(r, place=("table", i), first=True) for i, r in enumerate(requests)
        ]

    from bot.ui import rendering

    if hasattr(rendering, "SentRender"):  # (session 30: a job's arguments, rebuilt by its job)
        job = rendering.SentRender(render_described)

        def read(data: bytes) -> Any:
            args = pickle.loads(data)[-1]
            return job.arguments(args) if len(args) == 8 else args  # (else the part itself)

    else:
        read = pickle.loads

    def attach(images: list[bytes | None]) -> None:
        for image in images:
            if image is not None:
                messages._png(image, "table.png", "alt")

    async def run_all(count: bool) -> list[tuple[str, str, int, float, float]]:
        """Every group's pieces; ``count``: a marker before each piece and after the last (what
        runs between two groups falls in a dump of its own, not counted)."""
        mark = math.gcd if count else _unmarked
        summary = []
        for key, function, requests in groups:
            undigested, digested = fresh(requests, False), fresh(requests, True)
            for_job, for_trip = fresh(requests, True), fresh(requests, True)
            sent = [_job_bytes(pool, render_described, r) for r in digested]
            gc.collect()
            mark(1, 1)
            for request in undigested:
                _ = request.digest
            mark(1, 1)
            for request in for_job:
                _job_bytes(pool, render_described, request)
            mark(1, 1)
            images = await round_trip(for_trip)
            mark(1, 1)
            attach(images)
            mark(1, 1)
            for data in sent:
                read(data)
            mark(1, 1)
            kib = sum(len(i or b"") for i in images) / max(1, len(images)) / 1024
            size = sum(len(data) for data in sent) / len(sent)
            summary.append((key, function, len(requests), size, kib))
        return summary

    try:
        await run_all(False)  # imports, the worker's caches, every first-call look-up
        gc.disable()  # (its runs would fall in one piece or another)
        summary = await run_all(True)
        gc.enable()
    finally:
        pool.shutdown()
    for key, function, n, job_bytes, kib in summary:
        print(f"{key}\t{function}\t{n}\t{job_bytes:.0f}\t{kib:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
