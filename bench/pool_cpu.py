"""CPU of the bot's worker processes by pool: the render pool (``mesa-render``) apart from the
computer players' searches (``mesa-search``), told apart by the process name each pool gives
its workers (``bot.workers.set_process_name``). A bot that does not name them (an older
checkout) has all of its workers under "other"."""

from __future__ import annotations

import contextlib
from pathlib import Path

from bench.load_probe import cpu_seconds, descendants
from bot.workers import RENDER_POOL, SEARCH_POOL

POOLS = {RENDER_POOL: "render", SEARCH_POOL: "search"}


def pool_of(pid: int) -> str:
    with contextlib.suppress(OSError):
        return POOLS.get(Path(f"/proc/{pid}/comm").read_text().strip(), "other")
    return "other"


class PoolCpu:
    """CPU seconds of each pool of the bot processes ``pids`` between ``start()`` and
    ``seconds()`` (workers that appear meanwhile count from zero; ones that die are lost)."""

    def __init__(self, pids: list[int]) -> None:
        self.pids = pids
        self._start: dict[int, float] = {}

    def _now(self) -> dict[int, float]:
        out = {}
        for pid in self.pids:
            for child in descendants(pid):
                with contextlib.suppress(OSError):
                    out[child] = cpu_seconds(child)
        return out

    def start(self) -> None:
        self._start = self._now()

    def seconds(self) -> dict[str, float]:
        by_pool = {"render": 0.0, "search": 0.0, "other": 0.0}
        for pid, cpu in self._now().items():
            by_pool[pool_of(pid)] += cpu - self._start.get(pid, 0.0)
        return by_pool
