"""``python -m bot``: start the Mesa bot."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import ValidationError

from bot.i18n import normalise_locale, translator
from bot.i18n.cli import argparse_in
from bot.settings import Settings

if TYPE_CHECKING:
    from bot.client import MesaBot

DEFAULT_ENV_FILE = Path(".env")  # in the folder the bot is started from


def terminal_locale() -> str:
    """The operator's language, from LANG (``es_ES.UTF-8`` -> ``es``); Spanish by default."""
    lang = os.environ.get("LC_ALL") or os.environ.get("LANG") or ""
    return normalise_locale(lang.split(".")[0].replace("_", "-") or None)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    locale = terminal_locale()
    with argparse_in(locale):  # "usage:", "options:" and argparse's errors in that language
        return _parser(locale).parse_args(argv)


def _parser(locale: str) -> argparse.ArgumentParser:
    t = translator(locale)
    parser = argparse.ArgumentParser(prog="python -m bot", description=t("cli.description"))
    parser.add_argument(
        "--env-file", type=Path, default=DEFAULT_ENV_FILE, help=t("cli.help.env_file")
    )
    parser.add_argument("--database", type=Path, help=t("cli.help.database"))
    parser.add_argument(
        "--log-level", choices=["DEBUG", "INFO", "WARNING", "ERROR"], help=t("cli.help.log_level")
    )
    parser.add_argument("--dev-guild", type=int, help=t("cli.help.dev_guild"))
    parser.add_argument("--locale", choices=["es", "en"], help=t("cli.help.locale"))
    return parser


def load_settings(args: argparse.Namespace) -> Settings:
    overrides = {
        "database_path": args.database,
        "log_level": args.log_level,
        "dev_guild_id": args.dev_guild,
        "default_locale": args.locale,
    }
    return Settings(_env_file=args.env_file, **{k: v for k, v in overrides.items() if v})


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    t = translator(terminal_locale())
    try:
        settings = load_settings(args)
    except ValidationError as exc:
        print(t("cli.invalid_settings", detail=exc), file=sys.stderr)
        return 2
    if not settings.discord_token:
        print(t("cli.no_token", env_file=args.env_file.resolve()), file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    # Imported here, not for a cycle: a missing token or --help answers without loading
    # discord.py, the games and their presenters.
    import aiohttp
    import discord

    from bot.client import MesaBot, point_at_endpoints

    point_at_endpoints(settings)
    bot = MesaBot(settings)
    try:
        asyncio.run(serve(bot, settings.discord_token))
    except discord.LoginFailure:
        print(t("cli.bad_token"), file=sys.stderr)
        return 3
    except (OSError, aiohttp.ClientError) as exc:  # no network, DNS, a refused connection
        print(t("cli.no_connection", detail=_reason(exc)), file=sys.stderr)
        return 4
    return 0


async def serve(bot: MesaBot, token: str) -> None:
    """Run the bot until Discord closes or SIGTERM / SIGINT asks it to stop; then close it
    gracefully (``MesaBot.close``: moves under way finish and are shown, the database closes),
    well within Docker's 10 s before a kill. discord.py's own ``run`` ignores SIGTERM."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):  # not on this platform
            pass
    async with bot:
        runner = asyncio.create_task(bot.start(token), name="discord")
        stopper = asyncio.create_task(stop.wait(), name="signals")
        try:
            await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
            if stop.is_set():
                logging.getLogger(__name__).info("stopping: closing gracefully")
        finally:
            stopper.cancel()
            await bot.close()
            if runner.done():
                runner.result()  # a login or connection error is reported by main()
            else:
                runner.cancel()
                await asyncio.gather(runner, return_exceptions=True)


def _reason(exc: BaseException) -> str:
    """A connection error in one line (aiohttp's names the host it could not reach)."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


if __name__ == "__main__":
    raise SystemExit(main())
