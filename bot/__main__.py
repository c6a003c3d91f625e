"""``python -m bot``: start the Mesa bot."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from pydantic import ValidationError

from bot.settings import Settings

NO_TOKEN = """\
No Discord bot token found.

  1. Open https://discord.com/developers/applications and create an application
     (or pick yours), then open "Bot" and press "Reset Token" to get the token.
  2. Put it in a file named .env next to pyproject.toml:   DISCORD_TOKEN=your-token
     (copy .env.example to start), or export DISCORD_TOKEN in your shell.
  3. Invite the bot with the "bot" and "applications.commands" scopes.
"""


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Mesa: a Discord bot hosting five card games. Settings come from the "
        "environment and .env (see .env.example); these flags override them.",
    )
    parser.add_argument("--env-file", type=Path, default=Path(".env"),
                        help="settings file to read (default: .env)")
    parser.add_argument("--database", type=Path, help="SQLite file (DATABASE_PATH)")
    parser.add_argument("--log-level", choices=["DEBUG", "INFO", "WARNING", "ERROR"],
                        help="log level (LOG_LEVEL)")
    parser.add_argument("--dev-guild", type=int,
                        help="sync commands to this guild only, instantly (DEV_GUILD_ID)")
    parser.add_argument("--locale", choices=["es", "en"],
                        help="default language of public messages (DEFAULT_LOCALE)")
    return parser.parse_args(argv)


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
    try:
        settings = load_settings(args)
    except ValidationError as exc:
        print(f"Invalid settings:\n{exc}", file=sys.stderr)
        return 2
    if not settings.discord_token:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    import discord

    from bot.client import MesaBot, point_at_endpoints

    point_at_endpoints(settings)
    bot = MesaBot(settings)
    try:
        bot.run(settings.discord_token, log_handler=None)
    except discord.LoginFailure:
        print("Discord rejected the token (DISCORD_TOKEN). Reset it in the developer portal "
              "and update .env.", file=sys.stderr)
        return 3
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
