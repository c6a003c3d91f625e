"""What one game's life-cycle costs beyond its moves (issue 29), counted in-process: the real bot
against the fake Discord (``tests/e2e``'s harness, the bot's own settings as ``bench/load.py``
runs it), one table at a time played by ``bench/load.py``'s own players (``load_driver``): a
game to its end, then the next game at the same channel as the load starts it (``--next play``:
``/play`` again, the guest joins, the host adds the computers and starts; ``--next rematch``:
"Revancha" on the finished table, then Start). Each move starts a segment (a person's first
click of it, or a computer's move); the segment of the move that ends a game runs until the
next game's first move: it holds the game's end, its result, the next lobby and its start
(deal, first views, DMs, mentions). Per game it prints that window and what it costs beyond
one move (the window less the mean of that game's other move segments of the same mover),
by the bot's REST requests by route and by kind (interaction-token or bot-token: the bot
token is paced at 45/s for every table together), the calls of ``bot/``'s functions
(``bench/profile_click.py``'s counting), the tasks the bot made, and the database writer's
statements by kind (SQLite's trace), transactions, rows changed and bytes written (the kernel's
``wchar`` of the writer thread: ``bench/storage_per_move.py``'s idiom).

    .venv/bin/python bench/lifecycle.py                          # 2 game ends per game
    .venv/bin/python bench/lifecycle.py --games amapatolli --ends 3 --via hand
    .venv/bin/python bench/lifecycle.py --bot-root ../wt-before  # another tree's bot
    .venv/bin/python bench/lifecycle.py --ends 1 --game-calls    # what a move asks of games/

``--game-calls`` prints, instead of the windows, what a mean move (a person's, a computer's)
asks of the games: the calls of ``games/`` functions made from outside ``games/`` (``apply``,
``view``, ``legal_actions``, ``to_act``, ``outcome``, an action's ``encode``...), by entry point
and caller, and how many of the views and legal actions were asked again of a (state, seat)
they were asked of before.

Counts, not times: a loaded machine changes them little (the players wait for the bot before
each move; what a coalescing timer holds may land in a neighbouring segment, so a few requests
per window move between runs). Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("amapatolli", "chupate2", "triad", "macarena", "maquiavelo")


def _parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(GAMES), help="game keys (the load's five)")
    parser.add_argument("--ends", type=int, default=2, help="game ends measured per game (2)")
    parser.add_argument("--next", choices=("play", "rematch"), default="play")
    parser.add_argument("--via", choices=("dm", "hand"), default="dm", help="DMs or the table")
    parser.add_argument("--cpu-delay", type=float, default=0.3, help="bot's CPU_DELAY_SECONDS")
    parser.add_argument("--think", default="0.2,0.4", help="the players' think time, s")
    parser.add_argument("--bot-root", type=Path, default=ROOT, help="the tree measured")
    parser.add_argument("--top", type=int, default=25, help="functions listed per game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--validate", action="store_true", help="the fake checks requests")
    parser.add_argument("--trace", action="store_true", help="each window's requests and SQL")
    parser.add_argument(
        "--game-calls",
        action="store_true",
        help="instead of the game ends: the calls into games/ per move by the caller outside it",
    )
    parser.add_argument(
        "--cprofile",
        action="store_true",
        help="cProfile's own times instead of call counts: the windows beside the moves",
    )
    return parser.parse_args()


@dataclass
class Segment:
    """What the bot did from one move's start to the next's."""

    game: str
    table_id: int
    mover: str  # "person" or "computer"
    ending: bool = False
    calls: Counter[str] = field(default_factory=Counter)
    tasks: Counter[str] = field(default_factory=Counter)
    requests: Counter[str] = field(default_factory=Counter)  # "<kind> <METHOD> <route>"
    statements: Counter[str] = field(default_factory=Counter)
    figures: Counter[str] = field(default_factory=Counter)  # transactions, bytes, rows
    trace: list[str] = field(default_factory=list)  # requests and statements in order (--trace)


def statement_kind(sql: str) -> str:
    words = sql.split()
    if not words:
        return "?"
    first = words[0].upper()
    if first in ("INSERT", "DELETE", "REPLACE"):
        return " ".join(words[:3])
    if first == "UPDATE":
        return " ".join(words[:2])
    if first == "SELECT":
        upper = [w.upper() for w in words]
        return "SELECT FROM " + (words[upper.index("FROM") + 1] if "FROM" in upper else "?")
    return " ".join(words[:2])


class Ledger:
    """The segments, and the counting hooks that fill the current one."""

    def __init__(self, root: Path, game_calls: bool = False) -> None:
        self.prefix = str(root / "bot") + "/"
        # --game-calls: the calls of games/ functions made from outside games/ (entry points)
        self.games = str(root / "games") + "/" if game_calls else None
        # (function, id of the state, seat) -> the state: each view and legal actions asked
        self._asked: dict[tuple[str, int, Any], Any] = {}
        self.tests = str(root / "tests") + "/"
        self.segments: list[Segment] = []
        self.current: Segment | None = None
        self.writer: Any = None
        self._io0: dict[str, int] = {}
        self.tracing = False
        # --cprofile: one profiler for the windows (from a game's end), one for the moves
        self.profilers: dict[str, cProfile.Profile] | None = None

    # --- hooks ---------------------------------------------------------------------------
    def profile(self, frame, event, arg) -> None:
        if event == "call" and self.current is not None:
            code = frame.f_code
            if self.games is not None:
                self._game_call(frame, code)
            elif code.co_filename.startswith(self.prefix):
                name = code.co_filename[len(self.prefix) :]
                self.current.calls[f"{name}:{code.co_qualname}"] += 1

    def _game_call(self, frame, code) -> None:
        """A call of a games/ function from outside games/, by its caller (file and function)."""
        assert self.games is not None and self.current is not None
        if not code.co_filename.startswith(self.games) or frame.f_back is None:
            return
        caller = frame.f_back.f_code
        if caller.co_filename.startswith(self.games):
            return
        name = "games/" + code.co_filename[len(self.games) :]
        where = "/".join(caller.co_filename.rsplit("/", 2)[-2:])
        self.current.calls[f"{name}:{code.co_qualname} <- {where}:{caller.co_qualname}"] += 1
        if code.co_name in ("build_view", "legal_actions"):
            state, seat = frame.f_locals.get("state"), frame.f_locals.get("seat")
            key = (code.co_name, id(state), seat)
            if self._asked.get(key) is state:  # (the entry holds the state: its id is its own)
                self.current.calls[f"(asked again of a state and seat) {code.co_name}"] += 1
            self._asked[key] = state

    def watch_tasks(self, loop: asyncio.AbstractEventLoop) -> None:
        factory = loop.get_task_factory()

        def task(loop, coro, **kwargs):
            if self.current is not None and self._the_bots(sys._getframe(1)):
                self.current.tasks[getattr(coro, "__qualname__", type(coro).__name__)] += 1
            if factory is not None:
                return factory(loop, coro, **kwargs)
            return asyncio.Task(coro, loop=loop, **kwargs)

        loop.set_task_factory(task)

    def _the_bots(self, frame) -> bool:
        while frame is not None:
            name = frame.f_code.co_filename
            if name.startswith(self.prefix):
                return True
            if name.startswith(self.tests):
                return False
            frame = frame.f_back
        return False

    def request(self, record: Any) -> None:
        if self.current is not None:
            route = record.template or record.path
            self.current.requests[f"{record.kind} {record.method} {route}"] += 1
            if self.tracing:
                body = str(record.body)[:160] if record.kind == "bot" else ""
                self.current.trace.append(f"REST {record.kind} {record.method} {route} {body}")

    def statement(self, sql: str) -> None:
        if self.current is not None:  # (the writer's thread: a Counter's += is enough here)
            self.current.statements[statement_kind(sql)] += 1
            if self.tracing:
                self.current.trace.append("SQL " + " ".join(sql.split())[:140])

    # --- segments ------------------------------------------------------------------------
    def _writer_figures(self) -> dict[str, int]:
        writer = self.writer
        if writer is None:
            return {}
        found = {"transactions": writer.stats.transactions}
        try:
            with open(f"/proc/self/task/{writer._thread.native_id}/io") as io:
                for line in io:
                    key, _, value = line.partition(":")
                    if key == "wchar":
                        found["bytes written"] = int(value)
        except OSError:
            pass
        return found

    def ended(self) -> None:
        """The current segment's move ended its game: its window has begun."""
        assert self.current is not None
        self.current.ending = True
        if self.profilers is not None:
            self.profilers["moves"].disable()
            self.profilers["window"].enable()

    def boundary(self, game: str, table_id: int, mover: str) -> None:
        if self.profilers is not None:
            self.profilers["window"].disable()
            if game:  # (between games: neither)
                self.profilers["moves"].enable()
        now = self._writer_figures()
        if self.current is not None:
            for key, value in now.items():
                self.current.figures[key] += value - self._io0.get(key, value)
        self._io0 = now
        self.current = Segment(game, table_id, mover)
        self.segments.append(self.current)

    def close(self) -> None:
        self.boundary("", -1, "")
        self.segments.pop()
        self.current = None


