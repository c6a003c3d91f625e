"""Drawing a layout smaller than it was designed: fewer pixels to fill, map and compress.

A renderer lays its picture out in its own units (Amapatolli's table is 900 wide); Discord shows
a table image at most about 550 px wide, so every pixel beyond that is drawn, quantised and
deflated only to be thrown away by the client (issue 29: the PNG encoding of a 900x460 table was
1.5-5 ms). ``ScaledDraw`` wraps a Pillow ``ImageDraw`` and multiplies every coordinate, line
width, radius and font size by ``scale``, so the renderer keeps its layout and only its canvas is
``scaled_size(size, scale)``. Text is rasterised at the smaller size (crisper than a picture
shrunk by the client), measured in layout units by ``bot.ui.images.fonts`` as before.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, cast

from PIL import Image, ImageChops, ImageDraw, ImageFont

from bot.ui.images import fonts
from bot.ui.images.fonts import font as _font
from bot.ui.images.palette import RGB, palette_entries, to_palette


def scaled_size(size: tuple[int, int], scale: float) -> tuple[int, int]:
    """The canvas of a ``size`` layout drawn at ``scale``."""
    return (max(1, round(size[0] * scale)), max(1, round(size[1] * scale)))


def _scale_xy(xy: Any, s: float) -> Any:
    if isinstance(xy, int | float):
        return xy * s
    scaled = [_scale_xy(v, s) for v in xy]
    return scaled if isinstance(xy, list) else tuple(scaled)


def _thick(width: float, s: float) -> int:
    """A line width at scale: never thinner than a pixel when there was a line."""
    return max(1, round(width * s)) if width else 0


def scaled_font(f: Any, s: float) -> Any:
    """``f`` at ``s`` times its size (the same face; Pillow's built-in font as it is). The size
    is not rounded: text then takes the width it was measured to take in layout units (a 17 px
    name at 11 px was 3 % wider than two thirds of itself and left its column)."""
    if isinstance(f, ImageFont.FreeTypeFont) and f.path:
        return _scaled(f, s)
    return f


@functools.lru_cache(maxsize=256)  # per font object and scale: ~10 texts an image ask
def _scaled(f: ImageFont.FreeTypeFont, s: float) -> Any:
    return _font(f.size * s, "Bold" in str(f.path))


# The shapes renderers draw, each with where its line width stands among its positional
# arguments after ``xy`` (1-based), as in Pillow's ``ImageDraw``.
WIDTH_AT = {
    "rectangle": 3,
    "ellipse": 3,
    "polygon": 3,
    "line": 2,
    "arc": 4,
    "pieslice": 5,
    "rounded_rectangle": 4,
    "regular_polygon": 5,  # its bounding circle (x, y, r) is ``xy``
}


class ScaledDraw:
    """``ImageDraw.ImageDraw`` in layout units: the shapes renderers use, drawn ``scale`` times
    smaller on the real canvas. Anything else is the wrapped draw's own.

    On a "P" canvas (a fixed layer already on its images module's palette, ``colours``: no RGB
    copy to map again per image) shapes take their colour's palette entry (the module's own
    colours are all there) and text, which Pillow would draw there without anti-aliasing, is
    drawn on a patch of ``background`` and mapped: the same pixels as drawn in RGB and mapped,
    as long as text is drawn on ``background`` alone."""

    def __init__(
        self,
        draw: ImageDraw.ImageDraw,
        scale: float,
        background: RGB | None = None,
        colours: tuple[RGB, ...] = (),
    ) -> None:
        self.draw = draw
        self.scale = scale
        self.background = background
        self.colours = colours
        self._flat: int | None = None
        # Plain text (no stroke, no further arguments) on a palette canvas takes ``text``'s
        # short way: one look-up of its patch, placed, checked and pasted
        self._plain_patches = draw.mode == "P" and background is not None

    def __getattr__(self, name: str) -> Any:
        if name in WIDTH_AT:  # a shape: drawn scaled
            return functools.partial(self._shape, name)
        return getattr(self.draw, name)

    def _shape(self, name: str, xy: Any, *args: Any, **kwargs: Any) -> None:
        """The real draw's ``name`` with ``xy``, the line width (a keyword, or positional at
        ``WIDTH_AT[name]``) and a rounded rectangle's radius at scale."""
        s = self.scale
        if self.draw.mode == "P":  # the colours' palette entries, found once per colour set
            entries = palette_entries(self.colours)
            for ink in ("fill", "outline"):
                if kwargs.get(ink) in entries:
                    kwargs[ink] = entries[kwargs[ink]]
        at = WIDTH_AT[name]
        if len(args) >= at:
            args = (*args[: at - 1], _thick(args[at - 1], s), *args[at:])
        if name == "rounded_rectangle" and args:  # its radius is the first positional one
            args = (args[0] * s, *args[1:])
        if "width" in kwargs:
            kwargs["width"] = _thick(kwargs["width"], s)
        if "radius" in kwargs:
            kwargs["radius"] = kwargs["radius"] * s
        getattr(self.draw, name)(_scale_xy(xy, s), *args, **kwargs)

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        fill: Any = None,
        font: Any = None,
        anchor: str | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> None:
        s = self.scale
        if self._plain_patches and not args and not kwargs:
            self._plain_text(xy, text, fill, font, anchor)
            return
        if kwargs.get("stroke_width"):
            kwargs["stroke_width"] = _thick(kwargs["stroke_width"], s)
        # whole pixels: the font keeps one bitmap per string and sub-pixel offset, and scaled
        # positions would give every string new offsets (a miss for each)
        x, y = xy
        at = (round(x * s), round(y * s))
        if self.draw.mode == "P":
            self._text_on_palette(at, text, fill, scaled_font(font, s), anchor, *args, **kwargs)
            return
        self.draw.text(at, text, fill, scaled_font(font, s), anchor, *args, **kwargs)

    def _plain_text(
        self, xy: tuple[float, float], text: str, fill: Any, font: Any, anchor: str | None
    ) -> None:
        """``text`` without further arguments on a palette canvas: ``_text_on_palette``'s
        pixels, its patch found in one look-up (``_plain_patch``; ~5 texts an image, each
        ~9 us the long way; issue 29)."""
        s = self.scale
        x, y = xy
        at = (round(x * s), round(y * s))
        found = _plain_patch(text, fill, font, anchor, s, self.background, self.colours)
        if found is None:
            return
        patch, left, top, width, height = found
        corner_x, corner_y = at[0] + left, at[1] + top
        box = (corner_x, corner_y, corner_x + width, corner_y + height)
        core = self.draw._image.im
        flat = self._flat
        if flat is None:  # the background's palette entry, found once per canvas
            assert self.background is not None  # (``_plain_patches``)
            flat = self._flat = palette_entries(self.colours)[self.background]
        if core.crop(box).getextrema() == (flat, flat):
            core.paste(patch, box)
            return
        self._text_on_palette(at, text, fill, scaled_font(font, s), anchor)

    def robot(self, x: float, top: float, height: float, fill: Any) -> None:
        """``fonts.draw_robot`` (a computer's icon beside its name), stamped: a table shows
        one per computer seat, each six shapes (issue 29)."""
        h = max(6.0, height)  # as draw_robot draws it
        stamp(cast(ImageDraw.ImageDraw, self), _paint_robot, x, top, h * 0.95, h, fill)

    def _text_on_palette(
        self, at: tuple[int, int], text: str, fill: Any, font: Any, anchor: str | None,
        *args: Any, **kwargs: Any,
    ) -> None:  # fmt: skip
        """Text on a "P" canvas: on the background, its mapped patch (``_text_patch``) pasted;
        over anything else (a frame's line under a label), drawn on an RGB copy of what is
        under it, mapped and pasted (what is under it is the module's own colours, exact on
        the palette: the same pixels as drawn in RGB)."""
        if self.background is None:
            raise ValueError("text on a palette canvas needs the background it is drawn on")
        keywords = tuple(sorted(kwargs.items()))
        found = _text_patch(text, fill, font, anchor, self.background, self.colours, args, keywords)
        if found is None:
            return
        patch, left, top, width, height = found
        corner = (at[0] + left, at[1] + top)
        box = (*corner, corner[0] + width, corner[1] + height)
        image: Image.Image = self.draw._image
        flat = self._flat
        if flat is None:  # the background's palette entry, found once per canvas
            flat = self._flat = palette_entries(self.colours)[self.background]
        # Pillow's core image, not its wrapper: ~10 texts an image, the wrapper's checks and
        # copies were a tenth of a table's drawing (the canvas is loaded: a layer's copy)
        if image.im.crop(box).getextrema() == (flat, flat):
            image.im.paste(patch.im, box)
            return
        drawn = image.crop(box).convert("RGB")
        ImageDraw.Draw(drawn).text((-left, -top), text, fill, font, anchor, *args, **kwargs)
        image.paste(to_palette(drawn, self.colours), corner)


