"""What the bot hands a search worker per computer turn (``bot.service.cpu.next_move_off_loop``:
``choose_action_text``'s arguments, the seat's view among them): the job's pickled bytes and
the CPU to pickle it (bot) and unpickle it (worker), as ``Connection.send`` pickles it and as
``bot.pipe_workers.compact_dumps`` does, and with the view as its JSON as the search pool sends
it (``views_as_json_dumps``), per game after random moves, the rounds interleaved
(A, B, A, B…) so a machine's drift hits both alike.

    .venv/bin/python bench/search_handoff.py [--games 6] [--moves 40] [--repeat 200] [--rounds 3]

Figures only (CPU time of this process); nothing is asserted.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from multiprocessing.reduction import ForkingPickler

from bench.render_handoff import cpu_ms
from bot.pipe_workers import (
    _Meter,
    _plain_dumps,
    _views_sent_as_json,
    compact_dumps,
    views_as_json_dumps,
)
from bot.registry import load_games
from bot.service.choose import choose_action_text, game_ref
from tests.playouts import played


def _plain(job: tuple[Any, ...]) -> bytes:
    return bytes(ForkingPickler.dumps(job))


def _later(job: tuple[Any, ...]) -> bytes:
    """The search pool's bytes at a worker's later jobs: the function by its index."""
    sent = _views_sent_as_json(*job, {})
    assert sent is not None
    return _plain_dumps((0, sent[1]))


WAYS: dict[str, Callable[[Any], bytes]] = {
    "send": _plain,
    "compact": compact_dumps,
    "json": views_as_json_dumps,  # the search pool's at a worker's first job of the function
    "json, later jobs": _later,  # and then (the worker knows the function by its index)
}


def _reader(way: str, job: tuple[Any, ...]) -> Callable[[bytes], Any]:
    """The job ``(fn, args)`` from its bytes, as a worker reads them (the search pool's: by
    its meter, the function known from the first job at later jobs)."""
    if not way.startswith("json"):
        return ForkingPickler.loads
    meter = _Meter()
    if way == "json":

        def first(data: bytes) -> Any:
            read = meter.unpickle(data)
            meter.known.clear()  # (each time a worker's first job)
            return read

        return first
    meter.unpickle(views_as_json_dumps(job))
    return meter.unpickle


def jobs(key: str, game: Any, count: int, moves: int) -> list[tuple[Any, ...]]:
    """A search job per computer seat to act after random moves of ``count`` games."""
    out = []
    for n in range(count):
        seats = [str(100 + i) for i in range(max(game.min_players, min(3, game.max_players)))]
        state = game.new(seats, f"search-{key}-{n}", None)
        rng = random.Random(n)
        state = played(game, state, rng, rng.randint(1, moves))
        if game.is_over(state):
            continue
        for seat in sorted(game.to_act(state)):
            legal = game.legal_actions(state, seat)
            if legal:
                args = (
                    game_ref(game),
                    game.view(state, seat),
                    [a.encode() for a in legal],
                    "normal",
                    state.seed,
                    ("cpu", seat, state.version),
                    {},
                )
                out.append((choose_action_text, args))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print("| game | jobs | way | bytes | pickle ms | unpickle ms |")
    print("|---|---:|---|---:|---:|---:|")
    for key, game in sorted(load_games().items()):
        found = jobs(key, game, args.games, args.moves)
        if not found:
            continue
        figures: dict[str, list[tuple[int, float, float]]] = {way: [] for way in WAYS}
        for _ in range(args.rounds):
            for way, dumps in WAYS.items():
                for job in found:
                    data = dumps(job)
                    reader = _reader(way, job)
                    assert reader(data)[1][2] == job[1][2]
                    sent = cpu_ms(lambda j=job, d=dumps: d(j), args.repeat)
                    read = cpu_ms(lambda d=data, r=reader: r(d), args.repeat)
                    figures[way].append((len(data), sent, read))
        for way, rows in figures.items():
            size, sent, read = (statistics.mean(r[i] for r in rows) for i in range(3))
            print(f"| {key} | {len(found)} | {way} | {size:.0f} | {sent:.4f} | {read:.4f} |")


if __name__ == "__main__":
    main()
