"""Table images drawn per move, and how many of them are drawn again identical: per game, many
tables playing at once (``bench.render_interleaved``: their moves interleaved, ``bench/load.py``'s
names), each table's public image asked after every move as the bot asks it. An image is drawn
when its digest (``ImageRequest.digest``, the cache key) is not the one its table's message
shows; one drawn with the very bytes of the image before it was drawn for nothing (a change the
image does not draw made a new key). The last row weighs the games by their share of the load's
images (``LOAD_SHARES``).

    .venv/bin/python bench/redrawn_images.py [--root /other/checkout] [--tables 20] [--moves 800]

Figures only (counts: a loaded machine changes none); nothing is asserted.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=HERE.parent, help="the tree whose bot runs")
    parser.add_argument("--tables", type=int, default=20, help="tables of each game at once")
    parser.add_argument("--moves", type=int, default=800, help="moves of each game")
    parser.add_argument("--games", nargs="+", default=None, help="only these games (keys)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(args.root))
    sys.path.insert(0, str(HERE))
    from render_interleaved import LOAD_SHARES, interleaved_tables, load_names

    from bot.registry import load_games
    from bot.ui.rendering import ImageRequest, image_inputs, render_image

    print(f"bot from {args.root}")
    print("| game | moves | images drawn | per move | drawn identical | share of drawn |")
    print("|---|---|---|---|---|---|")
    rows: dict[str, tuple[int, int, int]] = {}
    for key in sorted(args.games or load_games()):
        inputs = image_inputs(key, "render_table")
        shown: dict[int, tuple[str, bytes | None]] = {}  # table -> its message's digest, image
        moves = drawn = identical = 0
        for table, view in interleaved_tables(key, args.tables, args.moves, seed=1):
            names = load_names(key, table, list(view.seats))
            request = ImageRequest(key, "render_table", view, "es", names, "t.png", inputs=inputs)
            moves += 1
            before = shown.get(table)
            if before is not None and before[0] == request.digest:
                continue  # the message shows it already: neither drawn nor uploaded
            image = render_image(*request.args)
            drawn += 1
            identical += before is not None and before[1] == image
            shown[table] = (request.digest, image)
        rows[key] = (moves, drawn, identical)
        print(
            f"| {key} | {moves} | {drawn} | {drawn / moves:.3f} | {identical}"
            f" | {identical / max(drawn, 1):.1%} |"
        )
    shares = {key: LOAD_SHARES[key] for key in rows if key in LOAD_SHARES}
    if len(shares) > 1:
        total = sum(shares.values())
        redrawn = sum(shares[k] * rows[k][2] / max(rows[k][1], 1) for k in shares) / total
        print(f"| load mix | | | | | {redrawn:.2%} of the load's table images |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
