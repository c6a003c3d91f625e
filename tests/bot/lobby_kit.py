"""A lobby opened the way most service tests open one: guild "g", channel "c", in Spanish."""

from __future__ import annotations

from typing import Any

from bot.service import Table, TableService


async def open_lobby(
    service: TableService,
    game_key: str,
    *,
    host: tuple[str, str],
    seed: str,
    options: dict[str, Any] | None = None,
) -> Table:
    """``host``: (id, name) of the player who opens it."""
    return await service.lobby.open(
        guild_id="g",
        channel_id="c",
        game_key=game_key,
        host_id=host[0],
        host_name=host[1],
        locale="es",
        options=options,
        seed=seed,
    )
