"""``bot.pipe_workers.PipeWorkers``: jobs fed from the event loop through one pipe per worker
(issue 29) give the same results and errors as the executor pool, queue beyond ``size``, and
survive a worker's death."""

from __future__ import annotations

import asyncio
import gc
import multiprocessing
import os
import pickle
import random
import signal
import threading
import time
import weakref
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.reduction import ForkingPickler

import pytest
from pydantic import BaseModel, ConfigDict, PrivateAttr

from bot import metrics
from bot.pipe_workers import (
    CPU_METRIC,
    DEPTH,
    SEARCH_DEPTH,
    STAGES,
    PipeWorkers,
    _has_reply,
    _Meter,
    _read_message,
    _Worker,
    _write_message,
    compact_dumps,
    create_workers,
    views_as_json_dumps,
)
from bot.service.choose import choose_action_text, game_ref
from bot.ui.images.fonts import ENCODE_CPU
from bot.ui.rendering import ImageRequest, Renderer, drawn_part, image_inputs, render_image
from bot.workers import RENDER_POOL, SEARCH_POOL, InlineWorkers, Workers
from games.core import PlayerView
from tests.bot.test_rendering import GAMES, _request, _views, plain_data
from tests.playouts import played


def _slow_pid(seconds: float) -> int:
    import time

    time.sleep(seconds)
    return os.getpid()


def _held_pid(release: str) -> int:
    """Runs until the file ``release`` exists (the test lets it go), then its pid: a job that
    is busy exactly as long as the test needs, however slow the machine."""
    import time

    give_up = time.monotonic() + 300  # a guard against a hang only
    while not os.path.exists(release) and time.monotonic() < give_up:
        time.sleep(0.005)
    return os.getpid()


def _fail(text: str) -> None:
    raise ValueError(text)


class JobFailed(Exception):
    """A job's own error (a class of ours: built-in exceptions take no weak reference)."""


def _fail_ours(text: str) -> None:
    raise JobFailed(text)


async def test_jobs_run_in_at_most_size_processes_and_return_their_results():
    workers = PipeWorkers(2)
    try:
        pids = await asyncio.gather(*(workers.run(_slow_pid, 0.05) for _ in range(6)))
        assert len(set(pids)) == 2 and os.getpid() not in pids
        assert await workers.run(sum, [1, 2, 3]) == 6
    finally:
        workers.shutdown()


async def test_a_jobs_exception_is_raised_to_its_caller_and_the_worker_stays():
    workers = PipeWorkers(1)
    try:
        first = await workers.run(os.getpid)
        with pytest.raises(ValueError, match="nope"):
            await workers.run(_fail, "nope")
        assert await workers.run(os.getpid) == first
    finally:
        workers.shutdown()


async def test_a_dead_worker_fails_its_job_and_the_next_job_gets_a_new_one(tmp_path):
    workers = PipeWorkers(1)
    try:
        pid = await workers.run(os.getpid)
        job = asyncio.ensure_future(workers.run(_held_pid, str(tmp_path / "never")))
        await asyncio.sleep(0)  # sent to the worker (in its pipe or running: both fail)
        os.kill(pid, signal.SIGKILL)
        with pytest.raises(BrokenProcessPool):
            await asyncio.wait_for(job, 60)
        assert await workers.run(os.getpid) not in (pid, os.getpid())
    finally:
        workers.shutdown()


