"""Fonts and text drawing shared by the table renderers.

DejaVu (installed by the Dockerfile, present on most Linux systems) draws accents, "ā", arrows
and suit symbols; without it Pillow's built-in font is used and text is reduced to what it can
draw, so an image never fails for want of a font.

No font we rely on has emoji. ``draw_text`` therefore draws the robot that marks computer
players ("🤖 CPU 1 (normal)") as a small icon made of Pillow shapes, drops any other character
the font would show as an empty box ("tofu"), and shrinks (then shortens) text to a width.
"""

from __future__ import annotations

import io
import time
import unicodedata
from collections.abc import Callable
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from bot import metrics
from bot.ui.images import encode
from bot.ui.images.palette import RGB, module_colours, to_palette

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

ROBOT = "🤖"
MIN_SIZE = 8
_DIRS = (
    Path(__file__).with_name("fonts"),
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/share/fonts/TTF"),
)
_ASCII_FALLBACKS = {"→": "->", "·": "-", "«": '"', "»": '"', "−": "-", "–": "-", "—": "-"}
_INVISIBLE = {"\ufe0e", "\ufe0f", "\u200d"}  # variation selectors and the zero-width joiner
_NO_GLYPH_PROBE = "\U0010fffd"  # a private-use code point no font maps: draws the "missing" box


@cache
def font_path(bold: bool = True) -> str | None:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    for folder in _DIRS:
        if (folder / name).is_file():
            return str(folder / name)
    return None


@cache
def font(size: float, bold: bool = True) -> Font:
    path = font_path(bold)
    if path:
        return MemoFont(path, size)
    return ImageFont.load_default(size=size)


MEMO_LIMIT = 4096  # bitmaps (or lengths) one font keeps before it starts afresh


class MemoFont(ImageFont.FreeTypeFont):
    """A FreeType font that keeps the text bitmaps it rendered and the lengths it measured.

    Card faces, labels and titles repeat the same few strings at the same sub-pixel offsets, and
    rasterising text was the largest part of drawing an image: each string is rendered once per
    process and then only blended in (``ImageDraw.text`` pastes the bitmap ``getmask2`` returns;
    the bitmap is never modified). Anything unusual (features, direction, language) is rendered
    as usual."""

    def __init__(self, path: str, size: float) -> None:
        super().__init__(path, size)
        self._masks: dict[tuple[Any, ...], Any] = {}
        self._lengths: dict[tuple[str, str], float] = {}

    def getmask2(
        self,
        text: str | bytes,
        mode: str = "",
        direction: str | None = None,
        features: list[str] | None = None,
        language: str | None = None,
        stroke_width: float = 0,
        anchor: str | None = None,
        ink: int = 0,
        start: tuple[float, float] | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> Any:
        plain_call = not (args or direction or features or language) and set(kwargs) <= {
            "stroke_filled"
        }
        if not plain_call:
            return super().getmask2(
                text, mode, direction, features, language, stroke_width, anchor, ink, start,
                *args, **kwargs,
            )  # fmt: skip
        # The ink only colours embedded-colour ("RGBA") bitmaps; an "L" mask is the same for all.
        key = (
            text,
            mode,
            stroke_width,
            anchor,
            ink if mode == "RGBA" else 0,
            start,
            kwargs.get("stroke_filled", False),
        )
        return _remembered(
            self._masks,
            key,
            lambda: super(MemoFont, self).getmask2(
                text, mode, None, None, None, stroke_width, anchor, ink, start, **kwargs
            ),
        )

    def getlength(
        self,
        text: str | bytes,
        mode: str = "",
        direction: str | None = None,
        features: list[str] | None = None,
        language: str | None = None,
    ) -> float:
        if direction or features or language or not isinstance(text, str):
            return super().getlength(text, mode, direction, features, language)
        return _remembered(
            self._lengths, (text, mode), lambda: super(MemoFont, self).getlength(text, mode)
        )


def _remembered(store: dict[Any, Any], key: Any, make: Callable[[], Any]) -> Any:
    """``store[key]``, made by ``make()`` the first time; a full store starts afresh."""
    found = store.get(key)
    if found is None:
        if len(store) >= MEMO_LIMIT:
            store.clear()
        found = store[key] = make()
    return found


def plain(text: str, bold: bool = True) -> str:
    """``text`` as the available font can draw it (unchanged when DejaVu is there)."""
    if font_path(bold):
        return text
    for fancy, simple in _ASCII_FALLBACKS.items():
        text = text.replace(fancy, simple)
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch) and ord(ch) < 256)


