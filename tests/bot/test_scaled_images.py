"""Tables drawn smaller than their layout (``bot.ui.images.scaled``): the proxy draws what the
layout says at the scale, and a stamped sprite is the picture its painter draws."""

from __future__ import annotations

import importlib
import io
import random

import pytest
from PIL import Image, ImageChops, ImageDraw

from bot.ui.amapatolli import images as amapatolli
from bot.ui.chupate2 import images as chupate2
from bot.ui.images.fonts import font
from bot.ui.images.scaled import (
    ScaledDraw,
    Sprite,
    canvas,
    cut_out,
    drawer,
    paste,
    scaled_font,
    scaled_size,
    sprite,
    stamp,
)
from bot.ui.macarena import images as macarena
from tests.playouts import random_states

BG = (0, 0, 0)
INK = (255, 255, 255)


def test_the_canvas_is_the_layout_at_scale_and_shapes_land_where_the_layout_says():
    image, draw = canvas((200, 100), BG, 0.5)
    assert image.size == (100, 50) == scaled_size((200, 100), 0.5)
    draw.rectangle((40, 20, 80, 60), fill=INK)
    assert image.getbbox() == (20, 10, 41, 31)  # layout 40..80 -> pixels 20..40 inclusive
    draw.line((0, 90, 200, 90), fill=INK, width=8)  # 8 layout units thick -> 4 pixels
    column = [image.getpixel((50, y)) for y in range(50)]
    assert sum(1 for p in column[35:] if p == INK) == 4


def test_scale_one_is_pillows_own_draw():
    image, draw = canvas((20, 10), BG)
    assert image.size == (20, 10) and not isinstance(draw, ScaledDraw)


def test_text_is_drawn_at_the_scaled_size_and_position():
    image, draw = canvas((400, 100), BG, 0.5)
    draw.text((100, 20), "Mesa", fill=INK, font=font(40))
    box = image.getbbox()
    assert box is not None and 49 <= box[0] <= 52 and box[1] >= 10
    full = Image.new("RGB", (400, 100), BG)
    ImageDraw.Draw(full).text((100, 20), "Mesa", fill=INK, font=font(40))
    full_box = full.getbbox()
    assert full_box is not None
    # half the layout's width, within a pixel of hinting
    assert abs((box[2] - box[0]) - (full_box[2] - full_box[0]) / 2) <= 2
    assert scaled_font(font(40), 0.5).size == 20


def _painter(draw: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float) -> None:
    draw.rounded_rectangle((x, y, x + w, y + h), 6, fill=(200, 30, 30), outline=INK, width=2)
    draw.ellipse((x + w / 4, y + h / 4, x + w * 3 / 4, y + h * 3 / 4), fill=(20, 20, 200))


def test_a_stamp_is_the_picture_its_painter_draws():
    for scale in (1.0, 0.7):
        stamped_image, stamped = canvas((300, 200), BG, scale)
        drawn_image, drawn = canvas((300, 200), BG, scale)
        # at whole pixels of the canvas the two are the same, pixel for pixel
        x, y = 100 / scale if scale != 1.0 else 100, 50 / scale if scale != 1.0 else 50
        stamp(stamped, _painter, x, y, 60, 90)
        _painter(drawn, x, y, 60, 90)
        assert stamped_image.getbbox() is not None
        assert ImageChops.difference(stamped_image, drawn_image).getbbox() is None, scale
    assert sprite(_painter, 60, 90, 0.7) is sprite(_painter, 60, 90, 0.7)  # drawn once


def test_chupate2_table_stamps_the_stock_and_leaves_the_seats_cards_to_the_text():
    """The stock's backs are stamped; the seats' rows carry no backs (how many cards each seat
    holds is the message's text, so a draw keeps the image: issue 29)."""
    from games.chupate2 import GAME

    state = GAME.new(["a", "b"], "scaled-backs", None)
    view = GAME.view(state, None)
    image = Image.open(io.BytesIO(chupate2.render_table(view, lambda k, **p: k)))
    assert image.size[0] == round(chupate2.TABLE_W * chupate2.TABLE_SCALE)
    rgb = image.convert("RGB")
    s = chupate2.TABLE_SCALE
    red = chupate2.RGB["r"]
    stock_y = round((55 + 195 / 2) * s)  # the middle of the stock's top back
    assert any(rgb.getpixel((x, stock_y)) == red for x in range(round(90 * s), round(230 * s)))
    for row in range(len(view.seats)):
        row_y = round((chupate2.CENTRE_H + 20 + row * chupate2.SEAT_ROW_H + 21) * s)
        assert all(rgb.getpixel((x, row_y)) != red for x in range(rgb.width)), row


# What a game's fixed table layer depends on beside the seat count and the words.
LAYER_KEYS = {
    "amapatolli": lambda view: view.direction,
    "chupate2": lambda view: view.direction,
    "macarena": lambda view: any(p.playable for p in view.pozos),  # the legend's third item
    "triad": lambda view: None,  # one rule set, no elements
}


