"""Load benchmark: the real bot (`python -m bot`, its own process) against the fake Discord (this
process), which also runs the simulated players: N tables, one per channel, mixed games (Ce
Amapatolli 2 humans + 1 CPU, Chúpate 2 2 humans + 2 CPUs, Triple Triad 1 human vs CPU, Macarena and
Maquiavelo 2 humans + 1 CPU), humans
thinking 3–10 s and clicking a legal action from their DM (about one in ten guests has DMs closed
and plays through "Ver mi mano"). After the tables are open and a warm-up, a fixed window is
measured. Prints one JSON object per N, then a summary table.

    .venv/bin/python bench/load.py                       # N = 100, 500, 1000; 60 s windows
    .venv/bin/python bench/load.py --tables 100 --window 30 --warmup 10
    .venv/bin/python bench/load.py --tables 500 --no-validate   # skip the OpenAPI walk
    .venv/bin/python bench/load.py --backend postgres --processes 2   # 2 shard processes
    .venv/bin/python bench/load.py --tables 500 --global-rate 45,0   # the bot paced, unpaced
    .venv/bin/python bench/load.py --tables 100,500 --global-rate 45,0 --channel-play 0.5
    .venv/bin/python bench/load.py --tables 1000 --rematch   # "Revancha" after each game
    .venv/bin/python bench/load.py --tables 300 --table-token-lifetime 60   # tokens aged in a minute
    .venv/bin/python bench/load.py --tables 1000 --bot-python current   # the bot on this Python

The bot (and its render and search workers) runs on the interpreter production runs it on
(``--bot-python production``, the default): a CPython built with PGO and LTO as the Docker
image's ``python:3.11-slim`` is, found on this machine and made into ``.venv-production`` by
``bench/production_python.py`` (the first run takes a minute to install it). This machine's
default ``python3`` (pyenv's) is built with neither: the bot's CPU per move on it was ~6 % higher
side by side (session 35). Where the machine has no such CPython the bot runs on this interpreter,
with a warning. The driver and the fake Discord always run on this one; every run names the bot's
interpreter beside its figures (``bot_python``, and its fixed work ``bot_python_ms``).

The fake enforces Discord's global limit (50 bot-token requests per second, all shard processes
together; interaction callbacks and webhook-token routes exempt): a request over it gets the
global 429, which discord.py waits out. ``--discord-limit 0`` turns that off (as if Discord
raised the bot's limit); ``--global-rate`` sets the bot's own pacer, several values side by side.
It also keeps Discord's per-route buckets (5 message edits per 5 s per channel, 5 requests per 2 s
per interaction token, ...: tests/fakediscord/ratelimit.py) and says so in every answer's
``X-RateLimit-*`` headers; a request over its bucket is refused (a route 429, printed with the
buckets a request spent: how near the bot runs to them).

``--backend postgres`` runs the bot on a real PostgreSQL (the embedded server of the tests, or
MESA_TEST_POSTGRES_URL; a fresh database per run); ``--processes N`` (PostgreSQL only) runs N
shard processes (SHARD_COUNT=N, one shard each) with the tables' channels spread over one guild
per shard; DMs reach shard 0, as on Discord. CPU, RSS and log figures are then summed over
the processes.

Figures: click → ack (interaction callback received by the fake), click → the public message
showing a later version, click → the mover's DM showing a later version (ms p50/p99/max; clicks
made in the window, followed up to --drain s after it; also per game, and the slowest samples
with their game and move; a draft step answered with the same version changed only the clicker's
view and is no move, so it is not measured), moves/s (version steps the public messages showed:
humans and computers), REST calls per move by route and the non-exempt ones (everything but
interaction callbacks and webhook routes counts against Discord's 50/s global limit), the bot's
CPU % and RSS, its event-loop lag and phase timings (``mesa.metrics`` DEBUG log lines, "n/a" when
the bot does not log them), discord.py's "Can't keep up" warnings, the driver's own CPU % (near
100 % means the driver, not the bot, is the bottleneck), load average.

Issue 25's figures (second summary table): bot-token calls per human move, set-up apart (calls
in the window for tables being played, by the channel or DM they touch; calls for tables being
opened are "setup"), global 429s (in the window, and over the whole run), route 429s and
buckets spent, click → the next
player's view that lets them act (the first view of the table, any human's, offering a move at a
later version: the next version; moves after which computer seats played first, their delay
included, are listed apart), click → public table, click → the mover's own view (DM or "Ver mi
mano" hand), click → ack, the share of message edits sent through interaction tokens (an
UPDATE_MESSAGE callback or a webhook PATCH, against bot-token PATCHes), CPU % of the bot, its
workers, the fake and the players (the last two share this process: loop callbacks are timed,
bench/load_cpu.py), the bot's loop lag (and this process's: a fake whose loop lags sees
paced requests arrive bunched, and may count more than 50 in a second).

Issue 29's figures: CPU per move of the bot and its render workers, images drawn per move, KiB
per image, and a render worker's CPU per image by stage (read, unpickle, draw, encode, pickle,
write, idle: measured in the worker per job, ``bot.pipe_workers``) beside the pool's CPU as the
kernel counts it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import gc
import io
import json
import os
import pstats
import signal
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.driver_slices import DriverSlices  # noqa: E402
from bench.driver_slices import lines as driver_slice_lines  # noqa: E402
from bench.load_cpu import LoopCpu, sample_loop_lag  # noqa: E402
from bench.load_driver import Sample, World, is_exempt, peak_per_window, percentiles  # noqa: E402
from bench.load_probe import (  # noqa: E402
    CpuMeter,
    LogFigures,
    descendants,
    load_average,
    read_log,
    rss_mb,
    tree_rss_mb,
)
from bench.machine_speed import measure as machine_speed  # noqa: E402
from bench.pool_cpu import PoolCpu  # noqa: E402
from bot.pipe_workers import CPU_METRIC, STAGES  # noqa: E402
from bot.ui.images.fonts import ENCODE_CPU  # noqa: E402
from bot.ui.rendering import IMAGE_KIB, REUSED  # noqa: E402
from tests.fakediscord.errors import Violation  # noqa: E402
from tests.fakediscord.server import FakeDiscord  # noqa: E402

# The bot's counters (``bot.metrics.count``: requests by kind and purpose, ``rest.*`` and
# ``why.*``), logged as ``count=<name> n=<since the last line>`` each time the metrics monitor
# flushes its timings (once a second): read like the phases, from any checkout's bot.
COUNTS_LOGGER = (
    "import bot.metrics as _metrics\n"
    "_flush_timings, _counted = _metrics.flush_log, {}\n"
    "def _flush_with_counts():\n"
    "    _flush_timings()\n"
    "    for name, n in list(_metrics.counters.items()):\n"
    "        if n != _counted.get(name, 0):\n"
    "            _metrics.log.debug('count=%s n=%d', name, n - _counted.get(name, 0))\n"
    "            _counted[name] = n\n"
    "_metrics.flush_log = _flush_with_counts\n"
)

# `python -m bot`, with the agreed metrics logger at DEBUG while everything else stays at INFO
# (discord.py's DEBUG output would cost the bot more than the figures are worth).
BOT_LAUNCHER = (
    "import logging, os, sys\n"
    "logging.getLogger('mesa.metrics').setLevel(logging.DEBUG)\n"
    "from bot.__main__ import main\n"
    + COUNTS_LOGGER
    + "exec(os.environ.get('MESA_BENCH_WITHOUT', ''))\n"
    "exec(os.environ.get('MESA_BENCH_TABLE_TOKENS', ''))\n"
    "out = os.environ.get('MESA_BENCH_PROFILE')\n"
    "if out:\n"
    "    import cProfile\n"
    "    import time\n"
    "    profile = cProfile.Profile(time.thread_time)  # CPU time: a busy machine inflates no figure\n"
    "    code = profile.runcall(main, sys.argv[1:])\n"
    "    profile.dump_stats(out)\n"
    "    sys.exit(code)\n"
    "sys.exit(main(sys.argv[1:]))\n"
)


def table_token_patch(lifetime: float | None) -> str:
    """The patch run in the bot's process before ``main`` that gives a table's public message
    token (``Tokens`` key ``("public", table)``: the newest click on the table's message, or the
    lobby's command) ``lifetime`` seconds instead of ``bot.ui.tokens.LIFETIME`` (``--table-token-
    lifetime``): a DM-played table's public edits then go through the bot token after that, as
    they do after 14 minutes in a long soak. Its players' DM hand tokens and the ephemeral hands'
    keep their lifetime (a click refreshes them). "" for ``None``: the bot as it is."""
    if lifetime is None:
        return ""
    return (
        "import bot.ui.tokens as _tokens\n"
        f"_aged = _tokens.LIFETIME - {float(lifetime)!r}\n"
        "_offer = _tokens.Tokens.offer\n"
        "def _offer_aged(self, key, interaction, message_id, **kwargs):\n"
        "    if type(key) is tuple and key[:1] == ('public',):\n"
        "        received = kwargs.get('received')\n"
        "        start = self.arrival(interaction) if received is None else received\n"
        "        kwargs['received'] = start - _aged  # so it expires ``lifetime`` after its birth\n"
        "    return _offer(self, key, interaction, message_id, **kwargs)\n"
        "_tokens.Tokens.offer = _offer_aged\n"
    )


def probe_parser(
    description: str, argv: list[str], *, global_rate: str
) -> tuple[argparse.ArgumentParser, list[str], list[str]]:
    """A probe bench's parser with the options ``probe_args`` reads (its own options added by
    the caller), the arguments it parses, and those passed to this bench after ``--``."""
    own, passed = (
        (argv[: argv.index("--")], argv[argv.index("--") + 1 :]) if "--" in argv else (argv, [])
    )
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--window", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=40.0)
    parser.add_argument("--global-rate", default=global_rate, help="the bot's pacer (0: unpaced)")
    parser.add_argument("--bot-root", type=Path, default=ROOT)
    return parser, list(own), list(passed)


def probe_args(args: argparse.Namespace, passed: list[str]) -> argparse.Namespace:
    """This bench's options for one run of a probe bench (profile_live, profile_storage):
    ``args``' tables, window, warm-up, pacer and bot root, a short drain, no validation, then
    the options ``passed`` through after ``--``."""
    load_args = parse_args(
        [
            *("--tables", str(args.tables), "--window", str(args.window)),
            *("--warmup", str(args.warmup), "--drain", "5"),
            *("--global-rate", args.global_rate, "--no-validate"),
            *("--bot-root", str(args.bot_root), *passed),
        ]
    )
    load_args.global_rate = load_args.global_rate[0]
    return load_args


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--tables",
        default="100,500,1000",
        help="comma-separated table counts, one run each (default 100,500,1000)",
    )
    parser.add_argument("--window", type=float, default=60.0, help="measured seconds (60)")
    parser.add_argument(
        "--warmup", type=float, default=20.0, help="seconds played after every table is open (20)"
    )
    parser.add_argument(
        "--drain", type=float, default=30.0, help="seconds to follow the window's clicks (30)"
    )
    parser.add_argument(
        "--until-moves",
        type=int,
        default=0,
        help="extend the window until this many human moves were measured (at most 120 s more)",
    )
    parser.add_argument("--think", default="3,10", help="human think time range, s (3,10)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--setup-while-playing",
        dest="setup_first",
        action="store_false",
        help="humans play as soon as their table is open (default: once every table is open, so"
        " opening the last tables does not compete with the first ones playing)",
    )
    parser.add_argument("--closed-dms", type=float, default=0.1, help="share of guests (0.1)")
    parser.add_argument(
        "--channel-play",
        type=float,
        default=0.0,
        help="share of tables whose players all play from the table's ephemeral hand (\"Ver mi"
        ' mano") rather than their DMs (0); on the other tables guests with closed DMs'
        " (--closed-dms) still play that way. Bot-token calls per move are printed per mode",
    )
    parser.add_argument(
        "--no-place-answer",
        action="store_true",
        help='channel players leave the bot\'s "where do you play" question unanswered (they'
        ' answer "here" by default): their first game then goes as before it was asked',
    )
    parser.add_argument(
        "--rematch",
        action="store_true",
        help='after a game its host presses "Revancha" and starts that lobby (not Triple Triad:'
        " its tables open with /play), instead of /play and the joins again",
    )
    parser.add_argument("--setup-concurrency", type=int, default=16)
    parser.add_argument("--cpu-delay", type=float, default=1.0, help="bot's CPU_DELAY_SECONDS")
    parser.add_argument(
        "--render-workers",
        type=int,
        help="the bot's RENDER_PROCESSES (image render processes; its default: one per core)",
    )
    parser.add_argument(
        "--no-validate",
        action="store_true",
        help="skip the fake's OpenAPI validation (documented limits are still checked)",
    )
    parser.add_argument("--keep-dir", type=Path, help="keep the bot's database and log here")
    parser.add_argument(
        "--bot-root",
        type=Path,
        default=ROOT,
        help="run the bot from this checkout (compare branches; default: this one)",
    )
    parser.add_argument(
        "--global-rate",
        type=_rates,
        default=[None],
        help="the bot's GLOBAL_REQUESTS_PER_SECOND (its default: 45, under Discord's 50; 0:"
        " unpaced); comma-separated values run side by side, e.g. 45,0",
    )
    parser.add_argument(
        "--discord-limit",
        type=int,
        default=50,
        help="bot-token requests per second the fake Discord allows, as Discord does (50);"
        " 0: no limit (as if Discord raised it)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    parser.add_argument(
        "--slowest",
        type=int,
        default=8,
        help="list this many slowest click -> public edit and click -> next view samples (game,"
        " move) in the summary (8)",
    )
    parser.add_argument(
        "--profile-bot",
        type=Path,
        help="cProfile the bot process for the whole run and write its stats to this file",
    )
    parser.add_argument(
        "--driver-gc",
        choices=("frozen", "default"),
        default="frozen",
        help="this process's collector once the tables are open: 'frozen' (see "
        "freeze_driver_heap) or Python's default",
    )
    parser.add_argument(
        "--forget-after",
        type=float,
        default=FORGET_AFTER,
        help="the fake forgets answered interactions and messages untouched for this many"
        f" seconds (tests/fakediscord/forgetting.py; {FORGET_AFTER:.0f}: a token's 15 minutes"
        " and one more); 0: it keeps everything, as in the tests",
    )
    parser.add_argument(
        "--profile-driver",
        action="store_true",
        help="cProfile this process (fake + players) during the window; top functions to stderr",
    )
    parser.add_argument(
        "--driver-slices",
        type=int,
        default=0,
        help="the driver's own cost in this many slices of the window (CPU per move, loop lag,"
        " collections, RSS, what the fake holds: bench/driver_slices.py); 0: none",
    )
    parser.add_argument(
        "--profile-driver-slices",
        action="store_true",
        help="with --driver-slices: Python calls per move in the first and the last slice"
        " (cProfile in those two only)",
    )
    parser.add_argument(
        "--without",
        type=_levers,
        default=[],
        help="take session 15's loop levers away, comma-separated, to measure each one's"
        f" share: {', '.join(LEVERS)} (none)",
    )
    parser.add_argument(
        "--table-token-lifetime",
        type=float,
        metavar="S",
        help="seconds a table's public message token edits it in the launched bot (its default:"
        " bot.ui.tokens.LIFETIME, 14 minutes): e.g. 60 puts a DM-played table's public edits on"
        " the bot token after a minute, as a soak does after 14; DM and ephemeral hands' tokens"
        " keep theirs",
    )
    parser.add_argument("--backend", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument(
        "--processes", type=int, default=1, help="shard processes (PostgreSQL only; 1)"
    )
    parser.add_argument(
        "--bot-python",
        default="",
        help="the interpreter the bot (and its workers) runs on: 'production' (the default:"
        " bench/production_python.py, a CPython built as the Docker image's, with PGO and LTO,"
        " made into .venv-production; where the machine has none, this one with a warning),"
        " 'current' (this one) or a path. The driver and the fake stay on this one",
    )
    args = parser.parse_args(argv)
    args.bot_python_asked = args.bot_python == "production"  # (else a fallback is allowed)
    if args.profile_driver_slices and (args.profile_driver or not args.driver_slices):
        parser.error("--profile-driver-slices needs --driver-slices and not --profile-driver")
    if args.processes > 1 and args.backend != "postgres":
        parser.error("--processes above 1 needs --backend postgres (SQLite serves one process)")
    return args


# Session 15's levers of the bot's loop, each taken away alone to measure its share
# (``--without``): the patch run in the bot's process before ``main``.
LEVERS = {
    # asyncio's own event loop instead of uvloop's
    "uvloop": "import bot.__main__ as _m\n_m.loop_factory = lambda: None\n",
    # a click's handler (and the mover's released view) started as a task, as discord.py does
    "eager": (
        "import asyncio, bot.ui.items as _i, bot.ui.view_kit as _v\n"
        "def _later(coroutine):\n"
        "    return asyncio.get_running_loop().create_task(coroutine)\n"
        "_i.start_now = _v.start_now = _later\n"
    ),
    # a waiting seat's hand brought up to date at every change, not at most once per
    # ``WAITING_EVERY`` seconds (session 18, ``WaitingHands.held_back``)
    "waiting_window": "import bot.ui.waiting_hands as _w\n_w.WAITING_EVERY = 0.0\n",
    # every player to act from the table named by the turn mention, also one playing right now
    # from their live hand (session 18, ``TurnMentions._watching``)
    "watching_mentions": (
        "import bot.ui.mentions as _m\n_m.TurnMentions._watching = lambda *_: False\n"
    ),
    # no freezing of the heap (start-up's, then every minute's); the thresholds stay tuned
    "freeze": (
        "import bot.__main__ as _m\n"
        "async def _never(bot):\n"
        "    return None\n"
        "_m.keep_heap_frozen = _never\n"
    ),
}


def _levers(text: str) -> list[str]:
    names = [x.strip() for x in text.split(",") if x.strip()]
    unknown = sorted(set(names) - set(LEVERS))
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown lever(s) {unknown}; known: {sorted(LEVERS)}")
    return names


def _rates(text: str) -> list[int | None]:
    return [int(x) for x in text.split(",") if x.strip()]


def progress(args: argparse.Namespace, text: str) -> None:
    if not args.quiet:
        print(f"[load {time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


async def start_bot(
    fake: FakeDiscord,
    folder: Path,
    args: argparse.Namespace,
    database_url: str | None = None,
    shard: int = 0,
):
    """``python -m bot``; with ``database_url``, on PostgreSQL, running ``shard`` of
    ``args.processes`` (its log: bot.log for shard 0, bot-<shard>.log for the others)."""
    env_file = folder / (".env" if shard == 0 else f".env-{shard}")
    sharding = f"SHARD_COUNT={args.processes}\nSHARD_IDS={shard}\n" if args.processes > 1 else ""
    env_file.write_text(
        f"DISCORD_TOKEN={fake.token}\n"
        f"DATABASE_PATH={folder / 'bot.db'}\n"
        + (f"DATABASE_URL={database_url}\n" if database_url else "")
        + sharding
        + f"DISCORD_API_BASE={fake.api_base}\n"
        f"DISCORD_GATEWAY_URL={fake.gateway_url}\n"
        f"CPU_DELAY_SECONDS={args.cpu_delay}\n"
        + (f"RENDER_PROCESSES={args.render_workers}\n" if args.render_workers is not None else "")
        + (
            f"GLOBAL_REQUESTS_PER_SECOND={args.global_rate}\n"
            if args.global_rate is not None
            else ""
        )
        + "LOG_LEVEL=INFO\n"
    )
    log = (folder / log_name(shard)).open("wb")
    process = await asyncio.create_subprocess_exec(
        bot_python(args),
        "-c",
        BOT_LAUNCHER,
        "--env-file",
        str(env_file),
        cwd=folder,
        env=bot_environment(args, shard),
        stdout=log,
        stderr=asyncio.subprocess.STDOUT,
    )
    log.close()
    return process


def bot_python(args: argparse.Namespace) -> str:
    """The interpreter of the bot's process (``--bot-python``), resolved once: ``production``
    (the default) is ``bench/production_python.py``'s, or this one with a warning where this
    machine has no CPython built as the Docker image's; ``current`` is this one."""
    chosen = getattr(args, "bot_python", "production") or "production"
    if chosen == "current":
        chosen = sys.executable
    elif chosen == "production":
        from bench.production_python import ensure

        try:
            chosen = str(ensure(quiet=getattr(args, "quiet", False)))
        except SystemExit as refused:
            if getattr(args, "bot_python_asked", False):
                raise
            print(f"[load] the bot runs on {sys.executable}: {refused}", file=sys.stderr)
            chosen = sys.executable
    args.bot_python = chosen
    return chosen


