"""A message to send or edit: content, embeds, files and components."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import discord


@dataclass
class Payload:
    content: str | None = None
    embeds: list[discord.Embed] = field(default_factory=list)
    files: list[discord.File] = field(default_factory=list)
    view: discord.ui.View | None = None

    def send_kwargs(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"embeds": self.embeds, "files": self.files}
        if self.content:
            kwargs["content"] = self.content
        if self.view is not None:
            kwargs["view"] = self.view
        return kwargs

    def edit_kwargs(self) -> dict[str, Any]:
        return {
            "content": self.content,
            "embeds": self.embeds,
            "attachments": self.files,
            "view": self.view,
        }