# Mapped text patches kept per process: a table's names, labels and counts come back image
# after image (a patch is its text's ink box, a few hundred bytes in "P").
TEXT_PATCHES = 4096


@functools.lru_cache(maxsize=TEXT_PATCHES)
def _text_patch(
    text: str,
    fill: Any,
    font: Any,
    anchor: str | None,
    background: RGB,
    colours: tuple[RGB, ...],
    args: tuple[Any, ...],
    keywords: tuple[tuple[str, Any], ...],
) -> tuple[Image.Image, int, int, int, int] | None:
    """``text`` drawn on a patch of ``background`` and mapped to the palette of ``colours``,
    where its top-left corner goes from the text's whole-pixel origin, and its width and
    height (None: no ink).
    ``args`` and ``keywords``: ``draw.text``'s further arguments. Drawn once per process and look (issue 29: a patch drawn and mapped per text was most of
    a palette table's drawing)."""
    kwargs = dict(keywords)
    left, top, right, bottom = _ink_box(font, text, anchor, kwargs.get("stroke_width", 0))
    if right <= left or bottom <= top:
        return None  # nothing to draw (blank text)
    patch = Image.new("RGB", (right - left, bottom - top), background)
    ImageDraw.Draw(patch).text((-left, -top), text, fill, font, anchor, *args, **kwargs)
    return to_palette(patch, colours), left, top, patch.width, patch.height