def bot_environment(args: argparse.Namespace, shard: int = 0) -> dict[str, str]:
    """The launched bot's environment (``BOT_LAUNCHER`` reads the ``MESA_BENCH_*`` patches):
    this process's, without Discord's settings (the ``.env`` file gives the fake's)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    env["PYTHONPATH"] = str(args.bot_root.resolve())
    env["MESA_BENCH_WITHOUT"] = "".join(LEVERS[name] for name in args.without)
    env["MESA_BENCH_TABLE_TOKENS"] = table_token_patch(args.table_token_lifetime)
    if args.profile_bot:
        out = args.profile_bot.resolve()
        env["MESA_BENCH_PROFILE"] = str(out if shard == 0 else f"{out}.{shard}")
    return env


def log_name(shard: int) -> str:
    return "bot.log" if shard == 0 else f"bot-{shard}.log"


class Meters:
    """CPU meters of several processes, summed."""

    def __init__(self, meters: list[CpuMeter]) -> None:
        self.meters = meters

    def start(self, now: float) -> None:
        for meter in self.meters:
            meter.start(now)

    def percent(self, now: float) -> float:
        return round(sum(meter.percent(now) for meter in self.meters), 1)


def merged(figures: list[LogFigures]) -> LogFigures:
    out = LogFigures()
    for f in figures:
        out.loop_lag_ms += f.loop_lag_ms
        for phase, values in f.phases.items():
            out.phases[phase] += values
        out.counts.update(f.counts)
        out.cant_keep_up += f.cant_keep_up
        out.warnings += f.warnings
        out.errors += f.errors
    return out


async def stop_bot(process) -> None:
    if process.returncode is not None:
        return
    process.send_signal(signal.SIGINT)
    try:
        await asyncio.wait_for(process.wait(), 20)
    except TimeoutError:
        process.kill()
        await process.wait()


async def run_one(
    tables: int, args: argparse.Namespace, folder: Path, database_url: str | None = None
) -> dict[str, Any]:
    low, high = (float(x) for x in args.think.split(","))
    machine_before = await asyncio.to_thread(machine_speed)
    python = bot_python(args)
    # The fixed work on the bot's interpreter too when it is another (``--bot-python``): how
    # much faster or slower it runs Python than the driver's, beside the figures it gives.
    bot_python_ms = (
        await asyncio.to_thread(machine_speed, 7, python) if python != sys.executable else None
    )
    fake = FakeDiscord(
        validate=not args.no_validate,
        keep_history=False,
        shard_count=args.processes,
        global_rate=args.discord_limit or None,
        forget_after=args.forget_after or None,
    )
    await fake.start()
    guilds = None
    if args.processes > 1:  # one guild per shard, the default guild being one of them
        by_shard = {fake.shard_of(fake.guild): fake.guild}
        for shard in range(args.processes):
            by_shard.setdefault(shard, fake.add_guild(f"load-{shard}", shard=shard))
        guilds = [by_shard[shard] for shard in range(args.processes)]
    world = World(
        fake,
        tables,
        seed=args.seed,
        think=(low, high),
        closed_dms=args.closed_dms,
        setup_concurrency=args.setup_concurrency,
        guilds=guilds,
        channel_play=args.channel_play,
        answer_place=not args.no_place_answer,
        rematch=args.rematch,
    )
    bots = [
        await start_bot(fake, folder, args, database_url, shard) for shard in range(args.processes)
    ]
    bot = bots[0]
    tasks: list[asyncio.Task[None]] = []
    lag_task: asyncio.Task[None] | None = None
    loop_cpu = LoopCpu()
    try:
        await fake.wait_until(lambda: fake.commands.get(None), timeout=120, what="command sync")
        await fake.wait_until_shards_connected(range(args.processes), timeout=60)
        progress(args, f"{tables} tables: bot pid {bot.pid} ready; opening tables")
        opened_at = time.monotonic()
        setup_lag: list[float] = []  # the fake's loop lag while the tables open
        lag_task = asyncio.create_task(sample_loop_lag(setup_lag))
        if args.setup_first:
            world.go.clear()
        setup_bot_before = fake.ratelimits.traffic.bot
        tasks = await world.open_all()
        deadline = opened_at + max(120.0, tables * 0.5)
        while world.started() < tables and time.monotonic() < deadline:
            await asyncio.sleep(1)
            if any(b.returncode is not None for b in bots):
                raise RuntimeError(f"a bot exited; see {folder / 'bot.log'}")
        setup_s = time.monotonic() - opened_at
        setup_bot_calls = fake.ratelimits.traffic.bot - setup_bot_before
        setup_429 = fake.ratelimits.traffic.global_429
        lag_task.cancel()
        world.go.set()
        if args.driver_gc == "frozen":
            freeze_driver_heap()
        progress(args, f"{world.started()}/{tables} tables playing after {setup_s:.0f} s; warm-up")
        await asyncio.sleep(args.warmup)

        log_paths = [folder / log_name(shard) for shard in range(len(bots))]
        log_starts = [path.stat().st_size for path in log_paths]
        now = time.monotonic()
        bot_cpu = Meters([CpuMeter(b.pid) for b in bots])
        bot_tree_cpu = Meters([CpuMeter(b.pid, tree=True) for b in bots])
        driver_cpu = CpuMeter("self")
        pool_cpu = PoolCpu([b.pid for b in bots])  # renders apart from searches (issue 29)
        pool_cpu.start()
        for meter in (bot_cpu, bot_tree_cpu, driver_cpu):
            meter.start(now)
        fake.take_violations()
        playing_at_start = world.started()
        traffic_start = fake.ratelimits.traffic.snapshot()
        loop_cpu.install()
        world.measuring = True
        # bench/profile_live.py samples the bot for the window (start(pids, seconds), stop())
        probe = getattr(args, "window_probe", None)
        if probe is not None:
            probe.start([b.pid for b in bots], args.window)
        profiler = cProfile.Profile() if args.profile_driver else None
        if profiler is not None:
            profiler.enable()
        progress(args, f"measuring {args.window:.0f} s")
        rss_peak = tree_rss_peak = 0.0
        fake_lag: list[float] = []
        lag_task = asyncio.create_task(sample_loop_lag(fake_lag))
        window_end = now + args.window
        longest = window_end + 120
        slices = None
        if args.driver_slices:
            slices = DriverSlices(
                fake, world, args.driver_slices, args.window, args.profile_driver_slices
            )
            slices.start(now, fake_lag)
        while time.monotonic() < window_end or (
            world.stats.human_moves < args.until_moves and time.monotonic() < longest
        ):
            await asyncio.sleep(min(1.0, max(window_end - time.monotonic(), 0.1)))
            rss_peak = max(rss_peak, sum(rss_mb(b.pid) for b in bots))
            tree_rss_peak = max(tree_rss_peak, sum(tree_rss_mb(b.pid) for b in bots))
            if slices is not None:
                slices.tick(time.monotonic())
        window = time.monotonic() - now
        if slices is not None:
            slices.finish(time.monotonic())
        if probe is not None:
            await probe.stop()
        lag_task.cancel()
        loop_cpu.uninstall()
        traffic_end = fake.ratelimits.traffic.snapshot()
        if profiler is not None:
            profiler.disable()
            out = io.StringIO()
            pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(25)
            print(out.getvalue(), file=sys.stderr)
        world.measuring = False
        world.draining = True
        world.window_over = True
        now = time.monotonic()
        bot_cpu_pct, driver_cpu_pct = bot_cpu.percent(now), driver_cpu.percent(now)
        bot_tree_cpu_pct = bot_tree_cpu.percent(now)
        pool_seconds = pool_cpu.seconds()
        rss_end = sum(rss_mb(b.pid) for b in bots)
        workers = sum(len(descendants(b.pid)) for b in bots)
        log_ends = [path.stat().st_size for path in log_paths]
        loadavg = load_average()
        violations = fake.take_violations()
        drain_end = now + args.drain
        while world.unresolved() and time.monotonic() < drain_end:
            await asyncio.sleep(0.5)
        world.draining = False
        for line in world.describe_unresolved()[:5]:
            progress(args, f"unresolved: {line}")
    finally:
        if args.driver_gc == "frozen":
            if freeze_survivors in gc.callbacks:
                gc.callbacks.remove(freeze_survivors)
            gc.unfreeze()
            gc.set_threshold(*DRIVER_GC_DEFAULTS)
        loop_cpu.uninstall()
        if lag_task is not None:
            lag_task.cancel()
        world.running = False
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for each in bots:
            await stop_bot(each)
        await fake.stop()
    machine_after = await asyncio.to_thread(machine_speed)
    progress(args, f"machine speed: {machine_before} / {machine_after} ms for the fixed work")
    measured = Measured(
        window=window,
        machine_ms=[machine_before, machine_after],
        bot_python=python,
        bot_python_ms=bot_python_ms,
        playing_at_start=playing_at_start,
        setup_s=setup_s,
        setup_bot_calls=setup_bot_calls,
        setup_429=setup_429,
        bot_cpu_pct=bot_cpu_pct,
        bot_tree_cpu_pct=bot_tree_cpu_pct,
        pool_seconds=pool_seconds,
        tree_rss_peak=tree_rss_peak,
        workers=workers,
        driver_cpu_pct=driver_cpu_pct,
        rss_end=rss_end,
        rss_peak=rss_peak,
        loadavg=loadavg,
        violations=violations,
        traffic={k: traffic_end[k] - traffic_start[k] for k in traffic_end},
        global_429_run=fake.ratelimits.traffic.global_429,
        route_429_run=fake.ratelimits.traffic.route_429,
        loop_cpu=loop_cpu.percent(window),
        fake_loop_lag_ms=fake_lag,
        fake_loop_lag_setup_ms=setup_lag,
        gateway_backlog=[float(n) for n in fake.gateway.backlog_at_heartbeat],
        driver_slices=slices.rows() if slices is not None else [],
        figures=merged(
            [read_log(p, a, b) for p, a, b in zip(log_paths, log_starts, log_ends, strict=True)]
        ),
    )
    return report(tables, args, world, measured)


DRIVER_GC_DEFAULTS = gc.get_threshold()
DRIVER_THRESHOLDS = (5_000, 4, 10)
# A token's 15 minutes and one more: what the fake keeps of a long run (``--forget-after``).
FORGET_AFTER = 16 * 60.0


def freeze_driver_heap() -> None:
    """The fake times every ack, so this process's collections pause the figures: with
    Python's defaults the collector walks the fake's and the players' whole heap every few
    seconds (at 500 tables, ``bench/tails.py``: ~4 young collections a second, up to 130 ms,
    and full ones of ~150 ms; ~3 % of the window spent in them), a share of every latency's
    tail that is none of the bot's. Once the tables are open, what is alive is frozen and the
    young generation is the bot's (``bot/ops/collector.py``); ``--driver-gc default`` keeps
    Python's.

    Frozen once, everything made after set-up was walked again by each collection of the
    oldest generation (one in ten generation-1 collections), whose pause grew with the run:
    1.6-2.1 s each in session 25's 20-minute soak at 1,000 tables (none came within a 170-s
    window at 300: ~25 young collections). So, as the bot did until session 29 (it now freezes after young collections too:
    ``collector.FreezeAfterCollections``), what survives each collection
    of generation 1 is frozen too: generation 2 stays empty, no collection walks an object
    twice after its first generation-1 one, and none grows with the run. What the frozen heap
    would keep as garbage is little: the fake breaks a message's cycle with its interaction
    as it forgets them (tests/fakediscord/forgetting.py). Each object is then walked by one
    young collection and at most one generation-1 one whatever the thresholds, so they set the
    pause, not the CPU: the bot's (5,000, 4, 10) rather than (10,000, 10, 10), whose
    generation-1 collections walked what up to ten young ones kept (300 busy tables, CPU of
    the longest generation-1 collection per 34-s slice: 57 and 99 ms with (10,000, 10, 10),
    30-51 with (5,000, 4, 10); young ones 16-25 against 20-34)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*DRIVER_THRESHOLDS)
    gc.callbacks.append(freeze_survivors)