class _Unhashable:
    """A job's callable that cannot be a dict key (it defines equality, not a hash)."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Unhashable)

    __hash__ = None  # type: ignore[assignment]

    def __call__(self, x: int) -> int:
        return x + 1


async def test_a_function_goes_once_to_a_worker_then_by_its_index_there(tmp_path):
    """Issue 29: a job's function is pickled (looked up by its module and name there and in
    the worker) only at its first job in a worker, then named by the index the worker keeps
    it at; a new worker is sent it again; a callable that cannot be a key goes every time."""
    messages: list[tuple] = []

    class _Recording(PipeWorkers):
        def _dumps(self, message: tuple) -> bytes:
            messages.append(message)
            return super()._dumps(message)

    workers = _Recording(1)
    try:
        pid = await workers.run(os.getpid)
        assert await workers.run(os.getpid) == pid
        assert await workers.run(sum, [1, 2]) == 3
        assert await workers.run(os.getpid) == pid and await workers.run(sum, [3]) == 3
        assert messages == [
            (0, os.getpid, ()),
            (0, ()),
            (1, sum, ([1, 2],)),
            (0, ()),
            (1, ([3],)),
        ]
        assert await workers.run(_Unhashable(), 1) == 2 and await workers.run(_Unhashable(), 2) == 3
        assert [m[0] for m in messages[-2:]] == [-1, -1] and len(messages[-1]) == 3
        os.kill(pid, signal.SIGKILL)
        with pytest.raises(BrokenProcessPool):
            await asyncio.wait_for(workers.run(_held_pid, str(tmp_path / "never")), 60)
        del messages[:]
        assert await workers.run(os.getpid) not in (pid, os.getpid())
        assert messages == [(0, os.getpid, ())]  # the new worker knows no function yet
    finally:
        workers.shutdown()


async def test_a_worker_pool_on_pipes_draws_the_same_image_as_inline():
    seats, views = _views("chupate2")
    request: ImageRequest = _request("chupate2", None, views[0][1], seats)
    pool = Renderer(PipeWorkers(1))
    try:
        assert await pool.render(request) == render_image(*request.args)
    finally:
        pool.close()


def _same_models(ours, theirs) -> int:
    """Asserts ``ours`` is ``theirs`` rebuilt: the same types, values and fields set, model by
    model, all the way down; the number of models compared."""
    assert type(ours) is type(theirs)
    if isinstance(theirs, BaseModel):
        assert ours.__pydantic_fields_set__ == theirs.__pydantic_fields_set__
        assert (ours.__pydantic_extra__, ours.__pydantic_private__) == (
            theirs.__pydantic_extra__,
            theirs.__pydantic_private__,
        )
        assert list(ours.__dict__) == list(theirs.__dict__)
        return 1 + sum(_same_models(ours.__dict__[k], v) for k, v in theirs.__dict__.items())
    if isinstance(theirs, dict):
        assert list(ours) == list(theirs)
        return sum(_same_models(ours[k], v) for k, v in theirs.items())
    if isinstance(theirs, list | tuple):
        assert len(ours) == len(theirs)
        return sum(_same_models(a, b) for a, b in zip(ours, theirs, strict=True))
    assert ours == theirs
    return 0


@pytest.mark.parametrize("key", sorted(GAMES))
def test_a_compact_job_unpickles_to_the_very_views_it_was_given(key):
    """The render pool's pickling (``compact_dumps``: each model as its class, values and
    fields set) gives back every view as it was, whole or cut to a renderer's inputs."""
    _, views = _views(key, moves=12)
    compared = 0
    for _, view in views:
        parts = [view] + [
            drawn_part(view, inputs)
            for function in ("render_table", "render_hand")
            if (inputs := image_inputs(key, function)) is not None
        ]
        for part in parts:
            job = (render_image, (key, "render_table", part, "es", {"1": "a"}, {}))
            back = ForkingPickler.loads(compact_dumps(job))
            assert back[0] is render_image and back[1][2] == part
            compared += _same_models(back[1][2], part)
            assert back[1][2].model_dump() == part.model_dump()
    assert compared > len(views)


@pytest.mark.parametrize("key", sorted(GAMES))
def test_a_search_job_sends_its_view_as_json_and_unpickles_to_it_and_the_same_choice(key):
    """The search pool sends each computer seat's view as its JSON (``views_as_json_dumps``):
    its job (``choose_action_text`` and its arguments) gives back the very view, type for
    type down to its events, and the same choice, as the job before pickling."""
    game = GAMES[key]
    pool = create_workers(1)
    assert isinstance(pool, PipeWorkers) and pool.views_as_json
    seats = [str(100 + i) for i in range(max(game.min_players, min(3, game.max_players)))]
    compared = 0
    for n in range(3):
        state = played(game, game.new(seats, f"search-{key}-{n}", None), random.Random(n), 6 + n)
        if game.is_over(state):
            continue
        for seat in sorted(game.to_act(state)):
            legal = game.legal_actions(state, seat)
            if not legal:
                continue
            args = (
                game_ref(game),
                game.view(state, seat),
                [a.encode() for a in legal],
                "easy",
                state.seed,
                ("cpu", seat, state.version),
                {},
            )
            data = views_as_json_dumps((choose_action_text, args))
            assert data_of(args[1]) in data  # the view as its JSON
            index, wrapper, sent = ForkingPickler.loads(data)
            # after a worker's first job, its arguments alone: plain data, no class of ours
            assert plain_data(pickle.dumps(sent))
            fn, back = _Meter().unpickle(data)  # as a worker reads it
            assert fn.fn is choose_action_text and back[0] == args[0] and back[2:] == args[2:]
            assert back[1] == args[1] and back[1].model_dump() == args[1].model_dump()
            # type for type as validating its JSON gives it (fields set: all it holds; no
            # engine reads which were given)
            compared += _same_models(back[1], type(args[1]).model_validate_json(data_of(args[1])))
            assert fn(*back) == choose_action_text(*args)
    assert compared > 0


