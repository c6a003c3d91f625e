"""The one reader of what a message shows in tests: tables, lobbies and hands (a classic
embed, or a Components V2 container laid out by ``bot/ui/v2.py``) and the V2 answers
(``bot/ui/answer_layout.py``: one container, its title, text blocks and footer).

Every function takes a fake Discord message, a message snapshot or request body (a dict), or a
``Payload``.

- ``read_card(x)``: the first embed, or the V2 container read back as one: ``title``,
  ``description``, ``fields`` (``name``/``value``), ``footer.text``, ``color``, ``image`` (the
  gallery item: ``url``, ``description``). Both key and attribute access work (``c["title"]``,
  ``c.title``), as on a ``discord.Embed``; a missing key reads as None. None when ``x`` shows no
  such thing.
- ``text_of(x)``: all of ``x``'s text; ``texts_of(x)``: each TextDisplay's, in order.
- ``title_of``, ``footer_of``, ``blocks_of`` (the text blocks between them), ``block_of`` (the
  lines under a ``**heading**``), ``accent_of``, ``gallery_of``: the parts of a V2 answer.
- ``clickable(x)``: every button and select; ``rows_of(x)``: each action row's children.
- ``check_v2(x)``: ``x`` is one V2 container within Discord's limits.
"""

from __future__ import annotations

import json
from typing import Any

from tests.fakediscord.limits import (
    CONTAINER,
    FLAG_COMPONENTS_V2,
    MEDIA_GALLERY,
    TEXT_DISPLAY,
    V2_COMPONENTS_MAX,
    V2_TEXT_MAX,
    walk_components,
)


class Card(dict):
    """A dict that also reads as attributes (``card.title``, ``card.footer.text``)."""

    def __getattr__(self, name: str) -> Any:
        return _wrap(self.get(name))

    def __getitem__(self, key: str) -> Any:
        return _wrap(dict.__getitem__(self, key))

    def get(self, key: str, default: Any = None) -> Any:
        return _wrap(dict.get(self, key, default))

    def to_dict(self) -> dict[str, Any]:
        return json.loads(json.dumps(self))


def _wrap(value: Any) -> Any:
    if isinstance(value, dict) and not isinstance(value, Card):
        return Card(value)
    if isinstance(value, list):
        return [_wrap(v) for v in value]
    return value


def components_of(x: Any) -> list[dict[str, Any]]:
    if isinstance(x, dict):
        if x.get("view") is not None:  # send/edit keyword arguments
            return list(x["view"].to_components())
        return list(x.get("components") or [])
    view = getattr(x, "view", None)
    if view is not None and not hasattr(x, "channel"):  # a Payload
        return list(view.to_components())
    return list(getattr(x, "components", None) or [])


def embeds_of(x: Any) -> list[dict[str, Any]]:
    if isinstance(x, dict):
        return list(x.get("embeds") or [])
    return [e if isinstance(e, dict) else e.to_dict() for e in getattr(x, "embeds", None) or []]


def texts_of(x: Any) -> list[str]:
    """Every TextDisplay's content, in order (a V2 message's title first, its footer last)."""
    return _texts(components_of(x))


def _texts(components: list[dict[str, Any]]) -> list[str]:
    return [
        c.get("content") or ""
        for _, c in walk_components(components)
        if c.get("type") == TEXT_DISPLAY
    ]


def read_card(x: Any) -> Card | None:
    """``x``'s first embed, or its V2 container read back as one."""
    if x is None:
        return None
    embeds = embeds_of(x)
    if embeds:
        return Card(embeds[0])
    components = components_of(x)
    texts = _texts(components)
    if not texts or not texts[0].startswith("## "):
        return None
    head, _, description = texts[0].partition("\n")
    out: dict[str, Any] = {"title": head[3:], "description": description, "fields": []}
    for content in texts[1:]:
        if content.startswith("-# "):
            out["footer"] = {"text": content[3:]}
        elif content.startswith("**"):
            name, _, value = content.partition("\n")
            out["fields"].append({"name": name.strip("*"), "value": value})
    for _, comp in walk_components(components):
        if comp.get("type") == CONTAINER and "color" not in out:
            out["color"] = comp.get("accent_color")
        if comp.get("type") == MEDIA_GALLERY and "image" not in out:
            item = (comp.get("items") or [{}])[0]
            out["image"] = {
                "url": (item.get("media") or {}).get("url"),
                "description": item.get("description"),
            }
    return Card(out)


