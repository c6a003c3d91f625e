"""Links to Discord messages and channels."""

from __future__ import annotations


def jump_link(guild_id: str, channel_id: str, message_id: str | None) -> str:
    if message_id is None:
        return f"https://discord.com/channels/{guild_id}/{channel_id}"
    return f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}"