def data_of(view: BaseModel) -> bytes:
    return view.__pydantic_serializer__.to_json(view)


def test_a_view_without_a_decoder_goes_in_a_search_job_compactly():
    """A view whose JSON no ``trusted_json`` decoder rebuilds (here: one keeping extra
    values) is pickled as ``compact_dumps`` pickles it, and comes back as it was."""
    view = _Noted(seat="1", seats=["1"], version=3, to_act=[], note=[1, 2])
    data = views_as_json_dumps((choose_action_text, ("ref", view, ["a"])))
    fn, back = _Meter().unpickle(data)
    assert fn is choose_action_text
    assert data == compact_dumps((-1, choose_action_text, ("ref", view, ["a"])))
    assert (
        back[1] == view
        and back[1].note == [1, 2]
        and back[1].__pydantic_extra__ == {"note": [1, 2]}
    )


class _Loose(BaseModel):
    model_config = ConfigDict(extra="allow")

    kept: int
    _note: str = PrivateAttr(default="")


class _Defaults(BaseModel):
    given: int
    default: list[int] = []


def test_a_models_fields_set_survives_compact_pickling():
    partly = _Defaults(given=1)  # ``default`` not set: pydantic's dumps tell it apart
    for model in (partly, _Defaults(given=1, default=[2]), [partly, partly]):
        back = ForkingPickler.loads(compact_dumps(model))
        _same_models(back, model)
    back = ForkingPickler.loads(compact_dumps(partly))
    assert back.model_dump(exclude_unset=True) == {"given": 1}


def test_a_model_with_extra_or_private_values_is_pickled_as_pydantic_pickles_it():
    loose = _Loose(kept=1, more=[2])
    loose._note = "private"
    back = ForkingPickler.loads(compact_dumps({"x": loose}))["x"]
    assert back == loose and back.more == [2] and back._note == "private"
    plain = _Loose.model_construct(kept=3)  # nothing extra, its private values unset
    assert ForkingPickler.loads(compact_dumps(plain)) == plain


class _Noted(PlayerView):
    model_config = ConfigDict(extra="allow")


def _nothing() -> None:
    return None


async def test_each_reply_carries_the_workers_cpu_by_stage_and_the_bot_observes_it():
    """Issue 29: where a worker's CPU goes per job, seen from the bot's metrics: one observation
    per job and stage; an image's encoding, observed in the worker, is forwarded under its own
    name and lies inside the job's ``run`` (same clock, nested interval)."""
    metrics.reset()
    workers = PipeWorkers(1)
    try:
        await workers.run(_nothing)  # the worker started, this module imported there
        await workers.run(_nothing)
        assert metrics.histograms[CPU_METRIC + "run"].count == 2
        for stage in STAGES:
            assert metrics.histograms[CPU_METRIC + stage].count == 2, stage
        assert ENCODE_CPU not in metrics.histograms  # no image encoded yet
        seats, views = _views("chupate2")
        request: ImageRequest = _request("chupate2", None, views[0][1], seats)
        await Renderer(workers).render(request)
        assert metrics.histograms[ENCODE_CPU].count == 1
        assert (
            0
            < metrics.histograms[ENCODE_CPU].total
            <= metrics.histograms[CPU_METRIC + "run"].samples[-1]
        )
    finally:
        workers.shutdown()
        metrics.reset()


