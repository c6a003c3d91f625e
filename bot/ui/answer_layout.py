"""The answers to commands in Components V2: one container with an accent colour (the game's),
a title, text blocks where an embed had fields, an optional image in a media gallery with its
alt text, a footer line and buttons in action rows.

Used by /replay, /tables, /profile, /leaderboard, /history, /rules and /settings. A V2 message
carries no ``content`` nor ``embeds``, at most 40 components (nested ones count) and 4,000
characters of text in all: ``answer_view`` clips text blocks to fit (the title and footer kept
whole) and refuses what breaks a limit (``v2.check_v2_limits``; callers cap their buttons:
/tables lists 20). A "thinking" deferral cannot carry the V2 flag, so an answer to a deferred
interaction edits the original response (``send_answer``), which may.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import discord

from bot.ui.modules import game_module
from bot.ui.rendering import ImageRequest
from bot.ui.text import clip
from bot.ui.v2 import TEXT_MAX, UNTIMED, check_v2_limits

BUTTONS_PER_ROW = 5
EMPTY_BLOCK = "\u200b"  # a text display may not be empty


@dataclass(frozen=True)
class Block:
    """One text display: an optional heading (bold, on its own line) over its lines."""

    text: str
    heading: str | None = None

    def render(self, room: int) -> str:
        head = f"**{self.heading}**\n" if self.heading else ""
        return clip(head + self.text, max(room, 1)) or EMPTY_BLOCK


@dataclass
class Answer:
    """What an answer shows. ``attached``: its picture, a file with its alt text as
    ``description`` (shown in a media gallery); ``image``: the picture still to draw, which the
    sender draws into ``attached`` (``bot.ui.messages.finish``, the one place images become
    attachments, through ``bot.cogs.replay``)."""

    title: str
    blocks: list[Block] = field(default_factory=list)
    accent: discord.Colour | int | None = None
    footer: str | None = None
    image: ImageRequest | None = None
    attached: discord.File | None = None
    rows: list[list[discord.ui.Item[Any]]] = field(default_factory=list)


def game_colour(game_key: str | None) -> discord.Colour:
    """A game's colour (its presenter's, the table message's accent); blurple for none."""
    module = game_module(game_key, "presenter") if game_key else None
    presenter = getattr(module, "Presenter", None)
    colour = getattr(presenter, "colour", None)
    return colour if isinstance(colour, discord.Colour) else discord.Colour.blurple()


def answer_view(answer: Answer) -> discord.ui.LayoutView:
    """The answer as a ``LayoutView``: its picture in a gallery once attached (drawn)."""
    title = clip(f"## {answer.title}", TEXT_MAX)
    footer = clip(f"-# {answer.footer}", TEXT_MAX - len(title)) if answer.footer else None
    room = TEXT_MAX - len(title) - len(footer or "")
    children: list[discord.ui.Item[Any]] = [discord.ui.TextDisplay(title)]
    for block in answer.blocks:
        if room <= 0:
            break
        text = block.render(room)
        room -= len(text)
        children.append(discord.ui.TextDisplay(text))
    if answer.attached is not None:
        children.append(
            discord.ui.MediaGallery(
                discord.MediaGalleryItem(
                    f"attachment://{answer.attached.filename}",
                    description=answer.attached.description,
                )
            )
        )
    if footer:
        children.append(discord.ui.TextDisplay(footer))
    rows = [row for row in answer.rows if row]
    if rows:
        children.append(discord.ui.Separator())
    for row in rows:
        for i in range(0, len(row), BUTTONS_PER_ROW):
            children.append(discord.ui.ActionRow(*row[i : i + BUTTONS_PER_ROW]))
    view = discord.ui.LayoutView(timeout=UNTIMED)
    view.add_item(discord.ui.Container(*children, accent_colour=answer.accent))
    check_v2_limits(view)  # a last line of defence: callers cap rows and clip their texts
    return view


async def send_answer(
    interaction: discord.Interaction,
    answer: Answer,
    *,
    ephemeral: bool = True,
    edit: bool = False,
) -> None:
    """Show ``answer``: as the interaction's answer (``edit``: in place of the message clicked).

    An interaction already deferred ("thinking" or a deferred update) gets its original response
    edited: the deferral could not carry the V2 flag, the edit does."""
    files = [answer.attached] if answer.attached is not None else []
    view = answer_view(answer)
    mentions = discord.AllowedMentions.none()
    try:  # a failure (an expired token, ...) is answered by the caller's error handler
        if interaction.response.is_done():
            await interaction.edit_original_response(
                view=view, attachments=files, allowed_mentions=mentions
            )
        elif edit:
            await interaction.response.edit_message(view=view, attachments=files)
        else:
            await interaction.response.send_message(
                view=view, files=files, ephemeral=ephemeral, allowed_mentions=mentions
            )
    finally:
        view.stop()  # dynamic items route the clicks; keep the view store empty
