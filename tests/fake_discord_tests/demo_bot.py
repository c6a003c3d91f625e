"""A small real discord.py bot used to prove the fake Discord (not the Mesa bot)."""

from __future__ import annotations

import asyncio
import io
import re

import discord
from discord import app_commands
from discord.ext import commands

# The smallest valid PNG (1x1, transparent): bytes that must arrive intact as an attachment.
PNG_BYTES = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000154a24f5f0000000049454e44ae426082"
)


class LobbyView(discord.ui.View):
    """Persistent buttons and a select (stable custom_ids, timeout=None)."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Join", custom_id="demo:join", style=discord.ButtonStyle.primary)
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_message(f"{interaction.user.name} joined", ephemeral=True)

    @discord.ui.button(label="Count", custom_id="demo:count")
    async def count(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        assert interaction.message is not None
        m = re.search(r"count=(\d+)", interaction.message.content)
        n = int(m.group(1)) + 1 if m else 1
        base = re.sub(r" count=\d+", "", interaction.message.content)
        await interaction.response.edit_message(content=f"{base} count={n}", view=self)

    @discord.ui.button(label="Rename", custom_id="demo:rename")
    async def rename(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_modal(NameModal())

    @discord.ui.select(
        custom_id="demo:pick",
        placeholder="Pick a card",
        options=[discord.SelectOption(label=f"Card {i}", value=f"c{i}") for i in range(3)],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content=f"picked {','.join(select.values)}")


class MoveButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"mv:(?P<table>\d+):(?P<n>\d+)"
):
    """A DynamicItem: works on any message, across restarts, parsed from its custom_id."""

    def __init__(self, table: int, n: int) -> None:
        self.table = table
        self.n = n
        super().__init__(discord.ui.Button(label=f"Move {n}", custom_id=f"mv:{table}:{n}"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ):
        return cls(int(match["table"]), int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            f"move {self.n} on table {self.table}", ephemeral=True
        )


class NameModal(discord.ui.Modal, title="Your name"):
    name = discord.ui.TextInput(label="Name", custom_id="demo:name", max_length=32)
    motto = discord.ui.TextInput(
        label="Motto", custom_id="demo:motto", required=False, style=discord.TextStyle.paragraph
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            f"Hello {self.name.value} ({self.motto.value or '-'})", ephemeral=True
        )


class ColourModal(discord.ui.Modal, title="Pick a colour"):
    """A modal built from Labels (type 18) holding a select and a text input."""

    colour = discord.ui.Label(
        text="Colour",
        component=discord.ui.Select(
            custom_id="demo:colour",
            options=[discord.SelectOption(label=c, value=c[0]) for c in ("red", "blue")],
        ),
    )
    note = discord.ui.Label(
        text="Note", component=discord.ui.TextInput(custom_id="demo:note", required=False)
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        values = self.colour.component.values  # type: ignore[attr-defined]
        await interaction.response.send_message(
            f"colour {values} note {self.note.component.value!r}", ephemeral=True
        )  # type: ignore[attr-defined]


class DemoBot(commands.Bot):
    def __init__(self, guild_id: int) -> None:
        super().__init__(
            command_prefix="!",
            intents=discord.Intents.default(),
            help_command=None,
            guild_ready_timeout=0.05,
        )
        self.guild_id = guild_id
        self.gate = asyncio.Event()  # what /slow and /late wait for
        self.http_errors: list[
            tuple[int, int]
        ] = []  # (status, code) of HTTPExceptions the commands caught
        self.resumed = 0
        self._add_commands()

    async def setup_hook(self) -> None:
        self.add_view(LobbyView())
        self.add_dynamic_items(MoveButton)
        await self.tree.sync()
        await self.tree.sync(guild=discord.Object(self.guild_id))

    async def on_resumed(self) -> None:
        self.resumed += 1

    def _caught(self, exc: discord.HTTPException) -> str:
        self.http_errors.append((exc.status, exc.code))
        return f"error {exc.status}/{exc.code}"

    def _add_commands(self) -> None:
        tree = self.tree
        bot = self

        @tree.command(name="play", description="Open a lobby")
        @app_commands.describe(
            game="Which game", players="How many players", private="Only you see it"
        )
        @app_commands.choices(
            game=[
                app_commands.Choice(name="Ce Amapatolli", value="amapatolli"),
                app_commands.Choice(name="Macarena", value="macarena"),
            ]
        )
        async def play(
            interaction: discord.Interaction,
            game: str,
            players: app_commands.Range[int, 2, 6] = 3,
            private: bool = False,
        ):
            view = LobbyView()
            view.add_item(MoveButton(7, 1))
            await interaction.response.send_message(
                f"Lobby {game} for {players}", view=view, ephemeral=private
            )

        @tree.command(name="hand", description="DM me my hand")
        async def hand(interaction: discord.Interaction):
            try:
                await interaction.user.send(
                    "Your hand",
                    file=discord.File(
                        io.BytesIO(PNG_BYTES), "hand.png", description="Your hand: no cards."
                    ),
                )
            except discord.Forbidden as exc:
                await interaction.response.send_message(
                    f"DMs closed: {bot._caught(exc)}", ephemeral=True
                )
            else:
                await interaction.response.send_message("Sent you a DM", ephemeral=True)

        @tree.command(name="name", description="Tell me your name")
        async def name(interaction: discord.Interaction):
            await interaction.response.send_modal(NameModal())

        @tree.command(name="slow", description="Think, then answer")
        async def slow(interaction: discord.Interaction, private: bool = False, wait: bool = False):
            await interaction.response.defer(ephemeral=private, thinking=True)
            if wait:
                await bot.gate.wait()
            try:
                await interaction.followup.send("done thinking")
                await interaction.followup.send("and one more", ephemeral=True)
            except discord.HTTPException as exc:
                bot._caught(exc)

        @tree.command(name="announce", description="Post in the channel")
        async def announce(interaction: discord.Interaction, text: str):
            await interaction.response.defer(ephemeral=True)
            try:
                msg = await interaction.channel.send(text)
                await msg.edit(content=text + " (edited)")
                result = "posted"
            except discord.HTTPException as exc:
                result = bot._caught(exc)
            await interaction.followup.send(result, ephemeral=True)

        @tree.command(name="bad", description="Send an invalid payload")
        @app_commands.choices(
            kind=[app_commands.Choice(name=k, value=k) for k in ("rows", "long", "embeds", "dupe")]
        )
        async def bad(interaction: discord.Interaction, kind: str):
            await interaction.response.defer(ephemeral=True)
            route = discord.http.Route(
                "POST", "/channels/{channel_id}/messages", channel_id=interaction.channel_id
            )
            button = {"type": 2, "style": 1, "label": "x"}
            payloads = {
                "rows": {
                    "content": "six rows",
                    "components": [
                        {"type": 1, "components": [{**button, "custom_id": f"r{i}"}]}
                        for i in range(6)
                    ],
                },
                "long": {"content": "x" * 2001},
                "embeds": {"embeds": [{"description": "y" * 4000}, {"description": "z" * 2500}]},
                "dupe": {
                    "content": "dupe",
                    "components": [
                        {
                            "type": 1,
                            "components": [
                                {**button, "custom_id": "same"},
                                {**button, "custom_id": "same"},
                            ],
                        }
                    ],
                },
            }
            try:
                await bot.http.request(route, json=payloads[kind])
                result = "accepted"
            except discord.HTTPException as exc:
                result = bot._caught(exc)
            await interaction.followup.send(result, ephemeral=True)

        @tree.command(name="colour", description="Open a modal made of labels")
        async def colour(interaction: discord.Interaction):
            await interaction.response.send_modal(ColourModal())

        @tree.command(name="temp", description="Answer, read it back, follow up, edit, delete")
        async def temp(interaction: discord.Interaction):
            await interaction.response.send_message("temporary")
            original = await interaction.original_response()
            follow = await interaction.followup.send(f"read back: {original.content}", wait=True)
            await follow.edit(content=follow.content + " (edited)")
            await interaction.delete_original_response()

        @tree.command(name="late", description="Answer after the gate opens")
        async def late(interaction: discord.Interaction):
            await bot.gate.wait()
            try:
                await interaction.response.send_message("finally")
            except discord.HTTPException as exc:
                bot._caught(exc)

        table = app_commands.Group(name="table", description="Tables", guild_ids=[self.guild_id])

        @table.command(name="show", description="Show a table")
        async def show(
            interaction: discord.Interaction, number: int, who: discord.Member | None = None
        ):
            suffix = f" for {who.name}" if who is not None else ""
            await interaction.response.send_message(f"table {number}{suffix}")

        @table.command(name="pick", description="Pick a game")
        async def pick_game(interaction: discord.Interaction, game: str):
            await interaction.response.send_message(f"picked {game}")

        @pick_game.autocomplete("game")
        async def pick_game_autocomplete(interaction: discord.Interaction, current: str):
            games = ["amapatolli", "macarena", "maquiavelo", "triad"]
            return [app_commands.Choice(name=g, value=g) for g in games if g.startswith(current)]

        tree.add_command(table)
