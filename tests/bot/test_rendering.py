"""Images off the event loop (``bot.ui.rendering``): what the cache key leaves out is really not
drawn, unchanged images are reused, and a worker process draws the same bytes."""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import hashlib
import importlib.util
import itertools
import json
import pickle
import pickletools
import random
import weakref

import discord
import pytest
from pydantic import ConfigDict

from bot import metrics
from bot.pipe_workers import DEPTH, PipeWorkers, _Meter
from bot.registry import load_games
from bot.ui.alt_text import describe, render_described
from bot.ui.images import fonts
from bot.ui.messages import finish
from bot.ui.payload import Payload
from bot.ui.rendering import (
    CACHE_BYTES,
    IMAGE_KIB,
    NOT_DRAWN,
    REUSED,
    ImageRequest,
    Renderer,
    SentRender,
    Superseded,
    builtin_sha256,
    drawn_part,
    image_inputs,
    included,
    install,
    json_rebuilds,
    render_image,
)
from bot.workers import Workers
from tests.playouts import played, random_states

GAMES = load_games()


def _views(key: str, moves: int = 8):
    """The public view and every seat's view after a few random moves."""
    game = GAMES[key]
    seats = [str(100 + i) for i in range(max(game.min_players, 2))]
    state = played(game, game.new(seats, f"render-{key}", None), random.Random(3), moves)
    return seats, [(None, game.view(state, None))] + [(s, game.view(state, s)) for s in seats]


def _request(key: str, seat, view, seats) -> ImageRequest:
    if seat is None:
        names = {s: f"p{s}" for s in seats}
        return ImageRequest(key, "render_table", view, "es", names, "table.png")
    inputs = image_inputs(key, "render_hand")
    return ImageRequest(key, "render_hand", view, "es", None, "hand.png", inputs=inputs)


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
    reused_before = metrics.histograms[REUSED].count
    sized_before = metrics.histograms[IMAGE_KIB].count
    try:
        seats, views = _views("chupate2")
        seat, view = views[1]
        request = _request("chupate2", seat, view, seats)
        first = await renderer.render(request)
        again = await renderer.render(_request("chupate2", seat, view, seats))
        assert first == again and first.startswith(b"\x89PNG")
        assert (renderer.renders, renderer.reused) == (1, 1)
        # What the benches read for the hit rate and the bytes per image (issue 29).
        assert metrics.histograms[REUSED].count == reused_before + 1
        sizes = metrics.histograms[IMAGE_KIB]
        assert sizes.count == sized_before + 1 and sizes.samples[-1] == len(first) / 1024

        embed = discord.Embed(title="x").set_image(url="attachment://hand.png")
        fresh = Payload(embeds=[embed], image=request)
        digest = await finish(fresh)
        assert digest == request.digest and [f.filename for f in fresh.files] == ["hand.png"]
        kept = Payload(embeds=[embed], image=request)
        assert await finish(kept, shown=digest) == digest
        assert kept.files == [] and "attachments" not in kept.edit_kwargs()  # left as it is
    finally:
        install(previous)


async def test_the_cache_keeps_at_most_its_bytes_the_newest_images_first():
    """Drawn images are kept by digest up to ``cache_bytes`` (the bot's RSS: issue 29), the
    oldest dropped first: a dropped image is drawn again, a kept one is not."""
    game = GAMES["chupate2"]
    seats = ["100", "101"]
    states = random_states(game, game.new(seats, "render-cache", None), random.Random(5), 60)
    requests: list[ImageRequest] = []
    for state in states:
        request = _request("chupate2", None, game.view(state, None), seats)
        if all(r.digest != request.digest for r in requests):
            requests.append(request)
        if len(requests) == 6:
            break
    sizes = [len(render_image("chupate2", "render_table", r.view, "es", r.names)) for r in requests]
    renderer = Renderer(cache_bytes=sum(sizes[-3:]))  # the last three images, no more
    for request in requests:
        await renderer.render(request)
    assert renderer.renders == 6 and renderer._cached_bytes <= renderer.cache_bytes
    await renderer.render(dataclasses.replace(requests[-1]))  # kept
    assert (renderer.renders, renderer.reused) == (6, 1)
    await renderer.render(dataclasses.replace(requests[0]))  # dropped: drawn again
    assert (renderer.renders, renderer.reused) == (7, 1)
    assert Renderer().cache_bytes == CACHE_BYTES <= 16 * 1024 * 1024


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


