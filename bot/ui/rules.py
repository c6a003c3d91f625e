"""A game's rules as a V2 answer: /rules and the "Reglas" button of the lobby and the table."""

from __future__ import annotations

from bot.i18n import Translator, has
from bot.ui.answer_layout import Answer, Block, game_colour

RULES_EMOJI = "📖"


def rules_text(game_key: str, tr: Translator) -> str:
    """The game's rules, then how the computer plays it when the catalogue says
    (``<game>.rules.computer_play``)."""
    parts = [tr(f"{game_key}.rules")]
    if has(f"{game_key}.rules.computer_play"):
        parts.append(tr(f"{game_key}.rules.computer_play"))
    return "\n\n".join(parts)


def rules_answer(game_key: str, tr: Translator) -> Answer:
    """The rules in the game's colour (always within the 4,000 characters of a V2 message)."""
    return Answer(
        title=tr("v2answers.rules.title", game=tr(f"{game_key}.name")),
        blocks=[Block(rules_text(game_key, tr))],
        accent=game_colour(game_key),
    )
