"""Answering a user: ephemeral replies and the one place errors become sentences."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol, cast

import discord

from bot import metrics
from bot.errors import Notice, TableError
from bot.i18n import has, normalise_locale, tr
from bot.places import Place, PlaceKind, place_of
from games.core import IllegalAction
from storage import StorageUnavailable

if TYPE_CHECKING:
    from bot.service import TableService

    class _Bot(Protocol):
        """What feedback reads of the interactions' client (bot/client.MesaBot). Not
        ``bot.ui.host.TableHost``: host.py sits above feedback in bot.ui (it reaches the
        listener, whose messages answer errors through this module)."""

        @property
        def tables(self) -> TableService: ...


log = logging.getLogger(__name__)

UNKNOWN_INTERACTION = 10062  # Discord: the token expired (3 s to answer) or was never valid


def expired(exc: BaseException) -> bool:
    """Discord no longer accepts an answer to this interaction: nothing can be told to the user
    through it (Discord has shown them "This interaction failed"); they may simply click again."""
    return isinstance(exc, discord.NotFound) and exc.code == UNKNOWN_INTERACTION


# Refusals that say where they happened, and how a place that is no server is named there
# (``error.<code>.<kind>``; a server, with the bot or without, keeps ``error.<code>``).
PLACE_WORDED = frozenset({"no_such_table"})
NOT_A_SERVER = {PlaceKind.GROUP_DM: "group_dm", PlaceKind.BOT_DM: "bot_dm"}


def error_key(code: str, place: Place | None) -> str:
    """The catalogue key of refusal ``code`` said in ``place`` (None: a server's words)."""
    where = NOT_A_SERVER.get(place.kind) if place is not None and code in PLACE_WORDED else None
    return f"error.{code}" if where is None else f"error.{code}.{where}"


def error_text(
    exc: BaseException, locale: str, game_key: str | None = None, place: Place | None = None
) -> str:
    """``place``: where the refused interaction came from, for the refusals that name it."""
    if isinstance(exc, TableError):
        return tr(locale, error_key(exc.code, place), **exc.params)
    if isinstance(exc, StorageUnavailable):  # nothing of it was saved, nor shown
        return tr(locale, "error.not_saved")
    if isinstance(exc, Notice) and game_key:
        return tr(locale, f"{game_key}.ui.error.{exc.code}")
    if isinstance(exc, IllegalAction):
        game_key_text = f"{game_key}.error.{exc.code}" if game_key else None
        if game_key_text and has(game_key_text):
            return tr(locale, game_key_text, **exc.params)
        if has(f"error.{exc.code}"):
            return tr(locale, f"error.{exc.code}", **exc.params)
        return tr(locale, "error.illegal", code=exc.code)
    return tr(locale, "error.unexpected")


async def reply(
    interaction: discord.Interaction, content: str | None = None, **kwargs: Any
) -> bool:
    """An ephemeral answer, whether or not the interaction was already answered; False when
    Discord refused it (logged here)."""
    kwargs.setdefault("ephemeral", True)
    kwargs["content"] = content
    try:
        if interaction.response.is_done():
            await interaction.followup.send(**kwargs)
        else:
            await interaction.response.send_message(**kwargs)
    except discord.HTTPException as exc:
        if expired(exc):
            _log_expired(interaction)
        else:
            log.exception("could not answer interaction %s", interaction.id)
        return False
    return True


async def answer_error(
    interaction: discord.Interaction, exc: BaseException, game_key: str | None = None
) -> None:
    """The one answer to a failed interaction: a refusal (``TableError``, ``IllegalAction``, a
    game's ``Notice``) in the user's language; anything else is logged once and answered with
    the generic text."""
    if expired(exc):
        _log_expired(interaction)  # a reply would only meet the same 404
        return
    if isinstance(exc, StorageUnavailable):  # the writer logged the database's error once
        log.warning("interaction %s not saved: the database is unavailable", interaction.id)
    elif not isinstance(exc, TableError | IllegalAction | Notice):
        log.error("unexpected error in interaction", exc_info=exc)
    if isinstance(exc, TableError) and exc.code == "table_gone":
        exc = await _why_gone(interaction, exc)
    worded = isinstance(exc, TableError) and exc.code in PLACE_WORDED
    place = place_of(interaction) if worded else None  # only a refusal that names it
    await reply(interaction, error_text(exc, user_locale(interaction), game_key, place))


async def _why_gone(interaction: discord.Interaction, exc: TableError) -> TableError:
    """A table that is not open, named for what it is: none such, finished, or closed."""
    table_id = exc.params.get("table")
    if not isinstance(table_id, int):
        return exc
    registry = cast("_Bot", interaction.client).tables.registry
    try:
        return await registry.why_gone(table_id)
    except Exception:
        log.warning("could not look up table %s", table_id, exc_info=True)
        return exc


async def guard(
    interaction: discord.Interaction,
    work: Awaitable[object],
    game_key: str | None | Callable[[], str | None] = None,
) -> None:
    """Run a component or modal callback's ``work``; whatever it raises is answered by
    ``answer_error`` (``game_key``: whose ``<game>.error.<code>`` texts explain refusals; a
    function is asked only when there is a refusal to explain).
    Items and modals outside ``TableItem`` call it; a ``TableItem`` click calls
    ``answer_error`` itself (``bot/ui/items.py``: no wrapper on every click's path)."""
    try:
        await work
    except Exception as exc:  # the one place component errors are answered
        await answer_error(interaction, exc, game_key() if callable(game_key) else game_key)


def _log_expired(interaction: discord.Interaction) -> None:
    """One line, not a traceback: an answer that came too late is a load figure (the bot was
    slower than Discord's 3 s), counted as ``expired_interactions``, not a bug to debug."""
    metrics.count("expired_interactions")
    age = (datetime.now(UTC) - interaction.created_at).total_seconds()
    log.warning("interaction %s expired before it was answered (%.1f s old)", interaction.id, age)


def user_locale(interaction: discord.Interaction) -> str:
    return normalise_locale(str(interaction.locale) if interaction.locale else None)


def guild_locale(interaction: discord.Interaction, default: str) -> str:
    if interaction.guild_locale is not None and interaction.guild is not None:
        return normalise_locale(str(interaction.guild_locale))
    return default
