"""Seeded chance. Every random draw derives from the game's seed string and a label.

``random.Random`` seeded with a ``str`` hashes it with SHA-512 (seed version 2), so the stream is
identical in every process and Python version >= 3.2 -- unlike ``hash()``, which is salted.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def rng_for(seed: str, *labels: object) -> random.Random:
    """A private generator for one chance event, e.g. ``rng_for(seed, "shuffle", 3)``."""
    return random.Random(":".join([seed, *map(str, labels)]))


def shuffled(items: Sequence[T], seed: str, *labels: object) -> list[T]:
    """A new list holding ``items`` in the order fixed by ``seed`` and ``labels``."""
    out = list(items)
    rng_for(seed, *labels).shuffle(out)
    return out
