"""The table message's seat buttons ("Salir", "Volver") and the used-up "Revancha"."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import Translator
from bot.service import Table
from bot.service.seats import reclaimable
from bot.ui import items


def seat_buttons(table: Table, tr: Translator) -> list[discord.ui.Item[Any]]:
    """On a game in progress: "Salir" always, "Volver" while a seat the computer took may be
    taken back. Row 0, beside "Ver mi mano"."""
    buttons: list[discord.ui.Item[Any]] = [
        items.SeatButton(table.id, "leave", label=tr("seat.leave"), row=0)
    ]
    if reclaimable(table):
        buttons.append(
            items.SeatButton(
                table.id,
                "rejoin",
                label=tr("seat.rejoin"),
                style=discord.ButtonStyle.success,
                row=0,
            )
        )
    return buttons


def used_rematch_view(table: Table, tr: Translator) -> discord.ui.View:
    """The finished table's components once its rematch opened: "Revancha", disabled."""
    view = discord.ui.View(timeout=None)
    view.add_item(
        items.LobbyButton(
            table.id,
            "rematch",
            label=tr("table.rematch"),
            style=discord.ButtonStyle.primary,
            disabled=True,
        )
    )
    return view
