"""Building localised slash commands from catalogue keys (names, descriptions, parameters).

A command ``key`` has ``cmd.<key>.name`` and ``cmd.<key>.description``; a parameter ``p`` has
its description key given here and its localised name in ``cmd.param.<p>`` (the translator
finds that one itself)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from discord import app_commands

from bot.i18n import DEFAULT_LOCALE, tr
from bot.i18n.commands import cmd_str


def text(key: str) -> app_commands.locale_str:
    return cmd_str(tr(DEFAULT_LOCALE, key), key)


def command(
    name: str,
    key: str,
    callback: Callable[..., Any],
    params: Mapping[str, str] | None = None,
    choices: Mapping[str, Sequence[tuple[str, str]]] | None = None,
) -> app_commands.Command[Any, ..., Any]:
    """``/name`` (localised by ``cmd.<key>.*``); ``params``: parameter -> description key;
    ``choices``: parameter -> (value, catalogue key of its name)."""
    made: app_commands.Command[Any, ..., Any] = app_commands.Command(
        name=cmd_str(name, f"cmd.{key}.name"),
        description=text(f"cmd.{key}.description"),
        callback=callback,
    )
    for param, desc_key in (params or {}).items():
        made._params[param].description = text(desc_key)  # noqa: SLF001 - no public setter
    for param, values in (choices or {}).items():
        made._params[param].choices = [  # noqa: SLF001
            app_commands.Choice(name=text(name_key), value=value) for value, name_key in values
        ]
    return made


def game_choices(games: Sequence[str]) -> list[tuple[str, str]]:
    return [(key, f"{key}.name") for key in games]
