"""Read what a table, lobby or hand message shows, whether it is a classic one (an embed) or a
Components V2 one (a container laid out by ``bot/ui/v2.py``), in the embed's shape.

``read_card(x)`` takes a fake Discord message, a message snapshot or request body (a dict), or a
``Payload``; it answers the first embed, or the V2 container read back as one: ``title``,
``description``, ``fields`` (``name``/``value``), ``footer.text``, ``color``, ``image`` (the
gallery item: ``url``, ``description``). Both key and attribute access work (``c["title"]``,
``c.title``), as on a ``discord.Embed``; a missing key reads as None. None when ``x`` shows no
such thing. ``text_of(x)`` is all of ``x``'s text.
"""

from __future__ import annotations

import json
from typing import Any

from tests.fakediscord.limits import CONTAINER, MEDIA_GALLERY, TEXT_DISPLAY, walk_components


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


def read_card(x: Any) -> Card | None:
    """``x``'s first embed, or its V2 container read back as one."""
    if x is None:
        return None
    embeds = embeds_of(x)
    if embeds:
        return Card(embeds[0])
    components = components_of(x)
    texts = [c for _, c in walk_components(components) if c.get("type") == TEXT_DISPLAY]
    if not texts or not (texts[0].get("content") or "").startswith("## "):
        return None
    head, _, description = texts[0]["content"].partition("\n")
    out: dict[str, Any] = {"title": head[3:], "description": description, "fields": []}
    for comp in texts[1:]:
        content = comp.get("content") or ""
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
    parts += [
        c.get("content") or ""
        for _, c in walk_components(components_of(x))
        if c.get("type") == TEXT_DISPLAY
    ]
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
