"""A render worker's CPU per table image as the load gives it images: many tables of one game
playing at once, their moves interleaved, each image drawn by one of ``--workers`` workers at
random; this process is one of them, with cold per-process caches (the fixed layers, Triple
Triad's card sprites). Prints draw and encode CPU per image, KiB per image and each cache's hits.

    .venv/bin/python bench/render_interleaved.py [--game triad] [--tables 200] [--workers 2]
        [--any-cards]

``--tables 200`` is the Triple Triad share of ``bench/load.py --tables 1000`` (five games).
Figures only (CPU time of this process); nothing is asserted.
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image

from bot.registry import load_games
from bot.ui.images import fonts, scaled
from bot.ui.images.palette import RGB, module_colours
from bot.ui.rendering import ImageRequest, _safe_render
from tests.playouts import random_states


def interleaved_views(
    key: str, tables: int, moves: int, seed: int, any_cards: bool = False
) -> list[Any]:
    """Public table views of ``tables`` random games of ``key``, their moves interleaved at
    random (a table that ended starts a new game), ``moves`` in all. ``any_cards``: Triple
    Triad's hands drawn from the whole catalogue (players' collections), not its default deal."""
    game = load_games()[key]
    rng = random.Random(seed)
    seats = [str(100 + i) for i in range(max(game.min_players, min(3, game.max_players)))]
    started = 0

    def new_game() -> Any:
        nonlocal started
        started += 1
        hands = None
        if any_cards:
            from games.triad.cards import cards_by_id

            ids = sorted(cards_by_id())
            hands = {s: rng.sample(ids, 5) for s in seats}
        seed_text = f"interleaved-{key}-{seed}-{started}"
        first = (
            game.new(seats, seed_text, None, hands=hands)
            if hands
            else game.new(seats, seed_text, None)
        )
        return random_states(game, first, random.Random(started), 10_000)

    playing = [new_game() for _ in range(tables)]
    views = []
    while len(views) < moves:
        k = rng.randrange(tables)
        state = next(playing[k], None)
        if state is None:
            playing[k] = new_game()
            continue
        views.append(game.view(state, None))
    return views


def caches(module: Any) -> dict[str, Any]:
    """The module's per-process caches (``functools.lru_cache``d functions) by name."""
    return {
        name: value
        for name, value in vars(module).items()
        if callable(value) and hasattr(value, "cache_info")
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="triad")
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--images", type=int, default=1500, help="images this worker draws")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--any-cards", action="store_true", help="Triple Triad hands from all 110 cards"
    )
    args = parser.parse_args()
    key = args.game
    module = importlib.import_module(f"bot.ui.{key}.images")
    rng = random.Random(args.seed)
    views = [
        v
        for v in interleaved_views(
            key, args.tables, args.images * args.workers, args.seed, args.any_cards
        )
        if rng.randrange(args.workers) == 0  # this worker's share
    ]
    names = {s: f"Jugador {s}" for s in views[0].seats}
    colours = module_colours(f"bot.ui.{key}.images")
    caught: list[Image.Image] = []
    real = fonts.png

    def catch(image: Image.Image, colours: tuple[RGB, ...] = ()) -> bytes:
        caught.append(image)
        return b""

    draw_ms: list[float] = []
    encode_ms: list[float] = []
    kib: list[float] = []
    fonts.png = catch  # the drawing timed alone, then the encoding of what it drew
    try:
        for view in views:
            request = ImageRequest(key, "render_table", view, "es", names, "t.png")
            start = time.process_time()
            _safe_render(request)
            draw_ms.append((time.process_time() - start) * 1000)
            start = time.process_time()
            data = real(caught.pop(), colours)
            encode_ms.append((time.process_time() - start) * 1000)
            kib.append(len(data) / 1024)
    finally:
        fonts.png = real
    half = len(views) // 2
    print(
        f"{key}: {args.tables} tables, 1 of {args.workers} workers, {len(views)} images:"
        f" draw {statistics.mean(draw_ms):.3f} ms (second half"
        f" {statistics.mean(draw_ms[half:]):.3f}), encode {statistics.mean(encode_ms):.3f} ms,"
        f" {statistics.mean(kib):.2f} KiB per image"
    )
    kept = {**caches(module), **{f"scaled.{n}": c for n, c in caches(scaled).items()}}
    for name, cached in sorted(kept.items()):
        info = cached.cache_info()
        asked = info.hits + info.misses
        print(
            f"  {name}: {info.hits}/{asked} hits ({info.hits / max(asked, 1):.1%}),"
            f" {info.currsize} kept of {info.maxsize}"
        )


if __name__ == "__main__":
    main()