class _InFlight:
    """Counts a pool's jobs under way at once."""

    def __init__(self, run) -> None:
        self._run = run
        self.now = self.most = 0

    async def run(self, *args, **how):
        self.now += 1
        self.most = max(self.most, self.now)
        try:
            return await self._run(*args, **how)
        finally:
            self.now -= 1


async def test_the_pipe_pool_gets_the_next_image_while_it_draws_one():
    """A pipe worker holds the image it draws and the next one (``DEPTH``), so it never waits
    for the event loop between two; the executor pool gets one at a time (it queues itself).
    The pipe pool orders the other waiting renders itself: they wait in it, not in its pipes."""
    seats, views = _views("triad")
    requests = [_request("triad", *view, seats) for view in views[:3]]
    assert len({r.digest for r in requests}) == 3
    # the executor pool: the renderer hands it one job at a time
    workers = Workers(1)
    renderer = Renderer(workers)
    counter = _InFlight(workers.run)
    workers.run = counter.run  # type: ignore[method-assign]
    try:
        images = await asyncio.gather(*(renderer.render(r) for r in requests))
    finally:
        renderer.close()
    assert images == [render_image(*r.args) for r in requests]
    assert counter.most == 1
    # the pipe pool: at most DEPTH jobs in its one worker's pipe at a time, and it got them
    pipes = PipeWorkers(1)
    renderer = Renderer(pipes)
    held: list[int] = []
    dispatch = pipes._dispatch

    def counted(state) -> None:
        dispatch(state)
        held.append(max((len(w.jobs) for w in state.workers), default=0))

    pipes._dispatch = counted  # type: ignore[method-assign]
    try:
        images = await asyncio.gather(*(renderer.render(r) for r in requests))
    finally:
        renderer.close()
    assert images == [render_image(*r.args) for r in requests]
    assert max(held) == DEPTH


async def test_an_image_superseded_for_its_first_asker_is_still_drawn_for_the_second():
    """Two asks for one image share its render; when the first asker no longer wants it (its
    message moved on) the second, which does (an answer to a click), still gets the image."""
    seats, views = _views("triad")
    table = _request("triad", *views[0], seats)
    hand = _request("triad", *views[1], seats)
    renderer = Renderer(Workers(1))
    try:
        # The worker is busy with the table; two asks for the hand wait behind it.
        drawn_table, skipped, drawn_hand = await asyncio.gather(
            renderer.render(table),
            renderer.render(hand, wanted=lambda: False),
            renderer.render(hand),
            return_exceptions=True,
        )
    finally:
        renderer.close()
    assert isinstance(skipped, Superseded)
    assert drawn_hand == render_image(*hand.args)
    assert drawn_table is not None and renderer.skipped == 1 and renderer.renders == 2


class _OrderedPool(Workers):
    """A pool that orders its jobs (like the pipe pool), recording each job's rank, since and
    affinity, and superseding it when ``wanted()`` is false (it draws inline)."""

    ordered = True

    def __init__(self) -> None:
        super().__init__(1)
        self.asked: list[tuple[int, float]] = []
        self.affinities: list[object] = []

    async def run(self, fn, *args, rank=1, since=None, wanted=None, affinity=None):
        self.asked.append((rank, since))
        self.affinities.append(affinity)
        if wanted is not None and not wanted():
            raise Superseded
        return fn(*args)