@cache
def has_glyph(ch: str, bold: bool = True) -> bool:
    """Whether the font draws ``ch`` as itself rather than as its empty "missing glyph" box."""
    probe = font(24, bold)
    if not isinstance(probe, ImageFont.FreeTypeFont):
        return ord(ch) < 128
    return bytes(probe.getmask(ch)) != bytes(probe.getmask(_NO_GLYPH_PROBE)) or ch.isspace()


@lru_cache(maxsize=MEMO_LIMIT)  # a table redraws the same names and labels every move
def _runs(text: str, bold: bool) -> tuple[str, ...]:
    """``text`` split into drawable runs and single ``ROBOT`` markers; undrawable characters
    (emoji, variation selectors) are dropped. Memoised: character by character this was a
    sixth of a table image's drawing (issue 29, ``bench/profile_images.py``)."""
    runs: list[str] = []
    current = ""
    for ch in text:
        if ch == ROBOT:
            if current:
                runs.append(current)
            runs.append(ROBOT)
            current = ""
        elif ch in _INVISIBLE:
            continue
        else:
            for simple in plain(ch, bold):
                if has_glyph(simple, bold):
                    current += simple
    if current:
        runs.append(current)
    if runs and runs[0] == ROBOT and len(runs) > 1 and runs[1].startswith(" "):
        runs[1] = " " + runs[1].lstrip(" ")
    return tuple(runs)


def _robot_advance(size: int) -> float:
    return size * 1.05


def text_width(text: str, size: int, bold: bool = True) -> float:
    """The width in pixels ``draw_text`` gives ``text`` at ``size``."""
    return _text_width(text, size, bold, font_path(bold))


# Widths and fitted sizes kept per process, by the font file they were measured with (a table
# measures its labels at every size from its largest down on every image: 14 widths a Triple
# Triad table, a tenth of its drawing; issue 29).
@lru_cache(maxsize=MEMO_LIMIT)
def _text_width(text: str, size: int, bold: bool, _path: str | None) -> float:
    f = font(size, bold)
    return sum(
        _robot_advance(size) if run == ROBOT else f.getlength(run) for run in _runs(text, bold)
    )


def fit_size(text: str, size: int, width: float, bold: bool = True, minimum: int = 9) -> int:
    """The largest font size from ``size`` down to ``minimum`` at which ``text`` fits."""
    return _fit_size(text, size, width, bold, minimum, font_path(bold))


@lru_cache(maxsize=MEMO_LIMIT)
def _fit_size(
    text: str, size: int, width: float, bold: bool, minimum: int, _path: str | None
) -> int:
    while size > minimum and text_width(text, size, bold) > width:
        size -= 1
    return size


def shorten(text: str, size: int, width: float, bold: bool = True) -> str:
    """``text`` cut with "…" so that it fits ``width`` at ``size`` (unchanged if it fits)."""
    if text_width(text, size, bold) <= width:
        return text
    while text and text_width(text + "…", size, bold) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def fitted(
    text: str, size: int, width: float, bold: bool = True, minimum: int = 9
) -> tuple[str, int]:
    """``text`` and a size so it fits ``width``: shrunk to ``minimum`` first, cut only then."""
    size = fit_size(text, size, width, bold, minimum)
    return shorten(text, size, width, bold), size


def draw_robot(
    draw: ImageDraw.ImageDraw, x: float, top: float, height: float, fill: object
) -> None:
    """A robot head ``height`` tall with its left edge at ``x``: antenna, outlined head, eyes."""
    h = max(6.0, height)
    w = h * 0.95
    line = max(1, round(h / 9))
    head_top = top + h * 0.28
    draw.line((x + w / 2, top + h * 0.08, x + w / 2, head_top), fill=fill, width=line)  # type: ignore[arg-type]
    dot = max(1.0, h * 0.09)
    draw.ellipse(
        (x + w / 2 - dot, top, x + w / 2 + dot, top + 2 * dot),
        fill=fill,  # type: ignore[arg-type]
    )
    draw.rounded_rectangle(
        (x, head_top, x + w, top + h),
        radius=max(1, round(h * 0.15)),
        outline=fill,  # type: ignore[arg-type]
        width=line,
    )
    eye = max(1.0, h * 0.12)
    ey = head_top + (top + h - head_top) * 0.42
    for ex in (x + w * 0.32, x + w * 0.68):
        draw.ellipse((ex - eye, ey - eye, ex + eye, ey + eye), fill=fill)  # type: ignore[arg-type]
    mouth = top + h - (top + h - head_top) * 0.25
    draw.line((x + w * 0.3, mouth, x + w * 0.7, mouth), fill=fill, width=line)  # type: ignore[arg-type]


