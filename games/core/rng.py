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
    shuffle(rng_for(seed, *labels), out)
    return out


def shuffle(rng: random.Random, x: list[T]) -> None:
    """``rng.shuffle(x)`` for a plain ``random.Random``, the same order draw for draw, in one
    loop (the library's calls a method per card; every deal and refill of a playout shuffles).

    It is CPython's ``Random.shuffle`` with ``_randbelow_with_getrandbits`` inlined (the same
    in every Python >= 3.11; a test checks the two agree)."""
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = _BITS[n] if n < _BITS_UPTO else n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


_BITS_UPTO = 256
_BITS = [n.bit_length() for n in range(_BITS_UPTO)]
