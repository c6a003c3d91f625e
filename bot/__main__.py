"""``python -m bot``: start the Mesa bot."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import ValidationError

from bot.i18n import normalise_locale, translator
from bot.i18n.cli import argparse_in
from bot.settings import Settings
from storage.sql import is_postgres_url

if TYPE_CHECKING:
    from bot.client import MesaBot
    from bot.ops.http import OpsServer
    from bot.ops.logs import ErrorCounter

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
    parser.add_argument("--database", help=t("cli.help.database"))
    parser.add_argument(
        "--log-level", choices=["DEBUG", "INFO", "WARNING", "ERROR"], help=t("cli.help.log_level")
    )
    parser.add_argument("--dev-guild", type=int, help=t("cli.help.dev_guild"))
    parser.add_argument("--locale", choices=["es", "en"], help=t("cli.help.locale"))
    parser.add_argument("--shard-count", type=int, help=t("cli.help.shard_count"))
    parser.add_argument("--shards", help=t("cli.help.shards"))
    return parser


def load_settings(args: argparse.Namespace) -> Settings:
    overrides = {
        **_database_overrides(args.database),
        "log_level": args.log_level,
        "dev_guild_id": args.dev_guild,
        "default_locale": args.locale,
        "shard_count": args.shard_count,
        "shard_ids": args.shards,
    }
    return Settings(
        _env_file=args.env_file,
        **{k: v for k, v in overrides.items() if v or k == "database_url"},
    )


def _database_overrides(database: str | None) -> dict[str, object]:
    """``--database``: a postgresql:// URL (DATABASE_URL) or a SQLite file (DATABASE_PATH; a
    DATABASE_URL from the environment or .env then no longer applies: blank is unset)."""
    if not database:
        return {}
    if is_postgres_url(database):
        return {"database_url": database}
    return {"database_path": Path(database), "database_url": ""}


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
    refusal = single_process_refusal(settings)
    if refusal is not None:
        print(t("cli.sqlite_one_process", **refusal), file=sys.stderr)
        return 2
    from bot.ops.logs import ErrorCounter, configure_logging

    shards = settings.shards()
    configure_logging(
        settings.log_level,
        settings.log_format,
        {"shards": list(shards)} if shards is not None else None,
    )
    errors = ErrorCounter()
    logging.getLogger().addHandler(errors)
    # Imported here, not for a cycle: a missing token or --help answers without loading
    # discord.py, the games and their presenters.
    import aiohttp
    import discord

    from bot.client import create_bot, point_at_endpoints
    from bot.ops import collector
    from bot.ops.errors import OpsPortError

    collector.tune()
    # Mesa plays no voice: discord.py's start-up warnings that voice libraries are missing
    # read to a newcomer as a fault of their set-up.
    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
    point_at_endpoints(settings)
    bot = create_bot(settings, start_workers=True)
    try:
        with asyncio.Runner(loop_factory=loop_factory()) as runner:
            runner.run(serve(bot, settings.discord_token, ops=ops_server(bot, settings, errors)))
    except OpsPortError as exc:
        print(t("cli.metrics_port", detail=exc), file=sys.stderr)
        return 5
    except discord.LoginFailure:
        print(t("cli.bad_token"), file=sys.stderr)
        return 3
    except (OSError, aiohttp.ClientError) as exc:  # no network, DNS, a refused connection
        print(t("cli.no_connection", detail=_reason(exc)), file=sys.stderr)
        return 4
    return 0


def single_process_refusal(settings: Settings) -> dict[str, object] | None:
    """SQLite serves one process: shards that leave others to another process are refused
    (the parameters of the message), unless the database is PostgreSQL."""
    shards = settings.shards()
    if shards is None or settings.shard_count is None or _shared_database(settings):
        return None
    if set(shards) == set(range(settings.shard_count)):
        return None
    return {"shards": ",".join(map(str, shards)), "count": settings.shard_count}


def _shared_database(settings: Settings) -> bool:
    """A database several processes can share (PostgreSQL, DATABASE_URL)."""
    return settings.database_url is not None


def ops_server(bot: MesaBot, settings: Settings, errors: ErrorCounter) -> OpsServer | None:
    """The health and metrics endpoint, when METRICS_PORT is set."""
    if settings.metrics_port is None:
        return None
    from bot.ops.http import Health, OpsServer
    from bot.ops.prometheus import Sources

    return OpsServer(
        Health(ready=bot.is_ready, shards=bot.shard_status),
        Sources(
            open_tables=bot.open_tables,
            gateway_latencies=bot.gateway_latencies,
            log_counts=lambda: errors.counts,
        ),
        settings.metrics_host,
        settings.metrics_port,
    )


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop where it is installed (a dependency on Linux and macOS): its loop,
    sockets and transports are compiled, which takes a share of the bot's CPU per move off
    (``bench/profile_live.py``); otherwise asyncio's own (None)."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


async def serve(bot: MesaBot, token: str, ops: OpsServer | None = None) -> None:
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
    if ops is not None:
        port = await ops.start()
        logging.getLogger(__name__).info("health and metrics on http://%s:%d", ops.host, port)
    async with bot:
        runner = asyncio.create_task(bot.start(token), name="discord")
        stopper = asyncio.create_task(stop.wait(), name="signals")
        freezer = asyncio.create_task(keep_heap_frozen(bot), name="gc-freeze")
        try:
            await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
            if stop.is_set():
                logging.getLogger(__name__).info("stopping: closing gracefully")
        finally:
            stopper.cancel()
            freezer.cancel()
            await bot.close()
            if ops is not None:
                await ops.close()
            if runner.done():
                runner.result()  # a login or connection error is reported by main()
            else:
                runner.cancel()
                await asyncio.gather(runner, return_exceptions=True)


async def freeze_when_ready(bot: MesaBot) -> None:
    """Once connected, the start-up heap leaves the garbage collector's walks for good
    (``bot.ops.collector``)."""
    from bot.ops import collector

    await bot.wait_until_ready()
    collector.freeze()


async def keep_heap_frozen(bot: MesaBot) -> None:
    """The start-up heap frozen once connected, then what the tables add; the young
    generation collected by the clock, not only by CPython's count."""
    from bot.ops import collector

    await freeze_when_ready(bot)
    await asyncio.gather(collector.keep_frozen(), collector.collect_young_by_pace())


def _reason(exc: BaseException) -> str:
    """A connection error in one line (aiohttp's names the host it could not reach)."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


if __name__ == "__main__":
    raise SystemExit(main())
