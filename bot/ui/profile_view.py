"""The /profile answer: a member's Triple Triad record, their wins in the other games and their
rating per game (``ratings_view.rating_lines``), in one V2 container."""

from __future__ import annotations

import discord

from bot.i18n import Translator
from bot.ui.answer_layout import Answer, Block


def profile_answer(
    who: str,
    triad: dict[str, int],
    others: list[tuple[str, int, int]],
    ratings: str,
    tr: Translator,
) -> Answer:
    """``triad``: played, won, drawn, lost, cards_won, cards_lost, cards (owned);
    ``others``: (game name, won, played) per other game; ``ratings``: the rating lines."""
    blocks = [Block(tr("triad.ui.profile_triad", **triad), heading=tr("triad.name"))]
    if others:
        blocks.append(
            Block(
                "\n".join(
                    tr("triad.ui.profile_game", game=g, won=w, played=p) for g, w, p in others
                ),
                heading=tr("triad.ui.profile_others"),
            )
        )
    blocks.append(Block(ratings, heading=tr("profile.ratings")))
    return Answer(
        title=tr("triad.ui.profile_title", player=who),
        blocks=blocks,
        accent=discord.Colour.gold(),
        footer=tr("leaderboard.rating_footer"),
    )
