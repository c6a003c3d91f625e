"""The buttons of spectators and replays (dynamic items, so they work after a restart).

``fw:{table}:{op}``  follow a running table / stop following it (``TablesCog``);
``rp:{table}:{version}``  show a finished game's replay at ``version`` (``ReplayCog``);
``rx:{table}``  export the replay as an animated image (``ReplayCog``)."""

from __future__ import annotations

from typing import Protocol

import discord

from bot.ui import ids
from bot.ui.items import TableButton, TableHandler

FOLLOW_BUTTON = ids.CustomIdFormat("fw", (ids.TABLE, ids.Part("op", "follow|stop")))
REPLAY_BUTTON = ids.CustomIdFormat("rp", (ids.TABLE, ids.VERSION))
EXPORT_BUTTON = ids.CustomIdFormat("rx", (ids.TABLE,))


class FollowHandler(TableHandler, Protocol):
    async def on_follow(self, interaction: discord.Interaction, table_id: int, op: str) -> None: ...


class ReplayHandler(TableHandler, Protocol):
    async def on_replay(
        self, interaction: discord.Interaction, table_id: int, version: int
    ) -> None: ...

    async def on_export(self, interaction: discord.Interaction, table_id: int) -> None: ...


class FollowButton(TableButton, template=FOLLOW_BUTTON):
    handled_by = "TablesCog"
    op: str

    async def run(self, cog: FollowHandler, interaction: discord.Interaction) -> None:
        await cog.on_follow(interaction, self.table_id, self.op)


class ReplayButton(TableButton, template=REPLAY_BUTTON):
    handled_by = "ReplayCog"
    version: int

    async def run(self, cog: ReplayHandler, interaction: discord.Interaction) -> None:
        await cog.on_replay(interaction, self.table_id, self.version)


class ExportButton(TableButton, template=EXPORT_BUTTON):
    handled_by = "ReplayCog"

    async def run(self, cog: ReplayHandler, interaction: discord.Interaction) -> None:
        await cog.on_export(interaction, self.table_id)
