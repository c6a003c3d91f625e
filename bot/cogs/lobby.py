"""/play <game> [options] and the lobby buttons (Join, Leave, Add CPU, Start, Cancel)."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import metrics
from bot.errors import TableError
from bot.i18n import DEFAULT_LOCALE, tr, translator
from bot.i18n.commands import cmd_str
from bot.places import place_of
from bot.ports import CogHost
from bot.reach import with_friends
from bot.service import TableOptions
from bot.ui import place_question
from bot.ui.answer_layout import send_answer
from bot.ui.feedback import guild_locale, reply, user_locale
from bot.ui.items import LobbyButton, LobbyRemoveSelect
from bot.ui.lobby_answer import LobbyAnswer, acknowledged_by, answer_within
from bot.ui.options import OptionSpec, coerce, option_specs, signature_for
from bot.ui.public_table_check import public_table_possible
from bot.ui.rules import rules_answer
from bot.ui.slash import describe
from games.core import Game

TURN_SECONDS = app_commands.Range[int, 30, 900]
# Presses on the lobby message answered with its update in place (``_change_in_place``). Not
# Start: its press's token must be offered before the game's first views go (the first turn's
# mention follows it up: tests/e2e/test_channel_play.py), and the game's image rarely fits the
# budget; a cancel closes the table (its last word goes as before), a rematch opens another.
IN_PLACE = frozenset({"join", "leave", "cpu"})


class LobbyCog(commands.Cog):
    """/play and the lobby buttons; refusals are answered by MesaTree.on_error (commands) and
    the items' guard (buttons)."""

    def __init__(self, bot: CogHost) -> None:
        self.bot = bot
        self.play_group = self._build_play_group()

    async def cog_load(self) -> None:
        self.bot.tree.add_command(self.play_group)
        self.bot.add_dynamic_items(LobbyButton, LobbyRemoveSelect)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(self.play_group.name)
        self.bot.remove_dynamic_items(LobbyButton, LobbyRemoveSelect)

    # ----- /play ----------------------------------------------------------------------------
    def _build_play_group(self) -> app_commands.Group:
        group = app_commands.Group(
            name=cmd_str("play", "cmd.play.name"),
            description=cmd_str(tr(DEFAULT_LOCALE, "cmd.play.description"), "cmd.play.description"),
        )
        with_friends(group)  # servers (with or without the bot) and group DMs: bot/reach.py
        for key, game in self.bot.games.items():
            if getattr(self.bot.presenter(key), "custom_play_command", False):
                continue  # the game's own cog adds ``/play <key>`` (e.g. with a member option)
            group.add_command(self._play_command(key, game))
        return group

    def game_key(self, table_id: int) -> str | None:
        table = self.bot.tables.registry.find(table_id)
        return table.game.key if table else None

    def _play_command(self, key: str, game: Game) -> app_commands.Command[Any, ..., None]:
        game_specs = option_specs(game.options_model)
        specs = [*game_specs]
        table_names = {"cpu_level", "turn_seconds"}

        async def callback(interaction: discord.Interaction, **raw: Any) -> None:
            await self.open_table(interaction, game, raw)

        specs.append(OptionSpec("cpu_level", str, tuple(game.ai_levels)))
        specs.append(OptionSpec("turn_seconds", TURN_SECONDS))
        # discord.py reads a command's options from its callback's signature; functions have
        # no declared ``__signature__`` attribute, hence the ignore.
        callback.__signature__ = signature_for(specs)  # type: ignore[attr-defined]
        command: app_commands.Command[Any, ..., None] = app_commands.Command(
            name=key,
            description=cmd_str(tr(DEFAULT_LOCALE, f"cmd.play.{key}"), f"cmd.play.{key}"),
            callback=callback,
        )
        for spec in specs:
            desc_key = (
                f"cmd.option.{spec.name}"
                if spec.name in table_names
                else f"{key}.option.{spec.name}"
            )
            prefix = "level" if spec.name == "cpu_level" else f"{key}.option.{spec.name}"
            choices = [(v, f"{prefix}.{v}") for v in spec.choices] if spec.choices else None
            describe(command, spec.name, desc_key, choices)
        command.add_check(public_table_possible)  # no public table where forced ephemeral
        return command

    async def open_table(
        self, interaction: discord.Interaction, game: Game, raw: dict[str, Any]
    ) -> None:
        """Open a lobby. The ``/play`` response is the lobby itself (inline) or the thread's line
        in the channel (no bot-token post either way: ``bot/ui/lobby_answer.py``); the host is
        told privately what the response does not say (the thread, a missing permission)."""
        place = place_of(interaction)  # bot/places.py
        scope = place.scope  # the server, or the group DM (channel:<id>)
        settings = await self.bot.tables.guild_settings.get(scope)
        if place.interaction_only:  # no thread there: the table is the response (anywhere.py)
            placement, missing = None, None
        else:
            placement, missing = self.bot.threads.plan(interaction, settings)  # ui/threads.py
        channel_id = str(interaction.channel_id)
        answers = self.bot.listener.kit.answers
        if placement is None:  # the response is the lobby
            answer = answers.expect(channel_id, interaction, only=place.interaction_only)
        else:  # the response is the thread's line in the channel
            answer = placement.answer = LobbyAnswer(interaction)
        late = asyncio.ensure_future(answer.acknowledge_late())
        try:
            await self.bot.remember(interaction)
            options = coerce(game.options_model, raw)
            options.update({k: raw[k] for k in TableOptions.model_fields if raw.get(k) is not None})
            table = await self.bot.tables.lobby.open(
                guild_id=scope,
                channel_id=channel_id,
                game_key=game.key,
                host_id=str(interaction.user.id),
                host_name=interaction.user.display_name,
                locale=guild_locale(interaction, self.bot.settings.default_locale),
                options=options,
                place=placement.place if placement is not None else None,
                interaction_only=place.interaction_only,
            )
        finally:
            answers.forget(channel_id, answer)
            late.cancel()
            await asyncio.gather(late, return_exceptions=True)
        t = translator(user_locale(interaction))
        if placement is None and answer.message_id is not None:  # the lobby answered it
            if missing is not None:
                await reply(interaction, t("threads.inline", permission=t(missing)))
            await place_question.ask(self.bot.listener.kit.places, interaction, table.id, place)
            return
        game_name = t(f"{game.key}.name")
        if placement is not None and placement.thread_id is not None:
            text = t("threads.opened", game=game_name, table=table.id, thread=placement.thread_id)
        else:
            text = t("lobby.opened", game=game_name, table=table.id)
        missing = missing or (placement.missing if placement is not None else None)
        if missing is not None:
            text += "\n" + t("threads.inline", permission=t(missing))
        await reply(interaction, text)
        await place_question.ask(self.bot.listener.kit.places, interaction, table.id, place)

    # ----- lobby buttons --------------------------------------------------------------------
    async def on_lobby_button(
        self, interaction: discord.Interaction, table_id: int, op: str
    ) -> None:
        if op == "rules":
            await self.show_rules(interaction, table_id)
            return
        if op in place_question.OPS:  # where the presser plays (their answer to the question)
            await place_question.answered(self.bot.listener.kit.places, interaction, op)
            return
        user = str(interaction.user.id)
        service = self.bot.tables
        actions: dict[str, Callable[[], Awaitable[object]]] = {
            "join": functools.partial(
                service.lobby.join, table_id, user, interaction.user.display_name
            ),
            "leave": functools.partial(service.lobby.leave, table_id, user),
            "cpu": functools.partial(service.lobby.add_cpu, table_id, user),
            "start": functools.partial(service.lobby.start, table_id, user),
            "cancel": functools.partial(service.lobby.cancel, table_id, user),
            "rematch": functools.partial(service.lobby.rematch, table_id, user),
        }
        place = place_of(interaction)  # bot/places.py
        if op == "rematch":
            await interaction.response.defer()
            await self.bot.remember(interaction)
            await self._rematch_by_token(interaction, table_id, actions[op])
            return
        if op not in IN_PLACE or not await self._change_in_place(
            interaction, table_id, actions[op]
        ):
            await interaction.response.defer()
            await self.bot.remember(interaction)
            self._offer_lobby_token(table_id, interaction)  # the lobby message shows the change
            await actions[op]()
        else:
            await self.bot.remember(interaction)  # (a write only for a name or locale not known)
        if op == "join":  # seated: a player the bot does not know yet is asked where they play
            await place_question.ask(self.bot.listener.kit.places, interaction, table_id, place)

    async def _change_in_place(
        self,
        interaction: discord.Interaction,
        table_id: int,
        change: Callable[[], Awaitable[object]],
    ) -> bool:
        """A press on the lobby message answered with that message updated (UPDATE_MESSAGE:
        one request, not a deferred update and an edit), when the change and its view are
        ready within the click's budget; past it the press is acknowledged meanwhile (a
        deferred update) and the message edited after, as before. False: not a press on the
        lobby message (the caller defers and changes as before)."""
        public = self.bot.listener.public
        table = self.bot.tables.registry.find(table_id)
        if (
            table is None
            or table.interaction_only  # lives on tokens alone (bot/ui/anywhere.py): as before
            or not public.is_public_message(table, interaction.message)
        ):
            return False
        deadline = asyncio.get_running_loop().time() + self._answer_within()
        public.hold_public(table_id)  # this answer shows the change: the worker waits for it
        try:
            await acknowledged_by(interaction, deadline, change())
            if not await public.answer_public_in_place(interaction, table, deadline=deadline):
                if not interaction.response.is_done():
                    metrics.count("why.defer_lobby_late")
                    await interaction.response.defer()
            public.offer_public(table, interaction)  # its token edits the message next
        finally:
            public.release_public(table_id)
        return True

    def _answer_within(self) -> float:
        return answer_within(self.bot.settings.answer_in_place_ms)

    async def _rematch_by_token(
        self,
        interaction: discord.Interaction,
        table_id: int,
        rematch: Callable[[], Awaitable[object]],
    ) -> None:
        """The rematch rides its press's token (acknowledged with a deferred update): the new
        lobby is the press's public follow-up (its token edits it), and the token turns the
        finished table's "Revancha" off (its ``@original``: the message pressed). Issue 29: a
        bot-token post and edit per rematch, where the bot may post; there, a follow-up or an
        edit Discord refused goes by bot token (``LobbyAnswers.post``, ``rematch_opened``)."""
        kit = self.bot.listener.kit
        key = ("public", table_id)
        if interaction.message is not None:
            kit.tokens.offer(key, interaction, interaction.message.id)
        channel_id = str(interaction.channel_id)
        answer = kit.answers.expect_followup(channel_id, interaction)
        try:
            await rematch()
        except BaseException:
            kit.tokens.drop(key)  # no rematch opened: nothing of the finished table to edit
            raise
        finally:
            kit.answers.forget(channel_id, answer)

    def _offer_lobby_token(self, table_id: int, interaction: discord.Interaction) -> None:
        """A press on the lobby message, answered with a deferred update: its token edits that
        message (the lobby, then the table it becomes at Start) instead of the bot token."""
        table = self.bot.tables.registry.find(table_id)
        if table is not None:
            self.bot.listener.public.offer_public(table, interaction)

    async def show_rules(self, interaction: discord.Interaction, table_id: int) -> None:
        """The table's game rules, only for the clicker and in their language."""
        game_key = self.game_key(table_id)
        if game_key is None:
            raise TableError("table_gone", table=table_id)
        await send_answer(interaction, rules_answer(game_key, translator(user_locale(interaction))))

    async def on_remove(self, interaction: discord.Interaction, table_id: int, seat: str) -> None:
        await interaction.response.defer()
        self._offer_lobby_token(table_id, interaction)
        await self.bot.tables.lobby.remove(table_id, str(interaction.user.id), seat)


async def setup(bot: CogHost) -> None:
    await bot.add_cog(LobbyCog(bot))