async def quiet(fake, mesa, still: float = 0.3) -> None:
    """Until the bot has nothing under way: its views out, every interaction answered, and no
    request for ``still`` seconds."""
    while True:
        await mesa.bot.listener.drain()
        await fake.settle()
        seen = fake.ratelimits.traffic.bot + fake.ratelimits.traffic.interaction
        await asyncio.sleep(still)
        if seen == fake.ratelimits.traffic.bot + fake.ratelimits.traffic.interaction:
            return


async def run(args: argparse.Namespace) -> Ledger:
    sys.path.append(str(ROOT / "bench"))
    import load_driver

    from tests.e2e.conftest import Mesa
    from tests.fakediscord.server import FakeDiscord

    class LoadLikeMesa(Mesa):
        """The bot with its own settings, as ``bench/load.py`` runs it (not the e2e tests')."""

        def settings(self):
            from bot.settings import Settings

            return Settings(
                _env_file=None,
                discord_token=self.fake.token,
                database_path=self.db_path,
                discord_api_base=self.fake.api_base,
                discord_gateway_url=self.fake.gateway_url,
                cpu_delay_seconds=args.cpu_delay,
            )

    ledger = Ledger(args.bot_root.resolve(), args.game_calls)
    ledger.tracing = args.trace
    ledger.watch_tasks(asyncio.get_running_loop())
    low, high = (float(x) for x in args.think.split(","))
    # (no OpenAPI walk of each request, as bench/load.py's figures: the fake's own cost)
    fake = FakeDiscord(keep_history=False, validate=args.validate)
    await fake.start()
    fake.request_observers.append(ledger.request)
    try:
        with tempfile.TemporaryDirectory() as folder:
            mesa = LoadLikeMesa(fake, Path(folder) / "bot.db")
            await mesa.start()
            try:
                db = mesa.bot.tables.repo.db
                if getattr(db, "dialect", "sqlite") == "sqlite":
                    ledger.writer = db._writer
                    await ledger.writer.submit(
                        lambda c: c.set_trace_callback(ledger.statement), transactional=False
                    )
                if args.cprofile:
                    ledger.profilers = {  # the loop thread's CPU time
                        "moves": cProfile.Profile(time.thread_time),
                        "window": cProfile.Profile(time.thread_time),
                    }
                else:
                    sys.setprofile(ledger.profile)
                try:
                    for n, game in enumerate(args.games.split(",")):
                        await _play_game(
                            args, fake, mesa, ledger, load_driver, game, n, (low, high)
                        )
                finally:
                    sys.setprofile(None)
                    ledger.close()
                    if ledger.profilers is not None:
                        ledger.profilers["moves"].disable()
            finally:
                await mesa.stop()
    finally:
        await fake.stop()
    return ledger


