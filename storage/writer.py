"""The database writer: one thread owning one connection that runs every write (SQLite: a
``sqlite3`` connection; PostgreSQL: an asyncpg connection on the thread's own event loop, behind
the synchronous facade of ``storage/postgres.py``).

Why not aiosqlite for writes: a transaction written as several ``await conn.execute(...)`` is
one event-loop round trip per statement, and the write lock is held across all of them, so under
load each write holds the lock for the loop's lag times the number of statements (measured: 39 ms
held, 8.3 s waited per write at 200 tables). Here a write is a plain function
``unit(conn) -> result`` that the writer thread runs whole: the caller pays ONE round trip, and
no lock is ever held while waiting for the event loop.

Each SQL statement costs the thread a GIL hand-over, so a unit is kept to few statements and a
unit alone in the queue runs without savepoints.

Group commit: the thread takes every unit queued when it wakes (up to ``max_batch``) and runs
them in one ``BEGIN … COMMIT`` (SQLite: ``BEGIN IMMEDIATE``), each inside its own ``SAVEPOINT``. A unit that raises
is rolled back alone (all-or-nothing per unit) and its caller gets the exception; the others
commit. Callers are answered only after ``COMMIT`` returned: nothing is shown before it is
committed. If ``COMMIT`` itself fails, every unit of the batch fails. A unit that fails with an
error the backend calls retryable (PostgreSQL: a deadlock or serialization failure against
another process) is rolled back alone and run again, up to ``retries`` times. With
``optimistic`` (both backends: on PostgreSQL a savepoint costs two round trips, on SQLite two
statements, each a GIL hand-over of this thread) a batch first runs without savepoints and,
only if a unit raised, is rolled back and run again with them. So a unit may run more than once
before its transaction commits: it must do nothing but its statements. In such a batch a unit
another one ``covers`` (a click's intent, which the move marking it done writes whole) is not
run; a unit of one statement alone in its batch runs without BEGIN and COMMIT where the backend
allows (``autocommit_alone``, SQLite).

Callers are answered with ONE ``call_soon_threadsafe`` per loop per batch. Each batch observes ``db_queue`` (its
oldest unit's wait), ``db_write`` (its transaction) and ``db_handback`` (the answer's way back to
the loop): what a move's ``persist`` is made of.

One thread per process, also for PostgreSQL: units then commit in the order they were queued,
which callers rely on (a later save of the same rows wins); processes write concurrently.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from storage.outage import OutageLog
from storage.sql import Cursor, Params, StorageUnavailable, Transaction

log = logging.getLogger(__name__)

T = TypeVar("T")
Unit = Callable[[Any], Any]  # a function of the session (a Transaction; migrations: the raw one)
# (phase name, milliseconds): how the bot's metrics hear of write timings (storage imports
# nothing of the bot, so the bot passes this in).
Observer = Callable[[str, float], None]


class Session(Transaction, Protocol):
    """The writer thread's connection: a Transaction plus what the writer itself needs."""

    @property
    def in_transaction(self) -> bool: ...

    def execute(self, sql: str, parameters: Params = (), /) -> Cursor: ...

    def rollback(self) -> None: ...

    def close(self) -> None: ...


class Housekeeping(Protocol):
    """The backend's own upkeep beside the writer (SQLite: the write-ahead log's checkpoints,
    ``storage/checkpoints.py``): started once the writer's connection is open, given the
    writer thread between two batches (after their callers were answered), stopped with it."""

    def start(self) -> None: ...

    def between_batches(self, conn: Any) -> None: ...

    def stop(self) -> None: ...


def _never(exc: BaseException) -> bool:
    return False


@dataclass
class WriteStats:
    """What the writer measured: transactions, units and the time the write lock was held."""

    transactions: int = 0
    units: int = 0
    hold_ms_total: float = 0.0
    hold_ms_max: float = 0.0

    @property
    def hold_ms_mean(self) -> float:
        return self.hold_ms_total / self.transactions if self.transactions else 0.0


class Decided(asyncio.Future[Any]):
    """A write's future that refuses ``cancel``: a task cancelled while awaiting it is woken
    with ``CancelledError`` only once the write is decided (committed or failed), and the
    outcome stays readable (``result()``). For a caller that keeps memory in step with the
    database whatever happens to it (the move path, ``bot/service/moves.py``), without a
    ``shield`` around the future (one loop turn more between the commit and its views)."""

    def cancel(self, msg: Any | None = None) -> bool:
        return False


# A job's answer as the loop gets it: (its future, its result, its error).
_Outcome = tuple[asyncio.Future[Any], Any, BaseException | None]


@dataclass
class _Job:
    unit: Unit
    future: asyncio.Future[Any]
    loop: asyncio.AbstractEventLoop
    transactional: bool = True
    # ``key``: what this unit writes, by name; ``covers``: the key of a unit whose writes this
    # one makes as well (e.g. a move marking its click's intent done writes the whole intent).
    key: Hashable | None = None
    covers: Hashable | None = None
    queued_at: float = 0.0  # perf_counter when submitted
    statement: bool = False  # the unit is one statement (``Writer.autocommit_alone``)
    result: Any = None
    error: BaseException | None = None


