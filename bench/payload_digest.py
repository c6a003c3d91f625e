"""A digest of every payload the bot builds over a run of moves: per game, the public payload and
every seat's private payload (pages 0 and 1) of each of ``--row`` moves in a row, in Spanish and
English, as the JSON body of their edit (``edit_parameters``) and their image requests' digests.
Two trees that print the same digests build byte-identical payloads: the check of a change meant
to make payloads cheaper, not different (``--root`` for another checkout). The wall clock is
frozen (the turn's deadline ``<t:...:R>`` reads it).

    .venv/bin/python bench/payload_digest.py [--root /path/to/other/checkout] [--row 60]
    .venv/bin/python bench/payload_digest.py --drawn

``--drawn`` hashes each image's PNG, drawn as a render worker draws it from what it is sent, in
place of its key (its digest): the check of a change to what an image's key holds, which
changes the keys but must draw the very same images.

Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=HERE.parent, help="the tree whose bot runs")
    parser.add_argument("--row", type=int, default=60, help="moves in a row per game")
    parser.add_argument("--drawn", action="store_true", help="images' PNGs in place of their keys")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(args.root))
    sys.path.insert(0, str(HERE))
    time.time = lambda: 1_700_000_000.0  # the turn's deadline: the same in both trees
    return asyncio.run(_in_a_loop(args.root, args.row, args.drawn))


async def _in_a_loop(root: Path, row: int, drawn: bool = False) -> int:
    """As in the bot: discord.py's views make a future when a loop runs."""
    from profile_payloads import chosen, in_a_row

    from bot.i18n import translator
    from bot.registry import load_games
    from bot.ui import messages
    from bot.ui.payload import edit_parameters
    from bot.ui.presenter import presenter_for
    from bot.ui.rendering import ImageRequest, SentRender, render_image
    from tests.bot.presenter_kit import StubService, table_for

    def image_of(request: ImageRequest | None) -> str:
        if request is None:
            return "-"
        if not drawn:
            return request.digest
        sent = request.sent_args
        args = request.args if sent is None else SentRender(render_image).arguments(sent)
        return hashlib.sha256(render_image(*args) or b"").hexdigest()

    service = StubService()
    whole = hashlib.sha256()
    count = 0
    print(f"bot from {Path(messages.__file__).parents[2]}")
    for key, game in chosen(load_games(), None):
        presenter = presenter_for(game)
        seats = [f"s{i}" for i in range(2 if key == "triad" else max(game.min_players, 3))]
        digest = hashlib.sha256()
        for table in in_a_row(game, seats, row, table_for):
            for locale in ("es", "en"):
                tr = translator(locale)
                payloads = [messages.public_payload(table, presenter, service, tr)]
                payloads += [
                    messages.private_payload(table, presenter, seat, tr, page)
                    for seat in table.state.seats
                    for page in (0, 1)
                ]
                for payload in payloads:
                    body = edit_parameters(payload.edit_kwargs(), None).payload
                    blob = json.dumps(body, ensure_ascii=False).encode()
                    image = image_of(payload.image)
                    for into in (digest, whole):
                        into.update(blob)
                        into.update(image.encode())
                    count += 1
        print(f"{key}: {digest.hexdigest()[:16]}")
    print(f"all {count} payloads: {whole.hexdigest()[:16]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
