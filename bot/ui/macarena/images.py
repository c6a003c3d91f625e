"""Macarena images: the public table and a player's hand, drawn with Pillow.

``render_table(view, tr, names=None)`` and ``render_hand(view, tr, names=None, *, playable=None)`` return PNG
bytes. ``tr`` is the catalogue translator (``tr(key, **params) -> str``); only ``macarena.*``
keys are used for words. ``names`` (optional) maps seats to display names; without it seats read
"P1", "P2"… in their MACA colour.

The table: the 7 pozos, each showing its top card (element colours: earth brown, air sky blue,
water blue, fire red), the number of cards under it, its MACAS as dots in the owners' colours, a
coloured frame when enchanted (striped when shared); below, a standings strip with collection
size (when shown), coins, elements, amulets and active MACAS. The stock, the hand sizes and whose
turn it is are the message's text (``IMAGE_INPUTS_TABLE``).

The words (cards as ``7♥``, action and event parameters) are in ``bot.ui.macarena.text``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection

from PIL import Image, ImageDraw

from bot.ui.images.fonts import font, png_of, text_drawer, text_width
from bot.ui.images.palette import module_colours, to_palette
from bot.ui.images.scaled import canvas, drawer, stamp
from games.core.cards import PlayingCard
from games.macarena.elements import ELEMENT_SUIT, ELEMENTS, SUIT_ELEMENT
from games.macarena.view import MacarenaView

Translator = Callable[..., str]
Names = Callable[[str], str] | None

TABLE = (30, 78, 60)
PANEL = (20, 52, 42)
TEXT = (236, 240, 236)
DIM = (165, 188, 176)
GOLD = (240, 196, 64)
OUTLINE = (15, 15, 15)
CARD = (250, 248, 240)
ELEMENT_RGB = {
    "earth": (130, 92, 40),
    "air": (95, 110, 135),
    "water": (30, 80, 190),
    "fire": (210, 50, 30),
}
PLAYER_RGB = [(220, 50, 50), (50, 110, 230), (40, 170, 70), (235, 200, 40), (150, 70, 200)]


_text = text_drawer()


def _colour(index: int) -> tuple[int, int, int]:
    return PLAYER_RGB[index % len(PLAYER_RGB)]


def _numbered_dot(
    draw: ImageDraw.ImageDraw, left: float, top: float, size: int, colour: int, number: int
) -> None:
    """A player's colour with their seat number in it (colour is never the only signal: the
    number matches the standings' and the legend's "P1", "P2"...): stamped, each dot drawn
    once per process (its number is text on the colour, which a palette canvas cannot take
    from a patch of its background)."""
    stamp(draw, _paint_numbered_dot, left, top, size, size, colour, number)


def _paint_numbered_dot(
    draw: ImageDraw.ImageDraw, left: float, top: float, size: float, _h: float, colour: int,
    number: int,
) -> None:  # fmt: skip
    draw.ellipse((left, top, left + size, top + size), fill=_colour(colour), outline=OUTLINE)
    centre = (left + size / 2, top + size / 2)
    draw.text(
        centre,
        str(number),
        font=font(int(size * 0.72)),
        fill=TEXT,
        anchor="mm",
        stroke_width=2,
        stroke_fill=OUTLINE,
    )


_png = png_of(__name__)  # the one PNG encoder, this module's colours kept exact


# ----- drawing -------------------------------------------------------------------------------
def _suit_shape(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float, suit: str, fill):
    """A suit pip drawn from shapes (no font needed)."""
    r = size / 2
    if suit == "D":
        draw.polygon(
            [(cx, cy - r), (cx + r * 0.75, cy), (cx, cy + r), (cx - r * 0.75, cy)], fill=fill
        )
    elif suit == "H":
        q = r * 0.5
        draw.ellipse((cx - r, cy - r * 0.8, cx, cy - r * 0.8 + 2 * q + 2), fill=fill)
        draw.ellipse((cx, cy - r * 0.8, cx + r, cy - r * 0.8 + 2 * q + 2), fill=fill)
        draw.polygon(
            [(cx - r * 0.98, cy - r * 0.2), (cx + r * 0.98, cy - r * 0.2), (cx, cy + r)], fill=fill
        )
    elif suit == "S":
        q = r * 0.5
        draw.polygon(
            [(cx, cy - r), (cx + r * 0.98, cy + r * 0.15), (cx - r * 0.98, cy + r * 0.15)],
            fill=fill,
        )
        draw.ellipse((cx - r, cy - q * 0.4, cx, cy + q * 1.4), fill=fill)
        draw.ellipse((cx, cy - q * 0.4, cx + r, cy + q * 1.4), fill=fill)
        draw.polygon(
            [(cx, cy + r * 0.3), (cx + r * 0.35, cy + r), (cx - r * 0.35, cy + r)], fill=fill
        )
    else:  # clubs
        q = r * 0.48
        draw.ellipse((cx - q, cy - r, cx + q, cy - r + 2 * q), fill=fill)
        draw.ellipse((cx - r, cy - q * 0.6, cx - r + 2 * q, cy + q * 1.4), fill=fill)
        draw.ellipse((cx + r - 2 * q, cy - q * 0.6, cx + r, cy + q * 1.4), fill=fill)
        draw.polygon([(cx, cy), (cx + r * 0.35, cy + r), (cx - r * 0.35, cy + r)], fill=fill)


def _draw_card(
    draw: ImageDraw.ImageDraw,
    x: int,
    y: int,
    w: int,
    h: int,
    card: PlayingCard,
    frame=None,
    frame_width: int = 4,
) -> None:
    _draw_frame(draw, x, y, w, h, frame, frame_width)
    _card_face(draw, x, y, w, h, card.suit, card.rank_text)


def _draw_frame(
    draw: ImageDraw.ImageDraw, x: int, y: int, w: int, h: int, frame=None, frame_width: int = 4
) -> None:
    """The frame around a card (its owner's colour, the card just drawn), if it has one."""
    if frame is not None:
        draw.rounded_rectangle(
            (
                x - frame_width - 1,
                y - frame_width - 1,
                x + w + frame_width + 1,
                y + h + frame_width + 1,
            ),
            10,
            fill=frame,
        )


def _card_face(
    draw: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float, suit: str, rank: str
) -> None:
    """A card's face, ``rank`` its rank's text: on the table a sprite's painter (``stamp``:
    each face drawn once per process, issue 29)."""
    ink = ELEMENT_RGB[SUIT_ELEMENT[suit]]
    draw.rounded_rectangle((x, y, x + w, y + h), 8, fill=CARD, outline=ink, width=3)
    size = max(12, int(w) // 3)
    _text(draw, (x + 6, y + 4), rank, size, ink)
    _suit_shape(draw, x + 6 + size * 0.32, y + 8 + size * 1.25, size * 0.6, suit, ink)
    _suit_shape(draw, x + w * 0.6, y + h * 0.64, w * 0.42, suit, ink)


def _player_label(view: MacarenaView, seat: str, tr: Translator, names: Names) -> str:
    if names:
        return names(seat)
    return tr("macarena.image.player", number=view.seats.index(seat) + 1)


def _element_pips(draw, x: int, y: int, held: list[str], size: int = 16) -> int:
    for i, element in enumerate(ELEMENTS):
        cx = x + i * (size + 6) + size // 2
        ink = ELEMENT_RGB[element]
        if element in held:
            draw.ellipse((cx - size / 2 - 2, y - 2, cx + size / 2 + 2, y + size + 2), fill=CARD)
            _suit_shape(draw, cx, y + size / 2, size * 0.8, ELEMENT_SUIT[element], ink)
        else:
            draw.ellipse((cx - size / 2, y, cx + size / 2, y + size), outline=DIM, width=1)
    return x + len(ELEMENTS) * (size + 6)


# ----- the table -----------------------------------------------------------------------------
WIDTH = 960  # the table's layout units
# Drawn at 0.75: 720 px wide, still wider than Discord shows a table image (about 550 px), for
# 56 % of the pixels to fill, map and deflate (the largest table image of the five games), and
# names still at 11 px (issue 29).
TABLE_SCALE = 0.75
POZO_W, POZO_H = 74, 104
# 7 pozos around the stock: three above, two at the sides, two below.
POZO_SLOTS = [(150, 70), (443, 40), (736, 70), (820, 250), (560, 330), (326, 330), (66, 250)]


NAME_X = 44
NAME_W = 246  # the players' names column of the standings strip
COLUMNS = {
    "collection": 300,
    "coins": 410,
    "elements": 510,
    "amulets": 650,
    "macas": 800,
}
LEGEND_H = 30
LEGEND_SIZE = 13


def _frame_swatch(draw: ImageDraw.ImageDraw, x: float, y: float, colour) -> float:
    draw.rounded_rectangle((x, y, x + 14, y + 18), 3, outline=colour, width=2)
    return 20


def _legend(
    draw: ImageDraw.ImageDraw, y: float, items: list[tuple[str, object | None]], width: float
) -> None:
    """One line of ``(text, frame colour or None)`` items, each after its swatch, shrunk to fit
    ``width``."""
    size = LEGEND_SIZE
    gap = 22
    while size > 9:
        total = sum(_legend_width(text, size, frame) for text, frame in items)
        if total + gap * (len(items) - 1) <= width:
            break
        size -= 1
    x = 16.0
    for text, frame in items:
        if frame is not None:
            x += _frame_swatch(draw, x, y - 2, frame)
        x += _text(draw, (x, y), text, size, DIM) + gap


def _legend_width(text: str, size: int, frame: object | None) -> float:
    return text_width(text, size) + (20 if frame is not None else 0)


def _table_legend(view: MacarenaView, tr: Translator) -> tuple[tuple[str, object | None], ...]:
    items: list[tuple[str, object | None]] = [
        (tr("macarena.image.legend.pozo"), None),
        (tr("macarena.image.legend.macas"), None),
    ]
    if any(p.playable for p in view.pozos):
        items.append((tr("macarena.image.legend.playable"), TEXT))
    return tuple(items)


# What the table image reads of the view (``bot/ui/rendering.py``: its cache key). The stock, the
# hand counts and whose turn it is (the espejo's too) are the message's text (its status and seat
# lines, the turn line): drawn here too they made a new image of every draw, issue 29.
IMAGE_INPUTS_TABLE = frozenset(
    {"seats", "hand_number", "pozos", "finished", "winners"}
    | {
        f"players.{part}"
        for part in ("seat", "colour", "collection_count", "coins", "elements", "amulets")
    }
    | {"players.active_macas"}
)


STRIP_TOP = 500  # the standings strip's top
HEADERS = (
    ("collection", "macarena.image.collection_header"),
    ("coins", "macarena.image.coins"),
    ("elements", "macarena.image.elements"),
    ("amulets", "macarena.image.amulets"),
    ("macas", "macarena.image.macas"),
)
LAYERS = 16  # seat counts x with or without the playable legend x the locales in use


@functools.lru_cache(maxsize=LAYERS)
def _table_layer(
    rows: int, headers: tuple[str, ...], legend: tuple[tuple[str, object | None], ...]
) -> Image.Image:
    """What every table of ``rows`` players shows: the felt, the standings strip with its
    column headers, the legend. Drawn once per process and copied for each image (issue 29);
    nothing drawn over it later reaches under it, so the pixels are the same as drawn in one
    go. Kept on the module's palette: each image is drawn straight on it (no RGB copy to
    map)."""
    return to_palette(_draw_table_layer(rows, headers, legend), module_colours(__name__))


def _draw_table_layer(
    rows: int, headers: tuple[str, ...], legend: tuple[tuple[str, object | None], ...]
) -> Image.Image:
    """``_table_layer`` in RGB."""
    height = STRIP_TOP + 40 + rows * 34 + 12 + LEGEND_H
    image, draw = canvas((WIDTH, height), TABLE, TABLE_SCALE)
    draw.rectangle((0, STRIP_TOP, WIDTH, height), fill=PANEL)
    for (column, _), text in zip(HEADERS, headers, strict=True):
        _text(draw, (COLUMNS[column], STRIP_TOP + 10), text, 13, DIM)
    _legend(draw, height - LEGEND_H + 6, list(legend), WIDTH - 32)
    return image


def render_table(view: MacarenaView, tr: Translator, names: Names = None) -> bytes:
    rows = len(view.players)
    strip_top = STRIP_TOP
    headers = tuple(tr(key) for _, key in HEADERS)
    image = _table_layer(rows, headers, _table_legend(view, tr)).copy()
    colours = module_colours(__name__)
    draw = drawer(image, TABLE_SCALE, TABLE, colours)  # above the standings: on the felt
    on_strip = drawer(image, TABLE_SCALE, PANEL, colours)

    # header
    header = tr("macarena.image.hand_number", hand=view.hand_number)
    _text(draw, (16, 12), header, 20, TEXT)
    if view.finished and view.winners:  # the end: a banner naming the winner
        winners = ", ".join(_player_label(view, s, tr, names) for s in view.winners)
        banner = tr("macarena.image.winner", players=winners, count=len(view.winners))
        _text(draw, (WIDTH - 16, 12), banner, 22, GOLD, anchor="ra")

    # the pozos around the middle (the stock and its count are the text's)
    colour_of = {p.seat: p.colour for p in view.players}
    number_of = {seat: n for n, seat in enumerate(view.seats, start=1)}
    for pozo in view.pozos:
        x, y = POZO_SLOTS[pozo.index]
        owners = [s for s, n in pozo.macas.items() if n > 0]
        frame = None
        if owners:
            frame = _colour(colour_of.get(owners[0], 0))
        if pozo.playable:
            draw.rounded_rectangle(
                (x - 10, y - 10, x + POZO_W + 10, y + POZO_H + 10), 12, outline=TEXT, width=2
            )
        _draw_frame(draw, x, y, POZO_W, POZO_H, frame)
        stamp(draw, _card_face, x, y, POZO_W, POZO_H, pozo.top.suit, pozo.top.rank_text)
        if len(owners) >= 2:  # shared: a stripe per owner along the top
            seg = (POZO_W + 10) / len(owners)
            for k, owner in enumerate(owners):
                draw.rectangle(
                    (x - 5 + k * seg, y - 5, x - 5 + (k + 1) * seg, y - 1),
                    fill=_colour(colour_of.get(owner, 0)),
                )
            _text(
                draw, (x + POZO_W / 2, y - 22), tr("macarena.image.shared"), 12, GOLD, anchor="ma"
            )
        for k, owner in enumerate(owners):  # whose frame: their numbers on its top corner
            _numbered_dot(
                draw, x - 12 + k * 16, y - 12, 16, colour_of.get(owner, 0), number_of.get(owner, 0)
            )
        label = tr("macarena.image.pozo", pozo=pozo.index + 1)
        _text(
            draw, (x + POZO_W / 2, y + POZO_H + 8), f"{label} ({pozo.size})", 14, TEXT, anchor="ma"
        )
        # MACAS as dots in the owners' colours, each with its owner's number
        dots = [s for s, n in pozo.macas.items() for _ in range(n)]
        dot = 15
        gap = 2 if len(dots) * (dot + 3) <= POZO_W + 40 else -3
        total = len(dots) * (dot + gap) - gap
        dx = x + POZO_W / 2 - total / 2
        for k, owner in enumerate(dots):
            _numbered_dot(
                draw,
                dx + k * (dot + gap),
                y + POZO_H + 26,
                dot,
                colour_of.get(owner, 0),
                number_of.get(owner, 0),
            )

    # standings (on the layer's strip, under its headers)
    for row, p in enumerate(view.players):
        y = strip_top + 38 + row * 34
        _numbered_dot(on_strip, 14, y + 2, 20, p.colour, number_of.get(p.seat, 0))
        name = _player_label(view, p.seat, tr, names)
        _text(on_strip, (NAME_X, y + 3), name, 15, TEXT, max_width=NAME_W)
        col = COLUMNS
        coll = "?" if p.collection_count is None else str(p.collection_count)
        _text(on_strip, (col["collection"], y + 4), coll, 16, TEXT)
        on_strip.ellipse(
            (col["coins"], y + 3, col["coins"] + 18, y + 21), fill=GOLD, outline=OUTLINE
        )
        _text(on_strip, (col["coins"] + 26, y + 4), str(p.coins), 16, TEXT)
        _element_pips(on_strip, col["elements"], y + 4, list(p.elements))
        for k in range(p.amulets):
            on_strip.regular_polygon(
                (col["amulets"] + 8 + k * 22, y + 13, 9), 6, fill=(200, 120, 230), outline=OUTLINE
            )
        if not p.amulets:
            _text(on_strip, (col["amulets"], y + 4), "0", 16, DIM)
        _text(on_strip, (col["macas"], y + 4), f"{p.active_macas}/7", 16, TEXT)
    return _png(image)


# ----- a player's hand -----------------------------------------------------------------------
HAND_W, HAND_H = 60, 84
PER_ROW = 13


# The view fields render_hand reads (its cache key: ``bot.ui.rendering.INPUTS_ATTRIBUTE``).
IMAGE_INPUTS = {
    "render_hand": frozenset({"hand", "drawn", "collection"}),
    "render_table": IMAGE_INPUTS_TABLE,
}


def render_hand(
    view: MacarenaView,
    tr: Translator,
    names: Names = None,
    *,
    playable: Collection[str] | None = None,
) -> bytes:
    hand = list(view.hand or [])
    rows = max(1, (len(hand) + PER_ROW - 1) // PER_ROW)
    width = 24 + PER_ROW * (HAND_W + 10) + 14
    height = 56 + rows * (HAND_H + 16) + 10
    drawn_shown = view.drawn is not None and view.drawn in hand
    if drawn_shown:
        height += LEGEND_H - 6
    image = Image.new("RGB", (width, height), TABLE)
    draw = ImageDraw.Draw(image)
    title = f"{tr('macarena.image.hand_title')} ({len(hand)})"
    _text(draw, (16, 14), title, 20, TEXT)
    count = len(view.collection) if view.collection is not None else 0
    _text(
        draw, (width - 16, 16), tr("macarena.image.collection", count=count), 17, TEXT, anchor="ra"
    )
    drawn_marked = False
    for i, card in enumerate(hand):
        x = 24 + (i % PER_ROW) * (HAND_W + 10)
        y = 56 + (i // PER_ROW) * (HAND_H + 16)
        is_drawn = not drawn_marked and view.drawn is not None and card == view.drawn
        if is_drawn:
            drawn_marked = True
        _draw_card(
            draw, x, y, HAND_W, HAND_H, card, frame=GOLD if is_drawn else None, frame_width=3
        )
    if drawn_shown:
        _legend(draw, height - LEGEND_H + 4, [(tr("macarena.image.legend.drawn"), GOLD)], width)
    return _png(image)
