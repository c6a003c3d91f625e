"""The fixed palette a game's images are saved with: its own colours, exactly, and a colour cube.

A palette PNG (one byte per pixel, no row filters) is about 3x faster to encode than an RGB one
and half the bytes. Choosing its 256 colours per picture (an octree of a sample of the pixels)
and mapping every pixel to a palette Pillow met for the first time were half of an image's
encoding (issue 29: 0.7 of 1.5 ms): Pillow keeps the nearest-colour look-ups it made *on the
palette object*, so a palette reused for every picture maps most pixels from that cache.

Each images module's palette is its own colours (the ``(r, g, b)`` literals of its source and
its upper-case constants: ``module_colours``), kept exact so flat areas stay
their colour, and an evenly spaced cube (6 levels per channel) for the anti-aliased edges and the
few colours computed while drawing: no pixel ends further from its colour than half the cube's
diagonal step (44/255); the octree per picture had no bound (up to 67 on the benches' images),
and the mean difference is about the same (``bench/profile_images.py`` prints both).
"""

from __future__ import annotations

import ast
import contextlib
import functools
import importlib
import inspect
import itertools
import threading
from collections.abc import Iterable
from typing import Any

from PIL import Image

RGB = tuple[int, int, int]

COLOURS = 256
# Cube levels per channel, the finest first that leaves room for the module's own colours.
CUBE_LEVELS = (6, 5, 4)
# A cube colour this close (Euclidean) to one of the module's own is left out: Pillow maps a
# pixel through a 4x4x4 cell of colour values, and a cube colour this near could take the cell
# of a flat colour (no cube colour is then nearer than 12 - 3.5 to any point of its cell).
KEEP_CLEAR = 12


def is_rgb(value: object) -> bool:
    return (
        isinstance(value, tuple)
        and len(value) == 3
        and all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 255 for c in value)
    )


class Colours(tuple[RGB, ...]):
    """A module's colours, hashed once: they key the per-process caches of its palette, its
    sprites and its text patches, looked up ~25 times an image (a tuple hashes its ~20
    colours each time: 0.2-0.5 us; issue 29). Equal, and hashed alike, to the plain tuple."""

    _hash: int

    def __new__(cls, colours: Iterable[RGB]) -> Colours:
        made = super().__new__(cls, colours)
        made._hash = tuple.__hash__(made)
        return made

    def __hash__(self) -> int:
        return self._hash


@functools.cache  # a module's constants and source, read once per process
def module_colours(module_name: str) -> Colours:
    """The colours ``module_name`` draws with, sorted: every ``(r, g, b)`` literal of its source
    (a card back's ``fill=(120, 60, 30)`` too) and every upper-case global holding one, or a
    dict, list or tuple of them (computed ones: ``_halved(SEAT_RGB)``)."""
    module = importlib.import_module(module_name)
    found: set[RGB] = set()
    for name, value in vars(module).items():
        if not name.isupper():
            continue
        items: Iterable[Any] = (
            value.values()
            if isinstance(value, dict)
            else value
            if isinstance(value, list | tuple)
            else ()
        )
        found.update(c for c in (value, *items) if is_rgb(c))
    with contextlib.suppress(OSError, TypeError):  # no source (a frozen build): globals only
        for node in ast.walk(ast.parse(inspect.getsource(module))):
            if isinstance(node, ast.Tuple) and len(node.elts) == 3:
                values = tuple(e.value if isinstance(e, ast.Constant) else None for e in node.elts)
                if is_rgb(values):
                    found.add(values)  # type: ignore[arg-type]
    return Colours(sorted(found))


def palette_colours(colours: tuple[RGB, ...]) -> list[RGB]:
    """``colours`` (at most ``COLOURS``), then the finest cube that fits beside them."""
    own = list(dict.fromkeys(colours))
    if len(own) > COLOURS:
        raise ValueError(f"{len(own)} colours: a palette holds {COLOURS}")
    for levels in CUBE_LEVELS:
        cube = [_cube_colour(rgb, levels) for rgb in itertools.product(range(levels), repeat=3)]
        extra = [c for c in cube if all(_distance2(c, o) > KEEP_CLEAR**2 for o in own)]
        if len(own) + len(extra) <= COLOURS:
            return own + extra
    return own  # room for no cube at all: the module's own colours alone


def _cube_colour(steps: tuple[int, ...], levels: int) -> RGB:
    r, g, b = (round(s * 255 / (levels - 1)) for s in steps)
    return (r, g, b)


def _distance2(a: RGB, b: RGB) -> int:
    return sum((x - y) ** 2 for x, y in zip(a, b, strict=True))


@functools.cache  # per colour set, once per process
def palette_entries(colours: tuple[RGB, ...]) -> dict[RGB, int]:
    """Each colour of ``palette(colours)`` and its entry: what a shape of that colour is drawn
    with on an image already on that palette (Pillow would search the image's own palette)."""
    entries: dict[RGB, int] = {}
    for index, rgb in enumerate(palette_colours(colours)):
        entries.setdefault(rgb, index)
    return entries


class _Palettes(threading.local):
    """One palette image per colour set and thread: Pillow fills its look-up cache while
    mapping, so one palette must not be mapped through by two threads at once (it releases the
    GIL meanwhile)."""

    def __init__(self) -> None:
        self.by_colours: dict[tuple[RGB, ...], Image.Image] = {}


_palettes = _Palettes()


def palette(colours: tuple[RGB, ...]) -> Image.Image:
    """The "P" image holding ``palette_colours(colours)``: the same object on every call (its
    cache of nearest colours grows with use)."""
    found = _palettes.by_colours.get(colours)
    if found is None:
        found = Image.new("P", (1, 1))
        found.putpalette([v for rgb in palette_colours(colours) for v in rgb])
        found.load()
        _palettes.by_colours[colours] = found
    return found


def to_palette(image: Image.Image, colours: tuple[RGB, ...] = ()) -> Image.Image:
    """``image`` in "P" mode on the palette of ``colours``: every pixel its nearest palette
    colour (no dithering: flat areas stay flat). Images not in RGB are returned as they are."""
    if image.mode != "RGB":
        return image
    return image.quantize(palette=palette(colours), dither=Image.Dither.NONE)
