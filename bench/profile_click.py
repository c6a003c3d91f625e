"""What one click costs our code, counted: the real bot in this process against the fake Discord
(``tests/e2e``'s harness), Amapatolli games of three people played move by move from their DM
hands (``--via dm``) or from the table's ``Ver mi mano`` hands (``--via hand``); for each move,
from the click to the moment every view it changed is out, the Python functions of ``bot/``
that ran (calls, by function), the tasks and the timers made, and the process's CPU.

    .venv/bin/python bench/profile_click.py                     # DM clicks, 60 moves
    .venv/bin/python bench/profile_click.py --via hand --moves 80
    .venv/bin/python bench/profile_click.py --bot-root ../before-checkout   # another tree
    .venv/bin/python bench/profile_click.py --cpu-only    # no profiler: CPU per move alone

Calls and tasks are counts (the same on a loaded machine: a before/after that does not depend
on the load); the CPU per move includes the fake Discord and the driver, and the profiler's
own cost (``sys.setprofile`` on every call), so it is only comparable between two runs of this
script. Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=60, help="moves measured (60)")
    parser.add_argument("--via", choices=("dm", "hand"), default="dm")
    parser.add_argument("--bot-root", type=Path, default=ROOT, help="the tree measured")
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument(
        "--cpu-only",
        action="store_true",
        help="no call counts (no profiler): the CPU per move of the bot, the fake and the driver",
    )
    parser.add_argument(
        "--cprofile",
        action="store_true",
        help="cProfile instead of the call counts: own time per move of bot/'s functions",
    )
    return parser.parse_args()


class Counted:
    """Calls of the functions of ``bot/`` (by function), tasks and timers made, while on."""

    def __init__(self, root: Path) -> None:
        self.prefix = str(root / "bot") + "/"
        self.tests = str(root / "tests") + "/"
        self.calls: Counter[str] = Counter()
        self.tasks: Counter[str] = Counter()
        self.timers = 0
        self.on = False
        self.cprofile: cProfile.Profile | None = None
        self.cpu_only = False

    def _profile(self, frame, event, arg) -> None:
        if event == "call":
            code = frame.f_code
            if code.co_filename.startswith(self.prefix):
                name = code.co_filename[len(self.prefix) :]
                self.calls[f"{name}:{code.co_qualname}"] += 1

    def watch(self, loop: asyncio.AbstractEventLoop) -> None:
        factory = loop.get_task_factory()

        def task(loop, coro, **kwargs):
            if self.on and self._the_bots(sys._getframe(1)):
                name = getattr(coro, "__qualname__", type(coro).__name__)
                if name == "ViewKit._drain_slot":  # by the kind of slot it shows
                    inner = getattr(coro, "_coroutine", coro)  # (one started now: items._eager)
                    frame = getattr(inner, "cr_frame", None)
                    slot = frame.f_locals.get("slot") if frame is not None else None
                    name += f" ({getattr(slot, 'kind', '?')})"
                self.tasks[name] += 1
            if factory is not None:
                return factory(loop, coro, **kwargs)
            return asyncio.Task(coro, loop=loop, **kwargs)

        loop.set_task_factory(task)
        real_call_at = loop.call_at

        def call_at(when, callback, *args, **kwargs):
            if self.on and self._the_bots(sys._getframe(1)):
                self.timers += 1
            return real_call_at(when, callback, *args, **kwargs)

        loop.call_at = call_at  # type: ignore[method-assign]

    def _the_bots(self, frame) -> bool:
        """Whether the code that makes a task is the bot's (a frame of ``bot/`` on its stack
        before one of ``tests/``: the fake Discord and the driver are not counted)."""
        while frame is not None:
            name = frame.f_code.co_filename
            if name.startswith(self.prefix):
                return True
            if name.startswith(self.tests):
                return False
            frame = frame.f_back
        return False

    def __enter__(self) -> Counted:
        self.on = True
        if self.cprofile is not None:
            self.cprofile.enable()
        elif not self.cpu_only:
            sys.setprofile(self._profile)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.cprofile is not None:
            self.cprofile.disable()
        elif not self.cpu_only:
            sys.setprofile(None)
        self.on = False

    def own_times(self) -> Counter[str]:
        """cProfile's own time (s) of each function of ``bot/``."""
        found: Counter[str] = Counter()
        if self.cprofile is None:
            return found
        stats = pstats.Stats(self.cprofile)
        for (path, line, name), row in stats.stats.items():  # type: ignore[attr-defined]
            if path.startswith(self.prefix):
                found[f"{path[len(self.prefix) :]}:{line}:{name}"] += row[2]
        return found


