"""What ``games.core.eventlog.LOG_DUMPS`` keeps while many tables play, in this process: N
tables of the five games (4 seats, 2 for Triple Triad, snowflake-long ids) play random moves,
each move's state dumped as the bot dumps it (``Game.dump_state``), a finished game replaced
by a new one. Printed: the bytes ``tracemalloc`` traces at eventlog.py's lines (the encoded
events: orjson 3.12+ returns a 4 KB buffer for an event's ~100 bytes unless it is copied),
LOG_DUMPS' entries, distinct events and their ``sys.getsizeof``, the bytes it counts against
its bound, its hits and misses per dump, and the traced total. Counts and bytes only (no
timing); ``--root`` measures another checkout (before/after).

    .venv/bin/python bench/log_dumps_memory.py [--tables 300] [--moves 20000] [--root ../before]
"""

from __future__ import annotations

import argparse
import random
import sys
import tracemalloc
from importlib import import_module
from pathlib import Path

KEYS = ("amapatolli", "chupate2", "macarena", "maquiavelo", "triad")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--moves", type=int, default=20000)
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1])
    args = parser.parse_args(argv)
    sys.path.insert(0, str(args.root.resolve()))
    tracemalloc.start(1)
    eventlog = import_module("games.core.eventlog")
    rng = random.Random(1)
    tables = []
    for i in range(args.tables):
        key = KEYS[i % len(KEYS)]
        game = import_module(f"games.{key}").GAME
        seats = [str(10**17 + rng.randrange(10**17)) for _ in range(2 if key == "triad" else 4)]
        tables.append([game, seats, game.new(seats, f"t{i}", None)])
    ended = 0
    for step in range(args.moves):
        table = tables[rng.randrange(len(tables))]
        game, seats, state = table
        movers = [] if game.is_over(state) else game.to_act(state)
        movers = sorted(s for s in movers if game.legal_actions(state, s))
        if movers:
            seat = rng.choice(movers)
            table[2], _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        else:
            table[2] = game.new(seats, f"n{step}", None)
            ended += 1
        game.dump_state(table[2])
    snapshot = tracemalloc.take_snapshot()
    sites = [
        s for s in snapshot.statistics("lineno") if s.traceback[0].filename == eventlog.__file__
    ]
    dumps = eventlog.LOG_DUMPS
    kept = dumps._kept
    events = {id(b): b for entry in kept.values() for b in entry[1]}
    print(f"{args.tables} tables, {args.moves} moves, {ended} games ended ({args.root})")
    print("eventlog.py's lines holding most (line: bytes traced in blocks):")
    for s in sites[:3]:
        print(f"  {s.traceback[0].lineno}: {s.size:,} B in {s.count:,} blocks")
    hits, misses = getattr(dumps, "hits", None), getattr(dumps, "misses", None)
    rate = f" ({hits / max(hits + misses, 1):.1%} of the dumps hit)" if hits is not None else ""
    print(
        f"LOG_DUMPS: {len(kept):,} entries, {len(events):,} distinct events of"
        f" {sum(map(sys.getsizeof, events.values())):,} B (getsizeof); counted against its bound:"
        f" {getattr(dumps, 'bytes', None)}; hits / misses {hits} / {misses}{rate}"
    )
    print(f"traced in all: {tracemalloc.get_traced_memory()[0] / 2**20:.1f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
