"""Table images per move, per game: how many moves of random games change the public table
image's cache key (``ImageRequest.digest``) and so need a new image drawn and uploaded, with the
game's declared image inputs (``IMAGE_INPUTS['render_table']``, today) against every drawn view
field (before any was declared), and the draw + encode CPU and KiB of the images that remain;
the last row, every game's moves together: images per move, and their CPU per move.

    .venv/bin/python bench/profile_render_per_move.py [--games 6] [--moves 200]

Figures only (CPU time of this process); nothing is asserted.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.registry import load_games
from bot.ui.rendering import ImageRequest, image_inputs, render_image
from tests.playouts import random_states


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="random games per game kind")
    parser.add_argument("--moves", type=int, default=200, help="at most this many moves each")
    args = parser.parse_args()
    print(
        "| game | moves | table images/move: every field | with declared inputs |"
        " draw+encode ms CPU/image | KiB/image |"
    )
    print("|---|---|---|---|---|---|")
    total_moves = total_declared = 0
    total_cpu = total_kib = 0.0
    for key, game in sorted(load_games().items()):
        seats = [str(100 + i) for i in range(max(game.min_players, min(3, game.max_players)))]
        names = {s: f"Jugador {s}" for s in seats}
        inputs = image_inputs(key, "render_table")
        moves = every = declared = 0
        cpu = kib = 0.0
        for n in range(args.games):
            first = game.new(seats, f"per-move-{key}-{n}", None)
            rng = random.Random(n)
            last_all = last_declared = None
            for state in itertools.islice(random_states(game, first, rng, args.moves), 1, None):
                view = game.view(state, None)
                moves += 1
                whole = ImageRequest(key, "render_table", view, "es", names, "t.png").digest
                kept = ImageRequest(
                    key, "render_table", view, "es", names, "t.png", inputs=inputs
                ).digest
                every += whole != last_all
                if kept != last_declared:
                    declared += 1
                    start = time.process_time()
                    data = render_image(key, "render_table", view, "es", names) or b""
                    cpu += time.process_time() - start
                    kib += len(data) / 1024
                last_all, last_declared = whole, kept
        print(
            f"| {key} | {moves} | {every / moves:.2f} | {declared / moves:.2f} |"
            f" {cpu * 1000 / max(declared, 1):.2f} | {kib / max(declared, 1):.1f} |"
        )
        total_moves += moves
        total_declared += declared
        total_cpu += cpu
        total_kib += kib
    print(
        f"| **all** | {total_moves} | | {total_declared / total_moves:.2f} |"
        f" {total_cpu * 1000 / max(total_declared, 1):.2f}"
        f" ({total_cpu * 1000 / total_moves:.2f} per move) |"
        f" {total_kib / max(total_declared, 1):.1f} |"
    )


if __name__ == "__main__":
    main()
