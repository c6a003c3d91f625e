"""Instructions per table image of a render worker's own work (valgrind's callgrind: a count no
other process on a loaded machine changes), per game and for the load's mix: the drawing (the
game's ``render_table`` up to its PNG), the PNG's encoding (``fonts.png``: mapped to the palette
where drawn in RGB, rows deflated), and the alt text the worker writes beside it
(``alt_text.describe``), with KiB per image.

The images are the load's (``bench.render_interleaved``: many tables of a game, their moves
interleaved, ``bench/load.py``'s names, an image only when its drawn inputs changed; ``--tables
200``: a game's share of 1,000). Per game, ``--warm`` images are drawn first, uncounted (a
long-lived worker's sprites, layers and text patches: a render worker has drawn ~700-1,000 of
a game's images when ``bench/load.py --tables 1000`` starts measuring), then the next
``--images`` counted: a name or score first met there is drawn as the live worker draws it
(Maquiavelo's images change at ~1 move in 30: fewer warm ones where its moves run out). What
``bench/load.py``'s "draw" stage counts is the drawing and the alt text.

    .venv/bin/python bench/render_draw_instructions.py [--root /other/checkout] [--images 100]
        [--warm 600] [--tables 200] [--games triad chupate2]

Needs valgrind. Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import gc
import math
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PIECES = ("draw", "encode", "alt text")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=HERE.parent, help="the tree whose bot runs")
    parser.add_argument("--images", type=int, default=100, help="counted images per game")
    parser.add_argument("--warm", type=int, default=600, help="images per game drawn before")
    parser.add_argument("--tables", type=int, default=200, help="tables per game, interleaved")
    parser.add_argument("--games", nargs="+", default=None, help="only these games (keys)")
    parser.add_argument("--run", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.run:
        return _counted(args)
    from count_request_instructions import callgrind_dumps  # (a sibling script)

    argv = [__file__, "--run", "--root", str(args.root), "--images", str(args.images)]
    argv += ["--warm", str(args.warm), "--tables", str(args.tables)]
    argv += ["--games", *args.games] if args.games else []
    counts, stdout = callgrind_dumps(argv, "mesa-render-draw-")
    groups = [line.split("\t") for line in stdout.splitlines() if line.count("\t") == 2]
    # the dump before the first marker: start-up and the warm images; then each game's pieces
    # and one more dump (the next game's requests and warm images)
    print(f"bot from {args.root}: a render worker's instructions per table image (callgrind)")
    print("| game | images | draw | encode | alt text | draw + alt text | all | KiB |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    rows: dict[str, list[float]] = {}
    for index, (key, images, kib) in enumerate(groups):
        n = int(images)
        if not n:
            continue
        at = 1 + index * (len(PIECES) + 1)
        draw, encode, alt = (count / n for count in counts[at : at + len(PIECES)])
        rows[key] = [draw, encode, alt, draw + alt, draw + encode + alt, float(kib)]
        print(_row(key, str(n), rows[key]))
    from render_interleaved import LOAD_SHARES

    shares = {key: LOAD_SHARES[key] for key in rows if key in LOAD_SHARES}
    if len(shares) > 1:
        total = sum(shares.values())
        mix = [sum(shares[k] * rows[k][i] for k in shares) / total for i in range(6)]
        print(_row("load mix", "", mix))
    return 0


def _row(key: str, images: str, figures: list[float]) -> str:
    counts = " | ".join(f"{value:,.0f}" for value in figures[:5])
    return f"| {key} | {images} | {counts} | {figures[5]:.2f} |"


def _counted(args: argparse.Namespace) -> int:
    """In the process callgrind counts: each game's warm images, then its counted ones, piece by
    piece between two ``math.gcd`` markers (callgrind dumps before each)."""
    sys.path.insert(0, str(args.root))
    sys.path.insert(0, str(HERE))
    # the bot's modules first, from ``--root`` (``render_interleaved`` puts this tree first)
    from bot.registry import load_games
    from bot.ui import rendering
    from bot.ui.alt_text import describe
    from bot.ui.images import fonts
    from bot.ui.rendering import ImageRequest, _safe_render_args

    keys = args.games or sorted(load_games())
    real_png = fonts.png
    caught: list[tuple[Any, Any]] = []

    def catch(image: Any, colours: Any = ()) -> bytes:
        caught.append((image, colours))
        return b""

    summary = []
    gc.disable()  # (a collection would fall in one piece or another)
    for key in keys:
        wanted = args.warm + args.images
        requests = _table_requests(key, args.tables, wanted * 3, wanted)
        if len(requests) < wanted:  # (Maquiavelo's image changes at ~1 move in 30)
            requests = _table_requests(key, args.tables, wanted * 30, wanted)
        jobs = [_worker_args(rendering, request) for request in requests]
        warm_count = max(0, len(jobs) - args.images)  # fewer warm ones where moves ran out
        warm, counted = jobs[:warm_count], jobs[warm_count:]
        for job in warm:
            _safe_render_args(*job)
            describe(ImageRequest(*job[:5], "", {}))
        described = [ImageRequest(*job[:5], "", {}) for job in counted]
        gc.collect()
        fonts.png = catch
        try:
            math.gcd(1, 1)
            for job in counted:
                _safe_render_args(*job)
        finally:
            fonts.png = real_png
        math.gcd(1, 1)
        data = [real_png(*image) for image in caught]
        math.gcd(1, 1)
        for request in described:
            describe(request)
        math.gcd(1, 1)
        caught.clear()
        kib = sum(len(d) for d in data) / max(1, len(data)) / 1024
        summary.append((key, len(counted), kib))
    gc.enable()
    for key, n, kib in summary:
        print(f"{key}\t{n}\t{kib:.3f}")
    return 0


def _table_requests(key: str, tables: int, moves: int, wanted: int) -> list[Any]:
    """Up to ``wanted`` of the load's table images of ``key`` in ``moves`` interleaved moves of
    ``tables`` tables: a table's image only when its drawn inputs changed."""
    from render_interleaved import interleaved_tables, load_names

    from bot.ui.rendering import ImageRequest, image_inputs

    inputs = image_inputs(key, "render_table")
    requests: list[Any] = []
    last: dict[int, str] = {}
    for table, view in interleaved_tables(key, tables, moves, seed=1):
        names = load_names(key, table, list(view.seats))
        request = ImageRequest(key, "render_table", view, "es", names, "t.png", inputs=inputs)
        if last.get(table) == request.digest:
            continue
        last[table] = request.digest
        requests.append(request)
        if len(requests) == wanted:
            break
    return requests


def _worker_args(rendering: Any, request: Any) -> tuple[Any, ...]:
    """``render_image``'s arguments as a render worker has them: the drawn part of the view
    rebuilt from the JSON it was sent (``SentRender.arguments``; a tree before session 30: the
    request's own)."""
    sent = getattr(request, "sent_args", None)
    if sent is None or not hasattr(rendering, "SentRender"):
        return tuple(request.args)
    return tuple(rendering.SentRender(rendering.render_image).arguments(sent))


if __name__ == "__main__":
    raise SystemExit(main())
