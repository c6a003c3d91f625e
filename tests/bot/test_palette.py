"""The fixed palette images are saved with (``bot.ui.images.palette``): a game's own colours come
out of the PNG exactly, every other pixel within half a cube step of what was drawn."""

from __future__ import annotations

import importlib
import io
import random
import zlib

import pytest
from PIL import Image, ImageChops

from bot.registry import load_games
from bot.ui.images import encode, fonts
from bot.ui.images.palette import (
    COLOURS,
    module_colours,
    palette,
    palette_colours,
    to_palette,
)
from bot.ui.rendering import render_image
from tests.bot.test_scaled_images import PALETTE_TABLES
from tests.playouts import played

GAMES = load_games()
# No pixel is further from what was drawn than the cube's half diagonal (25.5 * sqrt(3) = 44)
# and Pillow's look-up by cells of 4 values a channel: 48 in any channel. (Session 15's palettes,
# chosen per picture, had no bound: up to 67 on the benches' images.)
LARGEST_DIFFERENCE = 48


def _drawn_images(key: str, monkeypatch) -> list[Image.Image]:
    """The RGB pictures a few moves into a game draws (table and every hand), not encoded."""
    caught: list[Image.Image] = []
    real = fonts.png

    def catch(image: Image.Image, colours=()) -> bytes:
        caught.append(image)
        return real(image, colours)

    with monkeypatch.context() as patch:  # undone before the test encodes them itself
        patch.setattr(fonts, "png", catch)
        # Tables drawn on their palette are drawn here in RGB, as test_scaled_images checks
        # that drawing on the palette gives the same PNG as this one mapped
        for drawn_on_palette in PALETTE_TABLES:
            module = importlib.import_module(f"bot.ui.{drawn_on_palette}.images")
            patch.setattr(module, "_table_layer", module._draw_table_layer)
        game = GAMES[key]
        seats = [str(100 + i) for i in range(max(game.min_players, 2))]
        state = played(game, game.new(seats, f"palette-{key}", None), random.Random(5), 6)
        names = {s: f"Jugadora {s}" for s in seats}
        render_image(key, "render_table", game.view(state, None), "es", names)
        for seat in seats:
            render_image(key, "render_hand", game.view(state, seat), "es", None)
    assert caught, key
    return caught


def _channel_max(image: Image.Image, colour: tuple[int, int, int]) -> Image.Image:
    """Per pixel, the largest channel difference from ``colour`` ("L")."""
    r, g, b = ImageChops.difference(image, Image.new("RGB", image.size, colour)).split()
    return ImageChops.lighter(ImageChops.lighter(r, g), b)


def _where(image: Image.Image, colour: tuple[int, int, int]) -> Image.Image:
    """A mask ("L", 255 or 0) of the pixels of ``image`` that are exactly ``colour``."""
    return _channel_max(image, colour).point(lambda v: 255 if v == 0 else 0)


def _black(image: Image.Image) -> Image.Image:
    return Image.new("L", image.size, 0)


@pytest.mark.parametrize("key", sorted(GAMES))
def test_a_games_own_colours_come_out_exactly_and_the_rest_near(key, monkeypatch):
    colours = module_colours(f"bot.ui.{key}.images")
    assert len(colours) >= 5  # its felt, inks and card colours were found
    own = set(colours)
    for image in _drawn_images(key, monkeypatch):
        saved = Image.open(io.BytesIO(fonts.png(image, colours)))
        assert saved.mode == "P"
        decoded = saved.convert("RGB")
        flat = 0
        for colour in own:
            where = _where(image, colour)  # the pixels drawn in this colour exactly...
            flat += where.histogram()[255]
            off = Image.composite(_channel_max(decoded, colour), _black(image), where)
            assert off.getbbox() is None, (key, colour)  # ...are that colour in the PNG
        assert flat > image.width * image.height // 2  # mostly flat colours, all kept
        largest = max(high for _, high in ImageChops.difference(image, decoded).getextrema())
        assert largest <= LARGEST_DIFFERENCE, (key, largest)


