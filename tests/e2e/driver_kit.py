"""What every game's end-to-end driver needs: finding a table's public message and its version
on the fake Discord, and reading the draft buttons of a private view."""

from __future__ import annotations

import re

from tests.fakediscord.model import Message
from tests.fakediscord.server import FakeDiscord

VERSION = re.compile(r"(\d+)\s*$")
DRAFT_ID = re.compile(r"^d:(\d+):(\d+):(.+)$")
HAND_BUTTON = "Ver mi mano"


def draft_buttons(message: Message, table_id: int) -> dict[str, tuple[int, str]]:
    """op -> (version, custom_id) of the enabled draft buttons of a private view."""
    found = {}
    for button in message.buttons:
        m = DRAFT_ID.match(button.custom_id or "")
        if m and int(m[1]) == table_id and not button.disabled:
            found[m[3]] = (int(m[2]), button.custom_id or "")
    return found


class TableOnFake:
    """A table as the channel shows it: its public message (``mesa #N`` in the title) and the
    version in that message's footer."""

    fake: FakeDiscord
    table_id: int
    channel = None

    def public(self) -> Message:
        marker = f"mesa #{self.table_id}"
        for msg in reversed(self.fake.channel_messages(self.channel)):
            if msg.embeds and marker in (msg.embeds[0].get("title") or ""):
                return msg
        raise LookupError(f"no public message for table {self.table_id}")

    def version(self) -> int | None:
        try:
            footer = (self.public().embeds[0].get("footer") or {}).get("text") or ""
        except LookupError:
            return None
        m = VERSION.search(footer)
        return int(m.group(1)) if m and "Versi" in footer else None

    async def wait_version(self, version: int, timeout: float = 15.0) -> None:
        await self.fake.wait_until(lambda: self.version() == version, timeout=timeout,
                                   what=f"table version {version}")
