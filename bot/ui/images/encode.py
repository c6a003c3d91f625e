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
(issue 29: a third of a render worker's milliseconds went to deflating). The chunks' CRC-32s
are ISA-L's too (zlib's value, computed several times faster).
"""

from __future__ import annotations

import functools
import struct
import zlib

from isal import isal_zlib
from PIL import Image

SIGNATURE = b"\x89PNG\r\n\x1a\n"
# ISA-L's level (0-3): 0 is 15 % faster for 26 % more bytes, 2 and 3 no smaller than 1
# (``bench/render_encode.py --other isal`` prints them).
LEVEL = 1


def palette_png(image: Image.Image, level: int = LEVEL) -> bytes:
    """``image`` ("P", 8 bits a pixel) as a PNG: its palette, its rows unfiltered, deflated."""
    if image.mode != "P":
        raise ValueError(f"a palette image, not {image.mode!r}")
    width, height = image.size
    data = _deflated_rows(image, level)
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


# The zlib stream of a PNG's rows is written in pieces: its header (deflate, a 32 KiB window),
# a stored deflate block that is not the last holding one zero byte (the first row's filter
# byte), then the rest deflated by ISA-L as a raw stream (its blocks continue this one), then
# the Adler-32 of it all.
ZLIB_HEADER = b"\x78\x01"
ZERO_BLOCK = b"\x00\x01\x00\xfe\xff\x00"  # not last, stored, 1 byte (LEN, ~LEN), the byte: 0
ZERO_ADLER = zlib.adler32(b"\0")


def _deflated_rows(image: Image.Image, level: int) -> bytes:
    """The PNG's raw data of ``image`` (each row its filter byte, 0, then its pixels) as a zlib
    stream. Pillow's raw encoder reads the rows out in one piece with a stride one byte wider
    than a row, which it pads with a zero: that is the raw data shifted by a byte (each row's
    pixels, then the next row's filter byte), so the stream is a zero, then all of it but its
    last byte (a view, not a copy). Pasting the image one column into a wider canvas first (to
    put the zeros before the rows) was one more pass over its ~250 KB (issue 29: 107 -> 97 us
    an image read and deflated, 630,000 -> 603,000 instructions). Read in one call: Pillow's
    ``tobytes`` reads 64 KiB at a time and joins them (~0.1 ms against ~8 us)."""
    width, height = image.size
    stride = width + 1
    image.load()
    encoder = Image._getencoder("P", "raw", ("P", stride, 1))
    encoder.setimage(image.im, (0, 0, width, height))
    _, status, rows = encoder.encode(stride * height)
    if status != 1:  # the buffer holds every row: one round, done
        raise RuntimeError(f"raw encoder status {status}")
    rest = memoryview(rows)[:-1]
    deflated = isal_zlib.compress(rest, level, wbits=-15)
    check = isal_zlib.adler32(rest, ZERO_ADLER)
    return b"".join((ZLIB_HEADER, ZERO_BLOCK, deflated, struct.pack(">I", check)))


def _chunk(kind: bytes, body: bytes) -> bytes:
    # ISA-L's CRC-32 (the same value as zlib's): zlib's, without a carry-less multiply, took
    # ~37,000 instructions for a Triple Triad table's 10 KiB IDAT, ISA-L's ~2,500 (issue 29)
    crc = isal_zlib.crc32(body, isal_zlib.crc32(kind))
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)


IEND = _chunk(b"IEND", b"")
