"""A process's descendants and whether they outlived it, from Linux's ``/proc`` (no
dependency): how the crash soak and the fault tests count orphaned workers.

A process is named by (pid, start time) so a pid the kernel reused for another process is not
taken for the old one; a zombie (exited, not yet reaped by whoever adopted it) counts as gone:
it runs nothing and holds no memory.
"""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

Proc = tuple[int, int]  # (pid, start time in clock ticks since boot)
PROC = Path("/proc")


def _stat(pid: int) -> tuple[str, int, int] | None:
    """(state, parent pid, start time) of ``pid``, or None if it is gone."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return None
    fields = text[text.rindex(")") + 2 :].split()  # after "pid (comm) "
    return fields[0], int(fields[1]), int(fields[19])


def descendants(root: int) -> set[Proc]:
    """Every living process below ``root`` (children, their children, …)."""
    parents: dict[int, list[tuple[int, int]]] = {}
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        stat = _stat(int(entry.name))
        if stat is not None and stat[0] != "Z":
            parents.setdefault(stat[1], []).append((int(entry.name), stat[2]))
    found: set[Proc] = set()
    todo = [root]
    while todo:
        for child in parents.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child[0])
    return found


def alive(procs: set[Proc]) -> set[Proc]:
    """Those of ``procs`` still running (same pid and start time, not a zombie)."""
    living = set()
    for pid, started in procs:
        stat = _stat(pid)
        if stat is not None and stat[0] != "Z" and stat[2] == started:
            living.add((pid, started))
    return living


def rss_bytes(procs: set[Proc]) -> int:
    """Resident memory of ``procs`` together."""
    total = 0
    page = os.sysconf("SC_PAGE_SIZE")
    for pid, _ in alive(procs):
        try:
            total += int((PROC / str(pid) / "statm").read_text().split()[1]) * page
        except (FileNotFoundError, ProcessLookupError, IndexError):
            pass
    return total


async def wait_gone(procs: set[Proc], timeout: float) -> tuple[set[Proc], float]:
    """Polls until none of ``procs`` is alive or ``timeout`` passed: (those still alive,
    seconds waited)."""
    start = time.monotonic()
    left = alive(procs)
    while left and time.monotonic() - start < timeout:
        await asyncio.sleep(0.05)
        left = alive(left)
    return left, time.monotonic() - start