def freeze_survivors(phase: str, info: dict[str, int]) -> None:
    """A ``gc.callbacks`` hook: freeze what survived a collection of generation 1 or 2 (it
    walked every object not frozen: none of its garbage is frozen)."""
    if phase == "stop" and info["generation"] >= 1:
        gc.freeze()


@dataclass
class Measured:
    """What a run measured about the processes (the players' figures are in `world.stats`)."""

    window: float
    # bench/machine_speed.py before the bot started and after it stopped (the VM's speed drifts)
    machine_ms: list[float]
    bot_python: str  # the bot's interpreter (``--bot-python``)
    bot_python_ms: float | None  # the fixed work on it, when it is not the driver's
    playing_at_start: int
    setup_s: float
    setup_bot_calls: int  # bot-token calls while the tables opened (humans not playing yet)
    setup_429: int  # global 429s up to the end of the set-up (command sync included)
    bot_cpu_pct: float
    bot_tree_cpu_pct: float  # with its worker processes
    tree_rss_peak: float
    workers: int
    driver_cpu_pct: float
    rss_end: float
    rss_peak: float
    loadavg: list[float]
    violations: list[Violation]
    traffic: dict[str, int]  # the fake's counters over the window (ratelimit.Traffic)
    global_429_run: int  # over the whole run, set-up included
    route_429_run: int  # requests refused by their route's bucket, the whole run
    loop_cpu: dict[str, float]  # CPU % of this process's loop: "fake", "driver" (players)
    fake_loop_lag_ms: list[float]  # this process's loop (the fake's and the players')
    fake_loop_lag_setup_ms: list[float]  # the same while the tables opened
    # gateway frames queued ahead of each heartbeat's ACK, over the whole run (the fake's)
    gateway_backlog: list[float]
    figures: LogFigures
    pool_seconds: dict[str, float] = field(default_factory=dict)  # workers' CPU s by pool
    driver_slices: list[dict[str, Any]] = field(default_factory=list)  # --driver-slices