@functools.lru_cache(maxsize=TEXT_PATCHES)
def _plain_patch(
    text: str,
    fill: Any,
    font: Any,
    anchor: str | None,
    scale: float,
    background: RGB | None,
    colours: tuple[RGB, ...],
) -> tuple[Any, int, int, int, int] | None:
    """``_text_patch`` of ``text`` in ``font`` drawn at ``scale``, without further arguments,
    with Pillow's core image of the patch (what ``paste`` takes)."""
    assert background is not None
    found = _text_patch(text, fill, scaled_font(font, scale), anchor, background, colours, (), ())
    if found is None:
        return None
    patch, left, top, width, height = found
    return patch.im, left, top, width, height


def _paint_robot(
    draw: ImageDraw.ImageDraw, x: float, y: float, _w: float, h: float, fill: Any
) -> None:
    fonts.draw_robot(draw, x, y, h, fill)


def _ink_box(font: Any, text: str, anchor: str | None, stroke_width: float) -> tuple[int, ...]:
    """Where Pillow inks ``text`` drawn at a whole pixel (0, 0): its bitmap's box (the font's
    remembered bitmap, ``fonts.MemoFont``; measuring the box apart was a layout each time)."""
    if isinstance(font, ImageFont.FreeTypeFont):
        mask, (x, y) = font.getmask2(
            text, "L", None, None, None, stroke_width, anchor or "la", 0, (0.0, 0.0),
            stroke_filled=True,
        )  # fmt: skip
        return (x, y, x + mask.size[0], y + mask.size[1])
    box = font.getbbox(text, anchor=anchor, stroke_width=stroke_width)
    return (math.floor(box[0]), math.floor(box[1]), math.ceil(box[2]), math.ceil(box[3]))


def canvas(
    size: tuple[int, int], background: tuple[int, int, int], scale: float = 1.0
) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A ``size`` layout's RGB image at ``scale`` and the draw to lay it out with (in layout
    units). The proxy stands in for Pillow's draw: it has every method the renderers call."""
    image = Image.new("RGB", scaled_size(size, scale), background)
    return image, drawer(image, scale)