async def _play_game(args, fake, mesa, ledger, load_driver, game, n, think) -> None:
    """Games of ``game`` at one channel until ``args.ends`` of them ended and the next started."""
    world = load_driver.World(
        fake, 0, seed=args.seed + n, think=think, closed_dms=0.0, rematch=args.next == "rematch"
    )
    channel = fake.add_channel(f"life-{game}")
    humans = 1 if game == "triad" else 2
    users = [fake.user(f"{game}{seat}") for seat in range(humans)]
    table = load_driver.LoadTable(world, channel, game, users, channel_play=args.via == "hand")
    world.tables.append(table)
    world.by_channel[channel.id] = table
    ends = 0
    ended_table = -1
    moves = mesa.bot.tables._moves
    real_attempt, real_locked = moves._attempt, moves.act_locked

    async def attempt(table_, move):
        nonlocal ends, ended_table
        events = await real_attempt(table_, move)
        if table_.record.status == "finished" and ledger.current is not None:
            ledger.ended()
            ends += 1
            ended_table = table_.id
            mesa.seed = f"lifecycle-{game}-{ends}"  # the next game deals anew
        return events

    async def first_of_next(table_id: int) -> None:
        """The next game's first move: the window ends once the bot is quiet."""
        if ended_table != -1 and table_id > ended_table:
            await quiet(fake, mesa)
            if ends >= args.ends:
                world.running = False

    async def act_locked(table_, move):
        await first_of_next(table_.id)
        ledger.boundary(game, table_.id, "computer")
        return await real_locked(table_, move)

    moves._attempt, moves.act_locked = attempt, act_locked
    real_click, real_hand = load_driver.Human._click, load_driver.Human._open_hand

    async def click(human, view, choice):
        if not getattr(human, "_in_move", False):  # a move's first click (or draft step)
            await first_of_next(human.table.table_id)
            if not world.running:
                return None
            ledger.boundary(game, human.table.table_id, "person")
        human._in_move = choice.draft
        return await real_click(human, view, choice)

    async def open_hand(human):
        await first_of_next(human.table.table_id)
        if not world.running:
            return None
        ledger.boundary(game, human.table.table_id, "person")
        human._in_move = True
        return await real_hand(human)

    load_driver.Human._click, load_driver.Human._open_hand = click, open_hand
    fake.message_observers.append(world._message)
    fake.request_observers.append(world._request)
    task = asyncio.create_task(table.open())
    try:
        while world.running and not task.done():
            await asyncio.sleep(0.2)
        if task.done():
            task.result()
    finally:
        world.running = False
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        fake.message_observers.remove(world._message)
        fake.request_observers.remove(world._request)
        load_driver.Human._click, load_driver.Human._open_hand = real_click, real_hand
        moves._attempt, moves.act_locked = real_attempt, real_locked
        await quiet(fake, mesa)
        ledger.boundary("", -1, "")  # what follows is no game's


