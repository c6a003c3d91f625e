"""What storing a table's state every K moves saves and costs, per K (issue 29, session 33:
``bot/service/snapshots.py``), on random games of load.py's games at its players, in this
process. Saved: the event loop's ``dump_state`` per move when only every K-th state is dumped
(as the bot dumps it: ``games.core.eventlog.LOG_DUMPS`` reuses a previous dump's events, so a
dump after K-1 undumped moves encodes their events too), each game and the load's mix (games
weighted by their share of its moves). Cost: restoring ``--tables`` tables, each at a random
version of a random game, as a loader does after a restart: ``load_state`` of the state stored
at the last multiple of K, then the logged moves after it decoded and applied. CPU time
(``time.process_time``), the least of ``--rounds`` rounds, the K interleaved within each round.
In the live bot a dump costs several times the loop's figure here (``bench/probe_calls.py
--functions games.core.rules:RulesGame.dump_state``: 90 us a call at 100 tables against ~16).

    .venv/bin/python bench/snapshot_restore.py [--every 1,4,8,16] [--tables 1000] [--rounds 5]

Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.profile_engines import SHARES, random_move, weighted  # noqa: E402
from bench.writer_contention import LOAD_PLAYERS  # noqa: E402

Played = list[tuple[Any, str, str]]  # (state after the move, seat, action text)


def random_games(game: Any, key: str, moves: int, seed: int) -> list[tuple[Any, Played]]:
    """Random games (first state, then each move) until they hold ``moves`` moves."""
    games, total, number = [], 0, 0
    while total < moves:
        rng = random.Random(seed * 1000 + number)
        seats = [f"{10**17 + i}" for i in range(LOAD_PLAYERS[key])]
        state = first = game.new(seats, f"snapshots-{key}-{number}", None)
        number += 1
        played: Played = []
        while total < moves and not game.is_over(state):
            move = random_move(game, state, rng)
            if move is None:
                break
            seat, action = move
            state, _ = game.apply(state, seat, action)
            played.append((state, seat, action.encode()))
            total += 1
        games.append((first, played))
    return games


def dumps_per_move(game: Any, games: list[tuple[Any, Played]], every: int) -> float:
    """CPU us per move of dumping the states a K of ``every`` stores (and each game's end)."""
    from games.core.eventlog import LOG_DUMPS

    LOG_DUMPS.clear()
    spent, moves = 0.0, 0
    for first, played in games:
        # (copies: the same log nodes as a new game's, nothing dumped yet)
        states = [game.copy_state(s) for s, _, _ in played]
        game.dump_state(game.copy_state(first))  # the start is stored in every K
        for n, state in enumerate(states, start=1):
            if n % every == 0 or n == len(states):
                start = time.process_time()
                game.dump_state(state)
                spent += time.process_time() - start
        moves += len(states)
    return 1e6 * spent / moves


def restore_seconds(game: Any, points: list[tuple[str, Played]], every: int) -> float:
    """CPU seconds to restore each point (stored state's JSON, the moves after it)."""
    start = time.process_time()
    for stored, after in points:
        state = game.load_state(stored)
        for _, seat, text in after:
            state, _ = game.apply(state, seat, game.decode_action(text))
    return time.process_time() - start


def restore_points(
    game: Any, games: list[tuple[Any, Played]], every: int, count: int, seed: int
) -> list[tuple[str, Played]]:
    rng = random.Random(seed)
    points = []
    for _ in range(count):
        first, played = rng.choice([g for g in games if g[1]])
        version = rng.randrange(1, len(played) + 1)
        stored_at = version - version % every
        stored = first if stored_at == 0 else played[stored_at - 1][0]
        points.append((game.dump_state(stored), played[stored_at:version]))
    return points


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--every", default="1,4,8,16", help="the K compared")
    parser.add_argument("--tables", type=int, default=1000, help="tables restored (a fifth a game)")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    from bot.registry import load_games

    every = [int(k) for k in args.every.split(",")]
    engines = load_games(tuple(LOAD_PLAYERS))
    games = {k: random_games(engines[k], k, 3 * SHARES[k], 5) for k in sorted(LOAD_PLAYERS)}
    per_game = args.tables // len(games)
    points = {
        (k, n): restore_points(engines[k], games[k], n, per_game, 11) for k in games for n in every
    }
    dumps = {n: dict.fromkeys(games, float("inf")) for n in every}
    restores = {n: dict.fromkeys(games, float("inf")) for n in every}
    for _ in range(args.rounds):
        for n in every:
            for k in games:
                dumps[n][k] = min(dumps[n][k], dumps_per_move(engines[k], games[k], n))
                seconds = restore_seconds(engines[k], points[k, n], n)
                restores[n][k] = min(restores[n][k], seconds)
    keys = sorted(games)
    print(f"per K: the loop's dump_state CPU us per move; restoring {args.tables} tables")
    print(
        "| K | " + " | ".join(f"{k} dump us" for k in keys) + " | mix dump us/move |"
        " restore ms a table (mix) | restore s, all tables |"
    )
    print("|---:|" + "---:|" * (len(keys) + 3))
    for n in every:
        cells = " | ".join(f"{dumps[n][k]:.1f}" for k in keys)
        total = sum(restores[n].values())
        print(
            f"| {n} | {cells} | {weighted(dumps[n]):.1f} |"
            f" {1000 * total / (per_game * len(keys)):.3f} | {total:.2f} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