async def test_a_superseded_renders_successor_keeps_its_place_and_first_ones_rank_first():
    """Issue 25: a render whose message moved on is not drawn, and the render of its newer
    version waits in line from when the superseded one did (a busy table is not sent to the
    back each time it moves); a render someone waits for to act ranks first."""
    seats, views = _views("triad")
    old, new, other = (_request("triad", *view, seats) for view in views[:3])
    pool = _OrderedPool()
    ticks = itertools.count()  # a clock that moves on at every reading: no waiting for time
    renderer = Renderer(pool, clock=lambda: float(next(ticks)))
    with pytest.raises(Superseded):
        await renderer.render(old, lambda: False, first=False, place=("public", 1))
    assert await renderer.render(new, lambda: True, first=False, place=("public", 1))
    assert await renderer.render(other, first=True, place=("public", 2))
    (r_old, s_old), (r_new, s_new), (r_other, s_other) = pool.asked
    assert (r_old, r_new, r_other) == (1, 1, 0)
    assert s_new == s_old and s_other > s_old  # the newer version kept the old one's place
    assert (renderer.renders, renderer.skipped) == (2, 1)
    # a message's images go to the pool with their message: one worker draws them (its caches)
    assert pool.affinities == [("public", 1), ("public", 1), ("public", 2)]
    _, later = _views("triad", moves=3)
    newest = _request("triad", *later[0], seats)
    assert newest.digest not in (old.digest, new.digest)
    await renderer.render(newest, first=False, place=("public", 1))  # the owed place: used up
    assert pool.asked[-1][1] > s_new


def _seat_views_over_time(key: str, seat_count: int = 3, moves: int = 40, every: int = 3):
    """Each seat's view every few random moves (the same seat's views differ in other fields)."""
    game = GAMES[key]
    seats = [str(100 + i) for i in range(max(game.min_players, min(seat_count, game.max_players)))]
    states = list(
        random_states(game, game.new(seats, f"inputs-{key}", None), random.Random(5), moves)
    )
    return {s: [game.view(state, s) for state in states[::every]] for s in seats}


@pytest.mark.parametrize("key", sorted(GAMES))
def test_declared_image_inputs_are_all_a_hand_image_reads(key):
    """A hand image keyed on its declared inputs only: the same inputs with every other field
    taken from another moment of the game draw the very same bytes."""
    inputs = image_inputs(key, "render_hand")
    if inputs is None:
        return
    compared = 0
    for views in _seat_views_over_time(key).values():
        for now, other in zip(views, views[1:] + views[:1], strict=True):
            mixed = other.model_copy(update={f: getattr(now, f) for f in inputs})
            assert _request(key, "s", mixed, []).digest == _request(key, "s", now, []).digest
            drawn = render_image(key, "render_hand", now, "es", None)
            assert render_image(key, "render_hand", mixed, "es", None) == drawn
            # what a worker gets: the view cut to the declared inputs (``drawn_part``)
            assert render_image(*_request(key, "s", now, []).args) == drawn
            compared += 1
    assert compared >= 6


def _inputs_of(view, inputs: frozenset[str]) -> dict:
    return view.model_dump(include=included(type(view), inputs))


def _mixed(now, other, inputs: frozenset[str]):
    """``other`` with the declared inputs of ``now``: whole fields, for ``"top.sign"`` the
    ``sign`` of ``now``'s ``top`` put on ``other``'s, and for ``"players.coins"`` the ``coins``
    of each of ``now``'s players put on ``other``'s (same length: same game)."""
    data = other.model_dump()
    for field, part in included(type(now), inputs).items():
        if part is True:
            data[field] = now.model_dump(include={field})[field]
            continue
        ours = now.model_dump(include={field: part})[field]
        if isinstance(ours, dict):  # some fields of a model
            data[field].update(ours)
            continue
        assert len(ours) == len(data[field])
        for theirs, our_item in zip(data[field], ours, strict=True):
            theirs.update(our_item)
    return type(now).model_validate(data)