@lru_cache(maxsize=256)  # per font and anchor: a robot is drawn as high as a capital
def _capital_box(f: Font, anchor: str) -> tuple[float, float, float, float]:
    return f.getbbox("H", anchor=anchor)


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: object,
    anchor: str = "la",
    bold: bool = True,
    max_width: float | None = None,
) -> float:
    """Draw ``text`` like ``draw.text`` with ``anchor`` (horizontal l/m/r, any vertical), the
    robot as an icon; with ``max_width`` the text is shrunk, then shortened, to fit. Returns the
    width drawn."""
    if max_width is not None:
        text, size = fitted(text, size, max_width, bold)
    runs = _runs(text, bold)
    if not runs:
        return 0.0
    f = font(size, bold)
    total = text_width(text, size, bold)
    x, y = xy
    horizontal, vertical = (anchor + "a")[0], (anchor + "a")[1]
    if horizontal == "m":
        x -= total / 2
    elif horizontal == "r":
        x -= total
    run_anchor = "l" + vertical
    for run in runs:
        if run == ROBOT:
            _, cap_top, _, cap_bottom = _capital_box(f, run_anchor)
            height = (cap_bottom - cap_top) * 1.3
            # a canvas drawn at a scale stamps it (``bot.ui.images.scaled``): six shapes each
            robot = getattr(draw, "robot", None)
            if robot is not None:
                robot(x + size * 0.02, y + cap_bottom - height, height, fill)
            else:
                draw_robot(draw, x + size * 0.02, y + cap_bottom - height, height, fill)
            x += _robot_advance(size)
        else:
            draw.text((x, y), run, font=f, fill=fill, anchor=run_anchor)  # type: ignore[arg-type]
            x += f.getlength(run)
    return total


# ISA-L's level for the palette PNGs (``bot.ui.images.encode``: why 1); an image not drawn in
# RGB goes through Pillow's own PNG, zlib's level 3.
PNG_COMPRESS_LEVEL = encode.LEVEL
PILLOW_LEVEL = 3


def text_drawer(*, bold: bool = True, anchor: str = "la") -> Callable[..., float]:
    """``draw_text`` with an image module's own weight and default anchor: its ``_text``."""

    def text(
        draw: ImageDraw.ImageDraw,
        xy: tuple[float, float],
        text: str,
        size: int,
        fill: object,
        anchor: str = anchor,
        max_width: float | None = None,
    ) -> float:
        return draw_text(draw, xy, text, size, fill, anchor, bold=bold, max_width=max_width)

    return text


# The CPU ms of each image's encoding (``bot.metrics``; in a render worker, forwarded with the
# job's reply: ``bot.pipe_workers``), so the benches tell drawing from encoding under load.
ENCODE_CPU = "image_encode_cpu"


def png(image: Image.Image, colours: tuple[RGB, ...] = ()) -> bytes:
    """The image as a palette PNG: ``colours`` (an images module's own, ``module_colours``)
    exactly, the rest to the nearest colour of a cube (``bot.ui.images.palette``)."""
    start = time.process_time()
    mapped = to_palette(image, colours)
    if mapped.mode == "P":
        data = encode.palette_png(mapped, PNG_COMPRESS_LEVEL)
    else:  # not drawn in RGB: Pillow's own PNG
        buffer = io.BytesIO()
        mapped.save(buffer, format="PNG", optimize=False, compress_level=PILLOW_LEVEL)
        data = buffer.getvalue()
    metrics.observe(ENCODE_CPU, (time.process_time() - start) * 1000)
    return data


def png_of(module_name: str) -> Callable[[Image.Image], bytes]:
    """``png`` keeping ``module_name``'s own colours exact: an images module's ``_png``
    (``png_of(__name__)``; its colours are read at the first image, once it is loaded)."""

    def encode(image: Image.Image) -> bytes:
        return png(image, module_colours(module_name))  # looked up now: benches swap ``png``

    return encode
