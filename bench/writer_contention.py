"""The database writer under a busy event loop (issue 29): what a move's write costs the writer
thread and the loop's thread when the loop holds the GIL most of the time, as the bot's does at
1,000 tables. ``bench/storage_per_move.py`` plays one move at a time on a quiet loop: there the
writer takes the GIL whenever it wants, so the hand-overs around each statement cost nothing.

A uvloop loop (the bot's) plays clicks on ``--tables`` tables at ``--rate`` moves per second:
each click queues its intent (``IntentsRepo.start``, as a click does), does the engine's share
of Python work, writes its move (``TablesRepo.record_action`` with the intent) and awaits it,
then does the views' share in slices with a socket write and a loop turn between them (the
GIL is let go at each, as the bot's requests do). The Python work is a fixed count of
operations (``--work``, per move), the same for every tree. Measured for ``--window`` seconds,
per move: the writer thread's CPU and the loop thread's (the kernel's clocks), their context
switches (voluntary: a wait, e.g. for the GIL; involuntary: preempted), and the persist's wall
time p50/p99 (queued to awaited). Trees run one after the other, ``--rounds`` times, in
separate processes (``--bot-root A,B``); figures are per round, then the median and the least.
``--sequential N`` plays N moves one after the other instead (each its own transaction, no
window): the threads' CPU then depends little on how busy the machine is.
``--instructions`` counts instead what moves played one after the other cost in instructions
(valgrind's callgrind, every thread: the loop's and the writer's user-space work, no wait).
``--states mix`` writes real states instead of one synthetic ~2 KB text: each table one of
load.py's games at its players (its row with their seats and timeouts), its moves that game's
states in turn (played by this tree's engines, the same for every tree measured);
``--states macarena`` one game's.

    .venv/bin/python bench/writer_contention.py --bot-root ../wt-before,.
    .venv/bin/python bench/writer_contention.py --tables 1000 --rate 150 --window 20
    .venv/bin/python bench/writer_contention.py --instructions --work 0 --bot-root ../wt-before,.
    .venv/bin/python bench/writer_contention.py --states mix --bot-root ../wt-before,.

Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = r"""
import asyncio, json, os, random, socket, sys, tempfile, threading, time
import uvloop
from storage import Intent, open_database
from storage.intents import IntentsRepo
from storage.tables import SeatInfo, TablesRepo

TABLES, RATE, WINDOW, WORK, WARMUP, SEQUENTIAL = (
    int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]),
    int(sys.argv[6]),
)
SEATS = [SeatInfo(id="1", name="Ana"), SeatInfo(id="2", name="Bea")]
STATE = json.dumps({"cards": [f"c{i}" for i in range(300)]})  # ~2 KB, as a game's state
# ``--states``: each table's moves write one game's real states in turn (a file of JSON lists)
STATES = (
    json.loads(open(os.environ["MESA_BENCH_STATES"]).read())
    if os.environ.get("MESA_BENCH_STATES") else [[STATE]]
)


SNOWFLAKE = 1_450_000_000_000_000_000  # an interaction id of 2026


def state_of(table, version):
    states = STATES[table.id % len(STATES)]
    return states[(table.id * 7 + version) % len(states)]


def work(n):  # a fixed amount of Python: the engine's or the views' share of a move
    total = 0
    for i in range(n):
        total += i * i % 7
    return total


def thread_figures(thread):
    tid = thread.native_id
    cpu = time.clock_gettime(time.pthread_getcpuclockid(thread.ident))
    switches = {}
    with open(f"/proc/self/task/{tid}/io") as io:
        for line in io:
            name, value = line.split(":")
            switches[name] = int(value)
    with open(f"/proc/self/task/{tid}/status") as status:
        for line in status:
            if "ctxt_switches" in line:
                name, value = line.split(":")
                switches[name.strip()] = int(value)
    return (
        cpu,
        switches["voluntary_ctxt_switches"],
        switches["nonvoluntary_ctxt_switches"],
        switches["wchar"],
        switches["rchar"],
    )


async def main():
    with tempfile.TemporaryDirectory(dir=os.environ.get("MESA_BENCH_DIR")) as folder:
        await measure(folder)


