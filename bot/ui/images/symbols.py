"""Shapes that stand beside colours, so that colour is never the only signal (issue 31 item 4,
issue 28 item 4): each colour a player must tell apart also has a shape, drawn on the cards
and swatches of the images and shown by the emoji of buttons and lists.

The same colour keeps the same shape in every game: red ▲ (🔺), blue ◆ (🔷), yellow ● (🟡),
green ■ (🟩), white ● (⚪), black ■ (⬛). Shapes are drawn as polygons, so no font glyph is
needed.
"""

from __future__ import annotations

import math
from typing import Literal

from PIL import ImageDraw

Shape = Literal["triangle", "diamond", "circle", "square"]
RGB = tuple[int, int, int]

# The shape and the emoji of each colour name (the words games use in their catalogues).
SHAPE: dict[str, Shape] = {
    "red": "triangle",
    "blue": "diamond",
    "yellow": "circle",
    "green": "square",
    "white": "circle",
    "black": "square",
}
EMOJI = {
    "red": "🔺",
    "blue": "🔷",
    "yellow": "🟡",
    "green": "🟩",
    "white": "⚪",
    "black": "⬛",
}
GLYPH: dict[Shape, str] = {"triangle": "▲", "diamond": "◆", "circle": "●", "square": "■"}


def draw_shape(
    draw: ImageDraw.ImageDraw,
    shape: Shape,
    cx: float,
    cy: float,
    r: float,
    fill: RGB,
    outline: RGB | None = None,
    width: int = 1,
) -> None:
    """``shape`` centred at (cx, cy), reaching ``r`` pixels from its centre."""
    if shape == "circle":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=outline, width=width)
        return
    if shape == "square":
        s = r * 0.85
        draw.rectangle((cx - s, cy - s, cx + s, cy + s), fill=fill, outline=outline, width=width)
        return
    if shape == "diamond":
        points = [(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)]
    else:  # an upward triangle, its centroid at (cx, cy)
        points = [
            (cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a)) + r * 0.1)
            for a in (-90, 30, 150)
        ]
    draw.polygon(points, fill=fill, outline=outline, width=width)