def report(tables: int, args: argparse.Namespace, world: World, m: Measured) -> dict[str, Any]:
    stats = world.stats
    moves = stats.version_steps
    per_move = max(moves, 1)
    routes = dict(stats.routes.most_common())
    total = sum(routes.values())
    non_exempt = sum(n for route, n in routes.items() if not is_exempt(route.split(" ", 1)[1]))
    kinds: dict[str, int] = {}
    for v in m.violations:
        kinds[v.kind] = kinds.get(v.kind, 0) + 1
    lag = percentiles(m.figures.loop_lag_ms)
    t = m.traffic
    edits = t["bot_edits"] + t["interaction_edits"]
    return {
        "pacer": args.global_rate if args.global_rate is not None else "default",
        "without": ",".join(args.without) or "none",  # levers taken away (``--without``)
        # a table token's seconds in the bot (``--table-token-lifetime``; "default": 14 min)
        "table_token_lifetime": (
            args.table_token_lifetime if args.table_token_lifetime is not None else "default"
        ),
        "render_workers": args.render_workers if args.render_workers is not None else "default",
        "discord_limit": args.discord_limit or None,
        "bot_token_calls": t["bot"],
        "bot_token_per_s": round(t["bot"] / m.window, 1),
        "bot_token_per_human_move": round(stats.bot_calls["play"] / max(stats.human_moves, 1), 3),
        "bot_token_calls_by_purpose": dict(stats.bot_calls),
        "bot_token_per_human_move_by_mode": {
            mode: round(stats.bot_calls_by_mode[mode] / max(n, 1), 3)
            for mode, n in sorted(stats.human_moves_by_mode.items())
        },
        "human_moves_by_mode": dict(stats.human_moves_by_mode),
        "bot_token_per_human_move_by_mode_and_game": {
            mode: round(stats.bot_calls_by_mode_game[mode] / max(n, 1), 3)
            for mode, n in sorted(stats.human_moves_by_mode_game.items())
        },
        "human_moves_by_mode_and_game": dict(stats.human_moves_by_mode_game),
        "bot_token_calls_by_mode_and_route": dict(stats.bot_routes_by_mode.most_common()),
        "channel_play": args.channel_play,
        "rematch": args.rematch,
        "place_answered": not args.no_place_answer,
        # DM bot-token calls per table from the run's start (set-up included) to the window's end
        "dm_calls_run_per_table_by_mode": {
            mode: round(stats.dm_calls_run_by_mode[mode] / max(n, 1), 2)
            for mode, n in sorted(
                Counter("channel" if t.channel_play else "dm" for t in world.tables).items()
            )
        },
        "setup_bot_calls": m.setup_bot_calls,
        "setup_bot_calls_per_table": round(m.setup_bot_calls / max(tables, 1), 2),
        "setup_global_429": m.setup_429,
        "interaction_calls": t["interaction"],
        "global_429": t["global_429"],
        "global_429_run": m.global_429_run,
        # per-route buckets (tests/fakediscord/ratelimit.py): refusals (a bot that reads the
        # X-RateLimit-* headers gets none) and requests admitted as their bucket's last
        "route_429": t["route_429"],
        "route_429_run": m.route_429_run,
        "route_spent": t["route_spent"],
        "invalid_requests": t["invalid"],
        "next_view_ms": percentiles(stats.next_ms),
        "next_view_after_cpu_ms": percentiles(stats.next_after_cpu_ms),
        "next_view_ms_by_game": by_game(stats.next_samples),
        "mover_view_ms": percentiles(stats.own_ms),
        "edits": edits,
        "edits_via_interaction_share": round(t["interaction_edits"] / edits, 3) if edits else None,
        "edits_by_game_and_view": edit_shares(stats.edits_by_view),
        "fake_cpu_pct": m.loop_cpu["fake"],
        "players_cpu_pct": m.loop_cpu["driver"],
        "fake_loop_lag_ms": percentiles(m.fake_loop_lag_ms),
        "fake_loop_lag_setup_ms": percentiles(m.fake_loop_lag_setup_ms),
        "gateway_backlog_at_heartbeat": percentiles(m.gateway_backlog),
        "workers_cpu_pct": round(m.bot_tree_cpu_pct - m.bot_cpu_pct, 1),
        "tables": tables,
        "backend": args.backend,
        "processes": args.processes,
        "window_s": round(m.window, 1),
        "warmup_s": args.warmup,
        "setup_s": round(m.setup_s, 1),
        "validate": not args.no_validate,
        "tables_playing": m.playing_at_start,  # when the window opened
        "tables_playing_at_end": world.started(),
        "moves": moves,
        "moves_per_s": round(moves / m.window, 2),
        "human_moves": stats.human_moves,
        "clicks": stats.clicks,
        "click_errors": stats.click_errors,
        "refused_clicks": stats.refused,
        "private_steps": stats.private_steps,
        "unresolved_clicks": world.unresolved(),
        "games_finished": stats.games_finished,
        "ack_ms": percentiles(stats.ack_ms),
        "ack_in_fake_ms": percentiles(stats.ack_in_fake_ms),
        "ack_from_event_ms": percentiles(stats.ack_from_event_ms),
        "public_edit_ms": percentiles(stats.public_ms),
        "mover_dm_ms": percentiles(stats.dm_ms),
        "public_edit_ms_by_game": by_game(stats.public_samples),
        # "dm": a table played from its players' DMs (nobody presses its public message during
        # play); "hand": from the table's ephemeral hands
        "public_edit_ms_by_play": by_game(stats.public_samples, of="via"),
        "mover_dm_ms_by_game": by_game(stats.dm_samples),
        "next_view_ms_by_view": {
            view: percentiles([x.ms for x in stats.next_samples if x.via.endswith(view)])
            for view in ("->dm", "->table")
        },
        "slowest_next_views": [
            asdict(x) for x in sorted(stats.next_samples, key=lambda x: -x.ms)[: args.slowest]
        ],
        "slowest_public_edits": [
            asdict(x) for x in sorted(stats.public_samples, key=lambda x: -x.ms)[: args.slowest]
        ],
        "rest_calls": total,
        "rest_per_move": round(total / per_move, 2),
        "non_exempt_per_move": round(non_exempt / per_move, 2),
        "non_exempt_per_s": round(non_exempt / m.window, 1),
        "non_exempt_peak_per_s": peak_per_window(stats.non_exempt_at),
        "rest_per_move_by_route": {r: round(n / per_move, 3) for r, n in routes.items()},
        # the bot's own count of its requests, per move: by kind (``rest.*``, as ``timed_rest``
        # and token edits name them) and by purpose (``why.*``: whose view, and why it is sent)
        "requests_per_move_by_kind": per_move_of(m.figures.counts, "rest.", per_move),
        "requests_per_move_by_purpose": per_move_of(m.figures.counts, "why.", per_move),
        # the public message's edits by what they show (lobby, playing, same_version, end)
        "public_edits_per_move_by_kind": per_move_of(m.figures.counts, "public_edit.", per_move),
        "http_statuses": {str(k): v for k, v in sorted(stats.statuses.items())},
        "bot_cpu_pct": m.bot_cpu_pct,
        # CPU time per move (less sensitive to a shared machine than latencies): the bot's own
        # process, and its worker processes (renders, computer searches)
        "bot_cpu_ms_per_move": round(m.bot_cpu_pct * 10 * m.window / per_move, 2),
        "workers_cpu_ms_per_move": round(
            (m.bot_tree_cpu_pct - m.bot_cpu_pct) * 10 * m.window / per_move, 2
        ),
        **issue29_figures(m, per_move),
        "games_by_table": dict(Counter(t.game for t in world.tables)),
        "bot_rss_mb": round(m.rss_end, 1),
        "bot_rss_peak_mb": round(m.rss_peak, 1),
        "bot_worker_processes": m.workers,
        "bot_with_workers_cpu_pct": m.bot_tree_cpu_pct,
        "bot_with_workers_rss_peak_mb": round(m.tree_rss_peak, 1),
        "loop_lag_ms": lag if lag["n"] else "n/a",
        "phase_ms": {
            phase: percentiles(values) for phase, values in sorted(m.figures.phases.items())
        }
        or "n/a",
        "cant_keep_up_warnings": m.figures.cant_keep_up,
        "bot_log_warnings": m.figures.warnings,
        "bot_log_errors": m.figures.errors,
        "driver_cpu_pct": m.driver_cpu_pct,
        "loadavg": m.loadavg,
        "machine_ms": m.machine_ms,
        "bot_python": m.bot_python,
        "bot_python_ms": m.bot_python_ms,
        "violations": kinds,
        "setup_errors": dict(world.setup_errors),
        "driver_slices": m.driver_slices,
    }


