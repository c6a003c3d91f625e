"""Ce Amapatolli images: the public table and a player's hand, drawn with Pillow.

``render_table(view, tr, names=None)`` and ``render_hand(view, tr, names=None, *, playable=None)``
return PNG bytes. ``tr`` is the catalogue translator (``tr(key, **params) -> str``); only
``amapatolli.*`` keys are used for words. ``names`` (optional) maps seats to display names; without it seats read "Player N".

A card is drawn with its margin colour as a thick border and its background colour as the fill,
its number large and its sign name below. A Tlapiāni on the table is filled with the colour in
force. A card's name in words is in ``bot.ui.amapatolli.text``.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Collection, Mapping

from PIL import Image, ImageDraw, ImageFont

from bot.ui.amapatolli.text import colours_in_force
from bot.ui.images.fonts import fit_size, font, plain, png_of, text_drawer
from bot.ui.images.palette import module_colours, to_palette
from bot.ui.images.scaled import Sprite, canvas, cut_out, drawer, paste, scaled_size, stamp
from bot.ui.images.symbols import SHAPE, draw_shape
from games.amapatolli.view import AmapatolliView, CardView

Translator = Callable[..., str]

RGB = {
    "white": (238, 233, 220),
    "red": (192, 44, 44),
    "black": (28, 28, 30),
    "blue": (38, 88, 168),
}
INK = {
    "white": (25, 25, 25),
    "red": (255, 255, 255),
    "black": (255, 255, 255),
    "blue": (255, 255, 255),
}
TABLE = (28, 74, 56)
PANEL = (20, 52, 40)
TEXT = (236, 240, 236)
DIM = (170, 190, 178)
GOLD = (240, 196, 64)
OUTLINE = (12, 12, 12)


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return font(size, bold=False)


def _plain(text: str) -> str:
    return plain(text, bold=False)


_text = text_drawer(bold=False)


def _fit(text: str, size: int, width: int) -> int:
    """The largest font size up to ``size`` at which ``text`` fits in ``width`` pixels."""
    return fit_size(text, size, width, bold=False, minimum=8)


# ----- drawing -------------------------------------------------------------------------------
def _draw_card(
    draw: ImageDraw.ImageDraw,
    x: int,
    y: int,
    w: int,
    h: int,
    card: CardView,
    tr: Translator,
    fill_colour: str | None = None,
    highlight: bool = False,
) -> None:
    if highlight:
        radius = max(6, w // 12)
        draw.rounded_rectangle((x - 5, y - 5, x + w + 5, y + h + 5), radius + 4, fill=GOLD)
    _paint_card(draw, x, y, w, h, card, fill_colour, *_card_words(card, tr))


def _card_words(card: CardView, tr: Translator) -> tuple[str, str]:
    """The words ``card`` shows under its name: its tag (wild, bird, ...) and its sign's
    meaning ("" for none)."""
    if card.wild:
        return tr("amapatolli.card.wild"), ""
    tag = ""
    if card.bird or card.skips:
        tag = tr("amapatolli.card.bird") if card.bird else tr("amapatolli.card.skips")
    elif card.reverses:
        tag = tr("amapatolli.card.reverses")
    return tag, tr(f"amapatolli.sign_meaning.{card.sign}")


def _paint_card(
    draw: ImageDraw.ImageDraw,
    x: float,
    y: float,
    w: int,
    h: int,
    card: CardView,
    fill_colour: str | None,
    tag: str,
    meaning: str,
) -> None:
    margin = card.margin
    background = fill_colour or card.background
    radius = max(6, w // 12)
    border = max(6, w // 9)
    draw.rounded_rectangle((x, y, x + w, y + h), radius, fill=RGB[margin], outline=OUTLINE, width=2)
    inner = (x + border, y + border, x + w - border, y + h - border)
    draw.rounded_rectangle(
        inner, max(3, radius - border // 2), fill=RGB[background], outline=OUTLINE, width=1
    )
    # colour is never the only signal: the margin's shape sits on the margin (the middle of
    # its top and bottom bands), the background's on the background (its top-right corner)
    r = max(3.5, border * 0.4)
    for sy in (y + border / 2 + 1, y + h - border / 2 - 1):
        draw_shape(draw, SHAPE[margin], x + w / 2, sy, r, INK[margin], RGB[margin])
    ink = INK[background]
    inner_w = w - 2 * border - 6
    br = max(4.0, h * 0.035)
    draw_shape(draw, SHAPE[background], x + w - border - br - 4, y + border + br + 4, br, ink)
    cx = x + w // 2
    _text(draw, (cx, y + h * 0.34), "T" if card.wild else str(card.sign), int(h * 0.26), ink, "mm")
    name_size = _fit(card.name, max(9, int(h * 0.1)), inner_w)
    _text(draw, (cx, y + h * 0.62), card.name, name_size, ink, "mm")
    if meaning:
        _text(
            draw,
            (cx, y + h * 0.73),
            meaning,
            _fit(meaning, max(8, int(h * 0.075)), inner_w),
            ink,
            "mm",
        )
    if tag:
        _text(draw, (cx, y + h * 0.84), tag, _fit(tag, max(8, int(h * 0.075)), inner_w), ink, "mm")


# The table's last card, drawn once per look and process and pasted (issue 29): the 84 cards,
# a Tlapiāni in each colour it can name, with and without powers, in the locales in use; kept
# in "P" on this module's palette (76 KB each at the table's scale).
CARD_SPRITES = 256


@functools.lru_cache(maxsize=CARD_SPRITES)
def _card_sprite(
    card: CardView, fill_colour: str | None, tag: str, meaning: str, w: int, h: int, scale: float
) -> Sprite:
    image = Image.new("RGBA", (math.ceil(w * scale) + 2, math.ceil(h * scale) + 2), (0, 0, 0, 0))
    _paint_card(drawer(image, scale), 0, 0, w, h, card, fill_colour, tag, meaning)
    return cut_out(image, module_colours(__name__))


def _draw_back(draw: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float) -> None:
    draw.rounded_rectangle((x, y, x + w, y + h), 3, fill=(120, 60, 30), outline=(240, 220, 180))


def _direction_arrow(draw: ImageDraw.ImageDraw, cx: int, cy: int, r: int, clockwise: bool) -> None:
    box = (cx - r, cy - r, cx + r, cy + r)
    draw.arc(box, 200, 500, fill=TEXT, width=3)
    # the head sits at the end of the arc the play moves towards, pointing along the tangent
    angle = math.radians(140 if clockwise else 200)
    end = (cx + r * math.cos(angle), cy + r * math.sin(angle))
    tangent = angle + (math.pi / 2 if clockwise else -math.pi / 2)
    tip = (end[0] + 10 * math.cos(tangent), end[1] + 10 * math.sin(tangent))
    side = (7 * math.cos(angle), 7 * math.sin(angle))
    draw.polygon(
        [tip, (end[0] + side[0], end[1] + side[1]), (end[0] - side[0], end[1] - side[1])], fill=TEXT
    )


_png = png_of(__name__)  # the one PNG encoder, this module's colours kept exact


TABLE_LAYOUT = (900, 460)  # the table's layout units
# Drawn 550 px wide (550x281), the width Discord shows a table image at (the 630 px of session
# 18 were drawn and deflated only to be shrunk by the client), for 24 % fewer pixels; names at
# 11 px (``NAME_SIZE``), issue 29.
TABLE_SCALE = 550 / TABLE_LAYOUT[0]
NAME_SIZE = 18  # a seat's name, in layout units: 11 px at the scale
TABLE_SIZE = scaled_size(TABLE_LAYOUT, TABLE_SCALE)  # the image's pixels
SEAT_NAME_W = 370  # the seat names' column on the table image

# What the table image reads of the view (``bot/ui/rendering.py``: its cache key). The stock, the
# pile, each seat's cards, "¡Ce!", whose turn it is and what hangs on it are the message's text
# (its status and seat lines, the turn line): drawn here too they made a new image of every draw
# and pass, issue 29. The image keeps the last card, the colours in force, the direction and the
# seats in their order (and, at the end, who won). Of the last card, what its face shows: not
# which copy of it lies there (``id``: a twin played on its twin drew the same image again, 7 %
# of the table's images) nor its value (the text's).
IMAGE_INPUTS_TABLE = frozenset(
    {"named_colour", "margin", "background", "direction", "seats"}
    | {f"top.{part}" for part in ("sign", "name", "margin", "background", "wild")}
    | {f"top.{part}" for part in ("bird", "skips", "reverses")}
    | {"finished", "winners", "end_reason"}
)


STOCK_X = 310  # the stock's left, the direction under it
PANEL_X = 470  # the right panel's left: the seats
LAYERS = 8  # two directions x the locales in use


@functools.lru_cache(maxsize=LAYERS)
def _table_layer(clockwise: bool, last_card: str, direction: str) -> Image.Image:
    """What every table turning this way shows: the felt, the last card's title, the stock's
    picture (its count is the text's), the direction's arrow and word, the seats' panel. Drawn
    once per process and copied for each image (issue 29); nothing drawn over it later reaches
    under it, so the pixels are the same as drawn in one go. Kept on the module's palette: each
    image is drawn straight on it (no RGB copy to map)."""
    return to_palette(_draw_table_layer(clockwise, last_card, direction), module_colours(__name__))


def _draw_table_layer(clockwise: bool, last_card: str, direction: str) -> Image.Image:
    """``_table_layer`` in RGB."""
    width, height = TABLE_LAYOUT
    image, draw = canvas(TABLE_LAYOUT, TABLE, TABLE_SCALE)
    _text(draw, (40, 22), last_card, 20, DIM)
    for k in range(3):
        stamp(draw, _draw_back, STOCK_X + k * 3, 60 - k * 3, 60, 86)
    _direction_arrow(draw, STOCK_X + 35, 250, 26, clockwise)
    _text(draw, (STOCK_X + 35, 295), direction, _fit(direction, 14, 150), DIM, "mm")
    draw.rounded_rectangle((PANEL_X, 20, width - 20, height - 20), 12, fill=PANEL)
    return image


def render_table(
    view: AmapatolliView, tr: Translator, names: Mapping[str, str] | None = None
) -> bytes:
    """The public table: the last card, the colours in force, the direction and the seats."""
    width, height = TABLE_LAYOUT
    clockwise = view.direction == 1
    key = "amapatolli.table.direction.cw" if clockwise else "amapatolli.table.direction.ccw"
    layer = _table_layer(clockwise, tr("amapatolli.table.last_card"), tr(key))
    image = layer.copy()
    colours = module_colours(__name__)
    draw = drawer(image, TABLE_SCALE, TABLE, colours)  # left of the seats' panel: on the felt
    on_panel = drawer(image, TABLE_SCALE, PANEL, colours)

    def name(seat: str | None) -> str:
        if seat is None:
            return ""
        if names and seat in names:
            return names[seat]
        return tr("amapatolli.table.seat", n=view.seats.index(seat) + 1)

    # the last card played (the layer has its title)
    card_w, card_h = 230, 330
    fill_colour = view.named_colour if view.top.wild else None
    words = _card_words(view.top, tr)
    sprite = _card_sprite(view.top, fill_colour, *words, card_w, card_h, TABLE_SCALE)
    paste(draw, sprite, 40, 55)
    line = colours_in_force(view, tr)
    _text(draw, (40 + card_w // 2, 405), line, _fit(line, 17, 300), TEXT, "mm")

    # right panel: the winner at the end, and the seats in their order
    rx, rw = PANEL_X, width - PANEL_X - 20  # on the layer's panel
    y = 36
    if view.finished:
        winners = ", ".join(name(s) for s in view.winners)
        text = tr("amapatolli.table.winner", player=winners)
        _text(on_panel, (rx + 16, y), text, 22, GOLD, max_width=rw - 32)
        y += 32
        if view.end_reason == "blocked":
            text = tr("amapatolli.table.blocked")
            _text(on_panel, (rx + 16, y), text, _fit(text, 15, rw - 32), TEXT)
            y += 24
        y += 6
    row_h = min(46, (height - 36 - y) // max(1, len(view.seats)))
    for seat in view.seats:
        winner = seat in view.winners
        label = name(seat)
        _text(
            on_panel,
            (rx + 18, y + 2),
            label,
            NAME_SIZE,
            GOLD if winner else TEXT,
            max_width=SEAT_NAME_W,
        )
        y += row_h
    return _png(image)


HAND_CARD = (96, 138)
HAND_GAP = 10
HAND_PER_ROW = 10


# The view fields render_hand reads (its cache key: ``bot.ui.rendering.INPUTS_ATTRIBUTE``).
IMAGE_INPUTS = {
    "render_hand": frozenset({"hand", "playable"}),
    "render_table": IMAGE_INPUTS_TABLE,
}


def render_hand(
    view: AmapatolliView,
    tr: Translator,
    names: Mapping[str, str] | None = None,
    *,
    playable: Collection[str] | None = None,
) -> bytes:
    """The seat's hand as cards; the cards playable right now are outlined in gold."""
    cards = view.hand
    per_row = max(1, min(HAND_PER_ROW, len(cards)))
    rows = max(1, -(-len(cards) // HAND_PER_ROW))
    cw, ch = HAND_CARD
    width = max(360, 20 + per_row * (cw + HAND_GAP) + 10)
    height = 50 + rows * (ch + HAND_GAP + 8) + 10
    image = Image.new("RGB", (width, height), TABLE)
    draw = ImageDraw.Draw(image)
    title = tr("amapatolli.hand.title", count=len(cards))
    if view.playable:
        title += "  ·  " + tr("amapatolli.hand.playable")
    _text(draw, (20, 14), title, _fit(title, 18, width - 40), TEXT)
    if not cards:
        _text(draw, (20, 60), tr("amapatolli.hand.empty"), 18, DIM)
    playable = set(view.playable)
    for k, card in enumerate(cards):
        row, col = divmod(k, HAND_PER_ROW)
        x = 20 + col * (cw + HAND_GAP)
        y = 50 + row * (ch + HAND_GAP + 8)
        _draw_card(draw, x, y, cw, ch, card, tr, highlight=card.id in playable)
    return _png(image)
