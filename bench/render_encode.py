"""zlib's settings on our palette table images: strategy x level x memLevel x row filter, per game,
the images a render worker gets under load (``bench/render_interleaved.py --game all
--load-names``: each table's players, only images whose drawn inputs changed).

    .venv/bin/python bench/render_encode.py [--images 600] [--repeat 3] [--filters none,up]

Each image is drawn once, mapped to its module's palette (as ``fonts.png`` does), then deflated
under every setting; printed: deflate CPU ms per image (best of ``--repeat``) and KiB per image
(the whole PNG: chunks included), per game and for the load's mix. The row filters are PNG's
(none, sub, up; applied here with numpy, whose cost is printed apart in "filter ms"). Figures
only (CPU time of this process); nothing is asserted.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import statistics
import sys
import time
import zlib
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np
from PIL import Image

from bench.render_interleaved import LOAD_SHARES, interleaved_tables, load_names
from bot.ui.images import fonts
from bot.ui.images.palette import RGB, to_palette
from bot.ui.rendering import ImageRequest, _safe_render

STRATEGIES = {
    "default": zlib.Z_DEFAULT_STRATEGY,
    "filtered": zlib.Z_FILTERED,
    "rle": zlib.Z_RLE,
}
CHUNKS = 8 + 25 + 12 + 12  # signature, IHDR, IDAT's frame, IEND (the palette added per image)


def drawn_images(images: int, seed: int) -> list[tuple[str, Image.Image]]:
    """``images`` palette table images in the load's shares of games (each table once per
    change of its drawn inputs)."""
    caught: list[tuple[Image.Image, tuple[RGB, ...]]] = []
    real = fonts.png

    def catch(image: Image.Image, colours: tuple[RGB, ...] = ()) -> bytes:
        caught.append((image, colours))
        return b""

    total = sum(LOAD_SHARES.values())
    found: list[tuple[str, Image.Image]] = []
    fonts.png = catch
    try:
        for key, share in LOAD_SHARES.items():
            wanted = max(1, round(images * share / total))
            last: dict[int, str] = {}
            drawn = 0
            for table, view in interleaved_tables(key, 200, wanted * 3, seed):
                names = load_names(key, table, list(view.seats))
                request = ImageRequest(key, "render_table", view, "es", names, "t.png")
                if last.get(table) == request.digest:
                    continue
                last[table] = request.digest
                _safe_render(request)
                image, colours = caught.pop()
                found.append((key, to_palette(image, colours)))
                drawn += 1
                if drawn >= wanted:
                    break
    finally:
        fonts.png = real
    return found


def filtered_rows(image: Image.Image, kind: str) -> bytes:
    """The PNG's raw data: each row its filter byte and its filtered bytes."""
    pixels = np.asarray(image, dtype=np.uint8)
    if kind == "sub":
        out = pixels.copy()
        out[:, 1:] -= pixels[:, :-1]
        code = 1
    elif kind == "up":
        out = pixels.copy()
        out[1:] -= pixels[:-1]
        code = 2
    else:
        out, code = pixels, 0
    rows = np.empty((pixels.shape[0], pixels.shape[1] + 1), dtype=np.uint8)
    rows[:, 0] = code
    rows[:, 1:] = out
    return rows.tobytes()


def _zlib(level: int, mem: int, strategy: int) -> Callable[[bytes], bytes]:
    def compress(data: bytes) -> bytes:
        deflate = zlib.compressobj(level, zlib.DEFLATED, zlib.MAX_WBITS, mem, strategy)
        return deflate.compress(data) + deflate.flush()

    return compress


def other_deflaters(names: str) -> list[tuple[str, str, Callable[[bytes], bytes]]]:
    """Other zlib-stream writers, where installed (``--other isal,zlib-ng,libdeflate``)."""
    found: list[tuple[str, str, Callable[[bytes], bytes]]] = []
    for name in filter(None, names.split(",")):
        try:
            if name == "isal":
                from isal import isal_zlib

                found += [
                    (name, str(level), functools.partial(isal_zlib.compress, level=level))
                    for level in (0, 1, 2)
                ]
            elif name == "zlib-ng":
                from zlib_ng import zlib_ng

                found += [
                    (name, str(level), functools.partial(zlib_ng.compress, level=level))
                    for level in (1, 2, 3)
                ]
            elif name == "libdeflate":
                import deflate

                found += [
                    (
                        name,
                        str(level),
                        functools.partial(deflate.zlib_compress, compresslevel=level),
                    )
                    for level in (1, 2, 3, 4)
                ]
        except ImportError:
            print(f"({name} not installed)")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--images", type=int, default=600)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--levels", default="1,2,3")
    parser.add_argument("--mem-levels", default="8,9")
    parser.add_argument("--strategies", default=",".join(STRATEGIES))
    parser.add_argument("--filters", default="none,sub,up")
    parser.add_argument("--other", default="", help="isal,zlib-ng,libdeflate (if installed)")
    args = parser.parse_args()
    images = drawn_images(args.images, args.seed)
    keys = list(LOAD_SHARES)
    filters = args.filters.split(",")
    filter_ms: dict[str, list[float]] = defaultdict(list)
    raw: dict[str, list[tuple[str, bytes, int]]] = {}
    for kind in filters:
        raw[kind] = []
        for key, image in images:
            start = time.process_time()
            data = filtered_rows(image, kind)
            filter_ms[kind].append((time.process_time() - start) * 1000)
            raw[kind].append((key, data, len(image.getpalette() or ())))
    print(
        f"{len(images)} images: "
        + ", ".join(f"{k} {sum(1 for g, _ in images if g == k)}" for k in keys)
    )
    print(
        "filter ms/image: "
        + ", ".join(f"{k} {statistics.mean(v):.3f}" for k, v in filter_ms.items())
    )
    head = " | ".join(f"{k} ms, KiB" for k in keys)
    print(f"| filter | strategy | level | memLevel | {head} | **mix** ms, KiB |")
    print("|---|---|---|---|" + "---|" * (len(keys) + 1))
    settings = itertools.product(
        filters,
        args.strategies.split(","),
        [int(v) for v in args.levels.split(",")],
        [int(v) for v in args.mem_levels.split(",")],
    )
    rows: list[tuple[str, str, str, str, Callable[[bytes], bytes]]] = [
        (kind, strategy, str(level), str(mem), _zlib(level, mem, STRATEGIES[strategy]))
        for kind, strategy, level, mem in settings
    ]
    rows += [
        (kind, name, level, "", compress)
        for kind in filters
        for name, level, compress in other_deflaters(args.other)
    ]
    for kind, strategy, level, mem, compress in rows:
        per: dict[str, list[tuple[float, float]]] = defaultdict(list)
        for key, data, palette_bytes in raw[kind]:
            best = 1e9
            size = 0
            for _ in range(args.repeat):
                start = time.process_time()
                out = compress(data)
                best = min(best, (time.process_time() - start) * 1000)
                size = len(out)
            per[key].append((best, (size + palette_bytes + CHUNKS) / 1024))
        cells = [
            f"{statistics.mean(m for m, _ in per[k]):.3f}, {statistics.mean(s for _, s in per[k]):.2f}"
            for k in keys
        ]
        every = [v for k in keys for v in per[k]]
        mix = f"{statistics.mean(m for m, _ in every):.3f}, {statistics.mean(s for _, s in every):.2f}"
        print(f"| {kind} | {strategy} | {level} | {mem} | " + " | ".join(cells) + f" | {mix} |")


if __name__ == "__main__":
    main()
