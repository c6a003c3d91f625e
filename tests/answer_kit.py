"""Reading a Components V2 answer (``bot/ui/answer_layout.py``) in tests: the title, the text
blocks and the footer of its one container, and the V2 limits it must keep (flag set, no
content nor embeds, ≤ 40 components, ≤ 4,000 characters of text).

A minimal private kit of the ``v2answers`` branch; ``tests/message_text.py`` (branch
``v2table``) reads any message's text, V1 or V2, and may replace it after the merge."""

from __future__ import annotations

from typing import Any

from tests.fakediscord.limits import FLAG_COMPONENTS_V2, walk_components

CONTAINER = 17
TEXT_DISPLAY = 10
MEDIA_GALLERY = 12
TEXT_MAX = 4000
COMPONENTS_MAX = 40


def _components(message: Any) -> list[dict[str, Any]]:
    if isinstance(message, dict):
        return list(message.get("components") or [])
    return list(message.components)


def texts(message: Any) -> list[str]:
    """Every text display's content, in order (the title first, the footer last)."""
    return [
        c.get("content") or ""
        for _, c in walk_components(_components(message))
        if c.get("type") == TEXT_DISPLAY
    ]


def title(message: Any) -> str:
    first = texts(message)[0]
    assert first.startswith("## "), first
    return first[3:]


def footer(message: Any) -> str | None:
    last = texts(message)[-1]
    return last[3:] if last.startswith("-# ") else None


def blocks(message: Any) -> list[str]:
    """The text blocks between the title and the footer."""
    shown = texts(message)[1:]
    if shown and shown[-1].startswith("-# "):
        shown = shown[:-1]
    return shown


def block(message: Any, heading: str) -> str:
    """The lines of the block under ``heading`` (without it)."""
    for text in blocks(message):
        if text.startswith(f"**{heading}**\n"):
            return text.split("\n", 1)[1]
    raise LookupError(f"no block {heading!r} in {blocks(message)}")


def accent(message: Any) -> int | None:
    [container] = [c for c in _components(message) if c.get("type") == CONTAINER]
    return container.get("accent_color")


def gallery(message: Any) -> list[dict[str, Any]]:
    """The media gallery's items (``media.url``, ``description``)."""
    return [
        item
        for _, c in walk_components(_components(message))
        if c.get("type") == MEDIA_GALLERY
        for item in c.get("items") or []
    ]


def check_v2(message: Any, flags: int | None = None) -> None:
    """The answer is one V2 container within Discord's limits."""
    components = _components(message)
    if flags is None:
        flags = message.flags
    assert flags & FLAG_COMPONENTS_V2, "the IS_COMPONENTS_V2 flag"
    if not isinstance(message, dict):
        assert not message.content and not message.embeds
    assert [c.get("type") for c in components] == [CONTAINER]
    assert sum(1 for _ in walk_components(components)) <= COMPONENTS_MAX
    assert sum(len(t) for t in texts(message)) <= TEXT_MAX
