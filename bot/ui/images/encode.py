"""A palette image's PNG, written here rather than by Pillow's PNG plug-in.

Every table and hand leaves the renderers as a "P" image on its module's palette (one byte per
pixel, no row filters: a palette PNG compresses best unfiltered). The chunks are four
``struct.pack``s, the pixels and the palette exactly Pillow's.

The rows are deflated by ISA-L (``isal``), not zlib: a zlib stream like zlib's, written 7-8x
faster and a little smaller at its level 1. On the table images a render worker gets under load
(``bench/render_encode.py``: 400 images in the load's shares of games), zlib's best setting
(level 3, default tables, no filter) took 0.39 ms per image for 7.03 KiB; no zlib strategy
(RLE, filtered), level (1-3), ``memLevel`` (8, 9) or row filter (sub, up) did better than
0.34 ms, and RLE alone grew the images to 9.5 KiB; ISA-L level 1 takes 0.05 ms for 6.83 KiB
(issue 29: a third of a render worker's milliseconds went to deflating).
"""

from __future__ import annotations

import functools
import struct
import threading
import zlib

from isal import isal_zlib
from PIL import Image

SIGNATURE = b"\x89PNG\r\n\x1a\n"
# ISA-L's level (0-3): 0 is 15 % faster for 26 % more bytes, 2 and 3 no smaller than 1
# (``bench/render_encode.py --other isal`` prints them).
LEVEL = 1
# Padded canvases kept per thread (each table and hand layout has its own size): a few.
PADDED_SIZES = 16


def palette_png(image: Image.Image, level: int = LEVEL) -> bytes:
    """``image`` ("P", 8 bits a pixel) as a PNG: its palette, its rows unfiltered, deflated."""
    if image.mode != "P":
        raise ValueError(f"a palette image, not {image.mode!r}")
    width, height = image.size
    data = isal_zlib.compress(_raw_rows(image), level)
    image.load()
    palette = image.im.getpalette(image.im.getpalettemode(), "RGB") or bytes(3)
    return b"".join(
        (SIGNATURE, _header(width, height), _palette(palette), _chunk(b"IDAT", data), IEND)
    )


# The chunks every image of a size or palette repeats, written once per process (a table's
# palette is its module's: a handful in all).
@functools.lru_cache(maxsize=64)
def _header(width: int, height: int) -> bytes:
    return _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0))


@functools.lru_cache(maxsize=64)
def _palette(palette: bytes) -> bytes:
    return _chunk(b"PLTE", palette)


class _Padded(threading.local):
    """Per thread, a "P" canvas one column wider than each image size met: the PNG's raw rows
    (each its filter byte, 0, then its pixels) are that canvas with the image pasted one column
    in. Kept, not made per image: its first column is never written, so it stays the filter
    bytes."""

    def __init__(self) -> None:
        self.by_size: dict[tuple[int, int], Image.Image] = {}


_padded = _Padded()


def _raw_rows(image: Image.Image) -> bytes:
    """The PNG's raw data of ``image`` (unfiltered rows), read out in one piece: Pillow's
    ``tobytes`` reads 64 KiB at a time and joins them, and on these ~250 KB images that took
    ~0.1 ms against ~8 us in one call (``bench/render_interleaved.py``: encode 0.155 -> 0.131
    ms per image)."""
    width, height = image.size
    canvases = _padded.by_size
    rows = canvases.get((width, height))
    if rows is None:
        if len(canvases) >= PADDED_SIZES:
            canvases.clear()
        rows = canvases[(width, height)] = Image.new("P", (width + 1, height), 0)
    image.load()
    rows.im.paste(image.im, (1, 0, width + 1, height))
    size = (width + 1) * height
    encoder = Image._getencoder("P", "raw", ("P", 0, 1))
    encoder.setimage(rows.im, (0, 0, width + 1, height))
    parts = []
    while True:  # one round: the buffer holds every row
        _, status, data = encoder.encode(size)
        parts.append(data)
        if status:
            break
    if status < 0:
        raise RuntimeError(f"raw encoder error {status}")
    return parts[0] if len(parts) == 1 else b"".join(parts)


def _chunk(kind: bytes, body: bytes) -> bytes:
    crc = zlib.crc32(body, zlib.crc32(kind))
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)


IEND = _chunk(b"IEND", b"")
