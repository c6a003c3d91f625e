"""Where each slash command is offered (issue 30.1): which installs may run it and in which
places (Discord's ``integration_types`` and ``contexts``).

Three reaches, decided per command in its cog and said here once:

- :func:`everywhere`: installed to a server or to a user; in servers, group DMs and the bot's
  own DM. For what needs no place at all: ``/rules``, ``/cards`` (a player's own collection).
- :func:`with_friends`: installed to a server or to a user; in servers (with the bot or
  without) and group DMs, not the bot's DM. For what belongs to a place where people play
  together: ``/play`` (a table needs players; the bot's DM holds one person), ``/leaderboard``,
  ``/profile``, ``/history``, ``/replay`` (kept per place: ``bot/places.py``'s scope, and no
  game is ever played in the bot's DM).
- :func:`servers_only`: installed to a server only, used in its servers only. For what runs a
  table by the bot's token or changes a server: ``/stop``, ``/leave``, ``/rejoin``, ``/kick``,
  ``/tables`` (following a table is by DM), ``/settings``.

``guild_only`` (the deprecated ``dm_permission``, which ``contexts`` supersede) is True only for
:func:`servers_only`: the old field never hides from a place what the contexts offer there.
"""

from __future__ import annotations

from typing import Any, TypeVar

from discord import app_commands

Registrable = app_commands.Command[Any, ..., Any] | app_commands.Group
C = TypeVar("C", app_commands.Command[Any, ..., Any], app_commands.Group)


def _offer(command: Registrable, *, users: bool, bot_dm: bool, group_dm: bool) -> Registrable:
    command.allowed_installs = app_commands.AppInstallationType(guild=True, user=users)
    command.allowed_contexts = app_commands.AppCommandContext(
        guild=True, dm_channel=bot_dm, private_channel=group_dm
    )
    command.guild_only = not (bot_dm or group_dm)
    return command


def everywhere(command: C) -> C:
    """Server and user installs; servers, group DMs and the bot's DM."""
    _offer(command, users=True, bot_dm=True, group_dm=True)
    return command


def with_friends(command: C) -> C:
    """Server and user installs; servers and group DMs (not the bot's DM)."""
    _offer(command, users=True, bot_dm=False, group_dm=True)
    return command


def servers_only(command: C) -> C:
    """A server install, in its servers only."""
    _offer(command, users=False, bot_dm=False, group_dm=False)
    return command
