"""Chúpate 2 images: the public table and a player's hand, drawn with Pillow.

``render_table(view, tr, names=None)`` and ``render_hand(view, tr, names=None, *, playable=None)`` return PNG bytes. ``tr`` is
the catalogue translator (``tr(key, **params) -> str``); only ``chupate2.*`` keys are used for
words. ``names`` (optional) maps seats to display names; without them seats read "P1", "P2"...

Cards are drawn like the physical ones: a coloured card with a white oval, the number or symbol
in the middle (the Salto and Cambio de sentido symbols are drawn as shapes, so no font glyph is
needed) and small corner marks; wilds are black with four colour quadrants.

The words for cards, actions and events are in ``bot.ui.chupate2.text``.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Collection, Iterable, Mapping

from PIL import Image, ImageDraw

from bot.ui.chupate2.text import COLOUR_WORD, hand_groups
from bot.ui.images.fonts import draw_text, png_of
from bot.ui.images.fonts import font as _font
from bot.ui.images.palette import module_colours, to_palette
from bot.ui.images.scaled import canvas, drawer, stamp
from bot.ui.images.symbols import SHAPE, draw_shape
from games.chupate2.actions import Play
from games.chupate2.cards import COLOUR_OF, COLOURS, FACE_KEY, FACE_OF, WILD
from games.chupate2.view import Chupate2View
from games.core import Action

Translator = Callable[..., str]

RGB = {
    "r": (214, 40, 40),
    "y": (240, 190, 20),
    "g": (46, 150, 70),
    "b": (30, 100, 200),
    WILD: (24, 24, 24),
}
FELT = (26, 84, 60)
PANEL = (18, 58, 42)
TEXT = (240, 244, 240)
DIM = (168, 196, 180)
GOLD = (245, 200, 60)
WHITE = (255, 255, 255)
OUTLINE = (10, 10, 10)
BACK = (40, 30, 30)
# Each colour's shape (``bot.ui.images.symbols``): drawn in the corners of every card, in the
# colour swatch and beside each row of the hand, so colour is never the only signal.
COLOUR_SHAPE = {c: SHAPE[word] for c, word in COLOUR_WORD.items()}


def draw_colour_shape(
    draw: ImageDraw.ImageDraw, colour: str, cx: float, cy: float, r: float, *, on_colour: bool
) -> None:
    """``colour``'s shape: white on the colour itself (``on_colour``), else filled with the
    colour and ringed in white (on a wild, on the felt)."""
    if on_colour:
        draw_shape(draw, COLOUR_SHAPE[colour], cx, cy, r, WHITE, OUTLINE)
    else:
        draw_shape(draw, COLOUR_SHAPE[colour], cx, cy, r, RGB[colour], WHITE, width=2)


def _centred(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, font, fill=TEXT, stroke: int = 0
) -> None:
    draw.text(xy, text, font=font, fill=fill, anchor="mm", stroke_width=stroke, stroke_fill=OUTLINE)


# ----- one card ---------------------------------------------------------------------------------
def _skip_symbol(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, colour) -> None:
    w = max(2, int(r / 3))
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=colour, width=w)
    d = r * 0.7
    draw.line((cx - d, cy + d, cx + d, cy - d), fill=colour, width=w)


def _reverse_symbol(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, colour) -> None:
    w = max(2, int(r / 3.5))
    for sign in (1, -1):
        y = cy - sign * r * 0.35
        x0, x1 = cx - sign * r * 0.8, cx + sign * r * 0.55
        draw.line((x0, y, x1, y), fill=colour, width=w)
        tip = cx + sign * r
        draw.polygon([(tip, y), (x1, y - r * 0.35), (x1, y + r * 0.35)], fill=colour)


def _wild_quadrants(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float]) -> None:
    for i, colour in enumerate(("r", "b", "y", "g")):
        draw.pieslice(box, start=-90 + 90 * i, end=90 * i, fill=RGB[colour])


def draw_card(
    draw: ImageDraw.ImageDraw,
    card: str,
    x: float,
    y: float,
    w: float,
    h: float,
    tr: Translator,
    *,
    highlight: bool = False,
    colour_in_force: str | None = None,
) -> None:
    """One face-up card with its top-left corner at (x, y)."""
    colour = COLOUR_OF[card]
    face = FACE_OF[card]
    radius = int(w * 0.12)
    border = GOLD if highlight else WHITE
    draw.rounded_rectangle((x, y, x + w, y + h), radius=radius, fill=border)
    pad = max(3, int(w * 0.06))
    draw.rounded_rectangle(
        (x + pad, y + pad, x + w - pad, y + h - pad), radius=max(2, radius - pad), fill=RGB[colour]
    )
    cx, cy = x + w / 2, y + h / 2
    oval = (x + w * 0.16, y + h * 0.2, x + w * 0.84, y + h * 0.8)
    ink = RGB[colour] if colour != WILD else WHITE
    if colour == WILD:
        _wild_quadrants(draw, oval)
        if colour_in_force is not None:  # the colour named with the wild, as a ring
            draw.ellipse(oval, outline=RGB[colour_in_force], width=max(3, int(w * 0.06)))
    else:
        draw.ellipse(oval, fill=WHITE)
    size = int(h * (0.34 if face in "0123456789" else 0.26))
    corner = _font(max(9, int(h * 0.14)))
    r = w * 0.2
    if face in "0123456789":
        _centred(draw, (cx, cy), face, _font(size), fill=ink, stroke=1)
        mark = face
    elif face == "S":
        _skip_symbol(draw, cx, cy, r, ink)
        mark = None
    elif face == "R":
        _reverse_symbol(draw, cx, cy, r, ink)
        mark = None
    elif face == "D":
        label = tr("chupate2.symbol.D")
        _centred(draw, (cx, cy), label, _font(size), fill=ink, stroke=1)
        mark = label
    elif face == "F":
        label = tr("chupate2.symbol.F")
        _centred(draw, (cx, cy), label, _font(size), fill=WHITE, stroke=2)
        mark = label
    else:
        mark = None
    shown = colour if colour != WILD else colour_in_force
    if shown is not None:  # the colour's shape in the two free corners
        r = max(4.0, h * 0.05)
        inset = pad + 3 + r
        for sx, sy in ((x + w - inset, y + inset), (x + inset, y + h - inset)):
            draw_colour_shape(draw, shown, sx, sy, r, on_colour=colour != WILD)
    if mark is not None:
        draw.text(
            (x + pad + 3, y + pad + 2),
            mark,
            font=corner,
            fill=WHITE,
            stroke_width=1,
            stroke_fill=OUTLINE,
        )
        draw.text(
            (x + w - pad - 3, y + h - pad - 2),
            mark,
            font=corner,
            fill=WHITE,
            anchor="rd",
            stroke_width=1,
            stroke_fill=OUTLINE,
        )


SYMBOL_KEYS = ("chupate2.symbol.D", "chupate2.symbol.F")  # the words a card face shows
# Each card by the first copy of its face: the copies of a card look the same (one sprite).
DRAWN_AS = {card: min(c for c in COLOUR_OF if FACE_KEY[c] == FACE_KEY[card]) for card in COLOUR_OF}


def _is_wild(card: str) -> bool:
    return COLOUR_OF[card] == WILD


def _paint_card(
    draw: ImageDraw.ImageDraw,
    x: float,
    y: float,
    w: float,
    h: float,
    card: str,
    symbols: tuple[str, ...],
    colour_in_force: str | None,
) -> None:
    """``draw_card`` of a table, given the words it shows (``SYMBOL_KEYS``): a sprite's painter
    (``stamp``: the table's two cards drawn once per face and process, issue 29)."""
    words = dict(zip(SYMBOL_KEYS, symbols, strict=True))
    draw_card(draw, card, x, y, w, h, lambda key, **_: words[key], colour_in_force=colour_in_force)


def draw_back(draw: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float) -> None:
    radius = int(w * 0.12)
    draw.rounded_rectangle((x, y, x + w, y + h), radius=radius, fill=WHITE)
    pad = max(2, int(w * 0.06))
    draw.rounded_rectangle(
        (x + pad, y + pad, x + w - pad, y + h - pad), radius=max(2, radius - pad), fill=BACK
    )
    draw.ellipse((x + w * 0.18, y + h * 0.25, x + w * 0.82, y + h * 0.75), fill=RGB["r"])


_png = png_of(__name__)  # the one PNG encoder, this module's colours kept exact


def _seat_name(seat: str, index: int, tr: Translator, names: Mapping[str, str] | None) -> str:
    if names and seat in names and names[seat].strip():
        return names[seat].strip()
    return tr("chupate2.image.seat", n=index + 1)


SEAT_NAME_X = 30
POINTS_ROOM = 200  # the points, right-aligned at the table's right edge


def seat_name_width(view: Chupate2View) -> int:
    """Room for a seat's name on the table image: up to the team column, else the points."""
    return (250 if view.teams is not None else TABLE_W - POINTS_ROOM) - SEAT_NAME_X - 12


# ----- the table --------------------------------------------------------------------------------
TABLE_W = 900  # the table's layout units
# Drawn 550 px wide, the width Discord shows a table image at (the 630 px of session 18 were
# drawn and deflated only to be shrunk by the client), for 24 % fewer pixels; names still at
# 12 px, the smallest words (a team's, the points) at 9.8 (issue 29).
TABLE_SCALE = 550 / TABLE_W
CENTRE_H = 330
MEDIUM_SIZE = 20
SEAT_ROW_H = 46


def _direction_arrow(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, clockwise: bool
) -> None:
    box = (cx - r, cy - r, cx + r, cy + r)
    draw.arc(box, start=200, end=340, fill=DIM, width=5)
    draw.arc(box, start=20, end=160, fill=DIM, width=5)
    for end_angle, sign in ((340, 1), (160, 1)) if clockwise else ((200, -1), (20, -1)):
        a = math.radians(end_angle)
        px, py = cx + r * math.cos(a), cy + r * math.sin(a)
        # tangent direction of travel
        tx, ty = -math.sin(a) * sign, math.cos(a) * sign
        nx, ny = math.cos(a), math.sin(a)
        size = 14
        tip = (px + tx * size, py + ty * size)
        left = (px + nx * size * 0.6, py + ny * size * 0.6)
        right = (px - nx * size * 0.6, py - ny * size * 0.6)
        draw.polygon([tip, left, right], fill=DIM)


# What the table image draws (``bot.ui.rendering``: its cache key): the stock's count, each
# seat's cards, whose turn it is and the draw a +2/+4 leaves pending are the public message's
# text (status and seat lines), so a draw, a pass or a penalty taken keeps the image (issue 29:
# a tenth of the table's images changed only its pending draw).
IMAGE_INPUTS_TABLE = frozenset(
    {"seats", "top_card", "discard", "colour", "direction"}
    | {"target", "round", "scores", "teams", "team_of", "team_scores", "finished", "results"}
)


# Fixed layers kept per process: a few seat counts x two directions x the locales in use.
LAYERS = 16
STOCK_X, TOP_X, CARD_Y = 90, 330, 55  # the stock's and the top card's left, their top
CARD_BOX = (130, 195)  # a table card's width and height


@functools.lru_cache(maxsize=LAYERS)
def _table_layer(height: int, clockwise: bool, direction: str) -> Image.Image:
    """What every table of ``height`` (its seat count) turning this way shows: the felt, the
    stock's picture, the direction's arrows and word, the seats' panel. Drawn once per process
    and copied for each image (issue 29: 0.30 ms of drawing became a 0.04 ms copy); nothing
    drawn over it later reaches under it, so the pixels are the same as drawn in one go. Kept
    on the module's palette: each image is drawn straight on it (no RGB copy to map)."""
    return to_palette(_draw_table_layer(height, clockwise, direction), module_colours(__name__))


def _draw_table_layer(height: int, clockwise: bool, direction: str) -> Image.Image:
    """``_table_layer`` in RGB."""
    image, draw = canvas((TABLE_W, height), FELT, TABLE_SCALE)
    for i in range(3):  # the stock's picture; how many it holds is the text's
        stamp(draw, draw_back, STOCK_X + i * 3, CARD_Y - i * 3, CARD_BOX[0], CARD_BOX[1])
    cx, cy = TOP_X + CARD_BOX[0] / 2, CARD_Y + CARD_BOX[1] / 2
    _direction_arrow(draw, cx, cy, 150, clockwise)
    _centred(draw, (cx, cy + 168), direction, _font(MEDIUM_SIZE), fill=DIM)
    draw.rectangle((0, CENTRE_H + 10, TABLE_W, height), fill=PANEL)
    return image


def render_table(
    view: Chupate2View, tr: Translator, names: Mapping[str, str] | None = None
) -> bytes:
    seats = view.seats
    height = CENTRE_H + 20 + SEAT_ROW_H * len(seats) + 16
    clockwise = view.direction > 0
    direction = tr("chupate2.image.direction_cw" if clockwise else "chupate2.image.direction_ccw")
    image = _table_layer(height, clockwise, direction).copy()
    colours = module_colours(__name__)
    draw = drawer(image, TABLE_SCALE, FELT, colours)  # above the seats' panel: text on the felt
    on_panel = drawer(image, TABLE_SCALE, PANEL, colours)
    small, medium = _font(16), _font(MEDIUM_SIZE)

    # the top card (over the one before it) and what is in force
    cw, ch = CARD_BOX
    tx, sy = TOP_X, CARD_Y
    symbols = tuple(tr(key) for key in SYMBOL_KEYS)
    if len(view.discard) > 1:
        under = DRAWN_AS[view.discard[-2]]
        stamp(draw, _paint_card, tx - 10, sy + 8, cw, ch, under, symbols, None)
    top, in_force = DRAWN_AS[view.top_card], view.colour
    stamp(draw, _paint_card, tx, sy, cw, ch, top, symbols, in_force if _is_wild(top) else None)

    px = 620
    title = tr("chupate2.image.colour")
    if view.colour is not None:  # the colour in words too, not by the swatch alone
        title += f": {tr(f'chupate2.colour.{view.colour}')}"
    _centred(draw, (px + 90, 70), title, medium)
    swatch = RGB[view.colour] if view.colour is not None else RGB[WILD]
    draw.ellipse((px + 50, 95, px + 130, 175), fill=swatch, outline=WHITE, width=4)
    if view.colour is None:
        _wild_quadrants(draw, (px + 58, 103, px + 122, 167))
    else:
        draw_colour_shape(draw, view.colour, px + 90, 135, 22, on_colour=True)
    if view.target is not None:
        _centred(
            draw, (px + 90, 265), tr("chupate2.image.round", round=view.round), medium, fill=DIM
        )
    if view.finished and view.results:  # the end says who won, on the picture too
        last = view.results[-1]
        if view.teams is not None and last.team is not None:
            banner = tr("chupate2.image.team_wins", team=last.team + 1)
        else:
            banner = tr(
                "chupate2.image.winner",
                player=_seat_name(last.winner, seats.index(last.winner), tr, names),
            )
        draw_text(draw, (px + 90, 225), banner, 24, GOLD, "mm", max_width=TABLE_W - px - 16)

    # one row per seat, in seat order: its name, team and points (its cards and whose turn it
    # is are the message's text: ``IMAGE_INPUTS``)
    y = CENTRE_H + 20  # under the layer's panel
    for i, seat in enumerate(seats):
        row_y = y + i * SEAT_ROW_H
        label = _seat_name(seat, i, tr, names)
        draw_text(
            on_panel,
            (SEAT_NAME_X, row_y + 8),
            label,
            MEDIUM_SIZE,
            TEXT,
            max_width=seat_name_width(view),
        )
        if view.teams is not None and view.team_of is not None:
            x = 250
            team = view.team_of[seat]
            team_colour = COLOURS[team % len(COLOURS)]
            on_panel.ellipse((x, row_y + 10, x + 18, row_y + 28), fill=RGB[team_colour])
            draw_colour_shape(on_panel, team_colour, x + 9, row_y + 19, 5, on_colour=True)
            on_panel.text(
                (x + 26, row_y + 10), tr("chupate2.image.team", team=team + 1), font=small, fill=DIM
            )
        if view.target is not None:
            if view.teams is not None and view.team_of is not None and view.team_scores:
                points = view.team_scores[view.team_of[seat]]
            else:
                points = view.scores.get(seat, 0)
            on_panel.text(
                (TABLE_W - 24, row_y + 10),
                tr("chupate2.image.points", points=points),
                font=medium,
                fill=TEXT,
                anchor="ra",
            )
    return _png(image)


# ----- a hand -----------------------------------------------------------------------------------
HAND_W = 900
HAND_LEFT = 176
CARD_W, CARD_H = 72, 108
ROW_H = CARD_H + 22


PLAYABLE_GLOW = 5  # the frame around a playable card reaches this far out
# The playable highlight is two-tone (a dark ring outside a gold one) so that it shows on every
# card colour (gold alone vanished on yellow cards), and a white ▲ under the card says the same
# without colour (tests/bot/test_colour_signals.py checks the contrasts).
PLAYABLE_RING = OUTLINE
PLAYABLE_FRAME = GOLD
PLAYABLE_MARK = WHITE
MARK_H = 10


def draw_playable_frame(draw: ImageDraw.ImageDraw, left: float, top: float) -> None:
    g = PLAYABLE_GLOW
    box = (left - g, top - g, left + CARD_W + g, top + CARD_H + g)
    draw.rounded_rectangle(box, int(CARD_W * 0.12) + g, fill=PLAYABLE_RING)
    inner = (box[0] + 2, box[1] + 2, box[2] - 2, box[3] - 2)
    draw.rounded_rectangle(inner, int(CARD_W * 0.12) + g - 2, fill=PLAYABLE_FRAME)


def draw_playable_mark(draw: ImageDraw.ImageDraw, cx: float, top: float) -> None:
    """A white ▲ outlined in black, its tip at (cx, top): "you may play this card"."""
    half = MARK_H * 0.6
    draw.polygon(
        [(cx, top), (cx - half, top + MARK_H), (cx + half, top + MARK_H)],
        fill=PLAYABLE_MARK,
        outline=PLAYABLE_RING,
    )


LEGEND_H = 26


def playable_cards(legal: Iterable[Action], hand: Iterable[str]) -> set[str]:
    """The cards of ``hand`` that ``legal`` lets the seat play now. The engine offers one of two
    interchangeable copies (``r7a`` / ``r7b``); both are playable, so both are marked."""
    faces = {FACE_KEY[a.card] for a in legal if isinstance(a, Play)}
    return {c for c in hand if FACE_KEY[c] in faces}


def hand_layout(view: Chupate2View) -> list[tuple[str, float, float]]:
    """(card, x, y) of every card of the hand image: a row per colour, wilds last."""
    out: list[tuple[str, float, float]] = []
    room = HAND_W - HAND_LEFT - 16
    for r, (_colour, cards) in enumerate(hand_groups(view)):
        y = 14 + r * ROW_H
        step = (
            CARD_W + 6 if len(cards) * (CARD_W + 6) <= room else (room - CARD_W) / (len(cards) - 1)
        )
        out += [(card, HAND_LEFT + k * step, y) for k, card in enumerate(cards)]
    return out


# The view fields render_hand reads (its cache key: ``bot.ui.rendering.INPUTS_ATTRIBUTE``).
IMAGE_INPUTS = {
    "render_hand": frozenset({"hand", "drawn_card"}),
    "render_table": IMAGE_INPUTS_TABLE,
}


def render_hand(
    view: Chupate2View,
    tr: Translator,
    names: Mapping[str, str] | None = None,
    *,
    playable: Collection[str] | None = None,
) -> bytes:
    """The seat's hand, a row per colour. ``playable`` (see ``playable_cards``): the cards it
    may play now, framed in gold as Amapatolli does, with a line saying so; without it nothing
    is marked but the card just drawn."""
    groups = hand_groups(view)
    marked = set(playable or ()) & set(view.hand)
    rows = max(1, len(groups))
    height = 20 + rows * ROW_H + (LEGEND_H if marked else 0)
    image = Image.new("RGB", (HAND_W, height), FELT)
    draw = ImageDraw.Draw(image)
    if not groups:
        _centred(draw, (HAND_W / 2, 20 + ROW_H / 2), tr("chupate2.image.hand_empty"), _font(24))
        return _png(image)
    for r, (colour, cards) in enumerate(groups):
        y = 14 + r * ROW_H
        word = tr(f"chupate2.colour.{colour}") if colour != WILD else tr("chupate2.image.wilds")
        draw.ellipse(
            (16, y + CARD_H / 2 - 12, 40, y + CARD_H / 2 + 12),
            fill=RGB[colour],
            outline=WHITE,
            width=2,
        )
        if colour != WILD:
            draw_colour_shape(draw, colour, 28, y + CARD_H / 2, 6.5, on_colour=True)
        label = f"{word} ({len(cards)})"
        draw_text(draw, (48, y + CARD_H / 2), label, 16, TEXT, "lm", max_width=HAND_LEFT - 56)
    layout = hand_layout(view)
    g = PLAYABLE_GLOW
    for card, left, top in layout:  # frames first: the stacked cards then leave them showing
        if card in marked:
            draw_playable_frame(draw, left, top)
    for card, left, top in layout:
        draw_card(draw, card, left, top, CARD_W, CARD_H, tr, highlight=card == view.drawn_card)
    steps = {top: [x for _, x, t in layout if t == top] for _, _, top in layout}
    for card, left, top in layout:  # a mark under each playable card's visible part
        if card in marked:
            lefts = steps[top]
            k = lefts.index(left)
            visible = (lefts[k + 1] - left) if k + 1 < len(lefts) else CARD_W
            draw_playable_mark(draw, left + min(visible, CARD_W) / 2, top + CARD_H + g + 1)
    if marked:
        ly = height - LEGEND_H + 2
        draw_playable_mark(draw, 23, ly + 2)
        draw_text(
            draw,
            (38, ly + 9),
            tr("chupate2.image.playable"),
            15,
            TEXT,
            anchor="lm",
            max_width=HAND_W - 54,
        )
    return _png(image)