def per_move_of(counts: Counter[str], prefix: str, per_move: int) -> dict[str, float]:
    """The counters named ``prefix``*, per move, most frequent first."""
    return {
        name[len(prefix) :]: round(n / per_move, 3)
        for name, n in counts.most_common()
        if name.startswith(prefix)
    }


def purpose_lines(r: dict[str, Any]) -> list[str]:
    """Why the bot sends what it sends, per move (its own counters; ``n/a``: a bot that does
    not count purposes)."""
    purposes = r.get("requests_per_move_by_purpose") or {}
    kinds = r.get("requests_per_move_by_kind") or {}
    lines = [
        f"{r['tables']} tables: the bot's requests per move by purpose"
        f" ({sum(purposes.values()):.2f} counted of {r['rest_per_move']} the fake saw)",
        "| purpose | per move |",
        "|---|---:|",
    ]
    lines += [f"| {name} | {n:.3f} |" for name, n in purposes.items()] or ["| n/a | |"]
    lines.append(
        f"{r['tables']} tables: by kind (``timed_rest``, token edits): "
        + (", ".join(f"{name} {n}" for name, n in kinds.items()) or "n/a")
    )
    return lines


def issue29_figures(m: Measured, per_move: int) -> dict[str, Any]:
    """CPU per move of the bot and its render workers (the goal's figure), the computers'
    searches apart; images drawn per move, the renderer's cache hit rate, KiB per image."""
    pools = m.pool_seconds
    bot_ms = m.bot_cpu_pct * 10 * m.window / per_move
    drawn, reused = len(m.figures.phases.get("render", [])), len(m.figures.phases.get(REUSED, []))
    kib = m.figures.phases.get(IMAGE_KIB, [])
    return {
        "render_workers_cpu_ms_per_move": round(pools.get("render", 0.0) * 1000 / per_move, 2),
        "search_workers_cpu_ms_per_move": round(pools.get("search", 0.0) * 1000 / per_move, 2),
        "unnamed_workers_cpu_ms_per_move": round(pools.get("other", 0.0) * 1000 / per_move, 2),
        "bot_and_renders_cpu_ms_per_move": round(
            bot_ms + pools.get("render", 0.0) * 1000 / per_move, 2
        ),
        "images_drawn_per_move": round(drawn / per_move, 2),
        "render_cache_hit_rate": round(reused / (drawn + reused), 3) if drawn + reused else None,
        "image_kib_mean": round(sum(kib) / len(kib), 2) if kib else None,
        "render_worker_cpu_ms_per_image": worker_stages(m, pools.get("render", 0.0)),
    }