def test_a_digest_is_its_head_and_drawn_fields_hashed_whatever_order_names_come_in():
    """The digest (stored with each message, compared after a restart) is the SHA-256 of its
    head's JSON and the drawn fields' JSON, the heads kept per process or not; names given
    in another order make the same digest."""
    seats, views = _views("chupate2")
    view = views[0][1]
    inputs = image_inputs("chupate2", "render_table")
    names = {s: f"p{s}" for s in seats}
    backwards = dict(reversed(names.items()))
    head = json.dumps(["chupate2", "render_table", "es", names, {}], sort_keys=True)
    drawn = view.model_dump_json(include=included(type(view), inputs))
    expected = hashlib.sha256(f"{head}\n{drawn}".encode()).hexdigest()
    for given in (names, backwards, names):
        request = ImageRequest(
            "chupate2", "render_table", view, "es", given, "t.png", inputs=inputs
        )
        assert request.digest == expected
    other = ImageRequest("chupate2", "render_table", view, "en", names, "t.png", inputs=inputs)
    assert other.digest != expected
    extras = {"playable": {"b", "a"}}
    with_extras = ImageRequest("chupate2", "render_hand", view, "es", None, "h.png", extras)
    head = json.dumps(["chupate2", "render_hand", "es", None, {"playable": ["a", "b"]}])
    drawn = view.model_dump_json(exclude=NOT_DRAWN & set(type(view).model_fields))
    assert with_extras.digest == hashlib.sha256(f"{head}\n{drawn}".encode()).hexdigest()


def test_the_digest_s_sha_256_is_cpython_s_own_and_hashes_as_hashlib_does():
    """Digests are hashed by CPython's own SHA-256 where the interpreter has it (not OpenSSL's:
    cheaper once a move, issue 29), and it gives ``hashlib``'s digests, up to sizes past a
    block and past the 2,048 bytes where CPython changes how it feeds a hash."""
    sha256 = builtin_sha256()
    own = importlib.util.find_spec("_sha2") or importlib.util.find_spec("_sha256")
    assert own is not None, "this interpreter has CPython's own SHA-256"
    assert sha256 is not hashlib.sha256
    assert sha256.__module__ in {"_sha2", "_sha256"}
    rng = random.Random(29)
    for size in (0, 1, 55, 56, 64, 119, 1000, 2047, 2048, 2049, 5000):
        data = bytes(rng.randrange(256) for _ in range(size))
        assert sha256(data).hexdigest() == hashlib.sha256(data).hexdigest()


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_game_s_digests_are_the_sha_256_of_the_head_and_the_drawn_json_text(key):
    """Each game's table and hand images, through their game: the digest is the hash of the
    text ``{head}\n{model_dump_json}`` (stored digests stay valid whatever builds it)."""
    seats, views = _views(key)
    names = {s: f"p{s}" for s in seats}
    compared = 0
    for seat, view in views:
        for function, given, extras in (
            ("render_table", names, {}),
            ("render_hand", None, {"seat": seat}),
        ):
            inputs = image_inputs(key, function)
            request = ImageRequest(key, function, view, "es", given, "i.png", extras, inputs)
            head = json.dumps([key, function, "es", given, extras], sort_keys=True)
            if inputs is not None:
                drawn = view.model_dump_json(include=included(type(view), inputs))
            else:
                drawn = view.model_dump_json(exclude=NOT_DRAWN & set(type(view).model_fields))
            assert request.digest == hashlib.sha256(f"{head}\n{drawn}".encode()).hexdigest()
            compared += 1
    assert compared >= 2


# Games whose every move changes the table image (a Triple Triad move places or picks a card,
# both drawn): their table inputs are declared for what a render worker is sent, not to reuse.
EVERY_MOVE_DRAWN = {"triad"}


