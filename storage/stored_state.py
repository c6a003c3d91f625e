"""A table's game state as SQLite stores it: a large one's JSON text deflated (issue 29).

A move that stores its table's state (every 8th, and a game's end: bot/service/snapshots.py;
the others write their action row only) rewrites it, 1.5-9.5 KB of JSON (Macarena's ~9 KB at
three players, Chupate 2's ~3.8 KB at four). A row larger than a page (4 KiB) spills into overflow pages, and
SQLite writes each of them again on every move, frees the old ones (zeroed: this build's
``secure_delete``) and updates the free list and the file's header page. Deflated, such a state
is 1.1-1.9 KB: the row stays in its leaf page, one page written per move. A state of at most
``DEFLATE_OVER`` bytes (the other games') is stored as it is: its row fits in its page already,
and deflating it cost the writer more CPU than the reads it saved (bench/state_encoding.py).

ISA-L's deflate (``isal``, the images' PNG encoder already) at its fastest level: ~5-9 us such a
state (zlib's fastest takes ~20-45 us), a zlib stream (RFC 1950) that carries its own checksum,
so a damaged row fails to load instead of loading wrong. SQLite keeps it as a BLOB; a TEXT value
is the JSON itself: a small state, rows written before this, and PostgreSQL's (its TOAST deflates
a large text already). The reader takes both, by the value's type; so SQL that reads into the
state (``json_extract``, a migration's ``json_each``) cannot read a deflated one.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from typing import overload

from isal import isal_zlib

# ISA-L's level 0: half the CPU of level 1 for ~25 % more bytes, and either fits in a page
LEVEL = 0
# characters of JSON above which a state is deflated: with the row's other columns (seats,
# options, meta: 0.4-0.7 KB) a longer one comes near a page's room for a row (4,061 bytes)
DEFLATE_OVER = 3000
# the first byte of a zlib stream with a 32 KiB window (RFC 1950's CMF): what ``pack`` writes
_ZLIB = 0x78


def pack(text: str) -> str | bytes:
    """The stored form of a state's JSON text: deflated if longer than ``DEFLATE_OVER``."""
    return isal_zlib.compress(text.encode(), LEVEL) if len(text) > DEFLATE_OVER else text


@overload
def unpack(value: str | bytes) -> str: ...


@overload
def unpack(value: None) -> None: ...


def unpack(value: str | bytes | None) -> str | None:
    """A stored state's JSON text: a BLOB inflated, a TEXT (a small state, an older row,
    PostgreSQL's) as it is."""
    if value is None or isinstance(value, str):
        return value
    if not value or value[0] != _ZLIB:
        raise ValueError("a stored state in an unknown format")
    try:  # (any zlib reads it: the standard library's, where it is read, on a table's load)
        return zlib.decompress(value).decode()
    except zlib.error as exc:  # (its checksum: a damaged row)
        raise ValueError(f"a damaged stored state: {exc}") from exc


def _as_text(text: str) -> str:
    return text


def packer(dialect: str) -> Callable[[str], str | bytes]:
    """How a backend stores a state: SQLite a large one deflated, PostgreSQL as text (a ``text``
    column, deflated by its TOAST when large)."""
    return pack if dialect == "sqlite" else _as_text
