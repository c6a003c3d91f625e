"""Triple Triad's own commands: ``/play triad`` (a challenge to a member or the computer),
the challenge lobby (Accept/Decline), each player's 5-card picker, ``/cards`` and ``/profile``.

What changes and is stored (the challenge, picks, collections) is the table service's
(``bot/service/triad.py``, Triple Triad's ``LobbyRules``); this cog reads Discord input and
answers with the payloads of ``bot/ui/triad/lobby.py``. The game itself is played through the
shared play cog and ``bot/ui/triad/presenter.py``.

Refusals are not answered here: the items' guard (``bot.ui.feedback.guard``, with the game key
``triad`` so ``triad.error.*`` and ``Notice``'s ``triad.ui.error.*`` texts explain them) and
``MesaTree.on_error`` answer whatever a handler raises.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any, Protocol

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import DEFAULT_LOCALE, tr, translator
from bot.i18n.commands import cmd_str, slash_command
from bot.places import Place, place_of
from bot.ports import CogHost
from bot.reach import everywhere, with_friends
from bot.service import Table
from bot.service.triad import TriadLobby
from bot.ui import place_question
from bot.ui.answer_layout import send_answer
from bot.ui.feedback import guard, guild_locale, reply, user_locale
from bot.ui.listener import lobby_shown_later
from bot.ui.lobby_answer import LobbyAnswer, acknowledged_by, answer_within
from bot.ui.messages import answer_with
from bot.ui.options import OptionSpec, coerce, option_specs, signature_for
from bot.ui.profile_view import profile_answer
from bot.ui.public_table_check import public_table_possible
from bot.ui.ratings_view import rating_lines
from bot.ui.slash import describe
from bot.ui.threads import Placement, opened_text
from bot.ui.triad.items import ITEMS
from bot.ui.triad.lobby import cards_payload, picker_payload

GAME = "triad"
# Seconds the command waits for its lobby's follow-up before it forgets it (a hang bound: the
# lobby's worker posts it at once; past it, the bot token would).
LOBBY_FOLLOWS_WITHIN = 10.0
TURN_SECONDS = app_commands.Range[int, 30, 900]


class TriadHost(CogHost, Protocol):
    """A ``CogHost`` that also finds other cogs: ``/play triad`` joins the lobby cog's group."""

    def get_cog(self, name: str, /) -> commands.Cog | None: ...