@pytest.mark.parametrize("key", sorted(GAMES))
def test_declared_table_image_inputs_are_all_the_table_image_reads(key):
    """A table image keyed on its declared inputs only (issue 29: a move that changes only what
    the text says, e.g. counts and whose turn, reuses the image): the same inputs with every
    other field taken from another moment of the game draw the very same bytes."""
    inputs = image_inputs(key, "render_table")
    if inputs is None:
        return
    game = GAMES[key]
    seats = [str(100 + i) for i in range(max(game.min_players, min(3, game.max_players)))]
    names = {s: f"p{s}" for s in seats}
    start = game.new(seats, f"table-inputs-{key}", None)
    views = [game.view(state, None) for state in random_states(game, start, random.Random(7), 60)]
    kept = 0
    for now, other in zip(views, views[3:] + views[:3], strict=True):
        mixed = _mixed(now, other, inputs)
        drawn = render_image(key, "render_table", now, "es", names)
        assert render_image(key, "render_table", mixed, "es", names) == drawn
        # what a worker gets: the view cut to the declared inputs (``drawn_part``)
        request = ImageRequest(key, "render_table", now, "es", names, "t.png", inputs=inputs)
        assert render_image(*request.args) == drawn
    for before, after in zip(views, views[1:], strict=False):
        kept += _inputs_of(before, inputs) == _inputs_of(after, inputs)
    assert len(views) >= 10
    if key in EVERY_MOVE_DRAWN:
        return
    assert kept >= 1, "no move of the sample left the table image as it was"


async def test_a_hand_image_is_not_drawn_again_when_only_the_table_changed():
    """Other players' moves change the seat's view (counts, top card, turn) but not its hand:
    the hand image is drawn once and then reused (counted renders, not time)."""
    renderer = Renderer()
    previous = install(renderer)
    try:
        key = "maquiavelo"
        game = GAMES[key]
        seats = ["100", "101", "102", "103", "104"]
        state = game.new(seats, "hand-kept", None)
        first = sorted(game.to_act(state))[0]
        me = seats[seats.index(first) - 1]  # the last to play: four others move first
        requests: list[ImageRequest] = []
        while len(requests) < 4 and game.outcome(state) is None:
            mover = sorted(game.to_act(state))[0]
            if mover == me:
                break
            before = game.view(state, me)
            action = game.choose_action(
                game.view(state, mover), game.legal_actions(state, mover), "easy", random.Random(1)
            )
            state, _ = game.apply(state, mover, action)
            after = game.view(state, me)
            if after.hand == before.hand:
                requests.append(_hand_request(key, after))
        assert len(requests) >= 2, "the others' moves did change the view"
        assert len({r.view.model_dump_json(exclude={"version"}) for r in requests}) > 1
        for request in requests:
            await renderer.render(request)
        assert renderer.renders == 1 and renderer.reused == len(requests) - 1
    finally:
        install(previous)


def _hand_request(key: str, view) -> ImageRequest:
    inputs = image_inputs(key, "render_hand")
    return ImageRequest(key, "render_hand", view, "es", None, "hand.png", inputs=inputs)


@pytest.mark.parametrize("key", sorted(GAMES))
def test_remembered_text_bitmaps_draw_the_same_image_as_fresh_fonts(key):
    seats, views = _views(key)
    for seat, view in views:
        request = _request(key, seat, view, seats)
        fonts.font.cache_clear()  # fresh fonts: every string rasterised anew
        fresh = render_image(key, request.function, view, "es", request.names)
        again = render_image(key, request.function, view, "es", request.names)  # remembered
        assert fresh == again


def test_a_dotted_input_keys_one_field_of_each_item_of_a_list():
    """``"players.coins"`` (issue 29): Macarena's table image changes with a player's coins, not
    with their hand count (the text says it), so a draw keeps the image."""
    seats, views = _views("macarena")
    view = views[0][1]
    assert included(type(view), frozenset({"pozos", "players.coins", "players.seat"})) == {
        "players": {"__all__": {"coins", "seat"}},
        "pozos": True,
    }
    inputs = image_inputs("macarena", "render_table")
    assert inputs is not None and "players.coins" in inputs

    def key(players: list) -> str:
        changed = view.model_copy(update={"players": players})
        return ImageRequest(
            "macarena", "render_table", changed, "es", None, "t.png", inputs=inputs
        ).digest

    first = view.players[0]
    more_cards = first.model_copy(update={"hand_count": first.hand_count + 3, "has_turn": True})
    more_coins = first.model_copy(update={"coins": first.coins + 1})
    assert key([more_cards, *view.players[1:]]) == key(view.players)
    assert key([more_coins, *view.players[1:]]) != key(view.players)


