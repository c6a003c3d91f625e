"""Where a new player plays, asked once (issue 25: a new channel player's first game without a DM).

The bot learns where a player plays from their clicks (``bot/ui/play_from.py``): a move from a
table's "Ver mi mano" hand makes them a player of the tables, a click on a DM hand a DM player.
A brand-new player has clicked neither, so their first game would open with a DM hand they may
not want (and a bot-token call or three: open the DM channel, post, edit). So the first time a
player sits at a table (Join, or opening it with /play) and the bot does not know their place
yet, the press is answered with a short private question: "here, from the table" or "by DM".
It rides the press's own interaction token (a follow-up: exempt from the global limit), and the
answer is an UPDATE_MESSAGE of that question (exempt too). Unanswered, they play from their DMs
as before (a DM also tells them when it is their turn after they walked away). Either place
stays one press away: a move from "Ver mi mano" or a click on a DM hand changes it, remembered.
"""

from __future__ import annotations

import discord

from bot.i18n import Translator, translator
from bot.places import Place
from bot.ui import items
from bot.ui.feedback import reply, user_locale
from bot.ui.play_from import PlayPlaces
from bot.ui.v2 import UNTIMED

HERE = "here"  # the lobby button ops of the two answers (``ids.LOBBY_BUTTON``)
BY_DM = "bydm"
OPS = (HERE, BY_DM)


def question_view(table_id: int, tr: Translator, *, here: bool = True) -> discord.ui.View:
    """The answers' buttons ("here" only when it would change something)."""
    view = discord.ui.View(timeout=UNTIMED)
    if here:
        view.add_item(
            items.LobbyButton(
                table_id, HERE, label=tr("place.here"), style=discord.ButtonStyle.primary
            )
        )
    view.add_item(items.LobbyButton(table_id, BY_DM, label=tr("place.by_dm")))
    return view


async def ask(
    places: PlayPlaces, interaction: discord.Interaction, table_id: int, place: Place
) -> bool:
    """Ask the presser where they play, when the bot does not know yet; a player of the tables
    is reminded where they play, with the DM one press away (a follow-up of their answered
    press or /play: exempt either way); ``place``: where the press or /play came from
    (``bot/places.py``). True when something was said."""
    if place.interaction_only:
        return False  # no DM there: every player plays from the table (bot/places.py)
    user = str(interaction.user.id)
    tr = translator(user_locale(interaction))
    if await places.needs_asking(user):
        text, view = tr("place.question", table=table_id), question_view(table_id, tr)
    elif await places.from_tables(user):
        text = tr("place.reminder_here", table=table_id)
        view = question_view(table_id, tr, here=False)
    else:
        return False  # a DM player: their DM hand says where they play
    await reply(interaction, text, view=view)
    return True


async def answered(places: PlayPlaces, interaction: discord.Interaction, op: str) -> None:
    """The presser chose: stored, then the question replaced by what it means, through the
    press itself (UPDATE_MESSAGE: exempt)."""
    here = op == HERE
    await places.chose(str(interaction.user.id), from_table=here)
    tr = translator(user_locale(interaction))
    text = tr("place.chose_here" if here else "place.chose_dm")
    try:
        await interaction.response.edit_message(content=text, view=None)
    except discord.HTTPException:  # the question is gone (dismissed): say it apart
        await reply(interaction, text)
