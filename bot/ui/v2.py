"""Components V2 messages (issue 28): one container per message, its accent colour saying whose
turn it is, the text as TextDisplays, the picture in a media gallery, the buttons in action rows.

A ``Card`` is what a table, a lobby or a hand shows (a title, the main text, named parts, a
small footer, an image, rows of items); ``card_view`` lays it out as a ``LayoutView`` that
respects Discord's V2 limits (40 components in all, nested ones counted; 4,000 characters of
text across every TextDisplay). The layout is stable so that a reader (and the tests' reader,
``tests/message_text.py``) finds each part again: the first TextDisplay is ``## title`` then
the main text, each part one ``**name**`` TextDisplay, the footer a ``-# `` line.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.ui import ids
from bot.ui.text import clip

COMPONENTS_MAX = 40
TEXT_MAX = 4000
BUTTONS_PER_ROW = 5
PART_TEXT = 1024  # a part keeps to an embed field's size: long logs are clipped, not the table
FOOTER_TEXT = 200

# A turn's accent colour per seat (seat order), told apart without colour too: the turn line
# and the ▶ marker name the player. Okabe–Ito's colour-blind-safe set, then two more.
SEAT_ACCENTS = (
    discord.Colour(0x0072B2),  # blue
    discord.Colour(0xE69F00),  # orange
    discord.Colour(0x009E73),  # bluish green
    discord.Colour(0xCC79A7),  # reddish purple
    discord.Colour(0xD55E00),  # vermilion
    discord.Colour(0x56B4E9),  # sky blue
    discord.Colour(0xF0E442),  # yellow
    discord.Colour(0x7F7F7F),  # grey
)
# Games whose text and images already give each seat a colour: the accent is that colour
# (Triple Triad's 🔷/🔺 seats, Macarena's 🔴🔵🟢🟡🟣 players, in seat order).
GAME_SEAT_ACCENTS = {
    "triad": (discord.Colour(0x568CE8), discord.Colour(0xE8605A)),
    "macarena": (
        discord.Colour(0xDD2E44),
        discord.Colour(0x55ACEE),
        discord.Colour(0x78B159),
        discord.Colour(0xFDCB58),
        discord.Colour(0xAA8ED6),
    ),
}
WINNER = discord.Colour.gold()
CLOSED = discord.Colour.dark_grey()
LOBBY = discord.Colour.blurple()


def seat_accents(game_key: str | None = None) -> Sequence[discord.Colour]:
    return GAME_SEAT_ACCENTS.get(game_key or "", SEAT_ACCENTS)


def turn_accent(
    seats: Sequence[str],
    to_act: Iterable[str],
    game_colour: discord.Colour,
    game_key: str | None = None,
) -> discord.Colour:
    """The colour of the one seat whose turn it is (the game's own seat colour where it has
    one); the game's colour when several act at once or nobody does."""
    acting = [s for s in to_act if s in seats]
    if len(acting) != 1:
        return game_colour
    palette = seat_accents(game_key)
    return palette[list(seats).index(acting[0]) % len(palette)]


@dataclass
class Card:
    """What one V2 message shows, before it is laid out."""

    title: str
    colour: discord.Colour | None
    text: str = ""
    parts: list[tuple[str, str]] = field(default_factory=list)  # (name, text)
    footer: str | None = None
    image: str | None = None  # the attached file the gallery shows, e.g. "table.png"
    items: list[discord.ui.Item[Any]] = field(default_factory=list)  # placed by their `row`
    more_rows: list[list[discord.ui.Item[Any]]] = field(default_factory=list)  # after them


# A view's timeout: 0.0, no timer. Mesa's components are DynamicItems dispatched by custom id,
# so a view is never dispatched from; with None, discord.py gives an ephemeral message's view a
# 15-minute timer task that keeps the view (items, texts) alive (tests/e2e/test_view_timers.py).
UNTIMED = 0.0


def card_view(card: Card) -> discord.ui.LayoutView:
    """``card`` as one container (the footer last, then the rows of items inside it)."""
    texts = _texts(card)
    container: discord.ui.Container[Any] = discord.ui.Container(accent_colour=card.colour)
    container.add_item(discord.ui.TextDisplay(texts[0]))
    if card.image is not None:
        container.add_item(
            discord.ui.MediaGallery(discord.MediaGalleryItem(f"attachment://{card.image}"))
        )
    for text in texts[1:]:
        container.add_item(discord.ui.TextDisplay(text))
    for row in action_rows(card.items, card.more_rows):
        container.add_item(row)
    view = discord.ui.LayoutView(timeout=UNTIMED)
    view.add_item(container)
    check_v2_limits(view)
    return view


def note_view(text: str, colour: discord.Colour | None = CLOSED) -> discord.ui.LayoutView:
    """A V2 message of one line of text (what a V2 message shows once its view has ended: an
    edit cannot turn it back into plain content)."""
    view = discord.ui.LayoutView(timeout=UNTIMED)
    view.add_item(
        discord.ui.Container(discord.ui.TextDisplay(clip(text, TEXT_MAX)), accent_colour=colour)
    )
    return view


def fixed_components(card: Card) -> int:
    """Components ``card`` costs before its items: the container, its texts and the gallery."""
    return 1 + len(_texts(card)) + (card.image is not None)


