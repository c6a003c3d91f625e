"""Fonts and small helpers shared by the table renderers.

DejaVu (installed by the Dockerfile, present on most Linux systems) draws accents, "ā", arrows
and suit symbols; without it Pillow's built-in font is used and text is reduced to what it can
draw, so an image never fails for want of a font.
"""

from __future__ import annotations

import io
import unicodedata
from functools import cache
from pathlib import Path

from PIL import Image, ImageFont

_DIRS = (
    Path(__file__).with_name("fonts"),
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/share/fonts/TTF"),
)
_ASCII_FALLBACKS = {"→": "->", "·": "-", "«": '"', "»": '"', "−": "-", "–": "-", "—": "-"}


@cache
def font_path(bold: bool = True) -> str | None:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    for folder in _DIRS:
        if (folder / name).is_file():
            return str(folder / name)
    return None


@cache
def font(size: int, bold: bool = True) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    path = font_path(bold)
    if path:
        return ImageFont.truetype(path, size)
    return ImageFont.load_default(size=size)


def plain(text: str, bold: bool = True) -> str:
    """``text`` as the available font can draw it (unchanged when DejaVu is there)."""
    if font_path(bold):
        return text
    for fancy, simple in _ASCII_FALLBACKS.items():
        text = text.replace(fancy, simple)
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch) and ord(ch) < 256)


# zlib level 1: about 2.5x faster to encode than 6 for about 25 % larger files on these images
# (``bench/render_pool.py`` prints both); encoding was half of all rendering time.
PNG_COMPRESS_LEVEL = 1


def png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False, compress_level=PNG_COMPRESS_LEVEL)
    return buffer.getvalue()
