"""Session 22's click-path steps, per call, in this process (load-proof: best of several rounds,
the collector frozen): a Triple Triad draft step as the play cog runs it (in a thread when the
tree's presenter says it may search or has no say, else on the loop), a notification's frozen
table (``notify.as_of`` then its build), one seat's hands forgotten at a game's end with N
tables' hands followed (``WaitingHands.forget``), a computer move's action text parsed, and a
clicked table button rebuilt from its custom_id and component (``_dispatch``), a
click's token birth read (``Tokens.arrival``: 2-3 per click), a
table's ending hands taken (``EphemeralViews._take`` at each game's end, N tables' hands live:
a walk of them all before session 23, its seats' keys since), and a
turn timer re-armed by each move (``TurnTimers.restart``, one loop turn after each, less a bare
loop turn: a sleeping task before session 23, a loop timer handle since).

    .venv/bin/python bench/flow_steps.py
    .venv/bin/python bench/flow_steps.py --bot-root ../before-checkout   # another tree

Figures only; nothing is asserted. Run two trees back to back and compare.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot-root", type=Path, default=ROOT, help="the tree measured")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--calls", type=int, default=3000, help="calls per round")
    return parser.parse_args()


def _best(rounds: int, calls: int, step: Callable[[int], Any]) -> float:
    """Best CPU microseconds per call (process time: a thread's work counts too)."""
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        for n in range(calls):
            step(n)
        best = min(best, (time.process_time() - start) / calls * 1e6)
    return best


async def _draft_step_us(rounds: int, calls: int) -> float:
    from bot.registry import load_games
    from bot.ui.presenter import presenter_for

    game = load_games()["triad"]
    presenter = presenter_for(game)
    for seed in range(100):
        state = game.new(["111", "222"], f"s{seed}")
        seat = sorted(game.to_act(state))[0]
        legal = game.legal_actions(state, seat)
        if legal and legal[0].kind == "play":
            break
    view, first = game.view(state, seat), legal[0]
    steps = [({}, f"c{first.slot}"), ({"slot": first.slot}, f"x{first.cell}")]
    searches = getattr(presenter, "draft_searches", lambda op: True)  # (before: every step)
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        for n in range(calls):
            draft, op = steps[n % 2]
            if searches(op):
                await asyncio.to_thread(presenter.draft_step, view, legal, draft, op, [])
            else:
                presenter.draft_step(view, legal, draft, op, [])
                await asyncio.sleep(0)  # (the same loop turn either way)
        best = min(best, (time.process_time() - start) / calls * 1e6)
    return best


def _as_of_us(rounds: int, calls: int) -> float:
    from bot.service.notify import as_of

    table = _macarena_table(meta={"timeouts": {"1": 0}}, message_id="55")
    return _best(rounds, calls, lambda n: as_of(table)())


def _macarena_table(**fields: Any) -> Any:
    """A playing Macarena table of three people at version 3 (``fields``: the record's others)."""
    from bot.registry import load_games
    from bot.service.models import Table
    from storage import TableRecord

    game = load_games()["macarena"]
    record = TableRecord(
        id=1,
        guild_id="g",
        channel_id="c",
        game="macarena",
        status="playing",
        host_id="1",
        locale="es",
        options={"turn_seconds": 60},
        seats=[{"id": s, "name": f"P{s}"} for s in ("1", "2", "3")],
        seed="s",
        version=3,
        **fields,
    )
    return Table(record=record, game=game, state=game.new(["1", "2", "3"], "s"))


def _forget_us(rounds: int, calls: int, tables: int) -> float:
    from bot.ui.waiting_hands import WaitingHands

    class Kit:
        clock = staticmethod(time.monotonic)

    hands = WaitingHands(Kit())  # type: ignore[arg-type]
    for table_id in range(tables):
        for seat in ("1", "2", "3"):
            hands._shown_at[("dm", table_id, seat)] = 1.0
            hands._shown_at[("hand", table_id, seat)] = 1.0
    return _best(rounds, calls, lambda n: hands.forget(n % tables, "9"))


def _decode_us(rounds: int, calls: int) -> float:
    from bot.registry import load_games

    game = load_games()["macarena"]
    rng = random.Random(1)
    state, texts = game.new(["cpu1", "cpu2", "cpu3"], "s"), []
    while not game.is_over(state) and len(texts) < 300:  # the actions of a random game
        seat = sorted(game.to_act(state))[0]
        action = rng.choice(game.legal_actions(state, seat))
        texts.append(action.encode())
        state, _ = game.apply(state, seat, action)
    return _best(rounds, calls, lambda n: game.decode_action(texts[n % len(texts)]))


def _rebuilt_us(rounds: int, calls: int) -> float:
    import re

    import discord

    from bot.ui.items import ActionButton

    component = discord.components.Button._raw_construct(
        type=discord.ComponentType.button,
        custom_id="t:17:12:p.3",
        url=None,
        disabled=False,
        label="Jugar",
        style=discord.ButtonStyle.primary,
        emoji=None,
        sku_id=None,
        id=None,
    )
    pattern = ActionButton.__discord_ui_compiled_template__.pattern
    match = re.compile(pattern).fullmatch("t:17:12:p.3")
    from_click = getattr(ActionButton, "from_click", None)  # (this session's tree)

    def rebuilt(n: int) -> Any:
        if from_click is not None:
            return from_click(component, match)
        coroutine = ActionButton.from_custom_id(None, component, match)  # type: ignore[arg-type]
        try:
            coroutine.send(None)
        except StopIteration as done:
            return done.value

    return _best(rounds, calls, rebuilt)


def _birth_us(rounds: int, calls: int) -> float:
    import discord

    from bot.ui.tokens import Tokens

    class Click:  # what a discord.Interaction has: an id, and its time as ``created_at``
        id = discord.utils.time_snowflake(discord.utils.utcnow())
        created_at = discord.Interaction.created_at

    click = Click()
    tokens = Tokens(time.monotonic)
    return _best(rounds, calls, lambda n: tokens.arrival(click))  # type: ignore[arg-type]


def _take_us(rounds: int, calls: int, tables: int) -> float:
    import inspect

    from bot.i18n import translator
    from bot.ui.ephemeral import EphemeralViews

    views = EphemeralViews(time.monotonic)
    tr = translator("es")
    seats = ("1", "2", "3")

    class Interaction:
        id = 1

    def fill(table_id: int) -> None:
        for seat in seats:
            views.remember(table_id, seat, Interaction(), tr, message_id=9)  # type: ignore[arg-type]

    for table_id in range(tables):
        fill(table_id)
    by_seats = len(inspect.signature(views._take).parameters) == 2  # (this session's tree)

    def take(n: int) -> None:
        table_id = n % tables
        if by_seats:
            views._take(table_id, seats)  # type: ignore[call-arg]
        else:
            views._take(table_id)  # type: ignore[call-arg]
        fill(table_id)

    return _best(rounds, calls, take) - _best(rounds, calls, lambda n: fill(n % tables))


async def _timer_restart_us(rounds: int, calls: int) -> float:
    from bot.service.context import ServiceContext
    from bot.service.models import ServiceConfig
    from bot.service.timers import TurnTimers

    table = _macarena_table()
    game = table.game
    ctx = ServiceContext(
        repo=None,  # type: ignore[arg-type]
        games={"macarena": game},
        listener=None,  # type: ignore[arg-type]
        config=ServiceConfig(),
        seed_factory=lambda: "s",
        sleep=asyncio.sleep,
    )
    timers = TurnTimers(ctx, None, lambda table: None)  # type: ignore[arg-type]

    async def turns(restart: bool) -> float:
        best = float("inf")
        for _ in range(rounds):
            start = time.process_time()
            for _ in range(calls):
                if restart:
                    timers.restart(table)
                await asyncio.sleep(0)  # the loop turn in which a sleeping task steps
            best = min(best, (time.process_time() - start) / calls * 1e6)
        return best

    try:
        return await turns(True) - await turns(False)
    finally:
        timers.cancel(table.id)
        await asyncio.sleep(0)


async def main(args: argparse.Namespace) -> None:
    gc.collect()
    gc.freeze()
    rounds, calls = args.rounds, args.calls
    print(f"tree {args.bot_root}: best of {rounds} rounds x {calls} calls, CPU us per call")
    print(
        f"  Triple Triad draft step (card, cell) as the click path runs it: "
        f"{await _draft_step_us(rounds, calls):.2f}"
    )
    print(f"  notification's frozen table (as_of + build): {_as_of_us(rounds, calls):.2f}")
    for tables in (300, 1000):
        print(
            f"  forget one seat's hands, {tables} tables followed: "
            f"{_forget_us(rounds, calls, tables):.2f}"
        )
    print(
        f"  a Macarena action text parsed (each computer move's before session 22): "
        f"{_decode_us(rounds, calls):.2f}"
    )
    print(f"  a clicked table button rebuilt: {_rebuilt_us(rounds, calls):.2f}")
    print(f"  a click's token birth read: {_birth_us(rounds, calls):.2f}")
    for tables in (300, 1000):
        print(
            f"  a game's end takes its live hands, {tables} tables' hands live: "
            f"{_take_us(rounds, calls, tables):.2f}"
        )
    print(f"  a turn timer re-armed by a move: {await _timer_restart_us(rounds, calls):.2f}")


if __name__ == "__main__":
    arguments = _parse()
    sys.path.insert(0, str(arguments.bot_root.resolve()))
    try:
        import uvloop

        uvloop.run(main(arguments))
    except ImportError:
        asyncio.run(main(arguments))