@pytest.mark.parametrize("key", sorted(LAYER_KEYS))
def test_tables_drawn_on_the_shared_layer_leave_it_as_it_was(key):
    """Every table is drawn on a copy of its fixed layer (felt, stock, direction, panels): a
    table drawn after others, on the layer they used, is the same as drawn first, and a layer
    is drawn once per what it shows (same seat count and words)."""
    import random

    from bot.registry import load_games

    game = load_games()[key]
    module = {"amapatolli": amapatolli, "chupate2": chupate2, "macarena": macarena}.get(key)
    if module is None:
        from bot.ui.triad import images as module

    def tr(key, **params):
        return key

    views = []
    for n in range(4):
        state = game.new(["a", "b", "c"][: game.max_players], f"layer-{n}", None)
        rng = random.Random(n)
        for _ in range(min(6 * n, 8)):
            seat = sorted(game.to_act(state))[0]
            state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        views.append(game.view(state, None))
    module._table_layer.cache_clear()
    first = module.render_table(views[0], tr)
    later = [module.render_table(view, tr) for view in views[1:]]
    assert len(set(later) | {first}) > 2  # different tables...
    assert module.render_table(views[0], tr) == first  # ...left the layer untouched
    layers = {LAYER_KEYS[key](view) for view in views}
    assert module._table_layer.cache_info().currsize == len(layers)


def _triad_cases():
    from bot.i18n import translator
    from games.triad import GAME

    names = {"a": "🤖 CPU 1 (normal)", "b": "Alejandra Fernández"}.__getitem__
    cases = []
    for n, options in enumerate([None, {"sudden_death": True, "open": True}]):
        start = GAME.new(["a", "b"], f"palette-{n}", options)
        start.round = n  # the round of Sudden Death on the status line too
        for state in random_states(GAME, start, random.Random(n), 12):
            for seat in (None, "a"):
                cases.append((GAME.view(state, seat), translator(("es", "en")[n]), names))
    return cases


NAMES = ("🤖 CPU 1 (normal)", "Alejandra Fernández", "Zoë", "p12s3")