class TriadCog(commands.Cog):
    def __init__(self, bot: TriadHost) -> None:
        self.bot = bot
        self._play = self._play_command()

    @property
    def triad(self) -> TriadLobby:
        return self.bot.tables.lobby_rules(GAME, TriadLobby)

    def game_key(self, table_id: int) -> str:
        """Every table this cog's items point at is a Triple Triad table."""
        return GAME

    def _play_group(self) -> app_commands.Group | None:
        """The lobby cog's ``/play`` group, if that cog is loaded."""
        group = getattr(self.bot.get_cog("LobbyCog"), "play_group", None)
        return group if isinstance(group, app_commands.Group) else None

    async def cog_load(self) -> None:
        group = self._play_group()
        if group is not None and GAME in self.bot.games:
            group.add_command(self._play)
        for name, callback, key in (
            ("cards", self.cards, "cards"),
            ("profile", self.profile, "profile"),
        ):
            command = slash_command(name, callback, key=key, prefix="triad.ui.cmd")
            # /cards is a player's own collection, /profile a place's record: bot/reach.py
            (everywhere if name == "cards" else with_friends)(command)
            describe(command, "member", "triad.ui.cmd.member")
            self.bot.tree.add_command(command)
        self.bot.add_dynamic_items(*ITEMS)

    async def cog_unload(self) -> None:
        group = self._play_group()
        if group is not None:
            group.remove_command(self._play.name)
        self.bot.tree.remove_command("cards")
        self.bot.tree.remove_command("profile")
        self.bot.remove_dynamic_items(*ITEMS)

    # ----- /play triad ----------------------------------------------------------------------
    def _play_command(self) -> app_commands.Command[Any, ..., None]:
        game = self.bot.games.get(GAME)
        specs = [
            OptionSpec("opponent", discord.Member | discord.User),  # no Member in a group DM
            OptionSpec("level", str, tuple(game.ai_levels) if game else ()),
            *(option_specs(game.options_model) if game else []),
            OptionSpec("turn_seconds", TURN_SECONDS),
        ]

        async def callback(interaction: discord.Interaction, **raw: Any) -> None:
            # Through the guard rather than MesaTree.on_error: starting the game may raise an
            # IllegalAction that only ``triad.error.*`` explains.
            await guard(interaction, self.challenge(interaction, raw), GAME)

        # discord.py reads a command's options from its callback's signature; functions have
        # no declared ``__signature__`` attribute, hence the ignore.
        callback.__signature__ = signature_for(specs)  # type: ignore[attr-defined]
        command: app_commands.Command[Any, ..., None] = app_commands.Command(
            name=GAME,
            description=cmd_str(tr(DEFAULT_LOCALE, "cmd.play.triad"), "cmd.play.triad"),
            callback=callback,
        )
        for spec in specs:
            key = {
                "opponent": "triad.ui.cmd.opponent",
                "level": "triad.ui.cmd.level",
                "turn_seconds": "cmd.option.turn_seconds",
            }.get(spec.name, f"triad.option.{spec.name}")
            prefix = "level" if spec.name == "level" else f"triad.option.{spec.name}"
            choices = [(v, f"{prefix}.{v}") for v in spec.choices] if spec.choices else None
            describe(command, spec.name, key, choices)
        command.add_check(public_table_possible)  # no public table where forced ephemeral
        return command

    async def challenge(self, interaction: discord.Interaction, raw: dict[str, Any]) -> None:
        place = place_of(interaction)  # bot/places.py
        if place.interaction_only:  # the lobby is this response: acknowledged publicly
            await interaction.response.defer(thinking=True)
            answer = self.bot.listener.kit.answers.expect_deferred(
                str(interaction.channel_id), interaction
            )
        else:
            answer = None
            await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            await self._challenge(interaction, raw, place)
        finally:
            if answer is not None:
                self.bot.listener.kit.answers.forget(str(interaction.channel_id), answer)

    async def _challenge(
        self, interaction: discord.Interaction, raw: dict[str, Any], place: Place
    ) -> None:
        await self.bot.remember(interaction)
        locale = user_locale(interaction)
        game = self.bot.games[GAME]
        host = str(interaction.user.id)
        opponent = raw.pop("opponent", None)
        level = raw.pop("level", None) or "normal"
        if opponent is not None and (opponent.bot or str(opponent.id) == host):
            await reply(interaction, tr(locale, "triad.ui.bad_opponent"))
            return
        if (
            opponent is not None
            and interaction.guild_id
            and not isinstance(opponent, discord.Member)
        ):
            # a user option is a member in a server (in a group DM there is none)
            await reply(interaction, tr(locale, "error.no_member", option="opponent"))
            return
        options = coerce(game.options_model, raw)
        if raw.get("turn_seconds") is not None:
            options["turn_seconds"] = raw["turn_seconds"]
        options["cpu_level"] = level
        cards = await self.triad.available(host)
        settings = await self.bot.tables.guild_settings.get(place.scope)
        if place.interaction_only:  # no thread there (bot/ui/anywhere.py)
            placement, missing = None, None
        else:
            placement, missing = self.bot.threads.plan(interaction, settings)  # ui/threads.py
        answers = self.bot.listener.kit.answers
        channel_id = str(interaction.channel_id)
        # Inline, the lobby is this command's public follow-up once its own (private) answer
        # is out: the command's token edits the lobby, not the bot token (issue 29).
        lobby = None
        if placement is None and not place.interaction_only:
            lobby = answers.expect_followup_after(channel_id, interaction)
        try:
            with lobby_shown_later() if lobby is not None else contextlib.nullcontext():
                table, started = await self.triad.challenge(
                    guild_id=place.scope,
                    channel_id=channel_id,
                    host_id=host,
                    host_name=interaction.user.display_name,
                    locale=guild_locale(interaction, self.bot.settings.default_locale),
                    options=options,
                    opponent=str(opponent.id) if opponent else None,
                    level=level,
                    place=placement.place if placement is not None else None,
                    interaction_only=place.interaction_only,
                )
        except BaseException:
            if lobby is not None:  # no lobby to show: nothing follows
                answers.forget(channel_id, lobby)
                _settle(lobby.after)
            raise
        answered = False
        try:
            answered = await self._answer_challenge(
                interaction, table, started, opponent, cards, placement, missing
            )
        finally:
            if lobby is not None:
                await self._lobby_follows(channel_id, lobby, answered)
        # where the host plays, asked when not known yet (issue 25: bot/ui/place_question.py)
        await place_question.ask(self.bot.listener.kit.places, interaction, table.id, place)

    async def _lobby_follows(self, channel_id: str, lobby: LobbyAnswer, answered: bool) -> None:
        """The command answered: its lobby may follow it up now (posted by the lobby's worker);
        the command is forgotten once it did (or could not: the bot token posts it). When its
        own answer did not go out, the lobby would be its first follow-up, private: the bot
        token posts the lobby instead, and nothing is waited for (``settled`` is a follow-up's:
        waiting for it kept the place question 10 s, ``LOBBY_FOLLOWS_WITHIN``)."""
        _settle(lobby.after)
        if not answered:
            self.bot.listener.kit.answers.forget(channel_id, lobby)
            return
        if lobby.settled is not None:
            await asyncio.wait({lobby.settled}, timeout=LOBBY_FOLLOWS_WITHIN)
        self.bot.listener.kit.answers.forget(channel_id, lobby)

    async def _answer_challenge(
        self,
        interaction: discord.Interaction,
        table: Table,
        started: bool,
        opponent: discord.Member | discord.User | None,
        cards: dict[str, int],
        placement: Placement | None,
        missing: str | None,
    ) -> bool:
        """The command's own answer (private): the challenge sent, the game opened, or the
        host's picker; False when Discord refused it."""
        t = translator(user_locale(interaction))
        if opponent is not None:
            challenged = {"player": opponent.display_name}
            text = opened_text(
                t, GAME, table.id, placement, missing, "triad.ui.challenge_sent", **challenged
            )
            return await reply(interaction, text)
        if started:
            return await reply(interaction, opened_text(t, GAME, table.id, placement, missing))
        payload = picker_payload(table.id, cards, [], 0, False, t)
        # the text is shown under the picker's title (a V2 message has no content)
        payload.content = opened_text(t, GAME, table.id, placement, missing)
        return await reply(interaction, None, **payload.send_kwargs())

    # ----- lobby buttons and the picker -----------------------------------------------------
    async def on_button(self, interaction: discord.Interaction, table_id: int, op: str) -> None:
        user = str(interaction.user.id)
        if op in ("accept", "cards"):
            await interaction.response.defer(ephemeral=True, thinking=True)
        else:
            await interaction.response.defer()
        await self.bot.remember(interaction)
        triad = self.triad
        triad.lobby_table(table_id)
        if op == "accept":
            await self._accept(interaction, table_id, user)
        elif op == "decline":
            await triad.decline(table_id, user)
        elif op == "cancel":
            await self.bot.tables.lobby.cancel(table_id, user)
        elif op == "cards":
            await self._show_picker(interaction, table_id, user, 0, fresh=True)
        elif op.startswith("pg"):
            await self._show_picker(interaction, table_id, user, int(op[2:]))
        elif op == "clr":
            await triad.change_picks(table_id, user, "clear")
            await self._show_picker(interaction, table_id, user, 0)
        elif op == "ok":
            await triad.confirm(table_id, user)
            await self._show_picker(interaction, table_id, user, 0)
            await self._start_if_ready(interaction, table_id)

    async def _start_if_ready(self, interaction: discord.Interaction, table_id: int) -> None:
        """The last pick starts the game: posted as this press's public follow-up, so the
        press's token, not the bot token, edits the table while the game lasts (issue 25)."""
        public = self.bot.listener.public
        table = self.triad.lobby_table(table_id)
        carries = not table.interaction_only  # (there, bot/ui/anywhere.py moves the table)
        if carries:
            public.carry(table_id, interaction)  # before the start: its view may go at once
        started = False
        try:
            started = await self.triad.start_if_ready(table_id)
        finally:
            if carries and not started:
                public.carry(table_id, None)

    async def on_select(
        self, interaction: discord.Interaction, table_id: int, op: str, values: list[str]
    ) -> None:
        # Answered with the picker updated (UPDATE_MESSAGE: one request) when the pick and the
        # picker's cards are ready within the press's budget; past it, a deferred update
        # meanwhile and the picker edited after, as before.
        deadline = asyncio.get_running_loop().time() + answer_within(
            self.bot.settings.answer_in_place_ms
        )
        user = str(interaction.user.id)
        value = values[0] if values else ""
        add = op.startswith("add")
        page = int(op[3:]) if add else int(op[2:])

        async def pick() -> tuple[dict[str, int], list[str], bool]:
            await self.triad.change_picks(table_id, user, "add" if add else "remove", value)
            return await self.triad.picker(table_id, user)

        # The lobby shows the count of picks: its edit follows this answer, not the reverse.
        with lobby_shown_later():
            cards, picks, ready = await acknowledged_by(interaction, deadline, pick())
        payload = picker_payload(
            table_id, cards, picks, page, ready, translator(user_locale(interaction))
        )
        await answer_with(interaction, payload, fresh=False)

    async def _accept(self, interaction: discord.Interaction, table_id: int, user: str) -> None:
        if await self.triad.accept(table_id, user, interaction.user.display_name):
            await reply(interaction, tr(user_locale(interaction), "triad.ui.accepted"))
        else:
            await self._show_picker(interaction, table_id, user, 0, fresh=True)
        place = place_of(interaction)
        await place_question.ask(self.bot.listener.kit.places, interaction, table_id, place)

    async def _show_picker(
        self,
        interaction: discord.Interaction,
        table_id: int,
        user: str,
        page: int,
        *,
        fresh: bool = False,
    ) -> None:
        cards, picks, ready = await self.triad.picker(table_id, user)
        payload = picker_payload(
            table_id, cards, picks, page, ready, translator(user_locale(interaction))
        )
        await answer_with(interaction, payload, fresh=fresh)

    # ----- /cards and /profile --------------------------------------------------------------
    async def cards(
        self, interaction: discord.Interaction, member: discord.Member | discord.User | None = None
    ) -> None:
        target = await self._private_answer_about(interaction, member)
        await self._send_cards(interaction, str(target.id), target.display_name, 0, fresh=True)

    async def _private_answer_about(
        self, interaction: discord.Interaction, member: discord.Member | discord.User | None
    ) -> discord.Member | discord.User:
        """``/cards`` and ``/profile``: a private answer about ``member`` (the user when none)
        is on its way, and the user is remembered; the one it is about."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.remember(interaction)
        return member or interaction.user

    async def on_cards_page(
        self, interaction: discord.Interaction, user_id: str, page: int
    ) -> None:
        await interaction.response.defer()
        name = interaction.user.display_name
        if user_id != str(interaction.user.id):
            member = interaction.guild.get_member(int(user_id)) if interaction.guild else None
            name = member.display_name if member else f"<@{user_id}>"
        await self._send_cards(interaction, user_id, name, page, fresh=False)

    async def _send_cards(
        self, interaction: discord.Interaction, user_id: str, name: str, page: int, *, fresh: bool
    ) -> None:
        if user_id == str(interaction.user.id):
            cards = await self.triad.collection(user_id)
        else:
            cards = await self.triad.cards_of(user_id)
        payload = cards_payload(user_id, name, cards, page, translator(user_locale(interaction)))
        await answer_with(interaction, payload, fresh=fresh)

    async def profile(
        self, interaction: discord.Interaction, member: discord.Member | discord.User | None = None
    ) -> None:
        target = await self._private_answer_about(interaction, member)
        user_id = str(target.id)
        locale = user_locale(interaction)
        guild = place_of(interaction).scope  # this place's record and ratings (bot/places.py)
        profile = await self.triad.profile(guild, user_id)
        others = [(tr(locale, f"{r.game}.name"), r.won, r.played) for r in profile.others]
        ratings = await self.bot.ratings.of_user(guild, user_id)
        trends = {r.game: await self.bot.ratings.trend(guild, r.game, user_id) for r in ratings}
        lines = rating_lines(ratings, trends, translator(locale))
        answer = profile_answer(
            target.display_name, profile.record(), others, lines, translator(locale)
        )
        await send_answer(interaction, answer)


def _settle(future: asyncio.Future[None] | None) -> None:
    if future is not None and not future.done():
        future.set_result(None)


async def setup(bot: TriadHost) -> None:
    await bot.add_cog(TriadCog(bot))
