"""A message to send or edit: content, embeds, files, components, and the image it shows.

``view`` is a classic ``View`` (with embeds) or a Components V2 ``LayoutView`` (``bot.ui.v2``:
no content nor embeds then; an edit sends them cleared, which also turns a classic message into
a V2 one). ``image`` is the picture still to draw (``bot.ui.rendering``); the embed or the V2
gallery already points at ``attachment://<filename>`` and whoever sends the payload draws and
attaches it first (``bot.ui.messages.finish``, which also gives the gallery item its alt text). ``keep_image`` makes an edit leave the message's attachment as it
is (nothing uploaded): the message already shows that very image.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import discord

from bot.ui import v2
from bot.ui.rendering import ImageRequest


@dataclass
class Payload:
    content: str | None = None
    embeds: list[discord.Embed] = field(default_factory=list)
    files: list[discord.File] = field(default_factory=list)
    view: discord.ui.View | discord.ui.LayoutView | None = None
    image: ImageRequest | None = None
    keep_image: bool = False

    def _v2_content(self) -> None:
        """A Components V2 message has no ``content``: a note set on a V2 payload (e.g. "the
        table moved on") is shown under its title instead, once."""
        if self.content and self.view is not None and self.view.has_components_v2():
            v2.add_notice(self.view, self.content)
            self.content = None

    def send_kwargs(self) -> dict[str, Any]:
        self._v2_content()
        kwargs: dict[str, Any] = {"embeds": self.embeds, "files": self.files}
        if self.content:
            kwargs["content"] = self.content
        if self.view is not None:
            kwargs["view"] = self.view
        return kwargs

    def edit_kwargs(self) -> dict[str, Any]:
        self._v2_content()
        kwargs: dict[str, Any] = {"content": self.content, "embeds": self.embeds, "view": self.view}
        if not self.keep_image:
            kwargs["attachments"] = self.files
        return kwargs