async def measure(folder):
    db = await open_database(os.path.join(folder, "contention.db"))
    repo, intents = TablesRepo(db), IntentsRepo(db)
    tables = []
    for n in range(TABLES):
        seats, meta = SEATS, {}
        if os.environ.get("MESA_BENCH_STATES"):  # a real table's row: its game's seats, meta
            ids = json.loads(STATES[(n + 1) % len(STATES)][0]).get("seats", ["1", "2"])
            seats = [SeatInfo(id=s, name=f"Player {i}") for i, s in enumerate(ids)]
            meta = {"timeouts": {s: 0 for s in ids}}
        record = await repo.create(
            guild_id="g", channel_id=f"c{n}", game="triad", host_id="1", locale="es",
            options={}, seats=seats, seed="s", meta=meta,
        )
        await repo.start(record.id, seats, state_of(record, 0), 0)
        tables.append(await repo.get(record.id))
    busy = set()
    send, receive = socket.socketpair()
    send.setblocking(False)
    receive.setblocking(False)
    loop = asyncio.get_running_loop()
    drained = [0]

    def readable():
        try:
            drained[0] += len(receive.recv(65536))
        except BlockingIOError:
            pass

    loop.add_reader(receive.fileno(), readable)
    persists, moves, clicks = [], [0], [0]
    measuring = [False]

    async def click(table):
        try:
            clicks[0] += 1
            intent = Intent(
                # increasing, as Discord's snowflakes are (the intents' key: appended)
                interaction_id=str(SNOWFLAKE + clicks[0]), application_id="a",
                token="t" * 160, table_id=table.id, seat="1", version=table.version,
                action="p 1", locale="es", created_at=time.time(),
            )
            intents.start(intent)
            await asyncio.sleep(0)
            work(WORK // 4)  # the engine's share
            start = time.perf_counter()
            write = repo.record_action(
                table, seat="1", action="p 1", state_json=state_of(table, table.version + 1),
                version=table.version + 1,
                intent=intent, wake_at=time.time() + 60,
            )
            await write
            if measuring[0]:
                persists.append((time.perf_counter() - start) * 1000)
                moves[0] += 1
            table.version += 1
            for _ in range(3):  # the views' share: slices, each ending in a request sent
                work(WORK // 4)
                try:
                    send.send(b"x" * 512)
                except BlockingIOError:  # the reader behind (a loaded machine): dropped
                    pass
                await asyncio.sleep(0)
        finally:
            busy.discard(table.id)

    rng = random.Random(1)
    if SEQUENTIAL:  # that many moves one after the other (the instruction count's runs)
        measuring[0] = True
        writer_thread = db._writer._thread
        first = thread_figures(writer_thread), thread_figures(threading.current_thread())
        for _ in range(SEQUENTIAL):
            table = tables[rng.randrange(TABLES)]
            busy.add(table.id)
            await click(table)
        (w0, _, _, ww0, wr0), (l0, *_) = first
        (w1, _, _, ww1, wr1), (l1, *_) = (
            thread_figures(writer_thread), thread_figures(threading.current_thread())
        )
        await db.close()
        per = max(moves[0], 1)
        print(json.dumps({
            "moves": moves[0],
            "writer CPU us/move": 1e6 * (w1 - w0) / per,
            "loop CPU us/move": 1e6 * (l1 - l0) / per,
            "writer KB written/move": (ww1 - ww0) / 1024 / per,
            "writer KB read/move": (wr1 - wr0) / 1024 / per,
        }))
        return
    tasks = set()
    writer_thread = db._writer._thread
    loop_thread = threading.current_thread()
    started = time.perf_counter()
    first = None
    n = 0
    while True:
        now = time.perf_counter() - started
        if first is None and now >= WARMUP:
            first = (thread_figures(writer_thread), thread_figures(loop_thread))
            transactions = db.write_stats.transactions
            measuring[0] = True
        if now >= WARMUP + WINDOW:
            break
        due = n / RATE
        if due > now:
            await asyncio.sleep(due - now)
            continue
        n += 1
        table = tables[rng.randrange(TABLES)]
        if table.id in busy:
            continue
        busy.add(table.id)  # one click at a time per table
        task = asyncio.ensure_future(click(table))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
    last = (thread_figures(writer_thread), thread_figures(loop_thread))
    transactions = db.write_stats.transactions - transactions
    measuring[0] = False
    await asyncio.gather(*tasks)
    await db.close()
    per = max(moves[0], 1)
    persists.sort()
    (w0, wv0, wi0, ww0, wr0), (l0, lv0, li0, _, _) = first
    (w1, wv1, wi1, ww1, wr1), (l1, lv1, li1, _, _) = last
    print(json.dumps({
        "moves": moves[0],
        "transactions/move": transactions / per,
        "writer CPU us/move": 1e6 * (w1 - w0) / per,
        "loop CPU us/move": 1e6 * (l1 - l0) / per,
        "writer KB written/move": (ww1 - ww0) / 1024 / per,
        "writer KB read/move": (wr1 - wr0) / 1024 / per,
        "writer waits/move": (wv1 - wv0) / per,
        "writer preempted/move": (wi1 - wi0) / per,
        "loop waits/move": (lv1 - lv0) / per,
        "loop preempted/move": (li1 - li0) / per,
        "persist p50 ms": persists[len(persists) // 2] if persists else 0,
        "persist p99 ms": persists[int(len(persists) * 0.99)] if persists else 0,
    }))


uvloop.run(main())
"""


# load.py's tables: each game at its players (people and computers)
LOAD_PLAYERS = {"amapatolli": 3, "chupate2": 4, "maquiavelo": 3, "macarena": 3, "triad": 2}


def write_states(keys: str, path: Path) -> None:
    """Real states for ``--states``: per game, those of random games played at load.py's players
    (this tree's engines), one list per game, in the order they were played."""
    import random

    sys.path.insert(0, str(ROOT))
    from bot.registry import load_games

    games = load_games(tuple(LOAD_PLAYERS) if keys == "mix" else tuple(keys.split(",")))
    lists = []
    for key, game in games.items():
        states, rng = [], random.Random(key)
        for n in range(3):
            seats = [f"{10**17 + n}{i}" for i in range(LOAD_PLAYERS.get(key, 2))]
            state = game.new(seats, f"contention-{key}-{n}", {})
            while not game.is_over(state) and len(states) < 300 * (n + 1):
                movers = sorted(s for s in game.to_act(state) if game.legal_actions(state, s))
                if not movers:
                    break
                seat = rng.choice(movers)
                state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
                states.append(game.dump_state(state))
        lists.append(states)
    path.write_text(json.dumps(lists))


def bench_env(root: Path, args: argparse.Namespace) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(root.resolve()), "MESA_BENCH_DIR": str(ROOT / "bench")}
    if args.states_file is not None:
        env["MESA_BENCH_STATES"] = str(args.states_file)
    return env


def run(root: Path, args: argparse.Namespace) -> dict[str, float]:
    env = bench_env(root, args)
    argv = [str(args.tables), str(args.rate), str(args.window), str(args.work), str(args.warmup)]
    argv.append(str(args.sequential))
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, *argv],
        env=env,
        cwd=root,
        check=True,
        stdout=subprocess.PIPE,
        text=True,
    )
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def instructions(root: Path, args: argparse.Namespace) -> float:
    """Instructions per move (callgrind: every thread, user space; a loaded machine does not
    change them): ``--many`` moves one after the other less ``--few``, over the same tables."""
    sys.path.insert(0, str(ROOT))
    from bench.count_request_instructions import callgrind

    counted = []
    for moves in (args.few, args.many):
        argv = [str(args.tables), "1", "0", str(args.work), "0", str(moves)]
        os.environ.update(bench_env(root, args))
        here = Path.cwd()
        os.chdir(root)  # ``-c`` puts the working directory first on the path
        try:
            total, _ = callgrind(["-c", SCRIPT, *argv])
        finally:
            os.chdir(here)
        counted.append(total)
    return (counted[1] - counted[0]) / (args.many - args.few)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot-root", default=str(ROOT), help="trees, comma-separated")
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=150.0, help="moves per second (150)")
    parser.add_argument("--work", type=int, default=12000, help="Python operations per move")
    parser.add_argument("--window", type=float, default=15.0, help="measured seconds (15)")
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--instructions", action="store_true", help="instructions per move (callgrind) instead"
    )
    parser.add_argument("--few", type=int, default=100, help="--instructions: moves of one run")
    parser.add_argument("--many", type=int, default=600, help="--instructions: of the other")
    parser.add_argument(
        "--sequential",
        type=int,
        default=0,
        help="N moves one after the other instead of a paced window (no batching: each its"
        " own transaction), their threads' CPU by the kernel's clocks",
    )
    parser.add_argument(
        "--states",
        help="real states: 'mix' (load.py's games, a table each in turn) or game keys, played"
        " by this tree's engines (default: one synthetic ~2 KB state)",
    )
    args = parser.parse_args()
    args.states_file = None
    if args.states:
        args.states_file = ROOT / "bench" / f".contention-states-{os.getpid()}.json"
        write_states(args.states, args.states_file)
    try:
        return measure(args)
    finally:
        if args.states_file is not None:
            args.states_file.unlink(missing_ok=True)


def measure(args: argparse.Namespace) -> int:
    roots = [Path(r) for r in args.bot_root.split(",")]
    if args.instructions:
        for root in roots:
            per_move = instructions(root, args)
            print(f"{root}: {per_move:,.0f} instructions per move (moves one after the other)")
        return 0
    results: dict[Path, list[dict[str, float]]] = {root: [] for root in roots}
    for round_ in range(args.rounds):
        for root in roots:
            figures = run(root, args)
            results[root].append(figures)
            cells = ", ".join(f"{k} {v:.2f}" for k, v in figures.items())
            load = " ".join(f"{x:.1f}" for x in os.getloadavg())
            print(f"round {round_ + 1} {root}: {cells} (load {load})", flush=True)
    keys = list(next(iter(results.values()))[0])
    for name, pick in (("median", statistics.median), ("least", min)):
        print(f"| {name} per move | " + " | ".join(str(r) for r in roots) + " |")
        print("|---|" + "---:|" * len(roots))
        for key in keys:
            cells = " | ".join(f"{pick(f[key] for f in results[root]):.2f}" for root in roots)
            print(f"| {key} | {cells} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
