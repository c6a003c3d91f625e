"""Seeded chance. Every random draw derives from the game's seed string and a label.

``random.Random`` seeded with a ``str`` hashes it with SHA-512 (seed version 2), so the stream is
identical in every process and Python version >= 3.2 -- unlike ``hash()``, which is salted.
"""

from __future__ import annotations

import random
import struct
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def rng_for(seed: str, *labels: object) -> random.Random:
    """A private generator for one chance event, e.g. ``rng_for(seed, "shuffle", 3)``."""
    return random.Random(":".join([seed, *map(str, labels)]))


def shuffled(items: Sequence[T], seed: str, *labels: object) -> list[T]:
    """A new list holding ``items`` in the order fixed by ``seed`` and ``labels``: the order
    ``rng_for(seed, *labels).shuffle`` gives (its generator is private, so it is read in bulk:
    ``shuffle_private``)."""
    out = list(items)
    shuffle_private(rng_for(seed, *labels), out)
    return out


def shuffle_private(rng: random.Random, x: list[T]) -> None:
    """``shuffle(rng, x)`` for a generator nobody draws from afterwards (it may be left past
    the draws the shuffle used): the same order, with the 32-bit outputs taken in bulk.

    For ``k <= 32`` CPython's ``getrandbits(k)`` is the next 32-bit output shifted right by
    ``32 - k``, and ``getrandbits(32 * m)`` is the next ``m`` outputs, the first one in the
    lowest bits (a test checks both against the library's shuffle)."""
    n = len(x)
    if n >= _BITS_UPTO:  # long lists (none in the games): the plain loop
        shuffle(rng, x)
        return
    words = _words(rng, n + n // 2 + 8)  # n - 1 draws plus the rejections, most likely
    w = 0
    for i in range(n - 1, 0, -1):
        m = i + 1
        shift = 32 - _BITS[m]
        while True:
            if w == len(words):
                words += _words(rng, 32)
            j = words[w] >> shift
            w += 1
            if j < m:
                break
        x[i], x[j] = x[j], x[i]


def _words(rng: random.Random, m: int) -> list[int]:
    """The next ``m`` 32-bit outputs of ``rng``, in the order it makes them."""
    return list(struct.unpack(f"<{m}I", rng.getrandbits(32 * m).to_bytes(4 * m, "little")))


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