def _texts(card: Card) -> list[str]:
    """The TextDisplays' texts within the 4,000-character budget: the parts and the footer are
    clipped first to their own sizes, the main text gets what remains."""
    parts = [f"**{name}**\n{clip(text, PART_TEXT)}" for name, text in card.parts if text]
    if card.footer:
        parts.append(f"-# {clip(card.footer, FOOTER_TEXT)}")
    head = f"## {clip(card.title, 256)}"
    room = TEXT_MAX - len(head) - 1 - sum(len(p) for p in parts)
    first = head + ("\n" + clip(card.text, room) if card.text and room > 0 else "")
    return [first, *parts]


def row_numbers(items_: Sequence[discord.ui.Item[Any]]) -> list[int]:
    """Each item's row as a classic view places it: an item with a ``row`` goes to that row,
    one without to the first row it fits in (five buttons or one select a row)."""
    widths: dict[int, int] = {}
    numbers = []
    for item in items_:
        row = item.row
        if row is None:
            row = 0
            while widths.get(row, 0) + item.width > BUTTONS_PER_ROW:
                row += 1
        widths[row] = widths.get(row, 0) + item.width
        numbers.append(row)
    return numbers


def components_of(items_: Sequence[discord.ui.Item[Any]]) -> int:
    """What ``items_`` cost in a V2 message, their action rows included."""
    return len(items_) + len(set(row_numbers(items_)))


def action_rows(
    items_: Sequence[discord.ui.Item[Any]],
    more_rows: Sequence[Sequence[discord.ui.Item[Any]]] = (),
) -> list[discord.ui.ActionRow[Any]]:
    """``items_`` in action rows placed by ``row_numbers``, then ``more_rows`` as they are."""
    placed: dict[int, list[discord.ui.Item[Any]]] = {}
    for item, row in zip(items_, row_numbers(items_), strict=True):
        placed.setdefault(row, []).append(item)
    rows: list[discord.ui.ActionRow[Any]] = []
    for group in [*(placed[r] for r in sorted(placed)), *more_rows]:
        if not group:
            continue
        action_row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
        for item in group:
            item.row = None  # the action row places it
            action_row.add_item(item)
        rows.append(action_row)
    return rows


def check_v2_limits(view: discord.ui.LayoutView) -> None:
    """Raise ``ValueError`` if the view breaks a V2 limit (a last line of defence)."""
    children = list(view.walk_children())  # one walk for every check (it was three)
    ids.check_custom_ids(children)
    count = len(children)
    if count > COMPONENTS_MAX:
        raise ValueError(f"{count} components (at most {COMPONENTS_MAX})")
    length = sum(len(c.content) for c in children if isinstance(c, discord.ui.TextDisplay))
    if length > TEXT_MAX:
        raise ValueError(f"{length} characters of text (at most {TEXT_MAX})")


def add_notice(view: discord.ui.LayoutView | discord.ui.View, notice: str) -> None:
    """Show ``notice`` under the title of the view's first text (the main text gives way if the
    4,000 characters would be exceeded)."""
    first = next((i for i in view.walk_children() if isinstance(i, discord.ui.TextDisplay)), None)
    if first is None:
        return
    head, _, rest = first.content.partition("\n")
    notice = clip(notice, 500)
    used = sum(
        len(i.content) for i in view.walk_children() if isinstance(i, discord.ui.TextDisplay)
    )
    room = TEXT_MAX - (used - len(first.content)) - len(head) - len(notice) - 2
    first.content = head + "\n" + notice + ("\n" + clip(rest, room) if rest and room > 0 else "")


def replace_rows(
    view: discord.ui.LayoutView | discord.ui.View, items_: Sequence[discord.ui.Item[Any]]
) -> None:
    """The card's action rows replaced by ``items_`` (none: nothing left to click)."""
    for container in [i for i in view.children if isinstance(i, discord.ui.Container)]:
        for row in [c for c in container.children if isinstance(c, discord.ui.ActionRow)]:
            container.remove_item(row)
        for row in action_rows(items_):
            container.add_item(row)


def gallery_items(
    view: discord.ui.View | discord.ui.LayoutView | None,
) -> list[discord.ui.MediaGallery[Any]]:
    if view is None:
        return []
    return [item for item in view.walk_children() if isinstance(item, discord.ui.MediaGallery)]


def describe_image(
    view: discord.ui.View | discord.ui.LayoutView | None, filename: str, alt: str
) -> None:
    """Give the gallery item showing ``filename`` its alt text."""
    for gallery in gallery_items(view):
        gallery.items = [
            discord.MediaGalleryItem(i.media, description=clip(alt, 1024))
            if i.media.url == f"attachment://{filename}"
            else i
            for i in gallery.items
        ]


def drop_image(view: discord.ui.View | discord.ui.LayoutView | None, filename: str) -> None:
    """Take the gallery showing ``filename`` out (its image could not be drawn)."""
    for gallery in gallery_items(view):
        if any(i.media.url == f"attachment://{filename}" for i in gallery.items):
            parent = gallery._parent
            if isinstance(parent, discord.ui.Container):
                parent.remove_item(gallery)
            elif view is not None:
                view.remove_item(gallery)
