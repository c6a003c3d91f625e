"""Alt text for every image the bot sends (issue 28 item 4): the attachment ``description``
Discord shows to screen readers and when an image does not load.

It is built from the very ``ImageRequest`` the picture is drawn from (the same view, locale,
seat names and extras), so it says what the image shows and nothing more: a public table's alt
text only tells what the public view holds, a hand's only what that seat's hand image holds
(the fields its renderer declares in ``IMAGE_INPUTS``, so a hand kept because it did not change
keeps a description that still fits it).

Each game's words live in ``bot.ui.<game>.alt``: ``describe_table(view, alt)`` and
``describe_hand(view, alt)``, where ``alt`` (``AltWords``) carries what the renderer gets beside
the view (the reader's translator, the seat names, a hand's ``playable``) and the sentences every
game's alt text shares; this module picks one, clips it to Discord's limit and falls back to a
plain line for a game without one.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from typing import Any

from bot.i18n import (
    DEFAULT_LOCALE,
    BoundTranslator,
    Translator,
    catalogue,
    placeholders,
    plural_names,
    translator,
)
from bot.ui.modules import game_module
from bot.ui.rendering import ImageRequest, NameBook, _safe_render_args
from games.core import PlayerView

log = logging.getLogger(__name__)

MAX_ALT_TEXT = 1024  # Discord's limit on an attachment's description
ELLIPSIS = "…"

_DESCRIBERS = {"render_table": "describe_table", "render_hand": "describe_hand"}


def describe(request: ImageRequest) -> str:
    """The alt text of the image ``request`` draws, in the request's locale."""
    return _described(
        request.game_key,
        request.function,
        request.view,
        request.locale,
        request.names,
        request.extras,
    )


def _described(
    game_key: str,
    function: str,
    view: PlayerView,
    locale: str,
    names: dict[str, str] | None,
    extras: dict[str, Any],
) -> str:
    tr = translator(locale)
    func = _describer(game_key, function)
    text = ""
    if func is not None:
        book = NameBook(names) if names is not None else None
        text = func(view, AltWords(tr, book, **extras))
    if not text.strip():
        key = "access.alt.hand" if function == "render_hand" else "access.alt.table"
        text = tr(key, game=tr(f"{game_key}.name"))
    return clip_alt(text)


def render_described(
    game_key: str,
    function: str,
    view: PlayerView,
    locale: str,
    names: dict[str, str] | None,
    extras: dict[str, Any] | None = None,
) -> tuple[bytes | None, str | None]:
    """A render worker's job (``Renderer(job=...)``, ``ImageRequest.args``): the image and its
    alt text, written in the worker from the drawn part of the view (the event loop wrote it,
    ~20-40 us an image: issue 29); no alt text if describing failed (the bot writes it then,
    from the whole view). (``describe``'s text without an ``ImageRequest`` built for it.)"""
    image = _safe_render_args(game_key, function, view, locale, names, extras)
    if image is None:
        return None, None
    try:
        return image, _described(game_key, function, view, locale, names, extras or {})
    except Exception:  # e.g. a describer reading a field the image does not draw
        log.debug("describing %s of %s in the worker failed", function, game_key, exc_info=True)
        return image, None


def replay_description(game_key: str, table_id: int, frames: int, locale: str) -> str:
    """The alt text of a replay export (an animated GIF of the public table)."""
    tr = translator(locale)
    return clip_alt(
        tr("access.alt.replay", game=tr(f"{game_key}.name"), table=table_id, frames=frames)
    )


def clip_alt(text: str, limit: int = MAX_ALT_TEXT) -> str:
    if not _spaced_once(text):
        text = " ".join(text.split())  # one paragraph: screen readers read it as one
    if len(text) <= limit:
        return text
    return text[: limit - len(ELLIPSIS)].rstrip() + ELLIPSIS


# Whitespace ``str.split`` splits at (``re``'s ``\s`` in a text pattern: the same characters)
# but the space
_OTHER_SPACE = re.compile(r"[^\S ]")


