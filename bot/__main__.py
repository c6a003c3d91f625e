"""``python -m bot``: start the Mesa bot."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path

from pydantic import ValidationError

from bot.i18n import normalise_locale, translator
from bot.i18n.cli import argparse_in
from bot.settings import Settings

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
        bot.run(settings.discord_token, log_handler=None)
    except discord.LoginFailure:
        print(t("cli.bad_token"), file=sys.stderr)
        return 3
    except (OSError, aiohttp.ClientError) as exc:  # no network, DNS, a refused connection
        print(t("cli.no_connection", detail=_reason(exc)), file=sys.stderr)
        return 4
    return 0


def _reason(exc: BaseException) -> str:
    """A connection error in one line (aiohttp's names the host it could not reach)."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


if __name__ == "__main__":
    raise SystemExit(main())
