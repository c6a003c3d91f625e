"""/replay <table>: step through a finished game of this server with ◀ ▶ (the public view at
each version, rebuilt from seed + action log in the worker pool), and export it as an animated
GIF. A game whose rules changed since it was played replays if it still ends as stored, else
the answer says why not."""

from __future__ import annotations

import io
from collections import OrderedDict

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import TableError
from bot.i18n import Translator, translator
from bot.places import place_of
from bot.ports import CogHost
from bot.reach import with_friends
from bot.service import Table
from bot.service.replay import ReplayResult
from bot.service.versions import engine_version
from bot.ui.alt_text import replay_description
from bot.ui.answer_layout import Answer, Block, send_answer
from bot.ui.fairness import replay_verdict
from bot.ui.feedback import user_locale
from bot.ui.messages import finish, seat_names
from bot.ui.payload import Payload
from bot.ui.platform_items import ExportButton, ReplayButton
from bot.ui.replay_view import EXPORT_NAME, animate, frame_versions, replay_answer
from bot.ui.slash import command
from storage import TableRecord

CACHED_REPLAYS = 16
TABLE_ID = app_commands.Range[int, 1, 999_999_999_999]


class ReplayCog(commands.Cog):
    def __init__(self, bot: CogHost) -> None:
        self.bot = bot
        # table id -> its rebuilt views: stepping does not rebuild the game on every click
        self._cache: OrderedDict[int, tuple[TableRecord, ReplayResult]] = OrderedDict()

    def game_key(self, table_id: int) -> str | None:
        cached = self._cache.get(table_id)
        return cached[0].game if cached else None

    async def cog_load(self) -> None:
        replay = command("replay", "replay", self.replay, {"table": "cmd.option.table"})
        self.bot.tree.add_command(with_friends(replay))  # bot/reach.py
        self.bot.add_dynamic_items(ReplayButton, ExportButton)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command("replay")
        self.bot.remove_dynamic_items(ReplayButton, ExportButton)

    async def _load(
        self, interaction: discord.Interaction, table_id: int
    ) -> tuple[TableRecord, ReplayResult]:
        cached = self._cache.get(table_id)
        if cached is None:
            cached = await self.bot.tables.replays.replay_views(table_id)
            self._cache[table_id] = cached
            while len(self._cache) > CACHED_REPLAYS:
                self._cache.popitem(last=False)
        self._cache.move_to_end(table_id)
        return cached

    async def _checked(
        self, interaction: discord.Interaction, table_id: int, tr: Translator
    ) -> tuple[Table, ReplayResult, str | None]:
        here = place_of(interaction).scope
        finished = await self.bot.ratings.finished_game(table_id)
        if finished is not None and finished.guild_id != here:  # refused before rebuilding
            raise TableError("no_such_table", table=table_id)
        record, result = await self._load(interaction, table_id)
        if record.guild_id != here:  # another place's game
            raise TableError("no_such_table", table=table_id)
        played = finished.engine if finished is not None and finished.engine else None
        now = engine_version(record.game)
        if not result.matches:
            raise TableError(
                "replay_changed",
                played=played or tr("replay.unknown_version"),
                now=now,
            )
        note = (
            tr("replay.other_rules", played=played, now=now) if played and played != now else None
        )
        table = Table(record=record, game=self.bot.tables.game(record.game))
        note = "\n".join(filter(None, [note, replay_verdict(table, result.first_state, tr)]))
        return table, result, note

    async def replay(self, interaction: discord.Interaction, table: TABLE_ID) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        tr = translator(user_locale(interaction))
        found, result, note = await self._checked(interaction, table, tr)
        answer = replay_answer(
            found,
            self.bot.presenter(found.game.key),
            result.views[0],
            len(result.views) - 1,
            tr,
            note,
        )
        await send_answer(interaction, await _drawn(answer))

    async def on_replay(
        self, interaction: discord.Interaction, table_id: int, version: int
    ) -> None:
        tr = translator(user_locale(interaction))
        if table_id not in self._cache:  # rebuilding may take a while: acknowledge first
            await interaction.response.defer()
        found, result, note = await self._checked(interaction, table_id, tr)
        last = len(result.views) - 1
        view = result.views[max(0, min(version, last))]
        answer = replay_answer(found, self.bot.presenter(found.game.key), view, last, tr, note)
        await send_answer(interaction, await _drawn(answer), edit=True)

    async def on_export(self, interaction: discord.Interaction, table_id: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        tr = translator(user_locale(interaction))
        found, result, _ = await self._checked(interaction, table_id, tr)
        last = len(result.views) - 1
        names = seat_names(found, tr)
        views = [result.views[v] for v in frame_versions(last)]
        workers = self.bot.workers
        args = (
            found.game.key,
            views,
            user_locale(interaction),
            {s: names(s) for s in views[0].seats},
        )
        data = await workers.run(animate, *args) if workers is not None else animate(*args)
        if data is None:
            raise TableError("replay_no_images")
        gif = discord.File(
            io.BytesIO(data),
            filename=EXPORT_NAME,
            description=replay_description(
                found.game.key, table_id, len(views), user_locale(interaction)
            ),
        )
        title = tr("replay.title", game=tr(f"{found.game.key}.name"), table=table_id)
        answer = Answer(
            title=title,
            blocks=[Block(tr("replay.exported", table=table_id, frames=len(views)))],
            accent=self.bot.presenter(found.game.key).colour,
            attached=gif,
        )
        await send_answer(interaction, answer)


async def _drawn(answer: Answer) -> Answer:
    """The replay with its table image drawn (off the loop) and attached with its alt text."""
    if answer.image is not None:
        drawn = Payload(image=answer.image)
        await finish(drawn)
        answer.attached = drawn.files[0] if drawn.files else None
    return answer


async def setup(bot: CogHost) -> None:
    await bot.add_cog(ReplayCog(bot))