def test_a_dotted_input_keys_some_fields_of_a_model_field():
    """``"top.sign"`` (issue 29): Ce Amapatolli's table image draws the last card's face, not
    which copy of it lies there: a twin played on its twin keeps the image (7 % of the table's
    images were drawn again identical), a card of another sign does not. A render worker gets
    the card holding the drawn fields alone, and draws the same image from it."""
    from games.amapatolli.view import card_views

    seats, views = _views("amapatolli")
    view = views[0][1]
    inputs = image_inputs("amapatolli", "render_table")
    assert inputs is not None and "top.sign" in inputs and "top" not in inputs
    drawn_of_top = included(type(view), inputs)["top"]
    assert isinstance(drawn_of_top, set) and {"sign", "name"} <= drawn_of_top
    assert not {"id", "value"} & drawn_of_top
    cards = card_views(view.options)
    twin = next(
        c
        for c in cards.values()
        if c.id != view.top.id
        and c.model_dump(exclude={"id"}) == view.top.model_dump(exclude={"id"})
    )
    other = next(c for c in cards.values() if c.sign != view.top.sign and not c.wild)

    def request(top) -> ImageRequest:
        changed = view.model_copy(update={"top": top})
        return ImageRequest("amapatolli", "render_table", changed, "es", None, "t.png", {}, inputs)

    assert request(twin).digest == request(view.top).digest
    assert request(other).digest != request(view.top).digest
    drawn = render_image(*request(view.top).args)
    assert render_image(*request(twin).args) == drawn
    sent = request(twin).sent_args
    assert sent is not None
    rebuilt = SentRender(render_image).arguments(sent)
    assert type(rebuilt[2].top) is type(view.top)
    assert rebuilt[2].top.__dict__ == {k: getattr(twin, k) for k in sorted(drawn_of_top)}
    assert render_image(*rebuilt) == drawn


async def test_a_failed_render_leaves_no_cycle_for_the_collector():
    """A render's exception is freed by reference counting once its asker lets it go: no
    cycle of the exception's traceback, ``render``'s frame and the future holding the
    exception is left for the garbage collector, whose walks are the bot's longest pauses
    (issue 29)."""

    class _Superseding(Renderer):
        async def _draw(self, request, wanted, first=True, place=None):
            raise Superseded()

    seats, views = _views("chupate2")
    renderer = _Superseding()
    gc.disable()  # what is freed below is freed by reference counting alone
    try:
        try:
            await renderer.render(_request("chupate2", *views[1], seats))
        except Superseded as exc:
            gone = weakref.ref(exc)
        assert gone() is None
    finally:
        gc.enable()


def _drawn_values(view, inputs) -> dict:
    """The drawn fields' values: whole fields as they are, a dotted input's items as the dict
    of their drawn fields."""
    if inputs is None:
        return {k: v for k, v in view.__dict__.items() if k not in NOT_DRAWN}
    values = {}
    for name, part in included(type(view), inputs).items():
        value = view.__dict__.get(name)
        if part is True:
            values[name] = value
        elif isinstance(part, set):  # some fields of a model
            values[name] = {k: v for k, v in value.__dict__.items() if k in part}
        else:
            wanted = part["__all__"]
            values[name] = [{k: v for k, v in i.__dict__.items() if k in wanted} for i in value]
    return values


def plain_data(pickled: bytes) -> bool:
    """Whether ``pickled`` holds data alone: no class nor function looked up to unpickle it."""
    found = {op.name for op, _, _ in pickletools.genops(pickled)}
    return not found & {"GLOBAL", "STACK_GLOBAL", "INST", "OBJ", "REDUCE", "NEWOBJ", "BUILD"}


