"""A person's first DM hand at their next table, posted as a follow-up of their last click on a
DM hand of a table that is over (issue 29): a game's end and the next start then cost the bot
token nothing, where that hand was its one call of the window.

A click's token posts follow-ups in the channel it came from (their DM with the bot) for the
15 minutes it lives; ``ViewKit._forget_table`` keeps the last one of each person who clicked a
DM hand of the table (``Tokens.carry``: dropped once expired, as any). A follow-up Discord
refuses drops it, and the hand is posted with the bot token as before. The message posted is
an ordinary DM hand from then on: edited through the tokens of clicks on it, else the bot's.
"""

from __future__ import annotations

import logging

import discord

from bot import metrics
from bot.ui.messages import Payload
from bot.ui.view_kit import ViewKit, next_dm_key, reattach, timed_rest

log = logging.getLogger(__name__)


async def post_by_last_click(kit: ViewKit, seat: str, payload: Payload) -> discord.Message | None:
    """``payload`` posted in ``seat``'s DM through their last DM click's token; None when there
    is none fresh or Discord refused it (the caller posts it with the bot token)."""
    key = next_dm_key(seat)
    hook = kit.tokens.fresh(key, None)
    if hook is None:
        return None
    try:
        message = await timed_rest(
            hook.interaction.followup.send(wait=True, **payload.send_kwargs()), "dm_followup"
        )
    except discord.HTTPException as exc:
        # The token is never logged: only the status and Discord's code.
        log.info("a DM hand could not follow up a click (%s %s)", exc.status, exc.code)
        kit.tokens.drop(key, hook)
        metrics.count("token.refused")
        await reattach(payload)
        return None
    metrics.count("token.dm_followup")
    return message