def text_of(x: Any) -> str:
    """All the text ``x`` shows: content, embeds, every TextDisplay."""
    parts = [x.get("content") if isinstance(x, dict) else getattr(x, "content", None)]
    parts += [json.dumps(e, ensure_ascii=False) for e in embeds_of(x)]
    parts += texts_of(x)
    return "\n".join(p for p in parts if p)


def is_v2(x: Any) -> bool:
    flags = x.get("flags") if isinstance(x, dict) else getattr(x, "flags", 0)
    return bool((flags or 0) & (1 << 15))


INTERACTIVE = {2, 3, 5, 6, 7, 8}


def clickable(x: Any) -> list[dict[str, Any]]:
    """Every button and select ``x`` shows, wherever it sits (a row, a container, a section)."""
    return [c for _, c in walk_components(components_of(x)) if c.get("type") in INTERACTIVE]


def rows_of(x: Any) -> list[list[dict[str, Any]]]:
    """The children of each action row of ``x``, in order, wherever the rows sit."""
    return [
        list(c.get("components") or [])
        for _, c in walk_components(components_of(x))
        if c.get("type") == 1
    ]


# --- the parts of a V2 answer (one container: title, text blocks, footer) --------------------


def title_of(x: Any) -> str:
    """The V2 message's ``## title`` line."""
    card = read_card(x)
    assert card is not None and card.title is not None, texts_of(x)[:1]
    return card.title


def footer_of(x: Any) -> str | None:
    """The V2 message's ``-#`` footer (its last text), or None."""
    texts = texts_of(x)
    return texts[-1][3:] if texts and texts[-1].startswith("-# ") else None


def blocks_of(x: Any) -> list[str]:
    """The text blocks between the title and the footer."""
    shown = texts_of(x)[1:]
    if shown and shown[-1].startswith("-# "):
        shown = shown[:-1]
    return shown


def block_of(x: Any, heading: str) -> str:
    """The lines of the block under ``**heading**`` (without it)."""
    for text in blocks_of(x):
        if text.startswith(f"**{heading}**\n"):
            return text.split("\n", 1)[1]
    raise LookupError(f"no block {heading!r} in {blocks_of(x)}")


def accent_of(x: Any) -> int | None:
    """The accent colour of the message's one container."""
    [container] = [c for c in components_of(x) if c.get("type") == CONTAINER]
    return container.get("accent_color")


def gallery_of(x: Any) -> list[dict[str, Any]]:
    """The media galleries' items (``media.url``, ``description``)."""
    return [
        item
        for _, c in walk_components(components_of(x))
        if c.get("type") == MEDIA_GALLERY
        for item in c.get("items") or []
    ]


def check_v2(x: Any, flags: int | None = None) -> None:
    """``x`` is one V2 container within Discord's limits: the flag set (``flags``, by default
    the message's), no content nor embeds, ≤ 40 components, ≤ 4,000 characters of text."""
    components = components_of(x)
    if flags is None:
        flags = x.flags
    assert flags & FLAG_COMPONENTS_V2, "the IS_COMPONENTS_V2 flag"
    if not isinstance(x, dict):
        assert not x.content and not x.embeds
    assert [c.get("type") for c in components] == [CONTAINER]
    assert sum(1 for _ in walk_components(components)) <= V2_COMPONENTS_MAX
    assert sum(len(t) for t in texts_of(x)) <= V2_TEXT_MAX