@pytest.mark.parametrize("key", sorted(GAMES))
def test_a_worker_sent_the_digests_json_rebuilds_the_drawn_part_and_draws_the_same(key):
    """Issue 29: a render worker is sent the drawn part as the very JSON its digest hashed (one
    serialisation per image, not a second pickling of a tree of models); unpickled, it is a
    view of the game's own class holding the drawn fields with the same values (a dotted
    input's items their drawn fields), from which the same image is drawn."""
    seats, views = _views(key, moves=12)
    names = {s: f"p{s}" for s in seats}
    compared = 0
    for _, view in views:
        for function, given, inputs in (
            ("render_table", names, image_inputs(key, "render_table")),
            ("render_hand", None, image_inputs(key, "render_hand")),
            ("render_table", names, None),  # nothing declared: all but ``NOT_DRAWN``
            # a set of its own, not the declared one (sent as the set, not by its name)
            ("render_table", names, frozenset(image_inputs(key, "render_table") or ())),
        ):
            request = ImageRequest(key, function, view, "es", given, "i.png", {}, inputs)
            sent = request.sent_args
            assert sent is not None and sent[4] == request.drawn_json
            # plain data: no class nor function of ours pickled with each job
            assert plain_data(pickle.dumps(sent))
            job = SentRender(render_described)
            fn, args = _Meter().unpickle(pickle.dumps((-1, job, sent)))  # as a worker reads it
            rebuilt = args[2]
            assert type(rebuilt) is type(view)
            assert rebuilt.__dict__.keys() == _drawn_values(view, inputs).keys()
            assert _drawn_values(rebuilt, inputs) == _drawn_values(view, inputs)
            drawn = render_image(key, function, view, "es", given)
            assert render_image(*args) == drawn
            # the worker's job writes the alt text from it too: the bot's, from the whole view
            assert fn(*args) == (drawn, describe(request))
            compared += 1
    assert compared >= 6


def test_a_part_that_cannot_be_rebuilt_from_json_goes_as_the_part_itself():
    """A view whose drawn part JSON could not give back (a dotted input on a field that is
    not a list of models, a model keeping extra values) is sent cut, as ``args`` cuts it."""
    seats, views = _views("macarena")
    view = views[0][1]
    assert json_rebuilds(type(view), frozenset({"players.coins", "pozos"}))
    for inputs in (frozenset({"hand_number.real"}), frozenset({"winners.x"})):
        assert not json_rebuilds(type(view), inputs)
        request = ImageRequest("macarena", "render_table", view, "es", None, "t.png", {}, inputs)
        assert request.sent_args is None
        pickling = Renderer(PipeWorkers(1))
        assert pickling._sent(request) == (pickling._run, request.args)
        assert request.args[2] == drawn_part(view, inputs)

    class _Loose(type(view)):
        model_config = ConfigDict(extra="allow")

    assert not json_rebuilds(_Loose, None)


async def test_the_render_pool_is_sent_the_digests_json_and_an_inline_pool_the_part():
    """The pipe pool (it pickles each job) gets the drawn part as its JSON and draws the same
    image; a pool running its jobs in this process gets the cut view itself."""
    seats, views = _views("triad")
    requests = [_request("triad", *view, seats) for view in views[:2]]
    sent: list[tuple] = []

    class _Recording(PipeWorkers):
        async def run(self, fn, *args, **how):
            sent.append(args)
            return await super().run(fn, *args, **how)

    renderer = Renderer(_Recording(1))
    try:
        images = [await renderer.render(r) for r in requests]
    finally:
        renderer.close()
    assert images == [render_image(*r.args) for r in requests]
    assert [args[4] for args in sent] == [r.drawn_json for r in requests]
    pool = _OrderedPool()
    assert await Renderer(pool).render(dataclasses.replace(requests[0])) == images[0]


def test_a_requests_drawn_json_and_digest_are_computed_once_and_kept():
    """``kept_once``: read once per payload, kept on the request (a request built again, as
    every payload builds its own, computes them afresh)."""
    seats, views = _views("triad")
    request = _request("triad", *views[0], seats)
    assert "digest" not in request.__dict__ and "drawn_json" not in request.__dict__
    digest = request.digest
    assert request.__dict__["digest"] is digest and request.digest is digest
    assert request.drawn_json is request.__dict__["drawn_json"]
    again = dataclasses.replace(request)
    assert "digest" not in again.__dict__ and again.digest == digest
    assert type(request).__dict__["digest"].__doc__.startswith("SHA-256")
