"""A palette image's PNG, written here rather than by Pillow's PNG plug-in.

Every table and hand leaves the renderers as a "P" image on its module's palette (one byte per
pixel, no row filters: a palette PNG compresses best unfiltered). Pillow's plug-in deflates it
with zlib's largest hash tables (``memLevel`` 9) and goes through its generic save machinery; at
the levels used here zlib's default tables (8) give as few bytes, faster, and the chunks are
four ``struct.pack``s (issue 29: encoding 0.63 -> 0.57 ms per table image in
``bench/render_interleaved.py``, the palette mapping included). The pixels and the palette are
exactly Pillow's.
"""

from __future__ import annotations

import struct
import zlib

from PIL import Image

SIGNATURE = b"\x89PNG\r\n\x1a\n"
# zlib level 3 with its default tables: level 2 was 5 % faster for 6 % more bytes, level 1 no
# faster than 2 and 15 % larger (``bench/render_interleaved.py --level`` prints both).
LEVEL = 3
MEMORY_LEVEL = 8


def palette_png(image: Image.Image, level: int = LEVEL) -> bytes:
    """``image`` ("P", 8 bits a pixel) as a PNG: its palette, its rows unfiltered, deflated."""
    if image.mode != "P":
        raise ValueError(f"a palette image, not {image.mode!r}")
    width, height = image.size
    # Each row is its filter's byte (0: none), then its pixels: pasted one column in, the
    # image's bytes are the PNG's raw data as they stand (no per-row join).
    rows = Image.new("P", (width + 1, height), 0)
    rows.paste(image, (1, 0))
    deflate = zlib.compressobj(level, zlib.DEFLATED, zlib.MAX_WBITS, MEMORY_LEVEL)
    data = deflate.compress(rows.tobytes()) + deflate.flush()
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