def _mean(segments: list[Segment], attr: str) -> Counter[str]:
    total: Counter[str] = Counter()
    for segment in segments:
        total.update(getattr(segment, attr))
    return Counter({k: v / max(len(segments), 1) for k, v in total.items()})


def _line(label: str, window: float, move: float, digits: int = 1) -> str:
    return (
        f"  {label:<58} {window:>10.{digits}f} {move:>10.{digits}f} {window - move:>+11.{digits}f}"
    )


def report_own_times(ledger: Ledger, args: argparse.Namespace) -> None:
    """--cprofile: own time per game end in the windows beside the same per move elsewhere
    (each game's every move but the ones that ended it), the fake's and the driver's left out."""
    assert ledger.profilers is not None
    windows = sum(1 for s in ledger.segments if s.ending)
    moves = sum(1 for s in ledger.segments if not s.ending and s.game)
    tests = str(args.bot_root.resolve() / "tests") + "/"
    own: dict[str, Counter[str]] = {}
    for name, profiler in ledger.profilers.items():
        found: Counter[str] = Counter()
        stats = pstats.Stats(profiler)
        for (path, line, function), row in stats.stats.items():  # type: ignore[attr-defined]
            if not path.startswith(tests) and "load_driver" not in path and "/web_" not in path:
                found[f"{path.rsplit('/', 2)[-2:]}:{line}:{function}"] += row[2]
        own[name] = found
    per_window = {k: v / max(windows, 1) for k, v in own["window"].items()}
    per_move = {k: v / max(moves, 1) for k, v in own["moves"].items()}
    print(
        f"own time (cProfile's, inflated by its own cost), us: {windows} windows, {moves} moves;"
        f" a window {sum(per_window.values()) * 1e6:.0f}, a move {sum(per_move.values()) * 1e6:.0f}"
    )
    beyond = Counter({k: v - per_move.get(k, 0.0) for k, v in per_window.items()})
    for name, seconds in beyond.most_common(args.top * 2):
        print(f"  {seconds * 1e6:9.1f}  {name}")