def test_a_jobs_cpu_is_charged_to_the_stage_that_spent_it():
    """The meter on a clock the job itself moves: a job's 50 ms land in ``run``, none in the
    pipe's stages; the CPU between two jobs outside any stage is ``idle``."""
    cpu = [0.0]
    meter = _Meter(clock=lambda: cpu[0])
    ours, theirs = multiprocessing.Pipe()

    def job() -> str:
        cpu[0] += 0.050
        return "done"

    try:
        ours.send_bytes(ForkingPickler.dumps((-1, job.__name__, ())))
        meter.unpickle(meter.read(theirs))
        meter.send(theirs, (True, meter.run(job, ())))
        ok, value, spent, _ = ForkingPickler.loads(ours.recv_bytes())
        stages = dict(zip(STAGES, spent, strict=True))  # in ``STAGES``' order
        assert (ok, value) == (True, "done")
        assert stages["run"] == pytest.approx(50.0)
        assert stages["read"] == stages["unpickle"] == stages["idle"] == 0.0
        cpu[0] += 0.007  # spent between the reply and the next job: neither read nor run
        ours.send_bytes(ForkingPickler.dumps(None))
        meter.unpickle(meter.read(theirs))
        meter.send(theirs, (True, meter.run(_nothing, ())))
        _, _, spent, _ = ForkingPickler.loads(ours.recv_bytes())
        stages = dict(zip(STAGES, spent, strict=True))
        assert stages["run"] == 0.0 and stages["idle"] == pytest.approx(7.0)
    finally:
        ours.close()
        theirs.close()


def _comm() -> str:
    with open("/proc/self/comm", encoding="utf-8") as f:
        return f.read().strip()


@pytest.mark.skipif(not os.path.exists("/proc/self/comm"), reason="Linux names processes")
@pytest.mark.parametrize("kind", [PipeWorkers, Workers])
async def test_a_named_pools_workers_carry_its_name_for_the_benches(kind):
    workers = kind(1, name=RENDER_POOL)
    try:
        assert await workers.run(_comm) == RENDER_POOL
    finally:
        workers.shutdown()


async def test_a_worker_holds_the_next_job_while_it_runs_one_and_a_death_fails_both(tmp_path):
    workers = PipeWorkers(1)
    never = str(tmp_path / "never")
    try:
        pid = await workers.run(os.getpid)
        running = asyncio.ensure_future(workers.run(_held_pid, never))
        queued = asyncio.ensure_future(workers.run(_held_pid, never))
        later = asyncio.ensure_future(workers.run(os.getpid))  # waits in the pool, not the pipe
        await asyncio.sleep(0)  # the first two are sent to the worker, the third waits
        os.kill(pid, signal.SIGKILL)
        for job in (running, queued):
            with pytest.raises(BrokenProcessPool):
                await asyncio.wait_for(job, 60)
        assert await asyncio.wait_for(later, 30) not in (pid, os.getpid())
    finally:
        workers.shutdown()


def _name(name: str) -> str:
    return name


async def test_waiting_jobs_go_by_rank_then_since_and_an_unwanted_one_is_never_sent(tmp_path):
    """Issue 25: the pool hands out its waiting jobs by rank (a render a player's turn waits
    for first), then by since when they wait (a job may say it waits since earlier), then by
    arrival; a job whose ``wanted()`` is false when its turn comes is not run: ``Superseded``."""
    from bot.workers import Superseded

    workers = PipeWorkers(1)
    order: list[str] = []
    asked: list[str] = []

    async def job(name: str, **how) -> None:
        order.append(await workers.run(_name, name, **how))

    def unwanted() -> bool:
        asked.append("unwanted")
        return False

    try:
        await workers.run(os.getpid)  # the worker is up
        release = tmp_path / "release"
        busy = [asyncio.ensure_future(workers.run(_held_pid, str(release))) for _ in range(DEPTH)]
        await asyncio.sleep(0)  # both in the worker's pipe, held: the jobs below wait in the pool
        now = time.perf_counter()
        jobs = [
            asyncio.ensure_future(job("late")),
            asyncio.ensure_future(job("older", since=now - 3600)),
            asyncio.ensure_future(job("first", rank=0)),
            asyncio.ensure_future(job("dropped", rank=0, wanted=unwanted)),
            asyncio.ensure_future(job("kept", rank=0, since=now + 3600, wanted=lambda: True)),
        ]
        await asyncio.sleep(0)
        assert order == [] and asked == []  # nothing was handed out before its turn
        release.touch()  # the worker's pipe empties: the waiting jobs go, one by one
        results = await asyncio.wait_for(asyncio.gather(*jobs, return_exceptions=True), 60)
        await asyncio.gather(*busy)
    finally:
        workers.shutdown()
    assert order == ["first", "kept", "older", "late"]
    assert asked == ["unwanted"]
    assert isinstance(results[3], Superseded)


# ----- the computer players' search pool (``create_workers``) ----------------------------------


