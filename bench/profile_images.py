"""Per image kind (game x table/hand): the CPU of drawing apart from encoding, and each encoder's
bytes and CPU side by side, on the real views of short random games.

    .venv/bin/python bench/profile_images.py [--images 40] [--repeat 3]

The renderers draw into a Pillow image and hand it to ``fonts.png``; here ``fonts.png`` is
swapped for a catcher so the drawing is timed alone, then every encoder is timed on the same
images (CPU time of this process: a shared machine inflates no figure). "used" is what the
renderers write today. Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image, ImageChops

from bench.render_pool import sample_requests
from bot.ui.images import fonts
from bot.ui.images.palette import RGB, module_colours, to_palette
from bot.ui.rendering import ImageRequest, _safe_render


def caught_image(request: ImageRequest) -> tuple[Image.Image | None, float]:
    """The Pillow image a renderer drew (not encoded) and the CPU ms it took."""
    caught: list[Image.Image] = []
    real = fonts.png

    def catch(image: Image.Image, colours: tuple[RGB, ...] = ()) -> bytes:
        caught.append(image)
        return b""

    fonts.png = catch  # every images module's ``_png`` (``fonts.png_of``) calls it by name
    try:
        start = time.process_time()
        _safe_render(request)
        ms = (time.process_time() - start) * 1000
    finally:
        fonts.png = real
    return (caught[0] if caught else None), ms


def _save(image: Image.Image, **options: Any) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, **options)
    return buffer.getvalue()


def _octree_palette(image: Image.Image) -> Image.Image:
    """Session 15's palette: a fast octree of every third pixel each way, chosen per picture."""
    sample = image.resize(
        (max(1, image.width // 3), max(1, image.height // 3)), Image.Resampling.NEAREST
    )
    palette = sample.quantize(256, method=Image.Quantize.FASTOCTREE)
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


def _rgb(image: Image.Image) -> Image.Image:
    """The picture in RGB (most tables are drawn straight on their palette, "P")."""
    return image.convert("RGB") if image.mode == "P" else image


Encoder = Callable[[Image.Image, tuple[RGB, ...]], bytes]
ENCODERS: dict[str, Encoder] = {
    "used (fonts.png)": lambda im, colours: fonts.png(im, colours),
    "fixed palette only (no save)": lambda im, colours: to_palette(im, colours).tobytes()[:0],
    "octree palette png level 3 (s15)": lambda im, colours: _save(
        _octree_palette(_rgb(im)), format="PNG", optimize=False, compress_level=3
    ),
    "rgb png level 1": lambda im, colours: _save(_rgb(im), format="PNG", compress_level=1),
    "webp lossless m0": lambda im, colours: _save(_rgb(im), format="WEBP", lossless=True, method=0),
    "webp q90 m0": lambda im, colours: _save(_rgb(im), format="WEBP", quality=90, method=0),
}
# Palette encoders whose largest and mean per-pixel difference from the drawn RGB is printed
# (a table drawn on its palette: 0 for the fixed one, its pixels are the drawn ones).
PALETTES: dict[str, Callable[[Image.Image, tuple[RGB, ...]], Image.Image]] = {
    "fixed (used)": to_palette,
    "octree per picture (s15)": lambda im, colours: _octree_palette(_rgb(im)),
}


def difference(image: Image.Image, mapped: Image.Image) -> tuple[int, float]:
    """The largest and the mean per-pixel difference (grey level of the channel difference)."""
    diff = ImageChops.difference(_rgb(image), mapped.convert("RGB")).convert("L")
    histogram = diff.histogram()
    return diff.getextrema()[1], sum(i * n for i, n in enumerate(histogram)) / sum(histogram)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--images", type=int, default=40, help="requests sampled (40)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--encoders", default=",".join(ENCODERS))
    args = parser.parse_args(argv)
    chosen = [e.strip() for e in args.encoders.split(",") if e.strip()]
    requests = sample_requests(args.images)
    for r in requests[:10]:
        _safe_render(r)  # fonts, modules loaded
    drawn: dict[tuple[str, str], list[tuple[Image.Image, float]]] = defaultdict(list)
    for r in requests:
        best: tuple[Image.Image | None, float] = (None, 1e9)
        for _ in range(args.repeat):
            image, ms = caught_image(r)
            best = (image, min(best[1], ms))
        if best[0] is not None:
            drawn[(r.game_key, r.function)].append((best[0], best[1]))
    head = "| image | n | draw ms | " + " | ".join(f"{e}: ms, KiB" for e in chosen) + " |"
    print(head)
    print("|---|---:|---:|" + "---|" * len(chosen))
    totals: dict[str, list[float]] = defaultdict(list)
    for (game, function), items in sorted(drawn.items()):
        draw_ms = statistics.mean(ms for _, ms in items)
        cells = []
        for name in chosen:
            encode = ENCODERS[name]
            times, sizes = [], []
            colours = module_colours(f"bot.ui.{game}.images")
            for image, _ in items:
                best_ms, data = 1e9, b""
                for _ in range(args.repeat):
                    start = time.process_time()
                    data = encode(image, colours)
                    best_ms = min(best_ms, (time.process_time() - start) * 1000)
                times.append(best_ms)
                sizes.append(len(data) / 1024)
            totals[name + " ms"] += times
            totals[name + " KiB"] += sizes
            cells.append(f"{statistics.mean(times):.2f}, {statistics.mean(sizes):.1f}")
        totals["draw"] += [ms for _, ms in items]
        print(f"| {game} {function} | {len(items)} | {draw_ms:.2f} | " + " | ".join(cells) + " |")
    cells = [
        f"{statistics.mean(totals[n + ' ms']):.2f}, {statistics.mean(totals[n + ' KiB']):.1f}"
        for n in chosen
    ]
    print(
        f"| **all** | {len(totals['draw'])} | {statistics.mean(totals['draw']):.2f} | "
        + " | ".join(cells)
        + " |"
    )
    print()
    print("| palette | largest per-pixel difference | mean |")
    print("|---|---:|---:|")
    for name, mapping in PALETTES.items():
        found = [
            difference(image, mapping(image, module_colours(f"bot.ui.{game}.images")))
            for (game, _), items in drawn.items()
            for image, _ in items
        ]
        print(
            f"| {name} | {max(d for d, _ in found)} | {statistics.mean(m for _, m in found):.3f} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
