"""``KeptAtMost``: a dict that keeps at most a given number of entries, for what a bot process
remembers of each person it meets (issue 29: a handful of maps, one entry per person ever met,
grew for as long as the process ran).

Writing an entry (``kept[key] = value``) makes it the newest; a write beyond the bound drops the
entry written longest ago. Reads are a plain dict's, with no bookkeeping on a click's path (a hit
costs what it cost before), so this is not an LRU: an entry read often but never written again
goes too, after ``at_most`` newer ones, and its next read misses once and reads it back (each map
says what a miss costs). With ``PEOPLE`` that is once per ~16,000 people met after it.
Write through ``kept[key] = value`` only (``update`` and ``setdefault`` are a dict's own).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")

# People remembered per map: ~8x those bench/load.py seats at 1,000 busy tables (1-2 a table;
# ~3x if each seated five), so a miss is rare while they play; 16,384 entries of a user id and
# a small value are ~2-3 MB a map (~90-200 bytes a person: bench/memory_leftovers.py
# --per-person).
PEOPLE = 16_384


def of_people() -> KeptAtMost[K, V]:
    """A map of what is remembered per person: of ``PEOPLE`` people at most (read when it is
    made: tests make it small)."""
    return KeptAtMost(PEOPLE)


class KeptAtMost(dict[K, V]):
    __slots__ = ("at_most",)

    def __init__(self, at_most: int) -> None:
        super().__init__()
        if at_most < 1:
            raise ValueError(f"at_most={at_most}: keep one entry at least")
        self.at_most = at_most

    def __setitem__(self, key: K, value: V) -> None:
        self.pop(key, None)  # (rewritten: the newest)
        if len(self) >= self.at_most:
            del self[next(iter(self))]  # the one written longest ago
        super().__setitem__(key, value)

    def drop_oldest_while(self, stale: Callable[[V], bool]) -> None:
        """Drop entries, from the one written longest ago, while ``stale(value)`` (for a map
        whose entries age: the oldest written is the oldest)."""
        while self:
            oldest = next(iter(self))
            if not stale(self[oldest]):
                return
            del self[oldest]
