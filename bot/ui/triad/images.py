"""Triple Triad images: the board (and the hands) as a PNG, drawn with Pillow.

``render_table(view, tr, names=None)`` draws the 3×3 board -- each card with its four values in
force (raised values green, lowered red), its holder's colour (blue for ``seats[0]``, red for
``seats[1]``), elemental cells tinted with their element -- the last move outlined, and each
side's hand beside the board: face up where the view shows it (Abierto, your own hand, cards
already seen), as card backs otherwise. ``render_hand(view, tr, names=None, *, playable=None)`` draws the viewing seat's hand
with slot numbers; while that seat must pick its payout it draws the loser's five cards instead,
picked ones dimmed. Words come from ``bot.ui.triad.text`` (``triad.*`` catalogue keys).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Collection
from typing import NamedTuple

from PIL import Image, ImageDraw

from bot.i18n import Translator
from bot.ui.images.fonts import fit_size, png_of, text_drawer, text_width
from bot.ui.images.palette import module_colours, to_palette
from bot.ui.images.scaled import (
    Sprite,
    canvas,
    cut_out,
    drawer,
    paste,
    scale_of,
    scaled_size,
)
from bot.ui.images.symbols import SHAPE, draw_shape
from bot.ui.triad.alt import rules_line
from bot.ui.triad.text import card_name, colour_index, status_line
from games.triad.cards import edge_text
from games.triad.view import CardFace, TriadView

SEAT_RGB = [(46, 98, 196), (196, 52, 52)]
SEAT_LIGHT = [(86, 140, 232), (232, 96, 90)]
# Ownership is never told by colour alone: blue's cards carry a ◆, red's a ▲ (the emoji 🔷 🔺
# of the text views; bot.ui.images.symbols).
SEAT_SHAPE = (SHAPE["blue"], SHAPE["red"])
ELEMENT_RGB = {
    "fuego": (226, 104, 38),
    "hielo": (126, 200, 238),
    "rayo": (232, 206, 48),
    "tierra": (150, 108, 58),
    "veneno": (142, 72, 168),
    "viento": (112, 190, 112),
    "agua": (44, 112, 214),
    "sagrado": (236, 232, 196),
}
BG = (34, 38, 46)
SLOT = (54, 60, 72)
TEXT = (240, 242, 246)
DIM = (160, 168, 180)
GOLD = (244, 198, 60)
# A value an Elemental cell raised or lowered: tinted, and marked ▲ / ▼ beside it (colour is
# never the only signal); both tints keep 4.5:1 on either owner's colour.
UP = (180, 255, 180)
DOWN = (255, 232, 226)
BACK = (70, 64, 92)
ICON_INK = (24, 24, 28)

CELL = 128
GAP = 6
MINI = 74
MARGIN = 14
HEADER = 52
FOOTER = 56  # status line, then the rules in force
COLUMN_W = MINI + 2 * MARGIN  # a hand's column beside the board
BOARD_W = 3 * CELL + 2 * GAP
TABLE_LAYOUT = (2 * COLUMN_W + BOARD_W + 2 * MARGIN, HEADER + BOARD_W + FOOTER + 2 * MARGIN)
# Drawn at 0.875: 550x466 px, the width Discord shows a table image at (the 628 px of the layout
# were drawn, mapped and deflated only to be shrunk by the client), for 23 % fewer pixels; the
# smallest text (a hand card's level) is still 7 px, as large as it was on the screen (issue 29).
TABLE_SCALE = 0.875
TABLE_SIZE = scaled_size(TABLE_LAYOUT, TABLE_SCALE)  # the image's pixels
# The header's names start here and leave this much for the turn's dot after them (layout
# units): a name with its colour and score gets 244 units ("Alejandra Fernández (Blue): 10"
# at 13, 11 px at the scale); the round of Sudden Death went to the footer to make room.
NAME_X = MARGIN + 22
TURN_DOT_W = 34


_text = text_drawer(anchor="mm")


def _fit(text: str, size: int, width: int) -> int:
    return fit_size(text, size, width, minimum=8)


# ----- drawing -------------------------------------------------------------------------------
def _halved(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    r, g, b = rgb
    return (r // 2, g // 2, b // 2)


def _value_text(value: int) -> str:
    return edge_text(value) if value <= 10 else "A+"


def badge_radius(size: int) -> int:
    """The radius of a card's element badge (top right corner) on a card ``size`` wide."""
    return max(7, size // 9)


def draw_element_icon(
    draw: ImageDraw.ImageDraw, element: str, cx: float, cy: float, r: float, ink=ICON_INK
) -> None:
    """The element as a small picture within radius ``r`` of (cx, cy) -- never a letter, which
    could be read as a card value ("A" is 10)."""
    w = max(1, round(r / 4))
    if element == "agua":  # a drop
        draw.ellipse((cx - r * 0.62, cy - r * 0.1, cx + r * 0.62, cy + r), fill=ink)
        draw.polygon(
            [(cx, cy - r), (cx + r * 0.58, cy + r * 0.3), (cx - r * 0.58, cy + r * 0.3)], fill=ink
        )
    elif element == "fuego":  # a flame with three tongues
        draw.polygon(
            [
                (cx - r * 0.7, cy + r * 0.2),
                (cx - r * 0.55, cy - r * 0.5),
                (cx - r * 0.2, cy - r * 0.05),
                (cx, cy - r),
                (cx + r * 0.25, cy - r * 0.1),
                (cx + r * 0.55, cy - r * 0.55),
                (cx + r * 0.7, cy + r * 0.2),
            ],
            fill=ink,
        )
        draw.ellipse((cx - r * 0.7, cy - r * 0.35, cx + r * 0.7, cy + r), fill=ink)
    elif element == "hielo":  # a snowflake: three crossing strokes
        for angle in (90, 30, -30):
            dx, dy = r * math.cos(math.radians(angle)), r * math.sin(math.radians(angle))
            draw.line((cx - dx, cy - dy, cx + dx, cy + dy), fill=ink, width=w)
    elif element == "rayo":  # a lightning bolt
        draw.polygon(
            [
                (cx + r * 0.3, cy - r),
                (cx - r * 0.55, cy + r * 0.15),
                (cx - r * 0.02, cy + r * 0.15),
                (cx - r * 0.3, cy + r),
                (cx + r * 0.55, cy - r * 0.2),
                (cx + r * 0.02, cy - r * 0.2),
            ],
            fill=ink,
        )
    elif element == "tierra":  # two mountains
        draw.polygon(
            [(cx - r, cy + r * 0.7), (cx - r * 0.3, cy - r * 0.5), (cx + r * 0.4, cy + r * 0.7)],
            fill=ink,
        )
        draw.polygon(
            [(cx - r * 0.1, cy + r * 0.7), (cx + r * 0.45, cy - r * 0.1), (cx + r, cy + r * 0.7)],
            fill=ink,
        )
    elif element == "veneno":  # three bubbles
        for bx, by, br in ((-0.4, 0.4, 0.45), (0.45, 0.25, 0.35), (0.05, -0.5, 0.3)):
            draw.ellipse(
                (cx + (bx - br) * r, cy + (by - br) * r, cx + (bx + br) * r, cy + (by + br) * r),
                fill=ink,
            )
    elif element == "viento":  # three gusts
        for k, (length, dy) in enumerate(((1.6, -0.55), (1.9, 0.0), (1.3, 0.55))):
            left = cx - r + (0.3 if k != 1 else 0) * r
            draw.line((left, cy + dy * r, left + length * r * 0.9, cy + dy * r), fill=ink, width=w)
    else:  # sagrado: a star
        points = []
        for k in range(10):
            reach = r if k % 2 == 0 else r * 0.45
            theta = math.radians(-90 + k * 36)
            points.append((cx + reach * math.cos(theta), cy + reach * math.sin(theta)))
        draw.polygon(points, fill=ink)


class CardLook(NamedTuple):
    """Everything a card's picture shows, in the reader's words: its sprite's key. A tuple, so
    the sprites' cache hashes and compares it in C (a frozen dataclass was built, hashed and
    compared in Python: ~3 us a card, each image's cards looked up; issue 29)."""

    values: tuple[int, ...]
    printed: tuple[int, ...]
    element: str | None
    level: str  # "Nv. 3"
    name: str | None  # None: not shown (the hands beside the board)
    colour: int
    highlight: bool = False
    flipped: bool = False
    dim: bool = False


def _paint_card(draw: ImageDraw.ImageDraw, x: float, y: float, size: int, look: CardLook) -> None:
    base = SEAT_RGB[look.colour]
    light = SEAT_LIGHT[look.colour]
    if look.dim:
        base = _halved(base)
        light = _halved(light)
    r = max(6, size // 12)
    draw.rounded_rectangle(
        (x, y, x + size, y + size),
        r,
        fill=base,
        outline=GOLD if look.highlight else (light if not look.flipped else TEXT),
        width=4 if look.highlight else (3 if look.flipped else 2),
    )
    draw_shape(
        draw,
        SEAT_SHAPE[look.colour],
        x + size * 0.11,
        y + size * 0.68,
        max(4.0, size / 15),
        DIM if look.dim else TEXT,
        ICON_INK,
    )
    vs = max(11, size // 6)
    cx, cy = x + size * 0.34, y + size * 0.36
    off = size * 0.17
    spots = [(cx, cy - off), (cx + off, cy), (cx, cy + off), (cx - off, cy)]
    for (px, py), value, printed in zip(spots, look.values, look.printed, strict=True):
        fill = UP if value > printed else DOWN if value < printed else TEXT
        _text(draw, (px, py), _value_text(value), vs, fill)
        if value != printed:  # ▲ raised / ▼ lowered, at the value's top right
            m = max(2.5, vs * 0.22)
            mx, my = px + vs * 0.5, py - vs * 0.3
            tip_y, base_y = (my - m, my + m * 0.6) if value > printed else (my + m, my - m * 0.6)
            draw.polygon(
                [(mx, tip_y), (mx - m, base_y), (mx + m, base_y)], fill=fill, outline=ICON_INK
            )
    if look.element:
        er = badge_radius(size)
        ex, ey = x + size - er - 6, y + er + 6
        draw.ellipse(
            (ex - er, ey - er, ex + er, ey + er), fill=ELEMENT_RGB[look.element], outline=TEXT
        )
        draw_element_icon(draw, look.element, ex, ey, er * 0.68)
    _text(
        draw,
        (x + size - 8, y + size * 0.62),
        look.level,
        max(8, size // 11),
        TEXT if not look.dim else DIM,  # white on the owner's colour: 4.5:1 (light was 1.7:1)
        anchor="rm",
    )
    if look.name is not None:
        ns = _fit(look.name, max(8, size // 10), size - 10)
        _text(draw, (x + size / 2, y + size - max(8, size // 9)), look.name, ns, TEXT)


# Card pictures kept per process (issue 29: a table image was mostly its cards' shapes and
# texts, drawn call by call). The 110 cards in two colours, plain, outlined (the last move) or
# flipped, on the board and beside it, in the locales in use: about 1,600 looks, of which a
# few hundred are common (``bench/render_interleaved.py``); one sprite is 9-26 KB.
CARD_SPRITES = 1024


@functools.lru_cache(maxsize=CARD_SPRITES)
def _card_sprite(look: CardLook, size: int, scale: float) -> Sprite:
    """The card ``look`` ``size`` layout units wide at ``scale``."""
    side = math.ceil(size * scale) + 2
    image = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    _paint_card(drawer(image, scale), 0, 0, size, look)
    return cut_out(image, module_colours(__name__))


def _draw_card(
    draw: ImageDraw.ImageDraw,
    x: float,
    y: float,
    size: int,
    face: CardFace,
    colour: int,
    tr: Translator,
    highlight: bool = False,
    flipped: bool = False,
    dim: bool = False,
    show_name: bool = True,
) -> None:
    """``face`` in ``colour`` at (x, y), pasted from its sprite (at most half a pixel away)."""
    look = CardLook(
        tuple(face.values),
        tuple(face.printed),
        face.element,
        tr("triad.label.level", level=face.level),
        card_name(face.card, tr) if show_name else None,
        colour,
        highlight,
        flipped,
        dim,
    )
    paste(draw, _card_sprite(look, size, scale_of(draw)), x, y)


def _paint_back(draw: ImageDraw.ImageDraw, x: float, y: float, size: float, _h: float) -> None:
    draw.rounded_rectangle(
        (x, y, x + size, y + size), max(6, size // 12), fill=BACK, outline=DIM, width=2
    )
    inset = size // 5
    draw.rounded_rectangle(
        (x + inset, y + inset, x + size - inset, y + size - inset),
        max(4, size // 16),
        outline=DIM,
        width=2,
    )
    _text(draw, (x + size / 2, y + size / 2), "?", int(size // 3), TEXT)


@functools.lru_cache(maxsize=4)
def _back_sprite(size: int, scale: float) -> Sprite:
    side = math.ceil(size * scale) + 2
    image = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    _paint_back(drawer(image, scale), 0, 0, size, size)
    return cut_out(image, module_colours(__name__))  # on the palette, as a table may be


def _draw_back(draw: ImageDraw.ImageDraw, x: float, y: float, size: int) -> None:
    paste(draw, _back_sprite(size, scale_of(draw)), x, y)


@functools.lru_cache(maxsize=16)
def _backs_sprite(count: int, x: float, y: float, step: float, scale: float) -> Sprite:
    """``count`` hidden cards of a hand column, the first at layout (x, y), each ``step``
    below the previous: one sprite of the backs as ``_draw_back`` pastes them one by one (each
    on its own nearest pixel), to be pasted at (x, y). A public table shows both hands so (a
    paste each instead of ten; issue 29)."""
    back = _back_sprite(MINI, scale)
    top = round(y * scale)  # where ``paste`` puts the sprite's top (its left: the backs')
    tops = [round((y + i * step) * scale) - top for i in range(count)]
    size = (back.picture.width, tops[-1] + back.picture.height)
    picture = Image.new("P", size, 0)
    picture.putpalette(back.picture.getpalette() or [])
    mask = Image.new("1", size, 0)
    for dy in tops:  # one over the other, as pasted in turn
        picture.paste(back.picture, (0, dy), back.mask)
        mask.paste(back.mask, (0, dy), back.mask)
    return Sprite(picture, mask)


def _draw_cell(draw: ImageDraw.ImageDraw, x: int, y: int, element: str | None, name: str) -> None:
    """An empty board cell, tinted and named (``name``) by its element if it has one."""
    fill = SLOT
    if element:  # a quarter of the element's colour: its name stays 4.5:1 in white
        er, eg, eb = ELEMENT_RGB[element]
        fill = ((er + SLOT[0] * 3) // 4, (eg + SLOT[1] * 3) // 4, (eb + SLOT[2] * 3) // 4)
    draw.rounded_rectangle((x, y, x + CELL, y + CELL), 10, fill=fill)
    if element:  # the element's badge (as on the cards), then its name
        er = 16
        cx, cy = x + CELL / 2, y + CELL / 2 - 14
        draw.ellipse((cx - er, cy - er, cx + er, cy + er), fill=ELEMENT_RGB[element], outline=TEXT)
        draw_element_icon(draw, element, cx, cy, er * 0.68)
        _text(draw, (x + CELL / 2, y + CELL / 2 + 20), name, 16, TEXT)


_png = png_of(__name__)  # the one PNG encoder, this module's colours kept exact


LAYERS = 8  # rule sets x the locales in use (boards without elements)


def _header_edge(s: int) -> int:
    """Where side ``s``'s shape stands in the header (its name beside it, inwards)."""
    return MARGIN + 8 if s == 0 else TABLE_LAYOUT[0] - MARGIN - 8


def _draw_table_layer(
    elements: tuple[str | None, ...], cells: tuple[str, ...], footer: str
) -> Image.Image:
    """The table's fixed part: the background, each side's shape before its name in the
    header, the board's nine cells (with their elements, named ``cells``) and the rules in
    force (``footer``). Cards and text drawn later stay on their cells and lines, so the pixels
    are the same as drawn in one go."""
    width, height = TABLE_LAYOUT
    image, draw = canvas(TABLE_LAYOUT, BG, TABLE_SCALE)
    for s in (0, 1):  # the same on every table (two polygons: a tenth of an image's drawing)
        draw_shape(draw, SEAT_SHAPE[s], _header_edge(s), HEADER / 2 + 4, 8, SEAT_LIGHT[s])
    bx, by = COLUMN_W + MARGIN, HEADER + MARGIN
    for cell, (element, name) in enumerate(zip(elements, cells, strict=True)):
        row, col = divmod(cell, 3)
        _draw_cell(draw, bx + col * (CELL + GAP), by + row * (CELL + GAP), element, name)
    line_w = width - 2 * MARGIN
    _text(
        draw, (MARGIN, height - 16), footer, _fit(footer, 14, line_w), DIM, "lm", max_width=line_w
    )
    return image


@functools.lru_cache(maxsize=LAYERS)
def _table_layer(
    elements: tuple[str | None, ...], cells: tuple[str, ...], footer: str
) -> Image.Image:
    """A board without elements (the default rules) has one layer per rule set and locale: kept
    per process, on the module's palette, and copied for each image, which is then drawn on the
    palette (issue 29: no RGB copy to map per image). An Elemental board's cells are its own:
    drawn in RGB for its image."""
    return to_palette(_draw_table_layer(elements, cells, footer), module_colours(__name__))


# The score in its label (``triad.label.score``) is drawn apart from the words around it: the
# words (a seat's name and colour) then stay one text patch a table, the score one of eleven for
# every table, where the whole label was a new patch at each score of each table (a third of
# the table images drew one: 0.08 of their 0.48 ms, ``bench/render_interleaved.py``; issue 29).
SCORE_MARK = "\ue000"  # a private-use character standing for the score while the label is split


def _score_parts(tr: Translator, colour: str, score: int) -> tuple[str, str, str]:
    """The score label of side ``colour`` as (the words before the score, the score, the words
    after it); a catalogue whose label does not show the score once as it is: the whole label."""
    label = tr("triad.label.score", colour=colour, score=SCORE_MARK)
    before, mark, after = label.partition(SCORE_MARK)
    if not mark or SCORE_MARK in after:
        return tr("triad.label.score", colour=colour, score=score), "", ""
    return before, str(score), after


def _draw_parts(
    draw: ImageDraw.ImageDraw,
    x: float,
    y: float,
    parts: tuple[str, ...],
    size: int,
    fill: tuple[int, int, int],
    *,
    right: bool,
) -> float:
    """``parts`` one after the other on a line, vertically centred on ``y``, from ``x`` (or
    ending at ``x``: ``right``); their width."""
    widths = [text_width(part, size) for part in parts]
    total = sum(widths)
    left = x - total if right else x
    for part, part_width in zip(parts, widths, strict=True):
        if part:
            _text(draw, (left, y), part, size, fill, anchor="lm")
        left += part_width
    return total


def render_table(
    view: TriadView, tr: Translator, names: Callable[[str], str] | None = None
) -> bytes:
    """The public table (or a seat's view of it) as PNG bytes."""
    col_w, board_w = COLUMN_W, BOARD_W
    width, height = TABLE_LAYOUT
    footer = rules_line(view.options, tr)
    elements = tuple(cv.element for cv in sorted(view.board, key=lambda cv: cv.cell))
    cells = tuple(tr(f"triad.element.{e}") if e else "" for e in elements)
    if any(elements):
        image = _draw_table_layer(elements, cells, footer)
    else:
        image = _table_layer(elements, cells, footer).copy()
    draw = drawer(image, TABLE_SCALE, BG, module_colours(__name__))  # text only on BG

    def who(s: int) -> str:
        colour = tr(f"triad.colour.{s}")
        return f"{names(view.seats[s])} ({colour})" if names else colour

    # header: the scores, each name as wide as half the image leaves beside the turn's dot
    name_w = width // 2 - NAME_X - TURN_DOT_W
    for s in (0, 1):
        parts = _score_parts(tr, who(s), view.scores[view.seats[s]])
        edge = _header_edge(s)  # its shape is the layer's
        x = edge + 14 if s == 0 else edge - 14
        size = _fit("".join(parts), 22, name_w)  # the whole label's size, as drawn in one
        total = _draw_parts(draw, x, HEADER / 2 + 4, parts, size, SEAT_LIGHT[s], right=s == 1)
        if view.turn == view.seats[s]:
            tx = x + 10 + total + 12 if s == 0 else x - total - 22
            draw.ellipse((tx - 7, HEADER / 2 - 3, tx + 7, HEADER / 2 + 11), fill=GOLD)

    # board
    bx, by = col_w + MARGIN, HEADER + MARGIN
    lm = view.last_move
    flipped = set()
    if lm is not None:
        flipped = set(lm.same) | set(lm.plus) | set(lm.basic) | set(lm.combo)
    for cv in view.board:
        row, col = divmod(cv.cell, 3)
        x, y = bx + col * (CELL + GAP), by + row * (CELL + GAP)
        if cv.card is not None:  # on its cell (the layer's)
            _draw_card(
                draw,
                x,
                y,
                CELL,
                cv.card,
                colour_index(view, cv.holder),
                tr,
                highlight=lm is not None and lm.cell == cv.cell,
                flipped=cv.cell in flipped,
            )
            if cv.element:  # the cell's element, as a square badge in the corner
                draw.rectangle(
                    (x + 5, y + 5, x + 25, y + 25), fill=ELEMENT_RGB[cv.element], outline=TEXT
                )
                draw_element_icon(draw, cv.element, x + 15, y + 15, 7)

    # hands beside the board
    for s in (0, 1):
        seat = view.seats[s]
        hx = MARGIN + (0 if s == 0 else col_w + board_w + MARGIN) + MARGIN
        hand = view.hands.get(seat, [])
        step = min(MINI + 6, (board_w - MINI) // max(1, len(hand) - 1)) if len(hand) > 1 else 0
        if hand and all(face is None for face in hand):  # all hidden: one sprite
            paste(draw, _backs_sprite(len(hand), hx, by, step, scale_of(draw)), hx, by)
            continue
        for i, face in enumerate(hand):
            y = by + i * step
            if face is None:
                _draw_back(draw, hx, y, MINI)
            else:
                _draw_card(draw, hx, y, MINI, face, s, tr, show_name=False)

    # footer: the round of Sudden Death and the state of the game (the rules in force are the
    # layer's)
    status = status_line(view, tr, who)
    line_w: float = width - 2 * MARGIN
    status_y = height - FOOTER + 10
    if view.round > 0:
        line_w -= 16 + _text(
            draw,
            (MARGIN, status_y),
            tr("triad.label.round", round=view.round, max=view.max_rematches),
            16,
            GOLD,
            "lm",
        )
    if status:
        _text(draw, (width - MARGIN, status_y), status, 16, GOLD, "rm", max_width=line_w)
    return _png(image)


# The view fields each renderer reads (its cache key and what a render worker is sent:
# ``bot.ui.rendering.INPUTS_ATTRIBUTE``). The table's leave out the history of rounds, the
# payout's transfers, the counts and the event lines (issue 29: its job 1.7 -> 1.2 KB,
# pickled and unpickled ~40 % faster).
IMAGE_INPUTS = {
    "render_hand": frozenset({"seat", "seats", "pick", "hands"}),
    "render_table": frozenset(
        {"options", "board", "seats", "scores", "turn", "last_move", "hands", "pick"}
        | {"round", "max_rematches", "finished", "winner"}
    ),
}


def render_hand(
    view: TriadView,
    tr: Translator,
    names: Callable[[str], str] | None = None,
    *,
    playable: Collection[str] | None = None,
) -> bytes:
    """The viewing seat's hand (slot numbers 1-5 under the cards), or the loser's five cards
    while that seat picks its payout."""
    seat = view.seat
    picking = view.pick is not None and seat is not None and view.pick.winner == seat
    faces: list[tuple[CardFace | None, bool]]
    if picking and view.pick is not None:
        faces = [(c.face, c.picked) for c in view.pick.choices]
        colour = colour_index(view, view.pick.loser)
        title = tr(
            "triad.label.pick",
            colour=tr(f"triad.colour.{colour_index(view, seat)}"),
            count=view.pick.remaining,
        )
    else:
        hand = view.hands.get(seat, []) if seat is not None else []
        faces = [(f, False) for f in hand]
        colour = colour_index(view, seat)
        title = tr("triad.label.your_hand")
    n = max(1, len(faces))
    width = n * CELL + (n - 1) * GAP + 2 * MARGIN
    width = max(width, 3 * CELL + 2 * MARGIN)
    height = 36 + CELL + 28 + MARGIN
    image = Image.new("RGB", (width, height), BG)
    draw = ImageDraw.Draw(image)
    _text(
        draw,
        (MARGIN, 20),
        title,
        _fit(title, 18, width - 2 * MARGIN),
        SEAT_LIGHT[colour],
        anchor="lm",
    )
    for i, (face, dim) in enumerate(faces):
        x = MARGIN + i * (CELL + GAP)
        y = 36
        if face is None:
            _draw_back(draw, x, y, CELL)
        else:
            _draw_card(draw, x, y, CELL, face, colour, tr, dim=dim)
        _text(draw, (x + CELL / 2, y + CELL + 14), str(i + 1), 16, DIM if dim else TEXT)
    return _png(image)
