"""/leaderboard [game] [by] [scope] (by rating by default; wins or points; this server or
global) and /rules <game>."""

from __future__ import annotations

import discord
from discord.ext import commands

from bot.i18n import tr, translator
from bot.i18n.commands import slash_command
from bot.places import place_of
from bot.ports import CogHost
from bot.reach import everywhere, with_friends
from bot.ui.answer_layout import Answer, Block, game_colour, send_answer
from bot.ui.feedback import guild_locale, user_locale
from bot.ui.ratings_view import shown_rating
from bot.ui.rules import rules_answer
from bot.ui.slash import describe, game_choices
from storage import GLOBAL, RatingRow

LEADERBOARD_SIZE = 10
STAT_BOARD_SIZE = 5
TOP_PER_GAME = 3  # a rating board without a game shows each game's top
BY = (
    ("rating", "leaderboard.by.rating"),
    ("wins", "leaderboard.by.wins"),
    ("points", "leaderboard.by.points"),
)
SCOPES = (("server", "leaderboard.scope.server"), ("global", "leaderboard.scope.global"))


class InfoCog(commands.Cog):
    def __init__(self, bot: CogHost) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        leaderboard = slash_command("leaderboard", self.leaderboard)
        with_friends(leaderboard)  # bot/reach.py
        rules = slash_command("rules", self.rules)
        everywhere(rules)
        for command, required in ((leaderboard, False), (rules, True)):
            describe(command, "game", "cmd.option.game", game_choices(list(self.bot.games)))
            describe(command, "game", required=required)
            self.bot.tree.add_command(command)
        for name, values in (("by", BY), ("scope", SCOPES)):
            describe(leaderboard, name, f"cmd.option.{name}", values)
        describe(leaderboard, "post", "cmd.option.post")

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command("leaderboard")
        self.bot.tree.remove_command("rules")

    async def leaderboard(
        self,
        interaction: discord.Interaction,
        game: str | None = None,
        by: str = "rating",
        scope: str = "server",
        post: bool = False,
    ) -> None:
        """Answered to the asker alone (in their language) unless they choose ``post``: then
        to the channel, in the server's language."""
        server_locale = guild_locale(interaction, self.bot.settings.default_locale)
        locale = server_locale if post else user_locale(interaction)
        if by == "rating" or scope == "global":
            answer = await self._rating_board(interaction, locale, game, scope)
        else:
            answer = await self._standings_board(interaction, locale, game, by)
        await send_answer(interaction, answer, ephemeral=not post)

    async def _rating_board(
        self, interaction: discord.Interaction, locale: str, game: str | None, scope: str
    ) -> Answer:
        """By rating (openskill ordinal, with games played): one game, or the top of each."""
        where = GLOBAL if scope == "global" else place_of(interaction).scope
        games = [game] if game else list(self.bot.games)
        boards = {
            key: await self.bot.ratings.board(
                where, key, LEADERBOARD_SIZE if game else TOP_PER_GAME
            )
            for key in games
        }
        global_ = scope == "global"

        def line(rank: int, row: RatingRow) -> str:
            who = (row.name or row.user_id) if global_ else f"<@{row.user_id}>"
            return tr(
                locale,
                "leaderboard.rating_row",
                rank=rank,
                player=who,
                rating=shown_rating(row.ordinal),
                played=row.games,
            )

        title_game = tr(locale, f"{game}.name") if game else tr(locale, "leaderboard.all_games")
        key = "leaderboard.global_title" if global_ else "leaderboard.rating_title"
        blocks = [
            Block(
                "\n".join(line(i, r) for i, r in enumerate(rows, start=1)),
                heading=None if game else tr(locale, f"{key_}.name"),
            )
            for key_, rows in boards.items()
            if rows
        ] or [Block(tr(locale, "leaderboard.empty"))]
        footer = tr(locale, "leaderboard.rating_footer")
        place = place_of(interaction)
        if global_ and place.guild_id is None:  # a group DM's games stay its own
            footer += " " + tr(locale, "anyscope.not_global")
        elif global_ and not (await self.bot.tables.guild_settings.get(place.scope)).global_board:
            footer += " " + tr(locale, "leaderboard.opted_out")
        return Answer(
            title=tr(locale, key, game=title_game),
            blocks=blocks,
            accent=game_colour(game) if game else discord.Colour.gold(),
            footer=footer,
        )

    async def _standings_board(
        self, interaction: discord.Interaction, locale: str, game: str | None, by: str
    ) -> Answer:
        here = place_of(interaction).scope  # a server, or a group DM's own (bot/places.py)
        rows = await self.bot.standings.leaderboard(
            here,
            game,
            LEADERBOARD_SIZE,
            by="points" if by == "points" else "won",
        )
        title_game = tr(locale, f"{game}.name") if game else tr(locale, "leaderboard.all_games")
        lines = [
            tr(
                locale,
                "leaderboard.row",
                rank=i,
                player=f"<@{r.user_id}>",
                won=r.won,
                played=r.played,
                points=r.points,
            )
            + (" · " + tr(locale, "leaderboard.team_won", count=r.team_won) if r.team_won else "")
            for i, r in enumerate(rows, start=1)
        ]
        blocks = [Block("\n".join(lines) or tr(locale, "leaderboard.empty"))]
        if game is not None:  # game-specific counters: amulets, Macarenas, ...
            for stat in await self.bot.standings.stat_names(here, game):
                board = await self.bot.standings.stat_board(here, game, stat, STAT_BOARD_SIZE)
                if board:
                    blocks.append(
                        Block(
                            "\n".join(
                                f"{i}. <@{user}> — {value}"
                                for i, (user, value) in enumerate(board, start=1)
                            ),
                            heading=tr(locale, f"{game}.stat.{stat}"),
                        )
                    )
        return Answer(
            title=tr(locale, "leaderboard.title", game=title_game),
            blocks=blocks,
            accent=game_colour(game) if game else discord.Colour.gold(),
        )

    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        locale = user_locale(interaction)
        if game not in self.bot.games:
            await interaction.response.send_message(
                tr(locale, "error.unknown_game", game=game), ephemeral=True
            )
            return
        await send_answer(interaction, rules_answer(game, translator(locale)))


async def setup(bot: CogHost) -> None:
    await bot.add_cog(InfoCog(bot))