@pytest.mark.skipif(not os.path.exists("/proc/self/comm"), reason="Linux names processes")
async def test_the_search_pool_is_fed_through_pipes_and_starts_no_thread_in_the_bot():
    """Issue 29: the executor's queue feeder and manager threads cost the bot more CPU per move
    than the searches; the search pool talks to its workers from the loop, named for the
    benches (``bench/pool_cpu.py`` tells its CPU from the render pool's by that name)."""
    before = {t.ident for t in threading.enumerate()}
    metrics.reset()
    workers = create_workers(2, None, SEARCH_POOL)
    try:
        assert isinstance(workers, PipeWorkers) and workers.behind_newest_only
        names = await asyncio.gather(*(workers.run(_comm) for _ in range(6)))
        assert set(names) == {SEARCH_POOL}
        # the per-stage CPU figures are the render pool's (per image): no search among them
        assert not [name for name in metrics.histograms if name.startswith(CPU_METRIC)]
        started = [t.name for t in threading.enumerate() if t.ident not in before]
        assert started == []
    finally:
        workers.shutdown()
        metrics.reset()


async def test_a_long_search_holds_no_short_one_back_while_another_worker_is_free(tmp_path):
    """With every worker busy, a search waits in the pipe of the worker whose search started
    last, never behind the one running longest: the short searches asked after a long one
    all go to the other worker (queued behind any busy worker, as the render pool's jobs are,
    one would wait in the long one's pipe until it ends)."""
    workers = create_workers(2)
    release = tmp_path / "release"
    try:
        await asyncio.gather(workers.run(os.getpid), workers.run(os.getpid))  # both up
        long = asyncio.ensure_future(workers.run(_held_pid, str(release)))
        await asyncio.sleep(0)  # the long one is sent: one worker is busy until released
        short = await asyncio.wait_for(
            asyncio.gather(*(workers.run(os.getpid) for _ in range(4))), 60
        )
        assert not long.done() and len(set(short)) == 1
        release.touch()
        assert await asyncio.wait_for(long, 60) not in short
    finally:
        release.touch()
        workers.shutdown()


async def test_a_dead_search_worker_fails_its_searches_and_a_new_one_takes_the_next(tmp_path):
    workers = create_workers(1)
    never = str(tmp_path / "never")
    try:
        pid = await workers.run(os.getpid)
        sent = [asyncio.ensure_future(workers.run(_held_pid, never)) for _ in range(SEARCH_DEPTH)]
        waiting = asyncio.ensure_future(workers.run(os.getpid))  # in the pool, not the pipe
        await asyncio.sleep(0)
        os.kill(pid, signal.SIGKILL)
        for search in sent:
            with pytest.raises(BrokenProcessPool):
                await asyncio.wait_for(search, 60)
        assert await asyncio.wait_for(waiting, 60) not in (pid, os.getpid())
    finally:
        workers.shutdown()


def test_no_search_processes_makes_an_inline_pool():
    assert isinstance(create_workers(0), InlineWorkers)


async def test_a_failed_or_superseded_job_leaves_no_cycle_for_the_collector(tmp_path):
    """A job's exception, raised through ``run``, is freed by reference counting once its
    caller lets it go: no reference cycle (the future holding the exception whose traceback
    holds ``run``'s frame holding the future) left for the garbage collector, whose walks of
    such garbage are the bot's longest pauses (issue 29)."""
    from bot.workers import Superseded

    workers = PipeWorkers(1)
    release = tmp_path / "release"
    gc.disable()  # what is freed below is freed by reference counting alone
    try:
        await workers.run(os.getpid)
        try:
            await workers.run(_fail_ours, "nope")
        except JobFailed as exc:
            failed = weakref.ref(exc)
        busy = [asyncio.ensure_future(workers.run(_held_pid, str(release))) for _ in range(DEPTH)]
        await asyncio.sleep(0)  # the worker's pipe is full: the next job waits in the pool
        asyncio.get_running_loop().call_soon(release.touch)  # while the next job waits
        try:  # (awaited here, not in a task of its own: a task would keep its exception)
            await workers.run(os.getpid, wanted=lambda: False)
        except Superseded as exc:
            superseded = weakref.ref(exc)
        await asyncio.gather(*busy)
        for _ in range(3):  # (3.13: a callback the loop still holds lets the future go)
            await asyncio.sleep(0)
        assert failed() is None and superseded() is None
    finally:
        gc.enable()
        release.touch()
        workers.shutdown()


