"""Images off the event loop (``bot.ui.rendering``): what the cache key leaves out is really not
drawn, unchanged images are reused, and a worker process draws the same bytes."""

from __future__ import annotations

import asyncio
import random

import discord
import pytest

from bot.registry import load_games
from bot.ui.messages import finish
from bot.ui.payload import Payload
from bot.ui.rendering import (
    NOT_DRAWN,
    ImageRequest,
    Renderer,
    Superseded,
    install,
    render_image,
)
from bot.workers import Workers

GAMES = load_games()


def _views(key: str, moves: int = 8):
    """The public view and every seat's view after a few random moves."""
    game = GAMES[key]
    seats = [str(100 + i) for i in range(max(game.min_players, 2))]
    state = game.new(seats, f"render-{key}", None)
    rng = random.Random(3)
    for _ in range(moves):
        movers = [s for s in game.to_act(state) if game.legal_actions(state, s)]
        if game.outcome(state) is not None or not movers:
            break
        seat = rng.choice(movers)
        state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    return seats, [(None, game.view(state, None))] + [(s, game.view(state, s)) for s in seats]


def _request(key: str, seat, view, seats) -> ImageRequest:
    if seat is None:
        names = {s: f"p{s}" for s in seats}
        return ImageRequest(key, "render_table", view, "es", names, "table.png")
    return ImageRequest(key, "render_hand", view, "es", None, "hand.png")


@pytest.mark.parametrize("key", sorted(GAMES))
def test_what_the_cache_key_leaves_out_is_not_drawn(key):
    seats, views = _views(key)
    for seat, view in views:
        request = _request(key, seat, view, seats)
        before = render_image(key, request.function, view, "es", request.names)
        if before is None:
            continue
        changed = {"version": view.version + 7}
        for name in NOT_DRAWN - {"version"}:
            if name in type(view).model_fields:
                changed[name] = []
        other = view.model_copy(update=changed)
        assert _request(key, seat, other, seats).digest == request.digest
        assert render_image(key, request.function, other, "es", request.names) == before


async def test_an_unchanged_image_is_drawn_once_and_not_uploaded_again():
    renderer = Renderer()
    previous = install(renderer)
    try:
        seats, views = _views("chupate2")
        seat, view = views[1]
        request = _request("chupate2", seat, view, seats)
        first = await renderer.render(request)
        again = await renderer.render(_request("chupate2", seat, view, seats))
        assert first == again and first.startswith(b"\x89PNG")
        assert (renderer.renders, renderer.reused) == (1, 1)

        embed = discord.Embed(title="x").set_image(url="attachment://hand.png")
        fresh = Payload(embeds=[embed], image=request)
        digest = await finish(fresh)
        assert digest == request.digest and [f.filename for f in fresh.files] == ["hand.png"]
        kept = Payload(embeds=[embed], image=request)
        assert await finish(kept, shown=digest) == digest
        assert kept.files == [] and "attachments" not in kept.edit_kwargs()  # left as it is
    finally:
        install(previous)


async def test_a_worker_process_draws_the_same_image_and_skips_superseded_ones():
    seats, views = _views("triad")
    table = _request("triad", *views[0], seats)
    hand = _request("triad", *views[1], seats)
    renderer = Renderer(Workers(1))
    try:
        # The one worker draws the table; the hand waits for it and is no longer wanted.
        drawn, skipped = await asyncio.gather(
            renderer.render(table),
            renderer.render(hand, wanted=lambda: False),
            return_exceptions=True,
        )
    finally:
        renderer.close()
    assert drawn == render_image("triad", table.function, table.view, "es", table.names)
    assert isinstance(skipped, Superseded)
    assert (renderer.renders, renderer.skipped) == (1, 1)
