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
    # Each row is its filter's byte (0: none), then its pixels: pasted one column in, the
    # image's bytes are the PNG's raw data as they stand (no per-row join).
    rows = Image.new("P", (width + 1, height), 0)
    rows.paste(image, (1, 0))
    data = isal_zlib.compress(rows.tobytes(), level)
    palette = bytes(image.getpalette() or (0, 0, 0))
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join(
        (
            SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", palette),
            _chunk(b"IDAT", data),
            _chunk(b"IEND", b""),
        )
    )


def _chunk(kind: bytes, body: bytes) -> bytes:
    crc = zlib.crc32(body, zlib.crc32(kind))
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)
