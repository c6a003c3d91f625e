"""Components V2 messages (issue 28): one container per message, its accent colour saying whose
turn it is, the text as TextDisplays, the picture in a media gallery, the buttons in action rows.

A ``Card`` is what a table, a lobby or a hand shows (a title, the main text, named parts, a
small footer, an image, rows of items); ``card_view`` lays it out as a ``CardLayout`` (the
message's components as plain dicts, no discord.py view objects) that respects Discord's V2 limits (40 components in all, nested ones counted; 4,000 characters of
text across every TextDisplay). The layout is stable so that a reader (and the tests' reader,
``tests/message_text.py``) finds each part again: the first TextDisplay is ``## title`` then
the main text, each part one ``**name**`` TextDisplay, the footer a ``-# `` line.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

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
    acting = None
    for seat in to_act:  # (a loop, no list: every payload asks)
        if seat in seats:
            if acting is not None:
                return game_colour  # several act at once
            acting = seat
    if acting is None:
        return game_colour
    palette = seat_accents(game_key)
    return palette[seats.index(acting) % len(palette)]


class WrittenItem(discord.ui.Item[Any]):
    """A button or select of a dynamic item, kept as the JSON Discord reads of it: what a card
    and the limit checks read of an item (``row``, ``width``, ``custom_id``,
    ``to_component_dict``). Clicks on it are dispatched by its custom_id's template like the
    item's own; it keeps a dict, not discord.py's component objects, and is shared by the
    payloads that show it (``bot.ui.messages``: the buttons a table message shows at every
    move). Nothing changes it once written."""

    # Plain attributes, not ``Item``'s properties: the limit checks and the row placing read
    # each shown item's width at every edit (a table message shows these at every move).
    width: int = 1
    type: discord.ComponentType = discord.ComponentType.button

    def __init__(self, item: discord.ui.Item[Any]) -> None:
        super().__init__()
        self._row = item.row
        self.custom_id: str | None = getattr(item, "custom_id", None)
        self.width = item.width
        self.type = item.type
        self._data = item.to_component_dict()

    def to_component_dict(self) -> dict[str, Any]:
        return dict(self._data)  # (a copy: the written one is shared)


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
    more_rows: list[Sequence[discord.ui.Item[Any]]] = field(default_factory=list)  # after them


# A view's timeout: 0.0, no timer. Mesa's components are DynamicItems dispatched by custom id,
# so a view is never dispatched from; with None, discord.py gives an ephemeral message's view a
# 15-minute timer task that keeps the view (items, texts) alive (tests/e2e/test_view_timers.py).
UNTIMED = 0.0

ItemRows = list[list[discord.ui.Item[Any]]]


class CardLayout:
    """A card's Components V2 message, built as the JSON Discord reads without discord.py's view
    objects (issue 29). A ``LayoutView`` with its ``Container``, ``TextDisplay``s, gallery and
    ``ActionRow``s links each item to its parent and view (reference cycles only the cyclic
    garbage collector frees: ~50–120 objects per move) and makes an ``asyncio`` future, all to be
    turned into dicts by ``to_components()`` once. Mesa's buttons and selects are dynamic items
    dispatched by custom_id from templates registered once, so a card's view is never dispatched
    from: this is what discord.py's senders read of a view (``to_components``,
    ``has_components_v2``, ``is_finished``, ``is_dispatchable``, ``timeout``), and the items stay
    unattached (freed as soon as the payload is). Laid out as ``card_view`` always did: the
    container (the accent colour), the first text (title and main text), the gallery, the other
    texts, the action rows."""

    __discord_ui_view__: ClassVar[bool] = True  # discord.py's senders check a view by this
    timeout: ClassVar[float] = UNTIMED

    __slots__ = ("accent", "texts", "image", "alt", "rows")

    def __init__(
        self,
        accent: discord.Colour | None,
        texts: list[str],
        image: str | None = None,
        rows: ItemRows | None = None,
    ) -> None:
        self.accent = accent
        self.texts = texts  # the first one above the gallery
        self.image = image  # the attached file the gallery shows
        self.alt: str | None = None  # its description once drawn
        self.rows: ItemRows = rows or []

    def has_components_v2(self) -> bool:
        return True

    def is_finished(self) -> bool:
        return True  # nothing to wait for: discord.py never stores it

    def is_dispatchable(self) -> bool:
        return False  # the items are dispatched by their custom_id templates

    def stop(self) -> None:
        """Nothing to stop (the senders' shape for a view)."""

    def walk_children(self) -> Iterator[discord.ui.Item[Any]]:
        """The buttons and selects, row by row."""
        for row in self.rows:
            yield from row

    def content_length(self) -> int:
        return sum(len(text) for text in self.texts)

    def component_count(self) -> int:
        rows = [row for row in self.rows if row]
        return 1 + len(self.texts) + (self.image is not None) + len(rows) + sum(map(len, rows))

    def to_components(self) -> list[dict[str, Any]]:
        # Written in loops, in the order Discord shows them (the first text, the gallery, the
        # other texts, the rows): no list comprehension's frame nor ``insert`` per payload.
        inner: list[dict[str, Any]] = []
        texts = self.texts
        if texts:
            inner.append({"type": TEXT_DISPLAY, "content": texts[0]})
        if self.image is not None:
            item: dict[str, Any] = {
                "media": {"url": f"attachment://{self.image}"},
                "spoiler": False,
            }
            if self.alt is not None:
                item["description"] = self.alt
            inner.append({"type": MEDIA_GALLERY, "items": [item]})
        for text in texts[1:]:
            inner.append({"type": TEXT_DISPLAY, "content": text})
        for row in self.rows:
            if row:
                written = []
                for i in row:
                    written.append(i.to_component_dict())
                inner.append({"type": ACTION_ROW, "components": written})
        container: dict[str, Any] = {"type": CONTAINER}
        if self.accent is not None:
            container["accent_color"] = self.accent.value
        container["spoiler"] = False
        container["components"] = inner
        return [container]


ACTION_ROW, TEXT_DISPLAY, MEDIA_GALLERY, CONTAINER = 1, 10, 12, 17  # Discord's component types


def card_view(card: Card) -> CardLayout:
    """``card`` as one container (the footer last, then the rows of items inside it)."""
    view = CardLayout(
        card.colour, _texts(card), card.image, action_rows(card.items, card.more_rows)
    )
    check_v2_limits(view)
    return view


def note_view(text: str, colour: discord.Colour | None = CLOSED) -> CardLayout:
    """A V2 message of one line of text (what a V2 message shows once its view has ended: an
    edit cannot turn it back into plain content)."""
    return CardLayout(colour, [clip(text, TEXT_MAX)])


def copy_layout(layout: CardLayout) -> CardLayout:
    """A layout of its own with what ``layout`` shows: its texts and rows copied (a payload's
    sender notes and draws on its own: ``add_notice``, ``describe_image``, ``replace_rows``),
    the items shared (written once, never changed by a sender)."""
    copied = CardLayout(
        layout.accent, list(layout.texts), layout.image, list(map(list, layout.rows))
    )
    copied.alt = layout.alt
    return copied


def fixed_components(card: Card) -> int:
    """Components ``card`` costs before its items: the container, its texts and the gallery
    (counted as ``_texts`` lays them out, without writing them: ``card_view`` does that)."""
    texts = 1 + bool(card.footer)
    for _, text in card.parts:  # (a loop: no generator per payload)
        if text:
            texts += 1
    return 1 + texts + (card.image is not None)


def _texts(card: Card) -> list[str]:
    """The TextDisplays' texts within the 4,000-character budget: the parts and the footer are
    clipped first to their own sizes, the main text gets what remains. One loop, and ``clip``
    called only for a text too long (a card is laid out at every edit: issue 29)."""
    texts = [""]  # the first (title and main text) once the parts say what room it has
    taken = 0
    for name, text in card.parts:
        if text:
            part = f"**{name}**\n{text if len(text) <= PART_TEXT else clip(text, PART_TEXT)}"
            taken += len(part)
            texts.append(part)
    footer = card.footer
    if footer:
        part = f"-# {footer if len(footer) <= FOOTER_TEXT else clip(footer, FOOTER_TEXT)}"
        taken += len(part)
        texts.append(part)
    title = card.title
    head = f"## {title if len(title) <= 256 else clip(title, 256)}"
    room = TEXT_MAX - len(head) - 1 - taken
    main = card.text
    if main and room > 0:
        texts[0] = f"{head}\n{main if len(main) <= room else clip(main, room)}"
    else:
        texts[0] = head
    return texts


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
) -> ItemRows:
    """``items_`` in action rows placed as ``row_numbers`` places them, then ``more_rows`` as
    they are (a row of five buttons or one select: ``check_v2_limits`` refuses a wider one).
    ``row_numbers`` inlined: one walk reads each item's row and width and places it (a card
    is laid out at every edit, issue 29)."""
    rows: ItemRows = []
    if items_:
        placed: dict[int, list[discord.ui.Item[Any]]] = {}
        widths: dict[int, int] = {}
        for item in items_:
            row, width = item.row, item.width
            if row is None:
                row = 0
                while widths.get(row, 0) + width > BUTTONS_PER_ROW:
                    row += 1
            widths[row] = widths.get(row, 0) + width
            group = placed.get(row)
            if group is None:
                placed[row] = [item]
            else:
                group.append(item)
        for r in sorted(placed):
            rows.append(placed[r])
    for more in more_rows:  # (a loop: no list comprehension's frame per payload)
        if more:
            rows.append(list(more))
    return rows