def worker_stages(m: Measured, pool_seconds: float) -> dict[str, float] | None:
    """A render worker's CPU per job by stage (``bot.pipe_workers.STAGES``, the job's drawing
    split into draw and encode), the mean ms per image; "pool (/proc)" is the render pool's CPU
    the kernel counted, per job. None from a bot that does not report them."""
    phases = m.figures.phases
    jobs = len(phases.get(CPU_METRIC + "run", []))
    if not jobs:
        return None
    per_job = {s: sum(phases.get(CPU_METRIC + s, [])) / jobs for s in STAGES}
    encode = sum(phases.get(ENCODE_CPU, [])) / jobs
    out = {"read": per_job["read"], "unpickle": per_job["unpickle"]}
    out |= {"draw": per_job["run"] - encode, "encode": encode}
    out |= {s: per_job[s] for s in ("pickle", "write", "idle")}
    out["total"] = sum(per_job.values())
    out["pool (/proc)"] = pool_seconds * 1000 / jobs
    return {stage: round(ms, 3) for stage, ms in out.items()}


def worker_stage_lines(r: dict[str, Any]) -> list[str]:
    stages = r.get("render_worker_cpu_ms_per_image")
    if not stages:
        return []
    total = stages["total"] or 1.0
    lines = [
        f"{r['tables']} tables, pacer {r['pacer']}: a render worker's CPU per image by stage"
        f" ({r['images_drawn_per_move']} images/move)",
        "| stage | ms CPU / image | share |",
        "|---|---:|---:|",
    ]
    for stage, ms in stages.items():
        share = "" if stage in ("total", "pool (/proc)") else f"{100 * ms / total:.0f} %"
        lines.append(f"| {stage} | {ms:.3f} | {share} |")
    return lines


def issue29_summary(results: list[dict[str, Any]]) -> list[str]:
    head = (
        "| tables | pacer | moves/s | CPU ms/move: bot + renders (bot / renders; searches apart;"
        " unnamed workers) | images drawn/move, cache hits | KiB/image | bot RSS MB (with workers)"
        " | next view p99 | public p99 | ack p99 | can't keep up |"
    )
    lines = [head, "|" + "---|" * 10]
    for r in results:
        lines.append(
            f"| {r['tables']} ({r['tables_playing']}) | {r['pacer']} | {r['moves_per_s']}"
            f" | **{r['bot_and_renders_cpu_ms_per_move']}** ({r['bot_cpu_ms_per_move']} /"
            f" {r['render_workers_cpu_ms_per_move']}; {r['search_workers_cpu_ms_per_move']};"
            f" {r['unnamed_workers_cpu_ms_per_move']})"
            f" | {r['images_drawn_per_move']}, {r['render_cache_hit_rate']}"
            f" | {r['image_kib_mean']} | {r['bot_rss_mb']} ({r['bot_with_workers_rss_peak_mb']})"
            f" | {ms(r['next_view_ms'], 'p99')} | {ms(r['public_edit_ms'], 'p99')}"
            f" | {ms(r['ack_ms'], 'p99')} | {r['cant_keep_up_warnings']} |"
        )
    return lines


