"""Triple Triad's own commands: ``/play triad`` (a challenge to a member or the computer),
the challenge lobby (Accept/Decline), each player's 5-card picker, ``/cards`` and ``/profile``.

Collections: the first time someone uses a Triad feature they get the starter set; anyone
holding fewer than 5 cards is topped up; every grant goes through ``CollectionsRepo`` (ledger).
The game itself is played through the shared play cog and ``bot/ui/presenters/triad.py``.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import TableError
from bot.i18n import DEFAULT_LOCALE, tr, translator
from bot.i18n.commands import cmd_str
from bot.ui.feedback import answer_error, guild_locale, reply, user_locale
from bot.ui.messages import answer_with
from bot.ui.options import OptionSpec, coerce, option_specs, signature_for
from bot.ui.triad_lobby import (
    ITEMS,
    META,
    cards_payload,
    lobby_state,
    pending_opponent,
    picker_payload,
    profile_payload,
)
from games.core import IllegalAction
from games.triad.cards import HAND_SIZE, cpu_deck, is_card, starter_set, top_up
from storage import CollectionsRepo

if TYPE_CHECKING:
    from bot.client import MesaBot
    from bot.service import Table

GAME = "triad"
TURN_SECONDS = app_commands.Range[int, 30, 900]


async def ensure_collection(repo: CollectionsRepo, user_id: str) -> dict[str, int]:
    """The user's Triad collection after granting the starter set (once, to a new user) and
    topping it up to 5 cards; each grant is recorded in the ledger."""
    await repo.ensure_starter(user_id, GAME, starter_set(f"starter:{user_id}"))
    cards = await repo.cards(user_id, GAME)
    grants = top_up(cards, f"top_up:{user_id}:{len(await repo.ledger(user_id, GAME))}")
    if grants:
        await repo.top_up(user_id, GAME, HAND_SIZE, grants)
        cards = await repo.cards(user_id, GAME)
    return cards


class Notice(Exception):
    """A refusal explained by a ``triad.ui.error.*`` catalogue key."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def holds(cards: dict[str, int], picks: list[str]) -> bool:
    return len(picks) == HAND_SIZE and all(
        is_card(c) and picks.count(c) <= cards.get(c, 0) for c in picks
    )


