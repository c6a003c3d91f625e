"""What the bot keeps in memory stays bounded (issue 29: bot RSS <= 400 MB at 1,000 busy
tables; ``bench/memory_census.py`` finds what grows): each bound here fails its test if it
goes."""

from __future__ import annotations

import gc
import random
from typing import Any

import discord
import pytest

from bot.registry import load_games
from bot.ui.rendering import CACHE_BYTES, ImageRequest, Renderer, image_inputs
from bot.ui.tokens import Tokens
from tests.bot.test_token_wire import BASE, CLICK, Wire, _card, _click, _unbounded
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
    # 64 MB filled at 1,000 busy tables for ~1.5 % of the images drawn again (issue 29)
    assert Renderer().cache_bytes == CACHE_BYTES <= 16 * 1024 * 1024


@pytest.fixture
def wire(monkeypatch: pytest.MonkeyPatch) -> Wire:
    monkeypatch.setattr(discord.http.Route, "BASE", BASE)
    return Wire()


async def test_a_kept_token_edits_as_its_click_but_holds_nothing_of_the_click(wire):
    """A hook keeps an interaction's token for 14 minutes, not its click's gateway event (the
    clicked message's payload, the clicker, the options: ~9 KB a hook)."""
    click = _click(wire)
    tokens = Tokens(clock=lambda: 0.0)
    tokens.offer("public", click, 2, received=0.0)
    await click.followup.edit_message("@original", view=_card())  # type: ignore[arg-type]
    hook = tokens.fresh("public", 2)
    assert hook is not None
    kept: Any = hook.interaction
    assert (kept.message, kept.data, kept.user, kept.channel) == (None, None, None, None)
    assert (kept.id, kept.token, kept.application_id) == (click.id, CLICK["token"], 1)
    assert kept.created_at == click.created_at
    await hook.edit({"view": _card()})  # as the views edit through it
    theirs, ours = (_unbounded(r) for r in wire.sent)
    assert ours == theirs
    clicked = (click.message, click.data, click.user)
    assert clicked[0] is not None
    assert not [o for o in gc.get_referents(kept) if any(o is c for c in clicked)]