EDIT_VIEWS = ("public", "dm", "hand")


def edit_shares(edits: Counter[str]) -> dict[str, dict[str, Any]]:
    """``{"game view": {"bot": n, "interaction": n, "token_share": x}}`` from the driver's
    "game view via" counts, with an "all" game per view."""
    out: dict[str, dict[str, Any]] = {}
    for key, n in edits.items():
        game, view, via = key.split(" ")
        for name in (f"{game} {view}", f"all {view}"):
            row = out.setdefault(name, {"bot": 0, "interaction": 0})
            row[via] += n
    for row in out.values():
        row["token_share"] = round(row["interaction"] / max(row["bot"] + row["interaction"], 1), 3)
    return dict(sorted(out.items()))


def edit_share_lines(r: dict[str, Any]) -> list[str]:
    """Per game and view: the share of edits an interaction token carried (bot-token edits)."""
    shares = r.get("edits_by_game_and_view") or {}
    games = sorted({key.split(" ")[0] for key in shares}, key=lambda g: (g == "all", g))
    if not games:
        return []
    lines = [
        f"{r['tables']} tables, pacer {r['pacer']}: edits of tables being played through an"
        " interaction token, % (bot-token edits / all), by game and view",
        "| game | " + " | ".join(EDIT_VIEWS) + " |",
        "|" + "---|" * (len(EDIT_VIEWS) + 1),
    ]
    for game in games:
        cells = []
        for view in EDIT_VIEWS:
            row = shares.get(f"{game} {view}")
            total = row["bot"] + row["interaction"] if row else 0
            cells.append(
                "—" if not total else f"{100 * row['token_share']:.0f} % ({row['bot']} / {total})"
            )
        lines.append(f"| {game} | " + " | ".join(cells) + " |")
    return lines


def by_game(samples: list[Sample], of: str = "game") -> dict[str, Any]:
    """Latency percentiles per game (a tail shows which game it comes from), or per another
    field of the samples (``of``: ``via``, how the mover's table is played)."""
    grouped: dict[str, list[float]] = defaultdict(list)
    for sample in samples:
        grouped[getattr(sample, of)].append(sample.ms)
    return {game: percentiles(values) for game, values in sorted(grouped.items())}


def ms(figure: dict[str, Any], key: str) -> str:
    value = figure.get(key)
    if value is None:
        return "—"
    return f"{value / 1000:.1f} s" if value >= 10_000 else f"{value:.0f}"


def summary(results: list[dict[str, Any]]) -> str:
    head = (
        "| tables (playing) | moves/s | ack p50/p99 ms | public edit p50/p99/max ms | mover DM p50/p99 ms "
        "| REST/move (non-exempt) | non-exempt/s mean, peak | bot CPU % (with workers) | CPU ms/move bot / workers | bot RSS MB | loop lag p50/p99 ms | can't keep up "
        "| driver CPU % | load avg |"
    )
    lines = [head, "|" + "---|" * 14]
    for r in results:
        lag = r["loop_lag_ms"]
        lag_text = "n/a" if lag == "n/a" else f"{ms(lag, 'p50')} / {ms(lag, 'p99')}"
        a, p, d = r["ack_ms"], r["public_edit_ms"], r["mover_dm_ms"]
        lines.append(
            f"| {r['tables']} ({r['tables_playing']}) {r['backend']} x{r['processes']} | {r['moves_per_s']} | {ms(a, 'p50')} / {ms(a, 'p99')} "
            f"| {ms(p, 'p50')} / {ms(p, 'p99')} / {ms(p, 'max')} | {ms(d, 'p50')} / {ms(d, 'p99')} "
            f"| {r['rest_per_move']} ({r['non_exempt_per_move']}) "
            f"| {r['non_exempt_per_s']}, {r['non_exempt_peak_per_s']} "
            f"| {r['bot_cpu_pct']} ({r['bot_with_workers_cpu_pct']}) "
            f"| {r['bot_cpu_ms_per_move']} / {r['workers_cpu_ms_per_move']} "
            f"| {r['bot_rss_mb']} | {lag_text} | {r['cant_keep_up_warnings']} "
            f"| {r['driver_cpu_pct']} | {' '.join(f'{x:.2f}' for x in r['loadavg'])} |"
        )
    notes = []
    if any(not r["validate"] for r in results):
        notes.append("OpenAPI validation OFF (--no-validate)")
    for r in results:
        machine = " / ".join(str(x) for x in r["machine_ms"])
        theirs = "" if r["bot_python_ms"] is None else f"; on the bot's: {r['bot_python_ms']} ms"
        notes.append(
            f"{r['tables']} tables: the bot ran on {r['bot_python']}; the fixed work"
            f" (bench/machine_speed.py) on the driver's interpreter {machine} ms{theirs}"
        )
    for r in results:
        top = list(r["rest_per_move_by_route"].items())[:8]
        notes.append(
            f"{r['tables']} tables, REST per move by route: "
            + ", ".join(f"{route} {n}" for route, n in top)
        )
        notes.append(
            f"{r['tables']} tables, pacer {r['pacer']}: bot-token DM calls per table from the"
            " start (set-up included) to the window's end, by how it is played: "
            + ", ".join(f"{k} {v}" for k, v in r["dm_calls_run_per_table_by_mode"].items())
            + f" (channel players answered where they play: {r['place_answered']})"
        )
        extra = {
            k: r[k]
            for k in ("unresolved_clicks", "click_errors", "violations", "setup_errors")
            if r[k]
        }
        if extra:
            notes.append(f"{r['tables']} tables: {extra}")
        for label, key in (
            ("public edit", "public_edit_ms_by_game"),
            ("mover DM", "mover_dm_ms_by_game"),
        ):
            games = r[key]
            notes.append(
                f"{r['tables']} tables, {label} p50/p99/max ms (n) by game: "
                + ", ".join(
                    f"{g} {ms(f, 'p50')}/{ms(f, 'p99')}/{ms(f, 'max')} ({f['n']})"
                    for g, f in games.items()
                )
            )
        plays = r["public_edit_ms_by_play"]
        notes.append(
            f"{r['tables']} tables, public edit p50/p99/max ms (n) by how the table is played"
            " (dm: from DMs; hand: from the table's ephemeral hands): "
            + ", ".join(
                f"{v} {ms(f, 'p50')}/{ms(f, 'p99')}/{ms(f, 'max')} ({f['n']})"
                for v, f in plays.items()
            )
        )
        views = r["next_view_ms_by_view"]
        notes.append(
            f"{r['tables']} tables, next player's view p50/p99/max ms (n) by where they act: "
            + ", ".join(
                f"{v[2:]} {ms(f, 'p50')}/{ms(f, 'p99')}/{ms(f, 'max')} ({f['n']})"
                for v, f in views.items()
            )
        )
        for x in r["slowest_next_views"]:
            notes.append(
                f"  slow next view: {x['ms']:.0f} ms {x['game']} #{x['table_id']} {x['kind']}"
                f" via {x['via']} clicked v{x['clicked_version']} at {x['clicked_at']}"
                f" (interaction {x['interaction_id']})"
            )
        for x in r["slowest_public_edits"]:
            notes.append(
                f"  slow: {x['ms']:.0f} ms {x['game']} #{x['table_id']} {x['kind']} via {x['via']} "
                f"clicked v{x['clicked_version']} at {x['clicked_at']} (interaction {x['interaction_id']}), shown v{x['shown_version']}"
            )
    return "\n".join(
        lines
        + [""]
        + issue25_summary(results)
        + [""]
        + stages_summary(results)
        + [""]
        + [line for r in results for line in [*edit_share_lines(r), ""]]
        + [line for r in results for line in [*purpose_lines(r), ""]]
        + issue29_summary(results)
        + [line for r in results for line in ["", *worker_stage_lines(r)]]
        + [
            line
            for r in results
            for line in ["", *driver_slice_lines(r["driver_slices"], r["tables"])]
        ]
        + [""]
        + notes
    )


