"""A render worker's CPU per table image as the load gives it images: many tables of one game
playing at once, their moves interleaved, each image drawn by one of ``--workers`` workers at
random; this process is one of them, with cold per-process caches (the fixed layers, Triple
Triad's card sprites). Prints draw and encode CPU per image, KiB per image and each cache's hits.

    .venv/bin/python bench/render_interleaved.py [--game triad] [--tables 200] [--workers 2]
        [--any-cards] [--warm 4]

``--warm N``: then the same images drawn and encoded N times more, their caches warm (a long-lived
worker's state): CPU per image printed, the steadiest figure for a before/after.

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
from bot.ui.images.palette import RGB
from bot.ui.rendering import ImageRequest, _safe_render
from tests.playouts import random_states


def interleaved_views(
    key: str, tables: int, moves: int, seed: int, any_cards: bool = False
) -> list[Any]:
    """Public table views of ``tables`` random games of ``key``, their moves interleaved at
    random (a table that ended starts a new game), ``moves`` in all. ``any_cards``: Triple
    Triad's hands drawn from the whole catalogue (players' collections), not its default deal."""
    return [view for _, view in interleaved_tables(key, tables, moves, seed, any_cards)]


def interleaved_tables(
    key: str, tables: int, moves: int, seed: int, any_cards: bool = False
) -> list[tuple[int, Any]]:
    """``interleaved_views`` with the table each view is of."""
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
    views: list[tuple[int, Any]] = []
    while len(views) < moves:
        k = rng.randrange(tables)
        state = next(playing[k], None)
        if state is None:
            playing[k] = new_game()
            continue
        views.append((k, game.view(state, None)))
    return views


# Images per game drawn at ``bench/load.py --tables 1000`` (session 18, ``phase_ms.image_*``):
# ``--game all`` mixes the five games in these shares, as a render worker gets them.
LOAD_SHARES = {"triad": 936, "chupate2": 843, "amapatolli": 683, "macarena": 200, "maquiavelo": 80}


def load_names(key: str, table: int, seats: list[str]) -> dict[str, str]:
    """Seat names as ``bench/load.py`` gives them: each table its own players (``p<n>s<k>``),
    its computer seats (all but the first, as ``bench/load_driver.py`` adds them) robots."""
    return {
        seat: f"p{table}s{k}" if k == 0 else f"🤖 CPU {k} (normal)" for k, seat in enumerate(seats)
    }


def caches(module: Any) -> dict[str, Any]:
    """The module's per-process caches (``functools.lru_cache``d functions) by name."""
    return {
        name: value
        for name, value in vars(module).items()
        if callable(value) and hasattr(value, "cache_info")
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="triad", help="a game, or all (the load's shares)")
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--images", type=int, default=1500, help="images this worker draws")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--any-cards", action="store_true", help="Triple Triad hands from all 110 cards"
    )
    parser.add_argument(
        "--load-names",
        action="store_true",
        help="each table its players' names and robots (as bench/load.py), and only images"
        " whose drawn inputs changed (as the renderer's cache draws them)",
    )
    parser.add_argument(
        "--affinity",
        action="store_true",
        help="each table's images drawn by one worker (not a worker at random)",
    )
    parser.add_argument(
        "--level", type=int, default=None, help="ISA-L level of the PNGs, 0-3 (default: the bot's)"
    )
    parser.add_argument(
        "--warm", type=int, default=0, help="then draw the same images this many times more"
    )
    args = parser.parse_args()
    if args.level is not None:
        fonts.PNG_COMPRESS_LEVEL = args.level
    keys = list(LOAD_SHARES) if args.game == "all" else [args.game]
    total = sum(LOAD_SHARES[k] for k in keys) if args.game == "all" else 1
    rng = random.Random(args.seed)
    jobs: list[tuple[str, ImageRequest]] = []
    for key in keys:
        share = LOAD_SHARES[key] / total if args.game == "all" else 1.0
        moves = round(args.images * args.workers * share)
        last: dict[int, str] = {}
        for table, view in interleaved_tables(key, args.tables, moves, args.seed, args.any_cards):
            if table % args.workers if args.affinity else rng.randrange(args.workers):
                continue  # another worker's
            names = (
                load_names(key, table, list(view.seats))
                if args.load_names
                else {s: f"Jugador {s}" for s in view.seats}
            )
            request = ImageRequest(key, "render_table", view, "es", names, "t.png")
            if args.load_names:
                digest = request.digest  # the renderer's cache: an unchanged image is not drawn
                if last.get(table) == digest:
                    continue
                last[table] = digest
            jobs.append((key, request))
    if args.game == "all":
        rng.shuffle(jobs)
    caught: list[tuple[Image.Image, tuple[RGB, ...]]] = []
    real = fonts.png

    def catch(image: Image.Image, colours: tuple[RGB, ...] = ()) -> bytes:
        caught.append((image, colours))
        return b""

    figures: dict[str, list[tuple[float, float, float]]] = {key: [] for key in keys}
    fonts.png = catch  # the drawing timed alone, then the encoding of what it drew
    try:
        for key, request in jobs:
            start = time.process_time()
            _safe_render(request)
            draw = (time.process_time() - start) * 1000
            start = time.process_time()
            data = real(*caught.pop())
            encode = (time.process_time() - start) * 1000
            figures[key].append((draw, encode, len(data) / 1024))
    finally:
        fonts.png = real
    if args.warm:
        start = time.process_time()
        for _ in range(args.warm):
            for _, request in jobs:
                _safe_render(request)
        spent = (time.process_time() - start) * 1000 / (args.warm * len(jobs))
        print(f"warm: {len(jobs)} images x {args.warm}: draw + encode {spent:.3f} ms per image")
    every = [f for key in keys for f in figures[key]]
    for key, rows in [
        *((k, figures[k]) for k in keys),
        *([("all", every)] if len(keys) > 1 else []),
    ]:
        if not rows:
            continue
        half = rows[len(rows) // 2 :]
        print(
            f"{key}: {args.tables} tables, 1 of {args.workers} workers, {len(rows)} images:"
            f" draw {statistics.mean(r[0] for r in rows):.3f} ms (second half"
            f" {statistics.mean(r[0] for r in half):.3f}), encode"
            f" {statistics.mean(r[1] for r in rows):.3f} ms,"
            f" {statistics.mean(r[2] for r in rows):.2f} KiB per image"
        )
    for key in keys:
        module = importlib.import_module(f"bot.ui.{key}.images")
        for name, cached in sorted(caches(module).items()):
            _print_cache(f"{key}.{name}", cached)
    for name, cached in sorted(caches(scaled).items()):
        _print_cache(f"scaled.{name}", cached)


def _print_cache(name: str, cached: Any) -> None:
    info = cached.cache_info()
    asked = info.hits + info.misses
    print(
        f"  {name}: {info.hits}/{asked} hits ({info.hits / max(asked, 1):.1%}),"
        f" {info.currsize} kept of {info.maxsize}"
    )


if __name__ == "__main__":
    main()