class TriadCog(commands.Cog):
    def __init__(self, bot: MesaBot) -> None:
        self.bot = bot
        self._play = self._play_command()
        self._commands = [self._play]

    @property
    def collections(self) -> CollectionsRepo:
        return CollectionsRepo(self.bot.db)  # type: ignore[arg-type]

    async def cog_load(self) -> None:
        lobby = self.bot.get_cog("LobbyCog")
        if lobby is not None and GAME in self.bot.games:
            lobby.play_group.add_command(self._play)  # type: ignore[attr-defined]
        for name, callback, key in (
            ("cards", self.cards, "cards"),
            ("profile", self.profile, "profile"),
        ):
            command = app_commands.Command(
                name=cmd_str(name, f"triad.ui.cmd.{key}.name"),
                description=cmd_str(
                    tr(DEFAULT_LOCALE, f"triad.ui.cmd.{key}.description"),
                    f"triad.ui.cmd.{key}.description",
                ),
                callback=callback,
            )
            command.guild_only = True
            param = command._params["member"]  # noqa: SLF001
            param.description = cmd_str(
                tr(DEFAULT_LOCALE, "triad.ui.cmd.member"), "triad.ui.cmd.member"
            )
            self.bot.tree.add_command(command)
            self._commands.append(command)
        self.bot.add_dynamic_items(*ITEMS)

    async def cog_unload(self) -> None:
        lobby = self.bot.get_cog("LobbyCog")
        if lobby is not None:
            lobby.play_group.remove_command(self._play.name)  # type: ignore[attr-defined]
        self.bot.tree.remove_command("cards")
        self.bot.tree.remove_command("profile")
        self.bot.remove_dynamic_items(*ITEMS)

    # ----- /play triad ----------------------------------------------------------------------
    def _play_command(self) -> app_commands.Command:
        game = self.bot.games.get(GAME)
        specs = [
            OptionSpec("opponent", discord.Member),
            OptionSpec("level", str, tuple(game.ai_levels) if game else ()),
            *(option_specs(game.options_model) if game else []),
            OptionSpec("turn_seconds", TURN_SECONDS),
        ]

        async def callback(interaction: discord.Interaction, **raw: Any) -> None:
            await self.challenge(interaction, raw)

        callback.__signature__ = signature_for(specs)  # type: ignore[attr-defined]
        command = app_commands.Command(
            name=GAME,
            description=cmd_str(tr(DEFAULT_LOCALE, "cmd.play.triad"), "cmd.play.triad"),
            callback=callback,
        )
        for spec in specs:
            param = command._params[spec.name]  # noqa: SLF001 - no public setter in discord.py
            key = {
                "opponent": "triad.ui.cmd.opponent",
                "level": "triad.ui.cmd.level",
                "turn_seconds": "cmd.option.turn_seconds",
            }.get(spec.name, f"triad.option.{spec.name}")
            param.description = cmd_str(tr(DEFAULT_LOCALE, key), key)
            if spec.choices:
                prefix = "level" if spec.name == "level" else f"triad.option.{spec.name}"
                param.choices = [
                    app_commands.Choice(
                        name=cmd_str(tr(DEFAULT_LOCALE, f"{prefix}.{v}"), f"{prefix}.{v}"), value=v
                    )
                    for v in spec.choices
                ]
        return command

    async def challenge(self, interaction: discord.Interaction, raw: dict[str, Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.remember(interaction)
        locale = user_locale(interaction)
        game = self.bot.games[GAME]
        host = str(interaction.user.id)
        opponent = raw.pop("opponent", None)
        level = raw.pop("level", None) or "normal"
        if opponent is not None and (opponent.bot or str(opponent.id) == host):
            await reply(interaction, tr(locale, "triad.ui.bad_opponent"))
            return
        options = coerce(game.options_model, raw)
        if raw.get("turn_seconds") is not None:
            options["turn_seconds"] = raw["turn_seconds"]
        options["cpu_level"] = level
        cards = await self.available(host)
        try:
            table = await self.bot.tables.open(
                guild_id=str(interaction.guild_id),
                channel_id=str(interaction.channel_id),
                game_key=GAME,
                host_id=host,
                host_name=interaction.user.display_name,
                locale=guild_locale(interaction, self.bot.settings.default_locale),
                options=options,
            )
            await self._set_state(table, opponent=str(opponent.id) if opponent else None)
            if opponent is None:
                await self.bot.tables.add_cpu(table.id, host, level)
            started = opponent is None and await self._maybe_start(table)
        except (TableError, IllegalAction) as exc:
            await answer_error(interaction, exc, GAME)
            return
        if opponent is not None:
            await reply(
                interaction,
                tr(locale, "triad.ui.challenge_sent", table=table.id, player=opponent.display_name),
            )
            return
        if started:
            await reply(
                interaction,
                tr(locale, "lobby.opened", game=tr(locale, "triad.name"), table=table.id),
            )
            return
        payload = picker_payload(table.id, cards, [], 0, False, translator(locale))
        await reply(
            interaction,
            tr(locale, "lobby.opened", game=tr(locale, "triad.name"), table=table.id),
            **payload.send_kwargs(),
        )

    # ----- lobby buttons and the picker -----------------------------------------------------
    async def on_button(self, interaction: discord.Interaction, table_id: int, op: str) -> None:
        user = str(interaction.user.id)
        if op in ("accept", "cards"):
            await interaction.response.defer(ephemeral=True, thinking=True)
        else:
            await interaction.response.defer()
        await self.bot.remember(interaction)
        try:
            table = self._lobby(table_id)
            if op == "accept":
                await self._accept(interaction, table, user)
            elif op == "decline":
                if pending_opponent(table) != user:
                    raise Notice("not_challenged")
                await self.bot.tables.cancel(table_id, table.record.host_id, may_manage=True)
            elif op == "cancel":
                await self.bot.tables.cancel(table_id, user)
            elif op == "cards":
                await self._show_picker(interaction, table, user, 0, fresh=True)
            elif op.startswith("pg"):
                await self._show_picker(interaction, table, user, int(op[2:]))
            elif op == "clr":
                await self._edit_picks(table, user, lambda picks: [])
                await self._show_picker(interaction, table, user, 0)
            elif op == "ok":
                await self._confirm(interaction, table, user)
        except Notice as exc:
            await reply(interaction, tr(user_locale(interaction), f"triad.ui.error.{exc.code}"))
        except (TableError, IllegalAction) as exc:
            await answer_error(interaction, exc, GAME)

    async def on_select(
        self, interaction: discord.Interaction, table_id: int, op: str, values: list[str]
    ) -> None:
        await interaction.response.defer()
        user = str(interaction.user.id)
        try:
            table = self._lobby(table_id)
            value = values[0] if values else ""
            cards = await self.available(user)
            if op.startswith("add"):

                def add(picks: list[str]) -> list[str]:
                    ok = len(picks) < HAND_SIZE and picks.count(value) < cards.get(value, 0)
                    return [*picks, value] if ok else picks

                await self._edit_picks(table, user, add)
                page = int(op[3:])
            else:

                def remove(picks: list[str]) -> list[str]:
                    if value in picks:
                        picks = list(picks)
                        picks.remove(value)
                    return picks

                await self._edit_picks(table, user, remove)
                page = int(op[2:])
            await self._show_picker(interaction, table, user, page)
        except Notice as exc:
            await reply(interaction, tr(user_locale(interaction), f"triad.ui.error.{exc.code}"))
        except (TableError, IllegalAction) as exc:
            await answer_error(interaction, exc, GAME)

    def _lobby(self, table_id: int) -> Table:
        table = self.bot.tables.get(table_id)
        if table.record.status != "lobby":
            raise TableError("not_in_lobby")
        return table

    async def _accept(self, interaction: discord.Interaction, table: Table, user: str) -> None:
        if table.seat(user) is not None:
            raise TableError("already_joined")
        wanted = pending_opponent(table)
        if wanted is not None and wanted != user:
            raise Notice("not_challenged")
        cards = await self.available(user)
        await self.bot.tables.join(table.id, user, interaction.user.display_name)
        if not await self._maybe_start(table):
            await self._show_picker(interaction, table, user, 0, fresh=True, cards=cards)
        else:
            await reply(interaction, tr(user_locale(interaction), "triad.ui.accepted"))

    async def _confirm(self, interaction: discord.Interaction, table: Table, user: str) -> None:
        self._require_seated(table, user)
        cards = await self.available(user)
        state = lobby_state(table)
        if not holds(cards, state["picks"].get(user, [])):
            raise Notice("pick_five")
        async with table.lock:
            state = lobby_state(table)
            if user not in state["ready"]:
                state["ready"] = [*state["ready"], user]
            await self._store(table, state)
        await self.bot.tables.listener.lobby_changed(table)
        await self._show_picker(interaction, table, user, 0)
        await self._maybe_start(table)

    async def _maybe_start(self, table: Table) -> bool:
        """Start once both sides are seated and every human has confirmed five cards (or, under
        Mano mezclada, at once: the engine draws from the collections)."""
        if len(table.record.seats) < 2 or table.record.status != "lobby":
            return False
        options = table.game.parse_options(self.bot.tables.game_options(table))
        state = lobby_state(table)
        hands: dict[str, list[str]] = {}
        collections: dict[str, dict[str, int]] = {}
        for seat in table.record.seats:
            if seat.is_cpu:
                hands[seat.id] = cpu_deck(seat.cpu_level or "normal", table.record.seed, table.id)
                continue
            cards = await self.available(seat.id)
            if options.random_hand:
                collections[seat.id] = cards
            elif seat.id in state["ready"] and holds(cards, state["picks"].get(seat.id, [])):
                hands[seat.id] = list(state["picks"][seat.id])
            else:
                return False
        setup: dict[str, Any] = {"hands": hands}
        if collections:
            setup["collections"] = collections
        try:
            await self.bot.tables.start(
                table.id, table.record.host_id, setup=setup, host_only=False
            )
        except TableError as exc:
            if exc.code == "not_in_lobby":  # both confirmed at once: the other click started
                return True
            raise
        return True

    async def available(self, user: str) -> dict[str, int]:
        """The user's collection minus the cards their games in progress put at stake (a
        payout takes from the original five), so no card is staked twice at once."""
        cards = await ensure_collection(self.collections, user)
        staked: Counter[str] = Counter()
        for other in self.bot.tables.tables():
            state = other.state
            if (
                other.game.key == GAME
                and state is not None
                and other.record.status == "playing"
                and user in state.seats
            ):
                staked.update(state.originals[state.seats.index(user)])
        return {c: q - staked[c] for c, q in cards.items() if q - staked[c] > 0}

    # ----- state helpers --------------------------------------------------------------------
    def _require_seated(self, table: Table, user: str) -> None:
        if table.seat(user) is None:
            raise TableError("not_seated")

    async def _store(self, table: Table, state: dict[str, Any]) -> None:
        meta = {**table.record.meta, META: state}
        await self.bot.tables.repo.set_meta(table.id, meta)
        table.record.meta = meta

    async def _set_state(self, table: Table, *, opponent: str | None) -> None:
        async with table.lock:
            state = lobby_state(table)
            state["opponent"] = opponent
            await self._store(table, state)
        await self.bot.tables.listener.lobby_changed(table)

    async def _edit_picks(self, table: Table, user: str, change) -> None:
        self._require_seated(table, user)
        async with table.lock:
            state = lobby_state(table)
            if user in state["ready"]:
                raise Notice("already_ready")
            state["picks"] = {**state["picks"], user: change(list(state["picks"].get(user, [])))}
            await self._store(table, state)
        await self.bot.tables.listener.lobby_changed(table)

    async def _show_picker(
        self,
        interaction: discord.Interaction,
        table: Table,
        user: str,
        page: int,
        *,
        fresh: bool = False,
        cards: dict[str, int] | None = None,
    ) -> None:
        self._require_seated(table, user)
        if cards is None:
            cards = await self.available(user)
        state = lobby_state(table)
        payload = picker_payload(
            table.id,
            cards,
            list(state["picks"].get(user, [])),
            page,
            user in state["ready"],
            translator(user_locale(interaction)),
        )
        await answer_with(interaction, payload, fresh=fresh)

    # ----- /cards and /profile --------------------------------------------------------------
    async def cards(
        self, interaction: discord.Interaction, member: discord.Member | None = None
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.remember(interaction)
        target = member or interaction.user
        await self._send_cards(interaction, str(target.id), target.display_name, 0, fresh=True)

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
            cards = await ensure_collection(self.collections, user_id)
        else:
            cards = await self.collections.cards(user_id, GAME)
        payload = cards_payload(user_id, name, cards, page, translator(user_locale(interaction)))
        await answer_with(interaction, payload, fresh=fresh)

    async def profile(
        self, interaction: discord.Interaction, member: discord.Member | None = None
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.remember(interaction)
        target = member or interaction.user
        user_id = str(target.id)
        locale = user_locale(interaction)
        guild = str(interaction.guild_id)
        rows = await self.bot.standings.of_user(guild, user_id)
        triad_row = next((r for r in rows if r.game == GAME), None)
        draws = (await self.bot.standings.stats_of(guild, user_id, GAME)).get("draws", 0)
        ledger = await self.collections.ledger(user_id, GAME)
        played = triad_row.played if triad_row else 0
        won = triad_row.won if triad_row else 0
        record = {
            "played": played,
            "won": won,
            "drawn": draws,
            "lost": played - won - draws,
            "cards_won": sum(r.delta for r in ledger if r.reason == "payout" and r.delta > 0),
            "cards_lost": -sum(r.delta for r in ledger if r.reason == "payout" and r.delta < 0),
            "cards": sum((await self.collections.cards(user_id, GAME)).values()),
        }
        others = [(tr(locale, f"{r.game}.name"), r.won, r.played) for r in rows if r.game != GAME]
        payload = profile_payload(target.display_name, record, others, translator(locale))
        await reply(interaction, **payload.send_kwargs())


async def setup(bot: MesaBot) -> None:
    await bot.add_cog(TriadCog(bot))