async def test_every_reply_waiting_in_a_workers_pipe_is_answered_in_one_callback():
    """On a busy loop the reader callback comes once a turn: a worker that finished both the
    jobs it held meanwhile has both answered then (and its pipe refilled), not one a turn."""
    from bot.pipe_workers import _State, _Worker

    pool = PipeWorkers(1)
    loop = asyncio.get_running_loop()
    ours, theirs = multiprocessing.Pipe()
    state = _State(loop)
    worker = _Worker(process=None, conn=ours)  # type: ignore[arg-type]  # never touched here
    jobs = [loop.create_future() for _ in range(DEPTH)]
    worker.jobs.extend(jobs)
    try:
        for n in range(DEPTH):
            theirs.send((True, n, (), {}))
        pool._readable(state, worker)
        assert [job.result() for job in jobs] == list(range(DEPTH))
        assert not worker.jobs and not ours.poll(0)
    finally:
        ours.close()
        theirs.close()


async def test_a_tables_jobs_go_to_one_worker_while_it_is_as_free_as_any():
    """``affinity``: jobs of one key go to the same worker (what it keeps per process for that
    table is there), jobs of other keys to theirs (keys of ints: their hashes, and so their
    workers, are the same in every run)."""
    pool = PipeWorkers(2)
    try:
        pool.start()
        by_key: dict[int, set[int]] = {}
        for _ in range(6):
            for key in range(1, 7):
                pid = await pool.run(os.getpid, affinity=(key,))
                by_key.setdefault(key, set()).add(pid)
            assert await pool.run(os.getpid) > 0  # a job without one: the least busy worker
        assert all(len(pids) == 1 for pids in by_key.values()), by_key
        assert len(set().union(*by_key.values())) == 2  # the keys spread over both workers
    finally:
        pool.shutdown()


def test_the_pools_own_framing_is_the_connections_whatever_the_size():
    """The bot's end writes and reads ``Connection.send_bytes``' framing itself (issue 29: one
    or two kernel calls a message, no Python layers): what it writes a worker's ``Connection``
    reads, a message larger than the pipe's buffer whole, and what it reads is what a
    ``Connection`` wrote; a pipe closed at the other end reads as ``EOFError``."""
    ours, theirs = multiprocessing.Pipe()
    big = os.urandom(300_000)  # several times a pipe's buffer: written while read
    writer = threading.Thread(target=_write_message, args=(ours.fileno(), big))
    writer.start()
    assert theirs.recv_bytes() == big
    writer.join()
    for data in (b"", b"x", big):
        writer = threading.Thread(target=theirs.send_bytes, args=(data,))
        writer.start()
        assert _read_message(ours.fileno()) == data
        writer.join()
    theirs.close()
    with pytest.raises(EOFError):
        _read_message(ours.fileno())
    ours.close()


def test_a_workers_meter_reads_and_replies_in_the_connections_framing():
    """A worker reads its job and writes its reply with the pool's own framing too (session 31:
    no ``Connection`` layers in a worker woken for a job): a job larger than the pipe's buffer
    is read whole, the reply is what a ``Connection`` reads, and a closed pipe ends the read
    as ``EOFError`` (the worker's end of life)."""
    ours, theirs = multiprocessing.Pipe()
    meter = _Meter()
    big = os.urandom(300_000)
    writer = threading.Thread(
        target=ours.send_bytes, args=(ForkingPickler.dumps((-1, len, (big,))),)
    )
    writer.start()
    fn, args = meter.unpickle(meter.read(theirs))
    writer.join()
    assert (fn, args) == (len, (big,))
    reader = threading.Thread(target=lambda: replies.append(ours.recv_bytes()))
    replies: list[bytes] = []
    reader.start()
    meter.send(theirs, (True, big))
    reader.join()
    ok, value, stages, _ = ForkingPickler.loads(replies[0])
    assert (ok, value, len(stages)) == (True, big, len(STAGES))
    ours.close()
    with pytest.raises(EOFError):
        meter.read(theirs)
    theirs.close()


def test_a_reply_or_a_dead_workers_closed_pipe_is_seen_waiting():
    ours, theirs = multiprocessing.Pipe()
    worker = _Worker(multiprocessing.current_process(), ours)
    assert not _has_reply(worker)
    theirs.send_bytes(b"reply")
    assert _has_reply(worker)
    assert _read_message(ours.fileno()) == b"reply" and not _has_reply(worker)
    theirs.close()
    assert _has_reply(worker)  # read, it tells the worker died
    ours.close()