@dataclass
class Writer:
    # Opens (and configures) the session, in the writer thread.
    connect: Callable[[], Session]
    observe: Observer | None = None
    begin: str = "BEGIN IMMEDIATE"
    retryable: Callable[[BaseException], bool] = _never
    # Errors that mean the database itself is unavailable (a connection gone, a full disk, a
    # read-only file): their callers get ``StorageUnavailable`` (the error as its cause), so
    # the bot can say "not saved, try again" instead of a generic failure.
    unavailable: Callable[[BaseException], bool] = _never
    retries: int = 3
    # Run a batch without savepoints first (two statements fewer per unit: each a network
    # round trip on PostgreSQL, a GIL hand-over on SQLite), and only if a unit raises run it
    # again with them.
    optimistic: bool = False
    max_batch: int = 64
    # A unit of one statement alone in its batch runs without BEGIN and COMMIT (SQLite: a
    # statement is a transaction of its own, all or nothing): two statements fewer, each a GIL
    # hand-over of this thread (issue 29: a settled click, a table's message id, ...).
    autocommit_alone: bool = False
    stats: WriteStats = field(default_factory=WriteStats)
    housekeeping: Housekeeping | None = None
    # An outage reads as one warning and one line when it ends (storage/outage.py).
    outage: OutageLog = field(default_factory=OutageLog)

    def __post_init__(self) -> None:
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._ready = threading.Event()
        self._start_error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="db-writer", daemon=True)

    async def start(self) -> None:
        self._thread.start()
        await asyncio.to_thread(self._ready.wait)
        if self._start_error is not None:
            raise self._start_error
        if self.housekeeping is not None:
            self.housekeeping.start()

    def submit(
        self,
        unit: Unit,
        *,
        transactional: bool = True,
        decided: bool = False,
        key: Hashable | None = None,
        covers: Hashable | None = None,
        statement: bool = False,
    ) -> asyncio.Future[Any]:
        """Queue ``unit``; the future settles (on the caller's loop) after it committed.
        ``decided``: its awaiters cannot cancel it (``Decided``). ``key`` names what the unit
        writes; a unit that ``covers`` that key writes it too, so when both are in one batch
        that runs without a failure the keyed unit is not run (one statement less; its future
        is answered None with the batch). If a unit of the batch fails, every unit runs.
        ``statement``: the unit runs exactly one statement (``autocommit_alone``)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = Decided(loop=loop) if decided else loop.create_future()
        queued = time.perf_counter()
        self._jobs.put(_Job(unit, future, loop, transactional, key, covers, queued, statement))
        return future

    async def stop(self) -> None:
        if self._thread.is_alive():
            self._jobs.put(None)
            await asyncio.to_thread(self._thread.join)
        if self.housekeeping is not None:
            await asyncio.to_thread(self.housekeeping.stop)

    # ----- the writer thread ----------------------------------------------------------------
    def _run(self) -> None:
        try:
            conn = self.connect()
        except BaseException as exc:  # reported to start()
            self._start_error = exc
            self._ready.set()
            return
        self._ready.set()
        try:
            while True:
                first = self._jobs.get()
                if first is None:
                    return
                batch = [first]
                stop = False
                while len(batch) < self.max_batch and first.transactional:
                    try:
                        job = self._jobs.get_nowait()
                    except queue.Empty:
                        break
                    if job is None:
                        stop = True
                        break
                    if not job.transactional:  # runs alone, after this batch
                        self._commit_batch(conn, batch)
                        batch = [job]
                        break
                    batch.append(job)
                if batch[0].transactional:
                    self._commit_batch(conn, batch)
                else:
                    self._run_raw(conn, batch[0])
                if self.housekeeping is not None:
                    self.housekeeping.between_batches(conn)
                if stop:
                    return
        finally:
            conn.close()

    def _run_raw(self, conn: Session, job: _Job) -> None:
        try:
            job.result = job.unit(conn)
        except BaseException as exc:
            job.error = exc
        self._settle([job])

    def _commit_batch(self, conn: Session, batch: list[_Job]) -> None:
        if not batch:
            return
        start = time.perf_counter()
        if self.observe is not None:  # the oldest unit's wait for its transaction to begin
            self.observe("db_queue", (start - batch[0].queued_at) * 1000)
        try:
            if len(batch) == 1 and batch[0].statement and self.autocommit_alone:
                job = batch[0]
                try:  # its own transaction: a failing statement leaves nothing
                    job.result, job.error = job.unit(conn), None
                except BaseException as exc:
                    job.error = exc
            else:
                self._transaction(conn, batch)
        except BaseException as exc:  # BEGIN or COMMIT failed: nothing of the batch stands
            # A unit that met an unavailable database (SQLite may roll the whole transaction
            # back on a full disk, so the next statement fails for another reason) says why.
            cause = next((j.error for j in batch if j.error and self.unavailable(j.error)), exc)
            if self.unavailable(cause):
                self.outage.failed("write not saved", cause)
            else:
                log.exception("database write failed")
            try:
                if conn.in_transaction:
                    conn.rollback()
            except Exception as lost:  # a connection gone: the server dropped it too
                log.debug("rollback failed (the connection is gone): %s", lost)
            for job in batch:
                job.error = job.error or cause
        else:
            away = next((j.error for j in batch if j.error and self.unavailable(j.error)), None)
            if away is None:
                self.outage.succeeded()
            else:
                self.outage.failed("write not saved", away)
        held = (time.perf_counter() - start) * 1000
        self.stats.transactions += 1
        self.stats.units += len(batch)
        self.stats.hold_ms_total += held
        self.stats.hold_ms_max = max(self.stats.hold_ms_max, held)
        if self.observe is not None:
            self.observe("db_write", held)
        self._settle(batch)

    def _transaction(self, conn: Session, batch: list[_Job]) -> None:
        """``batch`` in one transaction; raises if BEGIN or COMMIT failed."""
        conn.execute(self.begin)
        if len(batch) == 1:  # alone: the transaction is the unit's (no savepoint needed)
            job = batch[0]
            self._run_retrying(conn, job, ("ROLLBACK", self.begin))
            conn.execute("ROLLBACK" if job.error is not None else "COMMIT")
        elif self.optimistic and self._run_plain(conn, batch):
            conn.execute("COMMIT")
        else:
            if self.optimistic:  # a unit failed: again from the start, each in a savepoint
                if conn.in_transaction:  # (SQLite ends it itself on some errors: a full disk)
                    conn.execute("ROLLBACK")
                conn.execute(self.begin)
            self._run_in_savepoints(conn, batch)
            conn.execute("COMMIT")

    def _unavailable(self, job: _Job) -> None:
        if job.error is not None and self.unavailable(job.error):
            error = StorageUnavailable(str(job.error) or type(job.error).__name__)
            error.__cause__ = job.error
            job.error = error

    @staticmethod
    def _run_plain(conn: Session, batch: list[_Job]) -> bool:
        """Every unit of ``batch`` without savepoints, but those another unit of the batch
        covers; False as soon as one raises (the caller rolls the batch back and runs it again
        with savepoints, every unit)."""
        covered = {job.covers for job in batch if job.covers is not None}
        for job in batch:
            if job.key is not None and job.key in covered:
                job.result, job.error = None, None
                continue
            try:
                job.result, job.error = job.unit(conn), None
            except BaseException as exc:  # kept: the rerun may not get that far (a full disk)
                job.error = exc
                return False
        return True

    def _run_in_savepoints(self, conn: Session, batch: list[_Job]) -> None:
        for job in batch:
            conn.execute("SAVEPOINT unit")
            self._run_retrying(conn, job, ("ROLLBACK TO unit",))
            if job.error is not None:
                conn.execute("ROLLBACK TO unit")
            conn.execute("RELEASE unit")

    def _run_retrying(self, conn: Session, job: _Job, undo: tuple[str, ...]) -> None:
        """``job``'s unit, run again (up to ``retries`` times) after a retryable failure once the
        statements ``undo`` have undone what it wrote; its last failure stays in ``job.error``
        with its writes not undone (the caller undoes them)."""
        for attempt in range(self.retries + 1):
            try:
                job.result, job.error = job.unit(conn), None
                return
            except BaseException as exc:
                job.error = exc
                if attempt == self.retries or not self.retryable(exc):
                    return
                for statement in undo:
                    conn.execute(statement)

    def _settle(self, batch: list[_Job]) -> None:
        """Answer the batch's callers: ONE ``call_soon_threadsafe`` per event loop for the whole
        batch (in queue order), not one per job: each costs this thread a GIL hand-over and
        wakes the loop (issue 29: ~5 jobs per transaction under load)."""
        by_loop: dict[asyncio.AbstractEventLoop, list[_Outcome]] = {}
        for job in batch:
            self._unavailable(job)
            by_loop.setdefault(job.loop, []).append((job.future, job.result, job.error))
        handed = time.perf_counter()
        for loop, outcomes in by_loop.items():
            try:
                loop.call_soon_threadsafe(_resolve_all, outcomes, handed, self.observe)
            except RuntimeError:  # the caller's loop is closed: nobody is waiting
                pass


def _resolve_all(outcomes: list[_Outcome], handed: float, observe: Observer | None) -> None:
    """On the loop: each future settled, in queue order (its waiters resume in the next loop
    turn, behind what was ready already: resuming them here put the movers ahead of other
    clicks' acknowledgements, whose p99 grew, issue 29). ``db_handback``:
    the time from the writer's answer to the loop running this (a loop lag under load)."""
    if observe is not None:
        observe("db_handback", (time.perf_counter() - handed) * 1000)
    for future, result, error in outcomes:
        _resolve(future, result, error)


def _resolve(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.done():  # cancelled by its caller: nobody to tell, and the batch mates go on
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)
