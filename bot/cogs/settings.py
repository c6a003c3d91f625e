"""/settings: the server's defaults for new tables (members with Manage Server only).

The language of public messages, the seconds per turn, the computer's delay, the channels games
may be opened in, the global board, and per game the default options (``/settings game <game>
[options]``; no option clears them). Stored and applied by ``bot/service/guild_settings.py``."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import TableError
from bot.i18n import translator
from bot.i18n.commands import cmd_str
from bot.ports import CogHost
from bot.reach import servers_only
from bot.ui.answer_layout import send_answer
from bot.ui.feedback import user_locale
from bot.ui.options import coerce, option_specs, signature_for
from bot.ui.settings_view import settings_answer
from bot.ui.slash import command, describe, text
from games.core import Game, IllegalAction

LANGUAGES = (
    ("es", "settings.language.es"),
    ("en", "settings.language.en"),
    ("auto", "settings.language.auto"),
)
TURN = app_commands.Range[int, 30, 900]
DELAY = app_commands.Range[float, 0.0, 10.0]


def _require_manager(interaction: discord.Interaction) -> str:
    """The guild id, if the user may manage the server (Discord hides the command from others
    by default; a server can change that, so it is checked again here)."""
    if interaction.guild_id is None or not interaction.permissions.manage_guild:
        raise TableError("manage_server_only")
    return str(interaction.guild_id)


class SettingsCog(commands.Cog):
    def __init__(self, bot: CogHost) -> None:
        self.bot = bot
        self.group = self._build()

    async def cog_load(self) -> None:
        self.bot.tree.add_command(self.group)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(self.group.name)

    def _build(self) -> app_commands.Group:
        group = app_commands.Group(
            name=cmd_str("settings", "cmd.settings.name"),
            description=text("cmd.settings.description"),
            guild_only=True,
            default_permissions=discord.Permissions(manage_guild=True),
        )
        servers_only(group)  # bot/reach.py
        group.add_command(command("show", "settings.show", self.show))
        group.add_command(
            command(
                "language",
                "settings.language",
                self.language,
                {"language": "cmd.option.language"},
                {"language": LANGUAGES},
            )
        )
        group.add_command(
            command("turn", "settings.turn", self.turn, {"seconds": "cmd.option.seconds"})
        )
        group.add_command(
            command(
                "cpu_delay", "settings.cpu_delay", self.cpu_delay, {"seconds": "cmd.option.seconds"}
            )
        )
        group.add_command(
            command(
                "channel",
                "settings.channel",
                self.channel,
                {"game_channel": "cmd.option.channel", "allowed": "cmd.option.allowed"},
            )
        )
        group.add_command(
            command(
                "global_board",
                "settings.global_board",
                self.global_board,
                {"enabled": "cmd.option.enabled"},
            )
        )
        group.add_command(
            command("threads", "settings.threads", self.threads, {"enabled": "cmd.option.enabled"})
        )
        games = app_commands.Group(
            name=cmd_str("game", "cmd.settings.game.name"),
            description=text("cmd.settings.game.description"),
            parent=group,
        )
        for key, game in self.bot.games.items():
            games.add_command(self._game_command(key, game))
        return group

    def _game_command(self, key: str, game: Game) -> app_commands.Command[Any, ..., None]:
        specs = option_specs(game.options_model)

        async def callback(interaction: discord.Interaction, **raw: Any) -> None:
            await self.game_options(interaction, game, raw)

        callback.__signature__ = signature_for(specs)  # type: ignore[attr-defined]
        made: app_commands.Command[Any, ..., None] = app_commands.Command(
            name=key, description=text(f"cmd.play.{key}"), callback=callback
        )
        for spec in specs:
            name_key = f"{key}.option.{spec.name}"
            choices = [(v, f"{name_key}.{v}") for v in spec.choices] if spec.choices else None
            describe(made, spec.name, name_key, choices)
        return made

    # ----- the subcommands ------------------------------------------------------------------
    async def _answer(self, interaction: discord.Interaction, guild_id: str, done: str) -> None:
        tr = translator(user_locale(interaction))
        settings = await self.bot.tables.guild_settings.get(guild_id)
        await send_answer(
            interaction, settings_answer(settings, list(self.bot.games), tr, tr(done))
        )

    async def show(self, interaction: discord.Interaction) -> None:
        """Anyone may read the settings (a server can show the command to members); only a
        member who may manage the server is told they can change them."""
        if interaction.guild_id is None:
            raise TableError("manage_server_only")
        manager = bool(interaction.permissions.manage_guild)
        done = "settings.current" if manager else "settings.current_read_only"
        await self._answer(interaction, str(interaction.guild_id), done)

    async def language(self, interaction: discord.Interaction, language: str) -> None:
        guild = _require_manager(interaction)
        await self.bot.tables.guild_settings.update(
            guild, locale=None if language == "auto" else language
        )
        await self._answer(interaction, guild, "settings.saved")

    async def turn(self, interaction: discord.Interaction, seconds: TURN | None = None) -> None:
        guild = _require_manager(interaction)
        await self.bot.tables.guild_settings.update(guild, turn_seconds=seconds)
        await self._answer(interaction, guild, "settings.saved")

    async def cpu_delay(
        self, interaction: discord.Interaction, seconds: DELAY | None = None
    ) -> None:
        guild = _require_manager(interaction)
        await self.bot.tables.guild_settings.update(guild, cpu_delay_seconds=seconds)
        await self._answer(interaction, guild, "settings.saved")

    async def channel(
        self, interaction: discord.Interaction, game_channel: discord.TextChannel, allowed: bool
    ) -> None:
        guild = _require_manager(interaction)
        current = (await self.bot.tables.guild_settings.get(guild)).channels
        others = [c for c in current if c != str(game_channel.id)]
        await self.bot.tables.guild_settings.update(
            guild, channels=[*others, str(game_channel.id)] if allowed else others
        )
        await self._answer(interaction, guild, "settings.saved")

    async def global_board(self, interaction: discord.Interaction, enabled: bool) -> None:
        guild = _require_manager(interaction)
        await self.bot.tables.guild_settings.update(guild, global_board=enabled)
        await self._answer(interaction, guild, "settings.saved")

    async def threads(self, interaction: discord.Interaction, enabled: bool) -> None:
        guild = _require_manager(interaction)
        await self.bot.tables.guild_settings.update(guild, threads=enabled)
        await self._answer(interaction, guild, "settings.saved")

    async def game_options(
        self, interaction: discord.Interaction, game: Game, raw: dict[str, Any]
    ) -> None:
        guild = _require_manager(interaction)
        options = coerce(game.options_model, raw)
        try:  # refused now rather than at every /play
            game.parse_options(options)
        except IllegalAction as exc:  # BAD_OPTIONS, the same for every game
            raise TableError("invalid_options", detail=exc.params.get("reason", "")) from exc
        await self.bot.tables.guild_settings.set_game_options(guild, game.key, options)
        await self._answer(interaction, guild, "settings.saved")


async def setup(bot: CogHost) -> None:
    await bot.add_cog(SettingsCog(bot))