def drawer(
    image: Image.Image,
    scale: float = 1.0,
    background: RGB | None = None,
    colours: tuple[RGB, ...] = (),
) -> ImageDraw.ImageDraw:
    """The draw to lay out on ``image`` (drawn at ``scale``) in layout units: e.g. on a copy of
    a table's fixed layer (``layer``); a "P" one needs the ``background`` its text is drawn on
    and its module's ``colours`` (``ScaledDraw``). Given a ``background``, an RGB image is drawn
    by the same calls as a "P" one, at any scale (the tests' reference of a palette table)."""
    draw = ImageDraw.Draw(image)
    if scale == 1.0 and background is None and image.mode != "P":
        return draw
    return cast(ImageDraw.ImageDraw, ScaledDraw(draw, scale, background, colours))


# A painter draws one picture (a card back, a card's face) with its top-left corner at (x, y),
# ``w`` by ``h`` layout units: ``painter(draw, x, y, w, h, *what)``, where ``what`` (hashable:
# a card's id, its words) is all the picture depends on besides. A module-level function, so it
# is, with ``what``, the sprite's key.
Painter = Callable[..., None]


@dataclass(frozen=True)
class Sprite:
    """A picture drawn once and pasted many times: its pixels and where it drew."""

    picture: Image.Image  # "RGB", or "P" on an images module's palette (kept by the thousand)
    mask: Image.Image  # "1": which pixels it covers
    pasted: bool = field(default=False, compare=False)  # set by its first ``paste``

    @cached_property
    def cores(self) -> tuple[Any, Any, int, int, str]:
        """Pillow's core images of the picture and the mask, its width, height and mode: what
        ``paste`` reads, through Pillow's properties once per sprite, not per paste (a table
        pastes ~12; issue 29)."""
        picture = self.picture
        return (picture.im, self.mask.im, picture.width, picture.height, picture.mode)

    @cached_property
    def pieces(self) -> tuple[tuple[int, int, int, int, Any, Any], ...]:
        """The sprite as pieces to paste, each ``(left, top, right, bottom, picture, mask)``
        (Pillow's core images of that box; ``mask`` None where every pixel is covered): a
        card's rows between its rounded corners are copied whole, not pixel by pixel through
        the mask (7 -> ~2.5 us for a Triple Triad board card; issue 29). Rows and columns the
        mask leaves bare are no piece. The same pixels as one paste through the mask."""
        box = self.mask.getbbox()
        if box is None:
            return ()
        left, top, right, bottom = box
        if (right - left) * (bottom - top) < SOLID_MIN_AREA:
            return ((left, top, right, bottom, *self._cores(left, top, right, bottom)),)
        # rows of the box with no bare pixel: where the box's negative has none inked
        bare = ImageChops.invert(self.mask.crop(box).convert("L")).im.getprojection()[1]
        run = _longest_zero_run(bytes(bare))
        if run is None:
            return ((left, top, right, bottom, *self._cores(left, top, right, bottom)),)
        first, last = top + run[0], top + run[1]
        pieces = []
        if first > top:
            pieces.append((left, top, right, first, *self._cores(left, top, right, first)))
        picture = self.picture.crop((left, first, right, last)).im
        pieces.append((left, first, right, last, picture, None))
        if last < bottom:
            pieces.append((left, last, right, bottom, *self._cores(left, last, right, bottom)))
        return tuple(pieces)

    def _cores(self, left: int, top: int, right: int, bottom: int) -> tuple[Any, Any]:
        box = (left, top, right, bottom)
        return self.picture.crop(box).im, self.mask.crop(box).im


# A sprite whose inked box is smaller than this is pasted through its mask in one piece.
SOLID_MIN_AREA = 1024


def _longest_zero_run(flags: bytes) -> tuple[int, int] | None:
    """The longest run of zero bytes in ``flags`` as ``(first, last + 1)``; None if none."""
    best: tuple[int, int] | None = None
    at = 0
    for run in flags.split(b"\x01"):  # a projection's bytes are 0 or 1
        if run and (best is None or len(run) > best[1] - best[0]):
            best = (at, at + len(run))
        at += len(run) + 1
    return best


