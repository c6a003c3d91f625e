"""What a private view shows once it no longer plays: the table closed, or the computer took
the seat. No buttons, no "your turn", no hand image: the view tells the table's final truth."""

from __future__ import annotations

from bot.i18n import Translator
from bot.service import Table
from bot.ui import v2
from bot.ui.payload import Payload


def ended_hand_payload(table: Table, tr: Translator, *lines: str) -> Payload:
    """``table``'s private view, ended: its title and ``lines``, nothing to click."""
    return Payload(view=v2.card_view(ended_card(table, tr, *lines)))


def ended_card(table: Table, tr: Translator, *lines: str) -> v2.Card:
    return v2.Card(
        title=tr("private.title", game=tr(f"{table.game.key}.name"), table=table.id),
        colour=v2.CLOSED,
        text="\n".join(lines),
    )