def report(segments: list[Segment], args: argparse.Namespace) -> None:
    print(
        f"tree {args.bot_root}: next game by {args.next}, players from {args.via},"
        f" CPU delay {args.cpu_delay} s; load average {os.getloadavg()[0]:.2f}"
    )
    for game in args.games.split(","):
        mine = [s for s in segments if s.game == game]
        windows = [s for s in mine if s.ending]
        if not windows:
            print(f"\n{game}: no game ended")
            continue
        by_mover = {
            m: [s for s in mine if not s.ending and s.mover == m] for m in ("person", "computer")
        }
        print(
            f"\n{game}: {len(windows)} game ends (by {Counter(s.mover for s in windows)}),"
            f" moves beside them: {len(by_mover['person'])} people's,"
            f" {len(by_mover['computer'])} computers'"
        )
        print(f"  {'per game end':<58} {'window':>10} {'a move':>10} {'beyond':>11}")
        sums: dict[str, tuple[Counter[str], Counter[str]]] = {}
        for attr in ("calls", "tasks", "requests", "statements", "figures"):
            window: Counter[str] = Counter()
            move: Counter[str] = Counter()
            for segment in windows:
                peers = by_mover[segment.mover] or by_mover["person"] or by_mover["computer"]
                for key, value in getattr(segment, attr).items():
                    window[key] += value / len(windows)
                for key, value in _mean(peers, attr).items():
                    move[key] += value / len(windows)
            sums[attr] = (window, move)
        calls, tasks, requests, statements, figures = (sums[a] for a in sums)
        print(_line("calls of bot/ functions", sum(calls[0].values()), sum(calls[1].values()), 0))
        print(_line("tasks made by the bot", sum(tasks[0].values()), sum(tasks[1].values())))
        for kind in ("bot", "interaction"):
            w = sum(v for k, v in requests[0].items() if k.startswith(kind + " "))
            m = sum(v for k, v in requests[1].items() if k.startswith(kind + " "))
            print(_line(f"REST requests, {kind}-token", w, m, 2))
        for key in sorted(set(requests[0]) | set(requests[1])):
            print(_line(". " + key, requests[0][key], requests[1][key], 2))
        print(_line("writer statements", sum(statements[0].values()), sum(statements[1].values())))
        for key in sorted(set(statements[0]) | set(statements[1])):
            print(_line(". " + key, statements[0][key], statements[1][key], 2))
        print(
            _line("writer transactions", figures[0]["transactions"], figures[1]["transactions"], 2)
        )
        print(
            _line(
                "KB written by the writer thread",
                figures[0]["bytes written"] / 1024,
                figures[1]["bytes written"] / 1024,
            )
        )
        print(f"  tasks in the window: {dict(tasks[0].most_common(12))}")
        if args.trace:
            print("  the last window, in order:")
            for line in windows[-1].trace:
                print("    " + line)
        beyond = Counter({k: calls[0][k] - calls[1][k] for k in calls[0]})
        print(f"  calls beyond a move, top {args.top}:")
        for name, n in beyond.most_common(args.top):
            print(f"    {n:9.0f}  {name}")


def report_game_calls(segments: list[Segment], args: argparse.Namespace) -> None:
    """--game-calls: per game and mover, the mean move's calls into games/ by entry point and
    caller (a game's ends left out: their windows hold the next game's start)."""
    for game in args.games.split(","):
        for mover in ("person", "computer"):
            mine = [s for s in segments if s.game == game and s.mover == mover and not s.ending]
            if not mine:
                continue
            mean = _mean(mine, "calls")
            print(
                f"\n{game}, {mover}s' moves ({len(mine)}): {sum(mean.values()):.1f} calls into"
                f" games/ a move, top {args.top}:"
            )
            for name, n in mean.most_common(args.top):
                print(f"  {n:8.2f}  {name}")


def main() -> None:
    args = _parse()
    sys.path.insert(0, str(args.bot_root.resolve()))
    if str(ROOT) not in sys.path:
        sys.path.insert(1, str(ROOT))
    started = time.monotonic()
    ledger = asyncio.run(run(args))
    if ledger.profilers is not None:
        report_own_times(ledger, args)
    elif args.game_calls:
        report_game_calls(ledger.segments, args)
    else:
        report(ledger.segments, args)
    print(f"({time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()
