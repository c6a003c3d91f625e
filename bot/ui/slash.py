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
        describe(made, param, desc_key)
    for param, values in (choices or {}).items():
        describe(made, param, choices=values)
    return made


def describe(
    made: app_commands.Command[Any, ..., Any],
    param: str,
    desc_key: str | None = None,
    choices: Sequence[tuple[Any, str]] | None = None,
    *,
    required: bool | None = None,
) -> None:
    """Localise parameter ``param`` of a built command: its description (catalogue key
    ``desc_key``), its ``choices`` (value, catalogue key of its name) and whether it is
    ``required``. The one place that reaches into discord.py's parameters: a command built
    from a callback with a computed signature has no public setter for them."""
    target = made._params[param]
    if desc_key is not None:
        target.description = text(desc_key)
    if choices is not None:
        target.choices = [
            app_commands.Choice(name=text(key), value=value) for value, key in choices
        ]
    if required is not None:
        target.required = required


def game_choices(games: Sequence[str]) -> list[tuple[str, str]]:
    return [(key, f"{key}.name") for key in games]