# Where a view's time goes in the bot (``bot/ui/view_kit.py`` ``_Stages``): per kind of view,
# each stage's p50 / p99 / max ms; then the requests and the click's answer.
VIEW_KINDS = ("dm", "mover", "public", "hand", "mention")  # mover: a view a click held
VIEW_STAGES = (
    "queued",
    "coalesce",
    "pace",
    "busy",
    "restore",
    "checks",
    "build",
    "render",
    "sent",
    "total",
)
REQUEST_PHASES = (
    ("ack_in_fake_ms", "fake: click made -> its event written to the bot (the fake's queueing)"),
    ("ack_from_event_ms", "fake: event written -> answer read (the ack without that)"),
    ("ack_sent", "click made (its id's time) -> its answer sent"),
    ("ack_arrival", "click made -> our handler starts"),
    ("ack_handler", "click handled -> its answer sent"),
    ("ack_handler_update", "  answered in place (UPDATE_MESSAGE, JSON)"),
    ("ack_handler_files", "  answered in place with an image (multipart)"),
    ("ack_handler_deferred", "  acknowledged (DEFERRED_UPDATE), shown after"),
    ("ack_handler_thinking", "  acknowledged as thinking (an ephemeral answer to come)"),
    ("ack_handler_message", "  answered with a message"),
    ("click_move", "click handled -> its move committed and told (or refused)"),
    ("intent_record", "intent written before the ack"),
    ("http_callback", "interaction callback sent -> answered"),
    ("http_webhook", "interaction-token request sent -> answered"),
    ("token_edit", "edit through an interaction token"),
    ("gate_wait", "bot-token request: wait for its turn at the gate"),
    ("http_bot", "bot-token request sent -> answered"),
    ("render", "image drawn (render pool)"),
    ("persist", "move persisted"),
    ("notify", "listener told of a change"),
)


def stages_summary(results: list[dict[str, Any]]) -> list[str]:
    """Where the time goes inside the bot, per kind of view and stage (p50 / p99 / max ms,
    n), from the change waiting to be shown to its worker done; then the requests."""
    lines: list[str] = []
    for r in results:
        phases = r["phase_ms"] if isinstance(r["phase_ms"], dict) else {}
        lines.append(
            f"{r['tables']} tables, pacer {r['pacer']}: where a view's time goes in the bot,"
            " p50 / p99 / max ms (n)"
        )
        lines.append("| view | " + " | ".join(VIEW_STAGES) + " |")
        lines.append("|" + "---|" * (len(VIEW_STAGES) + 1))
        for kind in VIEW_KINDS:
            cells = []
            for stage in VIEW_STAGES:
                f = phases.get(f"view_{kind}_{stage}")
                cells.append(
                    "—" if not f else f"{ms(f, 'p50')} / {ms(f, 'p99')} / {ms(f, 'max')} ({f['n']})"
                )
            if any(c != "—" for c in cells):
                lines.append(f"| {kind} | " + " | ".join(cells) + " |")
        lines.append("")
        lines.append("| request | p50 / p99 / max ms (n) |")
        lines.append("|---|---|")
        for phase, label in REQUEST_PHASES:
            f = phases.get(phase) or r.get(phase)  # the bot's trace, else the fake's figure
            if f:
                lines.append(
                    f"| {label} | {ms(f, 'p50')} / {ms(f, 'p99')} / {ms(f, 'max')} ({f['n']}) |"
                )
    return lines


def issue25_summary(results: list[dict[str, Any]]) -> list[str]:
    """The figures issue 25 asks for, one row per table count and pacer setting."""
    head = (
        "| tables | pacer / Discord limit | moves/s | bot-token calls per human move (set-up apart)"
        " | per move: DM play / channel play (moves); the same in each channel's later games | set-up: s, bot-token calls per table, 429s"
        " | global 429s (window, run); route 429s (window, run), buckets spent | next player's view p50/p99/max ms (n; after CPUs p50/p99)"
        " | public table p50/p99 ms | mover's view p50/p99 ms | ack p50/p99 ms"
        " | edits via interaction tokens | CPU % bot / workers / fake / players | loop lag p50/p99 ms bot (fake; fake in set-up) |"
    )
    lines = [head, "|" + "---|" * 14]
    for r in results:
        lag = r["loop_lag_ms"]
        lag_text = "n/a" if lag == "n/a" else f"{ms(lag, 'p50')} / {ms(lag, 'p99')}"
        modes, moved = r["bot_token_per_human_move_by_mode"], r["human_moves_by_mode"]
        mode_text = " / ".join(
            f"{modes[mode]} ({moved[mode]})" if mode in modes else "—" for mode in ("dm", "channel")
        )
        later, later_moved = (
            r["bot_token_per_human_move_by_mode_and_game"],
            r["human_moves_by_mode_and_game"],
        )
        mode_text += "; later games " + " / ".join(
            f"{later[m]} ({later_moved[m]})" if m in later else "—"
            for m in ("dm later games", "channel later games")
        )
        nv, nc = r["next_view_ms"], r["next_view_after_cpu_ms"]
        fl, sl = r["fake_loop_lag_ms"], r["fake_loop_lag_setup_ms"]
        p, o, a = r["public_edit_ms"], r["mover_view_ms"], r["ack_ms"]
        share = r["edits_via_interaction_share"]
        purposes = r["bot_token_calls_by_purpose"]
        lines.append(
            f"| {r['tables']} ({r['tables_playing']}) | {r['pacer']} / {r['discord_limit'] or 'off'}"
            f" | {r['moves_per_s']} | {r['bot_token_per_human_move']}"
            f" (play {purposes.get('play', 0)}, setup {purposes.get('setup', 0)},"
            f" other {purposes.get('other', 0)}; {r['human_moves']} moves)"
            f" | {mode_text}"
            f" | {r['setup_s']} s, {r['setup_bot_calls_per_table']}, {r['setup_global_429']}"
            f" | {r['global_429']}, {r['global_429_run']}; {r['route_429']},"
            f" {r['route_429_run']}, {r['route_spent']}"
            f" | {ms(nv, 'p50')} / {ms(nv, 'p99')} / {ms(nv, 'max')} ({nv['n']};"
            f" {ms(nc, 'p50')} / {ms(nc, 'p99')})"
            f" | {ms(p, 'p50')} / {ms(p, 'p99')} | {ms(o, 'p50')} / {ms(o, 'p99')}"
            f" | {ms(a, 'p50')} / {ms(a, 'p99')}"
            f" | {'—' if share is None else f'{share:.0%}'} of {r['edits']}"
            f" | {r['bot_cpu_pct']} / {r['workers_cpu_pct']} / {r['fake_cpu_pct']}"
            f" / {r['players_cpu_pct']} | {lag_text} ({ms(fl, 'p50')} / {ms(fl, 'p99')}; {ms(sl, 'p50')} / {ms(sl, 'p99')}) |"
        )
    return lines


async def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    results = []
    with contextlib.ExitStack() as server_stack:
        server = None
        if args.backend == "postgres":
            from tests.pg_server import postgres_server

            server = server_stack.enter_context(postgres_server())
        for tables in (int(x) for x in args.tables.split(",") if x.strip()):
            for rate in args.global_rate:
                run_args = argparse.Namespace(**{**vars(args), "global_rate": rate})
                result = await _one_run(tables, run_args, server)
                print(json.dumps(result), flush=True)
                results.append(result)
    print(summary(results), flush=True)
    return 0


async def _one_run(tables: int, args: argparse.Namespace, server: Any) -> dict[str, Any]:
    """One table count: in a temporary (or kept) folder, on a fresh PostgreSQL database when
    ``server`` is one."""
    with contextlib.ExitStack() as stack:
        if args.keep_dir is not None:
            pacer = "" if args.global_rate is None else f"-pacer-{args.global_rate}"
            folder = args.keep_dir / f"tables-{tables}{pacer}"
            folder.mkdir(parents=True, exist_ok=True)
        else:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="mesa-load-")))
        url = server.create_database() if server is not None else None
        try:
            return await run_one(tables, args, folder, url)
        finally:
            if server is not None and url is not None:
                server.drop_database(url)


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
