"""Maquiavelo images: the table's melds and a player's hand, drawn with Pillow.

``render_table(view, tr, names=None)`` and ``render_hand(view, tr, names=None, *, playable=None)`` return PNG bytes. ``tr`` is
the catalogue translator (``tr(key, **params) -> str``); only ``maquiavelo.*`` keys are used for
words. ``names`` (optional) maps seats to display names; without them seats read "P1", "P2"...

Cards are small playing cards: white, the rank in the corner and a suit pip drawn as a shape
(hearts and diamonds red, spades and clubs black), so no font needs the suit glyphs. The table
shows one meld after another in rows (cards just played have a gold frame), then the face-up
help cards ("ayuda"), the stock and each player's card count; the hand shows one row per suit.

The table is drawn as the other games' are (issue 29): on a copy of its fixed layer (the felt and
the header's panel) kept on the module's palette, its cards pasted from sprites drawn once per
look, its names from mapped text patches; drawn in RGB and mapped per image (a palette chosen
for 223,000 pixels), it cost 8.2 M instructions, 1.35 M so (``bench/render_draw_instructions.py``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.ui.images.fonts import draw_text, png_of
from bot.ui.images.fonts import font as _font
from bot.ui.images.palette import module_colours, to_palette
from bot.ui.images.scaled import drawer, stamp
from bot.ui.maquiavelo.text import SUITS
from games.maquiavelo.view import CardView, MaquiaveloView

Translator = Callable[..., str]

FELT = (22, 92, 62)
PANEL = (16, 64, 44)
TEXT = (240, 244, 240)
DIM = (192, 218, 204)  # 4.5:1 or more on FELT (tests/bot/test_contrast.py)
GOLD = (245, 200, 60)
WHITE = (252, 252, 250)
EDGE = (70, 70, 70)
RED = (200, 30, 40)
BLACK = (25, 25, 30)
BACK = (40, 60, 140)
RANKS = {1: "A", 11: "J", 12: "Q", 13: "K"}

WIDTH = 980
MARGIN = 16
SMALL = (34, 48)  # stock and help cards in the header
TABLE_CARD = (50, 72)  # melds on the table: as legible with 104 cards down as with 3
LARGE = (52, 74)  # hand cards
OVERLAP = 0.56  # fraction of a table card's width that the next card of a meld covers not
MELD_GAP = 16
ROW_H = TABLE_CARD[1] + 12
HEADER_H = 92


_png = png_of(__name__)  # the one PNG encoder, this module's colours kept exact


def _name(seat: str, view: MaquiaveloView, names: Mapping[str, str] | None) -> str:
    if names and seat in names:
        return names[seat]
    return f"P{view.seats.index(seat) + 1}"


# ----- suit pips and cards ----------------------------------------------------------------------
def draw_pip(draw: ImageDraw.ImageDraw, suit: str, cx: float, cy: float, r: float) -> None:
    """A suit symbol of radius ``r`` centred at (cx, cy)."""
    colour = RED if suit in "HD" else BLACK
    if suit == "D":
        draw.polygon(
            [(cx, cy - r), (cx + r * 0.75, cy), (cx, cy + r), (cx - r * 0.75, cy)], fill=colour
        )
    elif suit == "H":
        q = r * 0.52
        draw.ellipse((cx - 2 * q, cy - r * 0.8, cx, cy - r * 0.8 + 2 * q), fill=colour)
        draw.ellipse((cx, cy - r * 0.8, cx + 2 * q, cy - r * 0.8 + 2 * q), fill=colour)
        draw.polygon(
            [
                (cx - 2 * q + 0.5, cy - r * 0.8 + q * 1.2),
                (cx + 2 * q - 0.5, cy - r * 0.8 + q * 1.2),
                (cx, cy + r),
            ],
            fill=colour,
        )
    elif suit == "S":
        q = r * 0.5
        draw.polygon(
            [(cx, cy - r), (cx + 2 * q, cy + r * 0.15), (cx - 2 * q, cy + r * 0.15)], fill=colour
        )
        draw.ellipse((cx - 2 * q, cy - q * 0.6, cx, cy - q * 0.6 + 2 * q), fill=colour)
        draw.ellipse((cx, cy - q * 0.6, cx + 2 * q, cy - q * 0.6 + 2 * q), fill=colour)
        draw.polygon(
            [(cx, cy + r * 0.2), (cx + r * 0.35, cy + r), (cx - r * 0.35, cy + r)], fill=colour
        )
    else:  # clubs
        q = r * 0.4
        for dx, dy in ((0, -r + q), (-q * 1.3, q * 0.1), (q * 1.3, q * 0.1)):
            draw.ellipse((cx + dx - q, cy + dy - q, cx + dx + q, cy + dy + q), fill=colour)
        draw.polygon(
            [(cx, cy - q * 0.2), (cx + r * 0.35, cy + r), (cx - r * 0.35, cy + r)], fill=colour
        )


def draw_card(
    draw: ImageDraw.ImageDraw,
    card: CardView,
    x: float,
    y: float,
    w: float,
    h: float,
    *,
    highlight: bool = False,
    full: bool = True,
) -> None:
    """A face-up card with its top-left corner at (x, y). ``full=False`` draws only the left
    strip that stays visible when the next card overlaps it (rank + small pip)."""
    _paint_card(draw, x, y, w, h, card.suit, card.rank, highlight, full)


def _paint_card(
    draw: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float, suit: str, rank: int,
    highlight: bool, full: bool,
) -> None:  # fmt: skip
    """``draw_card`` of a card by its suit and rank: on the table a sprite's painter (``stamp``:
    each look drawn once per process)."""
    radius = max(3, int(w * 0.12))
    draw.rounded_rectangle(
        (x, y, x + w, y + h),
        radius=radius,
        fill=WHITE,
        outline=GOLD if highlight else EDGE,
        width=3 if highlight else 1,
    )
    colour = RED if suit in "HD" else BLACK
    text = RANKS.get(rank, str(rank))
    font = _font(max(9, int(h * (0.26 if len(text) == 1 else 0.22))))
    draw.text((x + w * 0.08, y + h * 0.05), text, font=font, fill=colour)
    corner_r = h * 0.09
    draw_pip(draw, suit, x + w * 0.08 + corner_r * 0.9, y + h * 0.44, corner_r)
    if full:
        draw_pip(draw, suit, x + w * 0.6, y + h * 0.68, h * 0.2)


def draw_back(draw: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float) -> None:
    radius = max(3, int(w * 0.12))
    draw.rounded_rectangle((x, y, x + w, y + h), radius=radius, fill=WHITE, outline=EDGE)
    pad = max(2, int(w * 0.1))
    draw.rounded_rectangle((x + pad, y + pad, x + w - pad, y + h - pad), radius=radius, fill=BACK)
    for i in range(3):
        draw.line(
            (
                x + pad,
                y + pad + (h - 2 * pad) * (i + 1) / 4,
                x + w - pad,
                y + pad + (h - 2 * pad) * (i + 1) / 4,
            ),
            fill=(70, 95, 180),
            width=1,
        )


def _meld_width(n: int, w: int) -> int:
    step = int(w * OVERLAP)
    return step * (n - 1) + w


# ----- the table --------------------------------------------------------------------------------
@dataclass(frozen=True)
class CardBox:
    """Where the table image draws one card: its box, and the left strip of it that stays
    visible (the whole card for the last of a meld)."""

    card: int
    meld: int
    x: int
    y: int
    w: int
    h: int
    visible_w: int


def _layout_melds(view: MaquiaveloView, width: int) -> list[list[tuple[int, int]]]:
    """Rows of (meld index, x offset), packing melds left to right."""
    w, _h = TABLE_CARD
    rows: list[list[tuple[int, int]]] = [[]]
    x = 0
    for i, meld in enumerate(view.table):
        mw = _meld_width(len(meld.cards), w)
        if rows[-1] and x + mw > width:
            rows.append([])
            x = 0
        rows[-1].append((i, x))
        x += mw + MELD_GAP
    return rows if rows[0] else []


def table_layout(view: MaquiaveloView) -> list[CardBox]:
    """Every table card's box on the table image: melds packed in rows of full-size cards
    (``TABLE_CARD``), a new row whenever the next meld would not fit, the image growing down."""
    w, h = TABLE_CARD
    step = int(w * OVERLAP)
    top = MARGIN + HEADER_H + 6
    boxes: list[CardBox] = []
    for r, row in enumerate(_layout_melds(view, WIDTH - 2 * MARGIN)):
        for i, dx in row:
            cards = view.table[i].cards
            for k, c in enumerate(cards):
                visible = w if k == len(cards) - 1 else step
                boxes.append(
                    CardBox(c.id, i, MARGIN + dx + k * step, top + r * ROW_H, w, h, visible)
                )
    return boxes


def table_height(view: MaquiaveloView) -> int:
    rows = len(_layout_melds(view, WIDTH - 2 * MARGIN))
    return MARGIN + HEADER_H + max(1, rows) * ROW_H + 20 + MARGIN


# What each image reads of the view (``bot/ui/rendering.py``: the cache key; a move that changes
# none of them, e.g. a draw, reuses the image already on the message).
IMAGE_INPUTS_TABLE = frozenset({"seats", "table", "helpers", "options", "last_play", "winners"})


LAYERS = 8  # table heights (rows of melds) kept per process


@functools.lru_cache(maxsize=LAYERS)
def _table_layer(height: int) -> Image.Image:
    """What every table ``height`` tall shows: the felt and the header's panel. Drawn once per
    process and copied for each image; kept on the module's palette, so each image is drawn
    straight on it (issue 29: drawn in RGB at 980 px wide and mapped, a Maquiavelo table cost
    8.2 M instructions, three times a Triple Triad table's; ``bench/render_draw_instructions.py``).
    """
    return to_palette(_draw_table_layer(height), module_colours(__name__))


def _draw_table_layer(height: int) -> Image.Image:
    """``_table_layer`` in RGB."""
    image = Image.new("RGB", (WIDTH, height), FELT)
    ImageDraw.Draw(image).rounded_rectangle(
        (MARGIN, MARGIN, WIDTH - MARGIN, MARGIN + HEADER_H - 8), radius=10, fill=PANEL
    )
    return image


def render_table(
    view: MaquiaveloView, tr: Translator, names: Mapping[str, str] | None = None
) -> bytes:
    w, h = SMALL
    header_h = HEADER_H
    height = table_height(view)
    img = _table_layer(height).copy()
    colours = module_colours(__name__)
    draw = drawer(img, 1.0, FELT, colours)  # the melds, on the felt
    on_panel = drawer(img, 1.0, PANEL, colours)  # the header, on the layer's panel
    small = _font(14)
    label = _font(16)

    # header: helpers and players. The stock, the card counts and whose turn it is are the
    # message's text (its status and seat lines): drawn here too they made a new image of
    # almost every move (a draw changes only them), issue 29.
    x0, y0 = MARGIN + 12, MARGIN + 10
    x = x0
    if view.helpers or view.options.ayuda:
        on_panel.text((x, y0 - 2), tr("maquiavelo.image.helpers"), font=small, fill=GOLD)
        for k, c in enumerate(view.helpers):
            _stamp_card(on_panel, c, x + k * (w + 6), y0 + 18, w, h)
        x += max(4, len(view.helpers)) * (w + 6) + 20
    # players: up to two columns of names
    px = x
    col_w = (WIDTH - MARGIN - 12 - px) // 2 if len(view.seats) > 4 else WIDTH - MARGIN - 12 - px
    for k, seat in enumerate(view.seats):
        cx = px + (k // 4) * col_w
        cy = y0 + (k % 4) * 18
        winner = seat in view.winners
        text = _name(seat, view, names)
        if winner:
            text += f" ★ {tr('maquiavelo.image.winner')}"
        draw_text(on_panel, (cx, cy), text, 14, GOLD if winner else TEXT, max_width=col_w - 10)

    # melds
    top = MARGIN + header_h + 6
    if not view.table:
        draw.text(
            (WIDTH / 2, top + (height - top - MARGIN) / 2 - 6),
            tr("maquiavelo.image.table_empty"),
            font=label,
            fill=DIM,
            anchor="mm",
        )
    highlight = set(view.last_play)
    by_id = {c.id: c for m in view.table for c in m.cards}
    for box in table_layout(view):
        _stamp_card(
            draw,
            by_id[box.card],
            box.x,
            box.y,
            box.w,
            box.h,
            highlight=box.card in highlight,
            full=box.visible_w == box.w,
        )
    return _png(img)


def _stamp_card(
    draw: ImageDraw.ImageDraw, card: CardView, x: float, y: float, w: int, h: int,
    *, highlight: bool = False, full: bool = True,
) -> None:  # fmt: skip
    """``draw_card``, pasted from its sprite (a table shows up to 104 cards, each five shapes
    and a text)."""
    stamp(draw, _paint_card, x, y, w, h, card.suit, card.rank, highlight, full)


# ----- the hand ---------------------------------------------------------------------------------
# The view fields render_hand reads (its cache key: ``bot.ui.rendering.INPUTS_ATTRIBUTE``).
IMAGE_INPUTS = {"render_hand": frozenset({"hand"}), "render_table": IMAGE_INPUTS_TABLE}


def render_hand(
    view: MaquiaveloView,
    tr: Translator,
    names: Mapping[str, str] | None = None,
    *,
    playable: Collection[str] | None = None,
) -> bytes:
    w, h = LARGE
    hand = view.hand or []
    groups = view.hand_by_suit()
    suits = [s for s in SUITS if s in groups]
    step = w + 6
    per_row = (WIDTH - 2 * MARGIN - 110) // step
    lines: list[tuple[str, list[CardView]]] = []
    for s in suits:
        cards = groups[s]
        for k in range(0, len(cards), per_row):
            lines.append((s if k == 0 else "", cards[k : k + per_row]))
    row_h = h + 12
    title_h = 34
    height = MARGIN * 2 + title_h + max(1, len(lines)) * row_h
    img = Image.new("RGB", (WIDTH, height), FELT)
    draw = ImageDraw.Draw(img)
    value = sum(c.rank for c in hand)
    draw.text(
        (MARGIN, MARGIN),
        tr("maquiavelo.image.hand_title", count=len(hand), value=value),
        font=_font(18),
        fill=TEXT,
    )
    top = MARGIN + title_h
    if not lines:
        draw.text((MARGIN, top + 10), tr("maquiavelo.image.hand_empty"), font=_font(16), fill=DIM)
    # (No highlight: the cards the last play put on the table are never in a hand.)
    for r, (suit, cards) in enumerate(lines):
        y = top + r * row_h
        if suit:
            draw_pip(draw, suit, MARGIN + 14, y + h / 2 - 10, 11)
            draw.text(
                (MARGIN, y + h / 2 + 6), tr(f"maquiavelo.suit.{suit}"), font=_font(12), fill=DIM
            )
        for k, c in enumerate(cards):
            draw_card(draw, c, MARGIN + 110 + k * step, y, w, h)
    return _png(img)