def test_the_palette_holds_the_colours_first_then_a_cube_clear_of_them():
    own = ((28, 74, 56), (240, 196, 64), (50, 50, 50))
    entries = palette_colours(own)
    assert entries[:3] == list(own) and len(entries) <= COLOURS
    assert (0, 0, 0) in entries and (255, 255, 255) in entries  # the cube's corners
    assert (51, 51, 51) not in entries  # too near (50, 50, 50): it could take that one's cell
    many = tuple((i, i, 0) for i in range(150))  # no room for 6 levels: a coarser cube
    assert len(palette_colours(many)) <= COLOURS and (255, 255, 255) in palette_colours(many)
    with pytest.raises(ValueError):
        palette_colours(tuple((i, i % 7, i // 7) for i in range(COLOURS + 1)))


def test_one_palette_object_per_colour_set_and_images_not_in_rgb_pass_through():
    own = ((10, 20, 30),)
    assert palette(own) is palette(own)  # Pillow's nearest-colour cache lives on it
    grey = Image.new("L", (4, 4), 7)
    assert to_palette(grey, own) is grey
    mapped = to_palette(Image.new("RGB", (4, 4), (10, 20, 30)), own)
    assert mapped.mode == "P" and mapped.convert("RGB").getpixel((0, 0)) == (10, 20, 30)


def test_a_modules_colours_key_caches_as_the_plain_tuple_would():
    """``module_colours`` hashes once (``palette.Colours``): equal to, and found in a dict
    under, the same colours as a plain tuple, and the other way round."""
    for key in sorted(GAMES):
        colours = module_colours(f"bot.ui.{key}.images")
        plain = tuple(colours)
        assert colours == plain and hash(colours) == hash(plain)
        assert {plain: key}[colours] == key and {colours: key}[plain] == key
        assert palette(plain).getpalette() == palette(colours).getpalette()


def test_literal_colours_in_a_modules_functions_are_its_colours_too():
    # Amapatolli's card back is filled with a literal inside ``_draw_back``
    assert (120, 60, 30) in module_colours("bot.ui.amapatolli.images")


@pytest.mark.parametrize("key", sorted(GAMES))
def test_our_png_is_the_palette_image_pillow_reads_back(key, monkeypatch):
    """``encode.palette_png`` (the PNG every image is sent as): Pillow decodes it to the very
    indices and palette it was given, the pixels Pillow's own PNG of the image gives."""
    colours = module_colours(f"bot.ui.{key}.images")
    for image in _drawn_images(key, monkeypatch):
        mapped = to_palette(image, colours)
        ours = Image.open(io.BytesIO(encode.palette_png(mapped)))
        ours.load()
        assert (ours.format, ours.mode, ours.size) == ("PNG", "P", mapped.size)
        assert ours.tobytes() == mapped.tobytes() and ours.getpalette() == mapped.getpalette()
        buffer = io.BytesIO()
        mapped.save(buffer, format="PNG")
        pillows = Image.open(io.BytesIO(buffer.getvalue())).convert("RGB")
        assert ImageChops.difference(ours.convert("RGB"), pillows).getbbox() is None
    with pytest.raises(ValueError, match="palette"):
        encode.palette_png(Image.new("RGB", (2, 2)))


def test_png_rows_read_with_a_wider_stride_are_each_images_own_pixels():
    """The rows as Pillow's raw encoder reads them one byte wider than the image
    (``encode._deflated_rows``: the zero padding each row becomes the next row's filter byte):
    random images of many sizes, one pixel wide or high too, decode to their own pixels, and
    the stream inflates to the PNG's raw data (a zero before each row)."""
    rng = random.Random(3)
    sizes = [(7, 5), (1, 1), (1, 9), (9, 1), (550, 466), (7, 5), (720, 513)]
    sizes += [(20 + i, 3) for i in range(18)]
    for width, height in sizes:
        image = Image.frombytes("P", (width, height), rng.randbytes(width * height))
        image.putpalette([rng.randrange(256) for _ in range(768)])
        ours = Image.open(io.BytesIO(encode.palette_png(image)))
        ours.load()
        assert ours.size == (width, height) and ours.tobytes() == image.tobytes()
        assert ours.getpalette() == image.getpalette()
        pixels = image.tobytes()
        raw = b"".join(b"\0" + pixels[y * width : (y + 1) * width] for y in range(height))
        assert zlib.decompress(encode._deflated_rows(image, encode.LEVEL)) == raw