def cut_out(image: Image.Image, colours: tuple[RGB, ...] | None = None) -> Sprite:
    """The ``Sprite`` of an "RGBA" ``image`` drawn on transparency; with ``colours`` (an images
    module's, ``module_colours``) its pixels are kept in "P" on that module's palette: a quarter
    of the memory (Pillow keeps an "RGB" pixel in 4 bytes), each mapped now to the colour the
    image's PNG will give it anyway (``fonts.png``). Pillow pastes through a "1" mask 4x faster
    than through an alpha channel (7 vs 32 us for a Triple Triad card; 19 us from "P"), and a
    palette canvas cannot blend: a pixel the painter half covered (the few of a number's
    outline running past its dot) is taken whole or not at all, on every canvas alike."""
    alpha = image.getchannel("A")
    histogram = alpha.histogram()
    if histogram[0] + histogram[255] != image.width * image.height:
        alpha = alpha.point(lambda value: 255 if value >= 128 else 0)
    mask = alpha.convert("1", dither=Image.Dither.NONE)
    picture = image.convert("RGB")
    return Sprite(picture if colours is None else to_palette(picture, colours), mask)


# Pictures kept per process: card backs, and faces (Chúpate 2's 54, each in the locales in use;
# Maquiavelo's 52 at two sizes, framed or not, whole or covered: up to 260), ~5-25 KB each
SPRITES = 1024


@functools.lru_cache(maxsize=SPRITES)
def sprite(painter: Painter, w: float, h: float, scale: float, *what: Hashable) -> Sprite:
    """What ``painter`` draws at ``w`` x ``h`` and ``scale`` (of ``what``): drawn once per
    process, pasted wherever it is wanted."""
    return cut_out(_painted(painter, w, h, scale, what))


@functools.lru_cache(maxsize=SPRITES)
def palette_sprite(
    painter: Painter, w: float, h: float, scale: float, colours: tuple[RGB, ...], *what: Hashable
) -> Sprite:
    """``sprite`` kept on the palette of ``colours``, for a canvas already on it (a "P" one):
    its pixels are each mapped as the whole image would map them."""
    return cut_out(_painted(painter, w, h, scale, what), colours)


def _painted(
    painter: Painter, w: float, h: float, scale: float, what: tuple[Hashable, ...]
) -> Image.Image:
    size = (math.ceil(w * scale) + 2, math.ceil(h * scale) + 2)
    image = Image.new("RGBA", size, (0, 0, 0, 0))
    painter(drawer(image, scale), 0, 0, w, h, *what)
    return image


def scale_of(draw: ImageDraw.ImageDraw) -> float:
    """The scale ``draw`` lays out at (1 for Pillow's own draw)."""
    return draw.scale if isinstance(draw, ScaledDraw) else 1.0


def paste(draw: ImageDraw.ImageDraw, picture: Sprite, x: float, y: float) -> None:
    """``picture`` (drawn at ``draw``'s scale) pasted onto ``draw``'s canvas with its top-left
    corner at layout (x, y), on the nearest pixel."""
    scale = scale_of(draw)
    image: Image.Image = draw._image  # the canvas Pillow's draw keeps
    left, top = round(x * scale), round(y * scale)
    if picture.picture.mode != image.mode:  # a palette sprite on an RGB canvas: converted
        image.paste(picture.picture, (left, top), picture.mask)
        return
    # Pillow's core image (as a palette canvas's text): ~20 cards an image
    core = image.im
    pieces = picture.__dict__.get("pieces")
    if pieces is None and not picture.pasted:  # its first paste: one through the mask (a
        # sprite pasted once is not worth cutting in pieces: a third of its drawing)
        object.__setattr__(picture, "pasted", True)
        _, mask, width, height, _ = picture.cores
        core.paste(picture.cores[0], (left, top, left + width, top + height), mask)
        return
    for x0, y0, x1, y1, piece, mask in pieces or picture.pieces:
        box = (left + x0, top + y0, left + x1, top + y1)
        if mask is None:
            core.paste(piece, box)
        else:
            core.paste(piece, box, mask)


def stamp(
    draw: ImageDraw.ImageDraw,
    painter: Painter,
    x: float,
    y: float,
    w: float,
    h: float,
    *what: Hashable,
) -> None:
    """``painter(draw, x, y, w, h, *what)``, pasted from its ``sprite`` (the same pixels, at most
    half a pixel away; a table draws up to 80 card backs, each three shapes); on a palette
    canvas from its ``palette_sprite``."""
    if isinstance(draw, ScaledDraw) and draw.draw.mode == "P":
        picture = palette_sprite(painter, w, h, draw.scale, draw.colours, *what)
    else:
        picture = sprite(painter, w, h, scale_of(draw), *what)
    paste(draw, picture, x, y)