def _spaced_once(text: str) -> bool:
    """Whether ``text`` is one paragraph already (``" ".join(text.split())`` gives it back):
    its words one space apart, no other whitespace. Most alt texts are: a look at them is
    cheaper than splitting and joining ~80 words (issue 29)."""
    return (
        "  " not in text
        and text[:1] != " "
        and text[-1:] != " "
        and _OTHER_SPACE.search(text) is None
    )


def sentences(*parts: str | None) -> str:
    """Non-empty parts joined as sentences (each ends with a full stop)."""
    out = []
    for part in parts:
        if part and part.strip():
            part = part.strip()
            out.append(part if part[-1] in ".!?:…" else part + ".")
    return " ".join(out)


def listing(items: Iterable[str], separator: str = "; ") -> str:
    return separator.join(i for i in items if i)


def framed(tr: Translator, key: str, name: str, text: str) -> str:
    """``tr(key, **{name: text})`` for a template that shows ``text`` as it is (``"Cells:
    {cells}"``): the words around it, rendered once per language, then ``text`` put between
    them. A whole board's or well row's text is new at every image: rendered through the
    translator it missed its cache every time (~4 us, and a cache entry of its own, issue 29);
    any other template, or a text the translator would change (a ``[/command]``), goes to it."""
    locale = tr.locale if isinstance(tr, BoundTranslator) else None
    frame = _frame(locale, key, name) if locale is not None else None
    if frame is None or "[/" in text:
        return tr(key, **{name: text})
    return frame[0] + text + frame[1]


_MARK = "\x00"  # in no catalogue text


@functools.lru_cache(maxsize=256)
def _frame(locale: str, key: str, name: str) -> tuple[str, str] | None:
    """The words before and after ``{name}`` in ``key``'s text in ``locale``, if the template
    shows that one parameter once, as it is (no plural choice, format spec or command)."""
    template = catalogue(locale).get(key) or catalogue(DEFAULT_LOCALE).get(key)
    if template is None or "[/" in template or template.count("{") != 1:
        return None
    if placeholders(template) != {name} or plural_names(template) or f"{{{name}}}" not in template:
        return None
    whole = translator(locale)(key, **{name: _MARK})
    if whole.count(_MARK) != 1:
        return None
    before, _, after = whole.partition(_MARK)
    return before, after


@functools.cache
def _describer(game_key: str, function: str) -> Callable[..., str] | None:
    module = game_module(game_key, "alt")
    name = _DESCRIBERS.get(function)
    if module is None or name is None:
        return None
    func: Callable[..., str] | None = getattr(module, name, None)
    return func


@dataclass(frozen=True)
class AltWords:
    """What a game's alt text is written with: the reader's ``tr``, the seat names the image
    shows (None: it shows none) and the hand renderer's keyword arguments (``playable``), so
    the words say what the picture says and no more; and the sentences every game shares."""

    tr: Translator
    names: NameBook | None = None
    playable: Collection[str] | None = None

    def name(self, seat: str | None, fallback: str) -> str:
        """The seat's name when the image had names, else ``fallback`` ("" for no seat)."""
        if seat is None:
            return ""
        name = self.names.get(seat) if self.names is not None else None
        return name.strip() if name and name.strip() else fallback

    def players(self, rows: Iterable[str]) -> str:
        """The sentence listing every player: ``Players: Ann: 3 cards; Bob: 5 cards``."""
        return framed(self.tr, "access.alt.players", "players", listing(rows))

    def hand(self, count: int, cards: str) -> str:
        """``Your hand (3 cards): …``, or that the hand is empty."""
        if not count:
            return self.tr("access.alt.hand_empty")
        return self.tr("access.alt.your_hand", count=count, cards=cards)

    def playable_now(self, cards: list[str]) -> str | None:
        """The cards the seat may play now, in words (None when there are none)."""
        return self.tr("access.alt.playable", cards=", ".join(cards)) if cards else None
