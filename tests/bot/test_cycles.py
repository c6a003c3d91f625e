"""Attachments die by reference counting once sent (``BufferFile``, ``bot/ui/payload.py``): no
reference cycle left for a collection of the older generations to walk (issue 29)."""

from __future__ import annotations

import gc
import io
import weakref

import discord

from bot.ui.messages import _png
from bot.ui.payload import BufferFile


def closed_buffer(file: discord.File) -> weakref.ref[io.BytesIO]:
    file.reset()  # as a request's retry loop does before each attempt
    assert file.fp.read() == b"png bytes"
    file.close()  # as discord.py does once the request is done
    return weakref.ref(file.fp)


def test_discord_files_own_close_leaves_the_buffer_in_a_cycle():
    """The cycle the fix is for: were it gone from discord.py, BufferFile could go too."""
    gc.disable()
    try:
        gone = closed_buffer(discord.File(io.BytesIO(b"png bytes"), filename="t.png"))
        assert gone() is not None  # only the cyclic collector would free it
    finally:
        gc.enable()
    gc.collect()
    assert gone() is None


def test_a_sent_attachment_dies_by_reference_counting():
    gc.disable()  # no collection may free it instead
    try:
        gone = closed_buffer(BufferFile(b"png bytes", filename="t.png", description="alt"))
        assert gone() is None
    finally:
        gc.enable()


def test_a_buffer_file_sends_what_discord_file_sends_and_its_buffer_closes_as_before():
    file = BufferFile(b"png bytes", filename="t.png", description="alt")
    buffer = file.fp
    assert file.to_dict(0) == {"id": 0, "filename": "t.png", "description": "alt"}
    buffer.close()  # hidden while a request may resend it, as in discord.File
    assert not buffer.closed
    file.close()
    buffer.close()
    assert buffer.closed


def test_every_image_attachment_is_a_buffer_file():
    assert isinstance(_png(b"png bytes", "t.png", "alt"), BufferFile)
