"""What the bot keeps in memory stays bounded (issue 29: bot RSS <= 400 MB at 1,000 busy
tables; ``bench/memory_census.py`` finds what grows): each bound here fails its test if it
goes."""

from __future__ import annotations

import random

from bot.registry import load_games
from bot.ui.rendering import CACHE_BYTES, ImageRequest, Renderer, image_inputs
from tests.playouts import played

GAMES = load_games()


def _hand_requests(count: int) -> list[ImageRequest]:
    """Hand images of ``count`` different deals (each its own digest)."""
    key = "chupate2"
    game = GAMES[key]
    inputs = image_inputs(key, "render_hand")
    requests = []
    for n in range(count):
        state = played(game, game.new(["100", "101"], f"bound-{n}", None), random.Random(n), 2)
        view = game.view(state, "100")
        requests.append(ImageRequest(key, "render_hand", view, "es", None, "h.png", inputs=inputs))
    assert len({r.digest for r in requests}) == count
    return requests


async def test_the_image_cache_keeps_at_most_its_bytes_the_oldest_dropped_first():
    requests = _hand_requests(5)
    sizer = Renderer()
    sizes = [len(await sizer.render(r) or b"") for r in requests]
    # room for the two largest images but not for three of them
    renderer = Renderer(cache_bytes=sum(sorted(sizes)[-2:]) + 1)
    for request in requests:
        await renderer.render(request)
        assert renderer._cached_bytes <= renderer.cache_bytes
    assert renderer.renders == 5 and len(renderer._cache) <= 2
    await renderer.render(requests[-1])  # the newest is kept
    assert (renderer.renders, renderer.reused) == (5, 1)
    await renderer.render(requests[0])  # the oldest was dropped: drawn again
    assert renderer.renders == 6


def test_the_image_cache_holds_at_most_16_mb():
    # 64 MB held ~60 MB of RSS at 1,000 busy tables for 1.7 % of the images (issue 29)
    assert Renderer().cache_bytes == CACHE_BYTES <= 16 * 1024 * 1024