async def run(args: argparse.Namespace) -> None:
    from tests.e2e.conftest import Mesa
    from tests.fakediscord.server import FakeDiscord

    counted = Counted(args.bot_root.resolve())
    if args.cprofile:
        counted.cprofile = cProfile.Profile()
    counted.cpu_only = args.cpu_only
    counted.watch(asyncio.get_running_loop())
    fake = FakeDiscord()
    await fake.start()
    measured = 0
    cpu = 0.0
    games = 0
    with tempfile.TemporaryDirectory() as tmp:
        try:
            while measured < args.moves:
                mesa = Mesa(fake, Path(tmp) / f"g{games}.db")
                mesa.seed = f"e2e-big-{games:04d}"
                await mesa.start()
                try:
                    measured, cpu = await _play(fake, mesa, counted, args, games, measured, cpu)
                finally:
                    await mesa.stop()
                games += 1
        finally:
            await fake.stop()
    _report(counted, measured, cpu, args)


async def _play(fake, mesa, counted, args, games, measured, cpu):
    from tests.e2e.amapatolli_driver import start_game
    from tests.e2e.driver_kit import HandlersDone

    players = [fake.user(f"p{games}{n}") for n in range(3)]
    if args.via == "hand":
        for player in players:
            player.dms_open = False
    channel = fake.add_channel(f"game-{games}")  # each game its own channel
    table = await start_game(fake, players, seed=mesa.seed, hand_size=7, channel=channel)
    for _ in range(3):  # everyone clicked once: their views ride their own tokens
        if table.oracle.finished:
            return measured, cpu
        await table.move()
    await mesa.bot.listener.drain()

    class _Patch:  # HandlersDone's monkeypatch: kept for the game
        def setattr(self, target, name, value):
            setattr(target, name, value)

    handled = HandlersDone(mesa.bot.pending_commands, _Patch())
    while not table.oracle.finished and measured < args.moves:
        done = handled.count
        start = time.process_time()
        with counted:
            await table.move()
            await fake.wait_until(lambda d=done: handled.count > d, what="the click's handler")
            await _views_out(mesa.bot.listener.kit)
        cpu += time.process_time() - start
        measured += 1
    return measured, cpu


async def _views_out(kit) -> None:
    """Until the views' workers are done (``ViewKit.drain_tasks`` without ending the waiting
    hands' holds: they end on their timers, as in the live bot)."""
    while pending := [t for t in kit._tasks if not t.done()]:
        await asyncio.gather(*pending, return_exceptions=True)


def _report(counted: Counted, moves: int, cpu: float, args: argparse.Namespace) -> None:
    per = 1 / max(moves, 1)
    calls = sum(counted.calls.values())
    tasks = sum(counted.tasks.values())
    print(f"tree {args.bot_root}, {moves} moves from {args.via} hands")
    print(
        f"per move: {calls * per:.0f} calls of bot/ functions, {tasks * per:.2f} tasks,"
        f" {counted.timers * per:.2f} timers; CPU {cpu * per * 1000:.2f} ms (with the fake,"
        f" the driver{'' if args.cpu_only else ' and the profiler'})"
    )
    print("\ntasks per move:")
    for name, n in counted.tasks.most_common(20):
        print(f"  {n * per:7.2f}  {name}")
    if counted.cprofile is not None:
        own = counted.own_times()
        print(f"\nown time of bot/'s functions: {sum(own.values()) * per * 1e6:.0f} us per move")
        print(f"top {args.top}, us per move (cProfile's, inflated by its own cost):")
        for name, seconds in own.most_common(args.top):
            print(f"  {seconds * per * 1e6:7.1f}  {name}")
        return
    print(f"\ncalls per move, top {args.top}:")
    for name, n in counted.calls.most_common(args.top):
        print(f"  {n * per:7.2f}  {name}")


def main() -> None:
    args = _parse()
    sys.path.insert(0, str(args.bot_root.resolve()))
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
