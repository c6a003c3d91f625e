"""A process pool whose workers the event loop talks to directly, one pipe each.

``concurrent.futures.ProcessPoolExecutor`` hands every job through two threads of the bot
process: its manager thread (woken through a pipe on each submit) and a queue feeder thread
that pickles the job, and a result comes back through the manager thread, which then wakes the
event loop through its self-pipe. For a job of a few milliseconds (an image) those hand-offs
cost the bot process about as much CPU as the job's own arguments and result (issue 29:
``bench/profile_move.py`` showed the feeder, the manager and the GIL hand-offs at ~2 ms of the
bot's CPU per move). Here the loop pickles a job straight into an idle worker's pipe and reads
the result when the pipe is readable (``loop.add_reader``): no helper thread at all.

Same API and guarantees as ``bot.workers.Workers``: ``spawn`` start method, workers started
lazily (or by ``start()``), each dying with the bot (``_worker_start``: parent-death signal and
parent-pid watch) and running the pool's ``initializer`` first; a job's exception is raised to
its caller; a worker that dies fails its job with ``BrokenProcessPool`` and is replaced on the
next job. Each worker holds at most ``depth`` jobs (the render pool: ``DEPTH``, the one it runs
and the next, already in its pipe, so it never waits for the loop between two jobs, as the
executor's queue does; the search pool's only behind the newest job, ``create_workers``); more
jobs wait here, in the order their callers give (``run``'s ``rank`` then ``since``: a render a
player's turn waits for goes before the others, issue 25), and each is handed to a worker in
the very callback that read the previous result (no loop turn between two jobs). A job whose
``wanted()`` is false when its turn comes is never sent: its caller gets ``Superseded``.

A job's function is pickled only at its first job in a worker, then named by the index the
worker keeps it at (``_message``): a function or class pickled is looked up by its module and
name (an import's machinery) at every pickling and again at every unpickling. Render and search
jobs carry no class nor function of ours at all: their functions (``bot.workers.Sent``:
``bot.ui.rendering.SentRender``, ``_ViewsAsJson``) take plain data and rebuild their views in
the worker (issue 29, session 30: a render job's pickling 2.30 -> 0.54 us hot, the worker's read
of it 10.7 -> 8.5 us, 779 -> 699 bytes; live at 300 tables, ``bench/probe_calls.py``, before and
after at the same 70 moves/s: ``_plain_dumps`` 53.1 -> 34.9 us a call, ``_dispatch`` 0.166 ->
0.146 ms a move).
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import io
import itertools
import multiprocessing
import os
import pickle
import select
import struct
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from multiprocessing.reduction import ForkingPickler
from typing import Any, TypeVar

from pydantic import BaseModel

from bot import metrics
from bot.trusted_json import from_json, model_path, sendable
from bot.workers import InlineWorkers, Sent, Superseded, Workers, _worker_start
from games.core import PlayerView

T = TypeVar("T")

DEPTH = 2
# The search pool's: searches are short (~0.3 ms of CPU each at 500 tables) and come ~20 a
# second there; a worker gets through at most ``depth`` of them per turn of a busy loop.
SEARCH_DEPTH = 4
SPAWN = multiprocessing.get_context("spawn")  # never fork: the bot process has threads
LAST = 1  # ``run``'s default rank: after every job ranked 0


@dataclass(slots=True, eq=False)
class _Job:
    """A job waiting for a worker (in the pool's heap as ``_Waiting``)."""

    fn: Callable[..., Any]
    args: tuple[Any, ...]
    future: asyncio.Future[Any]
    wanted: Callable[[], bool] | None = None
    affinity: Hashable | None = None


# A waiting job in the heap, ordered by its caller's rank, then since when it waits (its caller
# may say it waits since earlier: a job that replaces a superseded one keeps that one's place),
# then by arrival: a tuple, compared in C (a dataclass's ``order`` compared in Python, a call per
# comparison of the heap's pushes and pops).
_Waiting = tuple[int, float, int, _Job]


@dataclass(eq=False)
class _Worker:
    process: BaseProcess
    conn: Connection
    jobs: deque[asyncio.Future[Any]] = field(default_factory=deque)  # sent, oldest first
    alive: bool = True
    started: int = 0  # when its current job started, in the pool's turns (``_State.turns``)
    # The functions it was sent, by the index it keeps them at (``_message``)
    known: dict[Hashable, int] = field(default_factory=dict)
    # Whether a reply waits in its pipe, asked of the kernel in one call (``Connection.poll``
    # builds a selector, registers the pipe and unregisters it at every ask)
    replies: select.poll = field(init=False, default_factory=select.poll)

    def __post_init__(self) -> None:
        self.replies.register(self.conn.fileno(), select.POLLIN)


def _serve(
    conn: Connection,
    parent: int,
    initializer: Callable[[], None] | None,
    name: str | None,
    niceness: int = 0,
) -> None:
    """A worker's life: guards, name, niceness and initializer, then jobs until the pipe
    closes. Each reply carries the CPU the worker spent on that job, by stage (``_Meter``)."""
    _worker_start(parent, initializer, name, niceness)
    meter = _Meter()
    while True:
        try:
            data = meter.read(conn)
        except (EOFError, OSError):
            return
        job = meter.unpickle(data)
        if job is None:
            return
        fn, args = job
        try:
            reply: tuple[bool, Any] = (True, meter.run(fn, args))
        except BaseException as exc:  # raised again in the caller
            reply = (False, exc)
        try:
            meter.send(conn, reply)
        except (EOFError, OSError):
            return
        except Exception as exc:  # an unpicklable result or exception
            conn.send((False, RuntimeError(f"worker result not picklable: {exc!r}"), (), {}))


# The stages of a worker's CPU per job (issue 29), observed in the bot as ``CPU_METRIC +
# stage`` (ms, one observation per job): reading the job from the pipe, unpickling it, running
# it, pickling the reply and writing it (the previous job's: a reply cannot carry its own
# sending), and "idle" (whatever else the process spent since the previous job: the parent
# watch, polling). What the job observes in the worker's own ``bot.metrics`` (e.g. an image's
# encoding, ``bot.ui.images.fonts.ENCODE_CPU``) is forwarded under its own name.
CPU_METRIC = "worker_cpu_"
STAGES = ("read", "unpickle", "run", "pickle", "write", "idle")
_STAGE_METRICS = tuple(CPU_METRIC + stage for stage in STAGES)


class _Meter:
    """A worker's CPU clock per job: ``clock`` (the process's CPU time) around each stage."""

    def __init__(self, clock: Callable[[], float] = time.process_time) -> None:
        self.clock = clock
        self.spent = dict.fromkeys(STAGES, 0.0)
        self.last = self.clock()  # the process's CPU when the previous reply was sent
        # When the stage under way began: the previous stage's end, read once for both (a
        # CPU-time clock is a system call, not the vDSO's: six a job, not ten; issue 29)
        self.mark = self.last
        self.seen: dict[str, float] = {}  # the worker's own metrics' totals already forwarded
        self.known: list[Callable[..., Any]] = []  # the functions sent, by their index

    def read(self, conn: Connection) -> bytes:
        start = self.clock()  # blocked in the read, the worker spends no CPU
        # (the pipe read as the bot's end reads it: ``Connection.recv_bytes``' Python layers,
        # a BytesIO and its copies, cost a worker woken for a job more than the read itself)
        data = _read_message(conn.fileno())
        self.mark = self.clock()
        self.spent["read"] = self.mark - start
        return data

    def unpickle(self, data: bytes) -> tuple[Callable[..., Any], tuple[Any, ...]] | None:
        """The job ``(fn, args)`` of a message (``_message``), None for the pool's stop: its
        function from this worker's table of those it was sent (``known``), its arguments as
        the function rebuilds them (``Sent``), within this stage."""
        start = self.mark  # (the read's end)
        message = ForkingPickler.loads(data)
        if message is None:
            return None
        if len(message) == 2:  # (index, args): a function this worker was sent before
            index, args = message
            fn = self.known[index]
        else:  # (index, fn, args): its first job here (index -1: not kept, unhashable)
            index, fn, args = message
            if index >= 0:
                self.known.append(fn)
        if isinstance(fn, Sent):
            args = fn.arguments(args)
        self.mark = self.clock()
        self.spent["unpickle"] = self.mark - start
        return fn, args

    def run(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        start = self.mark  # (the unpickling's end)
        try:
            return fn(*args)
        finally:
            self.mark = self.clock()
            self.spent["run"] = self.mark - start

    def send(self, conn: Connection, reply: tuple[bool, Any]) -> None:
        """The reply, this job's CPU by stage (ms, in ``STAGES``' order: no names to pickle
        and unpickle per job), the previous job's sending included, and what it observed."""
        start = self.mark  # (the run's end)
        spent = self.spent
        spent["idle"] = max(
            0.0, start - self.last - spent["read"] - spent["unpickle"] - spent["run"]
        )
        stages = tuple(seconds * 1000 for seconds in spent.values())  # (``STAGES``' order)
        data = pickle.dumps((*reply, stages, self._observed()), pickle.HIGHEST_PROTOCOL)
        middle = self.clock()
        _write_message(conn.fileno(), data)
        self.last = self.mark = self.clock()
        spent["pickle"], spent["write"] = middle - start, self.last - middle

    def _observed(self) -> dict[str, float]:
        """What the job observed in this process's ``bot.metrics`` since the last reply (ms)."""
        out = {}
        for name, histogram in list(metrics.histograms.items()):
            total = histogram.total
            if total != self.seen.get(name, 0.0):
                out[name] = total - self.seen.get(name, 0.0)
                self.seen[name] = total
        return out


# A render job's view is a tree of pydantic models (a Triple Triad table: ~30). Pickled as they
# are, each is ``copyreg.__newobj__`` and a state dict of four (its ``__dict__``, fields set,
# extra, private: the fields set a set of its field names), built by pydantic's ``__getstate__``
# in Python: a third of the job's pickling (issue 29). ``compact_dumps`` pickles each model as
# ``_model(cls, __dict__, fields_set)`` instead, its fields set only when it is not every field
# it holds. Same objects unpickled (``tests/bot/test_pipe_workers.py``). (Neither pool's jobs
# carry models that way any more: an image's drawn part goes as its JSON,
# ``bot.ui.rendering.SentRender``, and a search's view too, ``_ViewsAsJson``; a view
# without a decoder is pickled compactly.)
def _model(cls: type[BaseModel], values: dict[str, Any], fields_set: set[str] | None) -> Any:
    """A model unpickled: ``values`` as they were, without validation (pydantic's own
    ``__setstate__`` does the same)."""
    model = cls.__new__(cls)
    _set_attribute(model, "__dict__", values)
    _set_attribute(
        model, "__pydantic_fields_set__", set(values) if fields_set is None else fields_set
    )
    _set_attribute(model, "__pydantic_extra__", None)
    _set_attribute(model, "__pydantic_private__", None)
    return model


_set_attribute = object.__setattr__


class _CompactPickler(ForkingPickler):
    """``ForkingPickler`` with pydantic models in ``_model``'s compact form (models with extra
    or private values pickled as pydantic pickles them)."""

    def reducer_override(self, obj: Any) -> Any:
        if not isinstance(obj, BaseModel):
            return NotImplemented
        if obj.__pydantic_extra__ is not None or obj.__pydantic_private__ is not None:
            return NotImplemented
        values = obj.__dict__
        fields_set = obj.__pydantic_fields_set__
        return (_model, (type(obj), values, None if fields_set == values.keys() else fields_set))


def _plain_dumps(obj: Any) -> bytes:
    return pickle.dumps(obj, pickle.HIGHEST_PROTOCOL)


def compact_dumps(obj: Any) -> bytes:
    """``obj`` pickled by ``_CompactPickler`` (any unpickler reads it)."""
    buffer = io.BytesIO()
    _CompactPickler(buffer, pickle.HIGHEST_PROTOCOL).dump(obj)
    return buffer.getvalue()


class _ViewsAsJson(Sent):
    """``fn`` with the views at ``places`` among its arguments sent as their JSON, each with
    its model's path (the search pool's, ``views_as_json``: plain data, no ``AsJson`` and its
    rebuilding function to look up per job), rebuilt in the worker by ``from_json``. Pickled
    once per worker (``PipeWorkers._message``)."""

    __slots__ = ("fn", "places")

    def __init__(self, fn: Callable[..., Any], places: tuple[int, ...]) -> None:
        self.fn = fn
        self.places = places

    def __reduce__(self) -> tuple[Any, ...]:
        return (_ViewsAsJson, (self.fn, self.places))

    def arguments(self, sent: tuple[Any, ...]) -> tuple[Any, ...]:
        args = list(sent)
        for place in self.places:
            args[place] = from_json(*args[place])
        return tuple(args)

    def __call__(self, *args: Any) -> Any:
        return self.fn(*args)


def _views_sent_as_json(
    fn: Callable[..., Any], args: tuple[Any, ...], known: dict[Any, _ViewsAsJson]
) -> tuple[Callable[..., Any], tuple[Any, ...]] | None:
    """``(fn, args)`` with each view among ``args`` as ``(its model's path, its JSON)`` and
    ``fn`` as the ``_ViewsAsJson`` that rebuilds them (kept in ``known``, one per function and
    places); ``(fn, args)`` if no view is among them; None if a view has no decoder (then
    ``views_as_json_dumps`` pickles the job compactly)."""
    places = []
    sent = list(args)
    for place, arg in enumerate(args):
        if isinstance(arg, PlayerView):
            model = type(arg)
            if not sendable(model):
                return None
            sent[place] = (model_path(model), arg.__pydantic_serializer__.to_json(arg))
            places.append(place)
    if not places:
        return fn, args
    key = (fn, tuple(places))
    wrapper = known.get(key)
    if wrapper is None:
        wrapper = known[key] = _ViewsAsJson(fn, key[1])
    return wrapper, tuple(sent)


def views_as_json_dumps(job: tuple[Callable[..., Any], tuple[Any, ...]]) -> bytes:
    """The bytes the search pool writes for a job ``(fn, args)`` at a worker's first job of
    ``fn`` (``PipeWorkers._message``): each view among its arguments as its JSON (pydantic's
    serializer writes it and the job is pickled plainly for a third to a half of
    ``compact_dumps``' CPU, and the worker rebuilds it in less than its unpickling:
    ``bench/search_handoff.py``); a view without a decoder pickled compactly."""
    fn, args = job
    sent = _views_sent_as_json(fn, args, {})
    if sent is None:
        return compact_dumps((-1, fn, args))
    return _plain_dumps((0, *sent))


@dataclass(eq=False)
class _State:
    loop: asyncio.AbstractEventLoop
    workers: list[_Worker] = field(default_factory=list)
    waiting: list[_Waiting] = field(default_factory=list)  # a heap
    arrivals: itertools.count[int] = field(default_factory=itertools.count)
    turns: itertools.count[int] = field(default_factory=itertools.count)


class PipeWorkers(Workers):
    """``size`` worker processes fed from the event loop through one pipe each (built like a
    ``Workers``: its size, initializer and process name), each holding at most ``depth`` jobs
    (by default ``DEPTH``: the next job waits in the worker's pipe, not for the loop)."""

    _state: _State | None = None  # bound to the loop that first runs a job (``_bound``)

    ordered = True  # ``run`` takes the job's rank, since and ``wanted``
    pickles = True  # each job is pickled to another process (``ImageRequest.sent_args``)

    def __init__(
        self,
        size: int | None = None,
        initializer: Callable[[], None] | None = None,
        name: str | None = None,
        niceness: int = 0,
        depth: int = DEPTH,
        metered: bool = True,
        behind_newest_only: bool = False,
        views_as_json: bool = False,
    ) -> None:
        super().__init__(size, initializer, name, niceness)
        self.depth = depth
        # With every worker busy, a job waits in a worker's pipe only behind the job that
        # started last (the search pool: a long search, the one running longest, never holds a
        # short one back while another worker gets through short ones); else behind any.
        self.behind_newest_only = behind_newest_only
        # Whether its jobs' CPU by stage goes to the bot's metrics (``CPU_METRIC``): the render
        # pool's only, so the benches' figures per image count no search.
        self.metered = metered
        # Whether each view among a job's arguments goes as its JSON (``_ViewsAsJson``: the
        # search pool's, a seat's view, a tree of models), else the arguments are pickled as
        # they are (the render pool's: an image's drawn part goes as its JSON,
        # ``bot.ui.rendering.SentRender``, no model in it,
        # and the compact pickler's own costs, its dispatch table copied and
        # ``reducer_override`` called per object, were a third of the job's pickling:
        # ``bench/render_instructions.py``).
        self.views_as_json = views_as_json
        self._wrappers: dict[Any, _ViewsAsJson] = {}  # (``_views_sent_as_json``'s)

    def _dumps(self, message: tuple[Any, ...]) -> bytes:
        # (the module's function looked up at each job: ``bench/probe_calls.py`` wraps it)
        return _plain_dumps(message)

    def _message(
        self, worker: _Worker, fn: Callable[..., Any], args: tuple[Any, ...]
    ) -> tuple[bytes, int | None]:
        """A job's bytes for ``worker``: ``(index, args)`` if it was sent ``fn`` before, else
        ``(index, fn, args)``, ``index`` the place it keeps ``fn`` at from then on (-1, never
        kept: an unhashable ``fn``), returned to be remembered once the bytes are written.
        A function pickled is looked up by its module and name (an import's machinery) at
        every pickling, and at every unpickling in the worker (issue 29)."""
        if self.views_as_json:
            sent = _views_sent_as_json(fn, args, self._wrappers)
            if sent is None:  # a view without a decoder: pickled compactly, as it is
                return compact_dumps((-1, fn, args)), None
            fn, args = sent
        try:
            index = worker.known.get(fn)
        except TypeError:
            return self._dumps((-1, fn, args)), None
        if index is not None:
            return self._dumps((index, args)), None
        index = len(worker.known)
        return self._dumps((index, fn, args)), index

    def start(self) -> None:
        """Spawns the workers now (from the running loop's thread)."""
        state = self._bound(asyncio.get_running_loop())
        while len(state.workers) < self.size:
            self._spawn(state)

    async def run(
        self,
        fn: Callable[..., T],
        *args: Any,
        rank: int = LAST,
        since: float | None = None,
        wanted: Callable[[], bool] | None = None,
        affinity: Hashable | None = None,
    ) -> T:
        """``fn(*args)`` in a worker, once the jobs before it (lower ``rank``, then earlier
        ``since``, ``time.perf_counter()``; default now) were handed out; ``Superseded`` when
        ``wanted()`` is false at that moment (then it is never sent). Jobs of one
        ``affinity`` (a table's image) go to the same worker whenever it is as free as any:
        what it keeps per process for them (a table's names, its cards) is there already."""
        state = self._bound(asyncio.get_running_loop())
        future: asyncio.Future[T] = state.loop.create_future()
        when = time.perf_counter() if since is None else since
        job = _Job(fn, args, future, wanted, affinity)
        heapq.heappush(state.waiting, (rank, when, next(state.arrivals), job))
        self._dispatch(state)
        try:
            return await future
        finally:
            # A failed job's exception (a superseded image: a third of the renders at 500
            # tables) has this frame in its traceback: were the future still a local here, the
            # three would make a cycle only the garbage collector frees, and what the job
            # refers to (its view, the caller's payload) with them.
            del future, job

    def shutdown(self) -> None:
        state, self._state = self._state, None
        if state is None:
            return
        for *_, job in state.waiting:
            job.future.cancel()
        state.waiting.clear()
        for worker in state.workers:
            self._retire(state, worker, BrokenProcessPool("the pool was shut down"))
        _reap_later([w.process for w in state.workers])
        state.workers.clear()

    # ----- inside -------------------------------------------------------------------------
    def _bound(self, loop: asyncio.AbstractEventLoop) -> _State:
        if self._state is not None and self._state.loop is not loop:
            self.shutdown()  # a pool used from a new loop (tests) starts afresh
        if self._state is None:
            self._state = _State(loop)
        return self._state

    def _spawn(self, state: _State) -> _Worker:
        ours, theirs = SPAWN.Pipe(duplex=True)
        process = SPAWN.Process(
            target=_serve,
            args=(theirs, os.getpid(), self.initializer, self.name, self.niceness),
            daemon=True,
        )
        process.start()
        theirs.close()
        worker = _Worker(process, ours)
        state.workers.append(worker)
        state.loop.add_reader(ours.fileno(), self._readable, state, worker)
        # uvloop's add_reader turns the pipe non-blocking (libuv's poll): a reply larger than
        # the pipe's buffer would be read in part and taken for a dead worker. Read it whole.
        os.set_blocking(ours.fileno(), True)
        return worker

    def _dispatch(self, state: _State) -> None:
        while state.waiting:
            live = [w for w in state.workers if w.alive]
            worker = min(live, key=lambda w: len(w.jobs), default=None)
            if worker is None or (worker.jobs and len(live) < self.size):
                worker = self._spawn(state)  # an idle new worker before queueing on a busy one
            elif worker.jobs and self.behind_newest_only:
                worker = max(live, key=lambda w: w.started)
            else:
                worker = _affine(live, worker, state.waiting[0][-1].affinity)
            if len(worker.jobs) >= self.depth:
                return
            job = heapq.heappop(state.waiting)[-1]
            future = job.future
            if future.done():  # its caller gave up while it waited
                continue
            if job.wanted is not None and not _still_wanted(job):
                future.set_exception(Superseded())
                continue
            try:
                data, new = self._message(worker, job.fn, job.args)
                _write_message(worker.conn.fileno(), data)
            except (EOFError, OSError) as exc:
                error = BrokenProcessPool(f"a worker died: {exc!r}")
                future.set_exception(error)
                self._retire(state, worker, error)
                state.workers.remove(worker)
                _reap_later([worker.process])
                continue
            except Exception as exc:  # the job itself could not be pickled
                future.set_exception(exc)
                continue
            if new is not None:
                worker.known[job.fn] = new
            if not worker.jobs:
                worker.started = next(state.turns)
            worker.jobs.append(future)

    def _readable(self, state: _State, worker: _Worker) -> None:
        """Every reply the worker has written, then the waiting jobs handed out: on a busy
        loop this callback runs once a turn, and a worker that finished two jobs meanwhile
        gets both answered (and its pipe refilled) in that one turn, not one a turn."""
        if not self._answer(state, worker):
            return
        while worker.jobs and _has_reply(worker):
            if not self._answer(state, worker):
                return
        self._dispatch(state)

    def _answer(self, state: _State, worker: _Worker) -> bool:
        """Reads one reply and settles its job; False if the worker died (then retired and
        the waiting jobs handed to the others)."""
        try:
            data = _read_message(worker.conn.fileno())
        except (EOFError, OSError):
            self._retire(state, worker, BrokenProcessPool("a worker process died"))
            if worker in state.workers:
                state.workers.remove(worker)
            _reap_later([worker.process])
            self._dispatch(state)  # the next job gets a fresh worker
            return False
        try:
            ok, value, stages, observed = pickle.loads(data)
        except Exception as exc:  # a reply that cannot be unpickled here: that job fails
            ok, value, stages, observed = False, exc, (), {}
        if self.metered:
            histograms = metrics.histograms  # (``metrics.observe``'s own, without its calls)
            for metric, ms in zip(_STAGE_METRICS, stages, strict=False):  # () if it failed
                histograms[metric].add(ms)
            for name, ms in observed.items():
                histograms[name].add(ms)
        job = worker.jobs.popleft() if worker.jobs else None
        if worker.jobs:  # the next one, already in its pipe, starts now
            worker.started = next(state.turns)
        if job is not None and not job.done():
            if ok:
                job.set_result(value)
            else:
                job.set_exception(value)
        return True

    def _retire(self, state: _State, worker: _Worker, error: BaseException | None) -> None:
        if not worker.alive:
            return
        worker.alive = False
        with contextlib.suppress(Exception):
            state.loop.remove_reader(worker.conn.fileno())
        with contextlib.suppress(Exception):
            worker.conn.send(None)
        with contextlib.suppress(Exception):
            worker.conn.close()
        jobs, worker.jobs = worker.jobs, deque()
        for job in jobs:
            if not job.done() and error is not None:
                job.set_exception(error)


def create_workers(
    size: int | None,
    initializer: Callable[[], None] | None = None,
    name: str | None = None,
    niceness: int = 0,
) -> Workers:
    """The computer players' search pool from the ``worker_processes`` setting: None one
    process per core, 0 no child processes (a thread), n that many processes (each running
    ``initializer`` first, named ``name``, ``niceness`` below the bot's OS priority).

    Fed through pipes like the render pool (issue 29: the executor's queue feeder and manager
    threads cost the bot more CPU per move than the searches themselves), the next searches
    already in a worker's pipe while it runs one (``SEARCH_DEPTH``), so no worker waits for a
    busy loop between two: a worker gets through at most that many a turn of the loop (one
    search per worker at a time, at 500 busy tables on a loaded machine with the loop's turns
    ~250 ms apart, made them wait 1.8 s at the median, 347 ms with the executor); but only
    behind the search that started last: one running long holds no short one back.
    Its CPU is told from the render pool's by the workers' process name
    (``bench/pool_cpu.py``), not observed per stage (``CPU_METRIC``: the render pool's). Its
    jobs' views (a seat's, a tree of models) go as their JSON (``views_as_json_dumps``:
    ``bench/search_handoff.py``)."""
    if size == 0:
        return InlineWorkers()
    return PipeWorkers(
        size,
        initializer,
        name,
        niceness,
        SEARCH_DEPTH,
        metered=False,
        behind_newest_only=True,
        views_as_json=True,
    )


def _affine(live: list[_Worker], least: _Worker, affinity: Hashable | None) -> _Worker:
    """The worker ``affinity``'s jobs go to (the same one while the pool's workers live) if it
    holds no more jobs than ``least``, the least busy; else ``least``."""
    if affinity is None:
        return least
    preferred = live[hash(affinity) % len(live)]
    return preferred if len(preferred.jobs) <= len(least.jobs) else least


def _has_reply(worker: _Worker) -> bool:
    """Whether the worker's pipe holds a reply, or tells of its death (read, it says so)."""
    return bool(worker.replies.poll(0))


# ``Connection.send_bytes`` / ``recv_bytes``'s framing (a 4-byte big-endian length, -1 then 8
# bytes for a larger one), read and written here in a call or two of the kernel each, without
# their Python layers (checks, a memoryview, a BytesIO per read and its copies: issue 29). A
# worker reads its jobs and writes its replies so too (``_Meter``; session 31, its read stage
# 0.034 -> 0.025 ms an image in ``bench/worker_rebuild.py``'s way, a worker woken per job; live
# at 300 tables within the runs' spread, 0.093-0.116 before and 0.091-0.112 after); its
# ``Connection`` stays for the pool's stop and an unpicklable result's error.
_SHORT = struct.Struct("!i")
_LONG = struct.Struct("!Q")


def _write_message(fd: int, data: bytes) -> None:
    size = len(data)
    header = _SHORT.pack(size) if size <= 0x7FFFFFFF else _SHORT.pack(-1) + _LONG.pack(size)
    view = memoryview(header + data)
    while view:
        view = view[os.write(fd, view) :]


def _read_message(fd: int) -> bytes:
    (size,) = _SHORT.unpack(_read_exactly(fd, 4))
    if size == -1:
        (size,) = _LONG.unpack(_read_exactly(fd, 8))
    return _read_exactly(fd, size)


def _read_exactly(fd: int, size: int) -> bytes:
    """``size`` bytes from the (blocking) pipe: at once when they are there, as a reply is."""
    chunk = os.read(fd, size)
    if len(chunk) == size:
        return chunk
    if not chunk:
        raise EOFError
    data = bytearray(chunk)
    while len(data) < size:
        chunk = os.read(fd, size - len(data))
        if not chunk:
            raise OSError("got end of file during message")
        data += chunk
    return bytes(data)


def _still_wanted(job: _Job) -> bool:
    assert job.wanted is not None
    try:
        return bool(job.wanted())
    except Exception:  # a broken check must not stop the pool: the job runs
        return True


def _reap_later(processes: list[BaseProcess]) -> None:
    threading.Thread(target=_reap, args=(processes,), name="pool-reaper", daemon=True).start()


def _reap(processes: list[BaseProcess]) -> None:
    """Wait for retired workers to exit (they were told to), killing any that does not."""
    for process in processes:
        process.join(5)
        if process.is_alive():
            process.kill()
            process.join(1)