def _positions(game, setups, moves: int):
    """(seats, state, locale) of random games of ``game``, one per ``setups`` item (its seat
    count and options): about 16 positions each, its last two (the end) among them."""
    for n, (players, options) in enumerate(setups):
        seats = [f"s{k}" for k in range(players)]
        start = game.new(seats, f"palette-{n}", options)
        states = list(random_states(game, start, random.Random(n), moves))
        for state in states[:: max(1, len(states) // 14)] + states[-2:]:
            yield seats, state, ("es", "en")[n % 2]


def _chupate2_cases():
    from bot.i18n import translator
    from games.chupate2 import GAME

    setups = [(2, None), (3, {"points": "50"}), (4, {"points": "150", "teams": "pairs"})]
    return [
        (GAME.view(state, None), translator(locale), dict(zip(seats, NAMES, strict=False)))
        for seats, state, locale in _positions(GAME, setups, 400)
    ]


def _amapatolli_cases():
    from bot.i18n import translator
    from games.amapatolli import GAME

    return [
        (GAME.view(state, None), translator(locale), dict(zip(seats, NAMES, strict=False)))
        for seats, state, locale in _positions(GAME, [(2, None), (3, None), (4, None)], 400)
    ]


def _macarena_cases():
    from bot.i18n import translator
    from games.macarena import GAME

    cases = []
    positions = _positions(GAME, [(2, None), (3, None), (4, None)], 600)
    for k, (seats, state, locale) in enumerate(positions):
        if k % 3 == 0:  # pozos shared by two and three players (the "shared" label)
            state = state.model_copy(deep=True)
            state.macas[k % 7] = {seats[0]: 2, seats[-1]: 1}
            state.macas[(k + 3) % 7] = dict.fromkeys(seats[:3], 1)
        names = dict(zip(seats, NAMES, strict=False)).__getitem__
        for seat in (None, seats[0]):  # a seat's own: its playable pozos framed
            cases.append((GAME.view(state, seat), translator(locale), names))
    return cases


def _maquiavelo_cases():
    from bot.i18n import translator
    from games.maquiavelo import GAME
    from games.maquiavelo.view import CardView, MeldView

    cases = []
    for n, (players, options) in enumerate([(3, None), (5, {"ayuda": True}), (2, None)]):
        seats = [f"s{k}" for k in range(players)]
        names = dict(zip(seats, NAMES, strict=False))
        base = GAME.view(GAME.new(seats, f"palette-{n}", options), None)
        rng = random.Random(n)
        for k in range(8):  # melds of every suit and rank, the last play framed, a winner
            starts = sorted(rng.sample(range(0, 104, 4), 2 + k))
            melds = [
                [c for c in range(start, start + 3 + (start % 5)) if c < 104] for start in starts
            ]
            table = [MeldView(kind="run", cards=[CardView.of(i) for i in m]) for m in melds]
            update = {"table": table, "last_play": melds[-1], "winners": seats[k % 2 :][:1]}
            view = base.model_copy(update=update if k else {})  # the first: the empty table
            cases.append((view, translator(("es", "en")[k % 2]), names))
    return cases


PALETTE_TABLES = {
    "triad": _triad_cases,
    "chupate2": _chupate2_cases,
    "amapatolli": _amapatolli_cases,
    "macarena": _macarena_cases,
    "maquiavelo": _maquiavelo_cases,
}
# A fixed layer of each (its ``_table_layer``'s arguments)
LAYER_PROBES = {
    "triad": ((None,) * 9, ("",) * 9, "x"),
    "chupate2": (500, True, "x"),
    "amapatolli": (True, "x", "y"),
    "macarena": (2, ("h",) * 5, (("x", None),)),
    "maquiavelo": (300,),
}


@pytest.mark.parametrize("key", sorted(PALETTE_TABLES))
def test_a_table_drawn_on_its_palette_is_the_table_drawn_in_rgb_and_mapped(key, monkeypatch):
    """Tables are drawn straight on their module's palette (a copy of their fixed layer already
    mapped: issue 29), shapes with their palette entries, cards from sprites on the palette,
    text on mapped patches of the background: the PNG is byte for byte the one drawing in RGB
    and mapping gives, on many positions (the end, teams, points and computers' names too)."""
    module = importlib.import_module(f"bot.ui.{key}.images")
    cases = PALETTE_TABLES[key]()
    assert len(cases) >= 20
    on_palette = [module.render_table(view, tr, names) for view, tr, names in cases]
    assert module._table_layer(*LAYER_PROBES[key]).mode == "P"
    # RGB layers (mapped at the end, by the encoder): every draw then draws in RGB
    monkeypatch.setattr(module, "_table_layer", module._draw_table_layer)
    assert module._table_layer(*LAYER_PROBES[key]).mode == "RGB"
    in_rgb = [module.render_table(view, tr, names) for view, tr, names in cases]
    assert on_palette == in_rgb


def test_text_on_a_palette_canvas_needs_its_background():
    image = Image.new("P", (40, 20))
    draw = ScaledDraw(ImageDraw.Draw(image), 0.5)
    with pytest.raises(ValueError, match="background"):
        draw.text((2, 2), "x", fill=INK, font=font(20))


def _painted_masks(rng: random.Random):
    """Sprites of every shape ``Sprite.pieces`` meets: rounded cards, shapes with holes and
    bare rows, thin and small ones, an empty one."""
    for _ in range(12):
        w, h = rng.randint(20, 130), rng.randint(20, 130)
        image = Image.new("RGBA", (w + 2, h + 2), (0, 0, 0, 0))
        draw = ImageDraw.Draw(image)
        colour = (rng.randrange(256), rng.randrange(256), rng.randrange(256), 255)
        draw.rounded_rectangle((0, 0, w - 1, h - 1), rng.randint(0, 12), fill=colour)
        if rng.random() < 0.5:  # a hole, or a bare band across it
            x, y = rng.randrange(w), rng.randrange(h)
            draw.rectangle((x, y, x + rng.randint(1, 9), y + rng.randint(1, 9)), fill=(0, 0, 0, 0))
        if rng.random() < 0.3:
            y = rng.randrange(h)
            draw.rectangle((0, y, w, y + 2), fill=(0, 0, 0, 0))
        yield image
    yield Image.new("RGBA", (8, 8), (0, 0, 0, 0))  # nothing inked
    yield Image.new("RGBA", (3, 90), (9, 9, 9, 255))  # thin: one piece


@pytest.mark.parametrize("mode", ["P", "RGB"])
def test_a_sprite_pasted_in_pieces_is_the_sprite_pasted_through_its_mask(mode):
    """``paste`` copies a sprite's fully covered rows whole (``Sprite.pieces``): the very
    pixels Pillow pastes through the whole mask, wherever it lands (edges included)."""
    rng = random.Random(11)
    colours = ((10, 20, 30), (200, 10, 10), (250, 250, 250))
    for image in _painted_masks(rng):
        picture = cut_out(image, colours if mode == "P" else None)
        whole = Sprite(picture.picture, picture.mask)
        for x, y in [(0, 0), (5, 7), (-9, -4), (150, 100), (rng.randrange(160), 3)]:
            background = Image.new("RGB", (170, 120), (10, 20, 30))
            ours = background.quantize(palette=_palette_of(picture)) if mode == "P" else background
            theirs = ours.copy()
            paste(drawer(ours), whole, x, y)
            theirs.paste(picture.picture, (x, y), picture.mask)
            assert ours.tobytes() == theirs.tobytes(), (image.size, x, y)


def _palette_of(picture: Sprite) -> Image.Image:
    holder = Image.new("P", (1, 1))
    holder.putpalette(picture.picture.getpalette() or [])
    return holder
