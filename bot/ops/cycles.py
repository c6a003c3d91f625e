"""Reference cycles discord.py leaves behind, broken where they are made, so their objects die
by reference counting instead of waiting for a collection of the older generations, whose
pauses are what a player waits through (issue 29, ``bot/ops/collector.py``).

``discord.File`` hides its buffer's ``close`` while a request may resend it, and its ``close``
puts the buffer's own bound ``close`` back on the buffer as an attribute: buffer -> its
``__dict__`` -> bound method -> buffer, one cycle holding each image's bytes per attachment
sent (``bench/gc_census.py``: ``_io.BytesIO`` and ``builtin_function_or_method`` among the
garbage; with ``collector.freeze_after_collections``, a cycle still alive at a freeze stays
until the thaw).
"""

from __future__ import annotations

import io

import discord


class BufferFile(discord.File):
    """An attachment of bytes in memory that leaves no reference cycle once closed."""

    __slots__ = ()

    def __init__(self, data: bytes, *, filename: str, description: str | None = None) -> None:
        super().__init__(io.BytesIO(data), filename=filename, description=description)

    def close(self) -> None:
        super().close()
        # the class's own ``close`` again, instead of a bound copy of it the buffer refers to
        vars(self.fp).pop("close", None)
