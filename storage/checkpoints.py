"""SQLite's write-ahead log copied into the database from a thread of its own, so the writer
thread does not stop for it (issue 29).

A checkpoint copies the frames the log holds into the database file and syncs both. Done by
the writer's connection (``wal_autocheckpoint``), it ran inside the commit that crossed the
threshold: every write queued behind (each click's acknowledgement waits for its intent's) waited
for the whole copy, ~10,000 frames (~40 MB) every few seconds at 1,000 busy tables, 40-250 ms
(``bench/tails.py``). Here a thread with its own connection runs a PASSIVE checkpoint every
``every`` seconds, which takes no lock writers wait for: the writer keeps committing meanwhile.
The log can only start over from its beginning (instead of growing) once a checkpoint has
copied ALL of it, and the writer keeps adding frames during a pass, so after each pass the
writer thread itself copies what was added meanwhile, between two batches
(``between_batches``): a few hundred frames instead of the whole log. Its next transaction then
starts the log over. The writer's own ``wal_autocheckpoint`` stays as a backstop, far above
what a pass leaves.

Nothing about durability changes: a committed transaction is in the log whatever the checkpoints
do (``synchronous = NORMAL`` as before, set on this connection too: a checkpoint syncs as the
connection running it says).
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

log = logging.getLogger(__name__)

# Seconds between passes: a page written several times between two passes is copied once, so
# a longer period copies fewer bytes (session 23: 23.5 -> 19.1 KB written per move at 1,000
# tables going from 1,000 to 10,000 frames between checkpoints, ~7 s of moves at that load).
CHECKPOINT_SECONDS = 5.0
# A log shorter than this after a pass is left for the next one (no writer pass for a trickle).
LEAST_FRAMES = 100


@dataclass
class CheckpointStats:
    """Passes and frames copied, by the checkpoint thread and by the writer (tests, benches)."""

    passes: int = 0
    frames: int = 0  # frames in the log when the passes ran
    writer_passes: int = 0
    writer_frames: int = 0  # frames the writer found not copied yet (copied by it)
    writer_ms_max: float = 0.0  # the writer's longest copy (its callers wait meanwhile)


def checkpoint(conn: sqlite3.Connection) -> tuple[bool, int, int]:
    """One PASSIVE checkpoint: (busy, frames in the log, frames copied in all); busy when
    another checkpoint was running (nothing done)."""
    busy, frames, copied = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    return bool(busy), max(frames, 0), max(copied, 0)


class WalCheckpoints:
    """The checkpoint thread and the writer's share (``storage/writer.Housekeeping``)."""

    def __init__(
        self,
        connect: Callable[[], sqlite3.Connection],
        every: float = CHECKPOINT_SECONDS,
        least_frames: int = LEAST_FRAMES,
    ) -> None:
        self._connect = connect
        self.every = every
        self.least_frames = least_frames
        self.stats = CheckpointStats()
        self._due = threading.Event()  # a pass ended: the writer copies the rest
        self._backfilled = 0  # frames the last pass had copied (the writer's share starts there)
        self._stopped = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="db-checkpoint", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stopped.set()
        if self._thread is not None:
            self._thread.join()

    def run_pass(self, conn: sqlite3.Connection) -> None:
        """Copy the log (but what is written meanwhile) on this thread's connection; the writer
        then copies the rest at its next chance."""
        busy, frames, copied = checkpoint(conn)
        if busy:
            return
        self.stats.passes += 1
        self.stats.frames += frames
        self._backfilled = copied
        if frames >= self.least_frames:
            self._due.set()

    def between_batches(self, conn: sqlite3.Connection) -> None:
        """In the writer thread, between two batches: after a pass, copy the frames written
        while it ran, so the next transaction starts the log over."""
        if not self._due.is_set():
            return
        self._due.clear()
        start = time.perf_counter()
        try:
            busy, frames, copied = checkpoint(conn)
        except sqlite3.Error as exc:  # the next pass tries again; writes are not at stake
            log.warning("write-ahead log checkpoint failed: %s", exc)
            return
        took = (time.perf_counter() - start) * 1000
        self.stats.writer_ms_max = max(self.stats.writer_ms_max, took)
        if not busy:
            self.stats.writer_passes += 1
            # (a log shorter than the pass saw has started over since: all of it is new)
            done = self._backfilled if frames >= self._backfilled else 0
            self.stats.writer_frames += frames - done

    def _run(self) -> None:
        try:
            conn = self._connect()
        except sqlite3.Error as exc:  # the writer's backstop keeps the log bounded
            log.warning("checkpoint thread not started: %s", exc)
            return
        try:
            while not self._stopped.wait(self.every):
                try:
                    self.run_pass(conn)
                except sqlite3.Error as exc:
                    log.warning("write-ahead log checkpoint failed: %s", exc)
        finally:
            conn.close()