def check_v2_limits(view: CardLayout | discord.ui.LayoutView) -> None:
    """Raise ``ValueError`` if the view breaks a V2 limit (a last line of defence)."""
    if isinstance(view, CardLayout):
        # one walk of the rows for every check (``component_count``'s figure)
        interactive = []
        rows = 0
        for row in view.rows:
            if not row:
                continue
            width = 0
            for item in row:
                width += item.width
            if width > BUTTONS_PER_ROW:
                raise ValueError(f"an action row {width} wide (at most {BUTTONS_PER_ROW})")
            rows += 1
            interactive += row
        texts = view.texts
        count = 1 + len(texts) + (view.image is not None) + rows + len(interactive)
        length = sum(map(len, texts))
    else:
        interactive = list(view.walk_children())  # one walk for every check (it was three)
        count = len(interactive)
        length = sum(len(c.content) for c in interactive if isinstance(c, discord.ui.TextDisplay))
    ids.check_custom_ids(interactive)
    if count > COMPONENTS_MAX:
        raise ValueError(f"{count} components (at most {COMPONENTS_MAX})")
    if length > TEXT_MAX:
        raise ValueError(f"{length} characters of text (at most {TEXT_MAX})")


def add_notice(view: CardLayout, notice: str) -> None:
    """Show ``notice`` under the title of the view's first text (the main text gives way if the
    4,000 characters would be exceeded)."""
    if not view.texts:
        return
    first = view.texts[0]
    head, _, rest = first.partition("\n")
    notice = clip(notice, 500)
    room = TEXT_MAX - (view.content_length() - len(first)) - len(head) - len(notice) - 2
    view.texts[0] = head + "\n" + notice + ("\n" + clip(rest, room) if rest and room > 0 else "")


def replace_rows(view: CardLayout, items_: Sequence[discord.ui.Item[Any]]) -> None:
    """The card's action rows replaced by ``items_`` (none: nothing left to click)."""
    view.rows = action_rows(items_)


def describe_image(view: CardLayout | None, filename: str, alt: str) -> None:
    """Give the gallery item showing ``filename`` its alt text."""
    if view is not None and view.image == filename:
        view.alt = clip(alt, 1024)


def drop_image(view: CardLayout | None, filename: str) -> None:
    """Take the gallery showing ``filename`` out (its image could not be drawn)."""
    if view is not None and view.image == filename:
        view.image = None
