"""The table message's seat buttons ("Salir", "Volver") and the used-up "Revancha"."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import Translator
from bot.ui import items
from bot.ui.payload import Payload


def seat_buttons(table_id: int, rejoin: bool, tr: Translator) -> list[discord.ui.Item[Any]]:
    """On a game in progress: "Salir" always, "Volver" when ``rejoin`` (a seat the computer
    took may be taken back: ``bot.service.seats.reclaimable``). Row 0, beside "Ver mi mano"."""
    buttons: list[discord.ui.Item[Any]] = [
        items.SeatButton(table_id, "leave", label=tr("seat.leave"), row=0)
    ]
    if rejoin:
        buttons.append(
            items.SeatButton(
                table_id,
                "rejoin",
                label=tr("seat.rejoin"),
                style=discord.ButtonStyle.success,
                row=0,
            )
        )
    return buttons


def disable_rematch(payload: Payload) -> None:
    """The finished table's payload once its rematch opened: "Revancha", disabled."""
    if payload.view is None:
        return
    for item in payload.view.walk_children():
        if isinstance(item, items.LobbyButton) and item.op == "rematch":
            item.item.disabled = True
