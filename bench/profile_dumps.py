"""The per-move JSON work of the games' states and views, in this process: per game, on the
state of a random game ``--moves`` in, the microseconds of ``dump_state`` (the stored JSON,
once per move), ``view(seat)``/``view(None)``, a view's ``model_dump_json`` without its
version (what a DM view's digest cost until session 19) and ``load_state``; on a state halfway
there, "decode" (each seat's first legal action: its legal actions, encoded, the text decoded as a
click's) and "apply" (the first seat's first legal action, its legal actions included). Each figure is the
fastest of ``--rounds`` rounds of CPU time (``time.process_time``), so a loaded machine inflates
it little; ``--root`` measures another checkout (before/after). Figures only; nothing is
asserted.

Also "dump_state in a row": per game, the microseconds of ``dump_state`` of each state of
``--row`` consecutive moves of one random game, as the bot dumps each move's new state (a log's
events are encoded once: ``games.core.eventlog.LogDumps``), the fastest of ``--rounds`` replays.

Also counted, over ``--games`` random games of each: how often a move leaves a waiting seat's
view (a seat without legal actions before and after it) the same but for its version. A DM
hand's digest is the version it shows (``bot/ui/private_views.py:_view_digest``): it is right
while this count is 0; before, a hand's view was dumped to JSON and hashed at every change to
spare exactly those edits.

    .venv/bin/python bench/profile_dumps.py [--moves 30] [--rounds 7] [--root /other/checkout]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

PLAYERS = {"amapatolli": 4, "chupate2": 4, "macarena": 4, "maquiavelo": 4, "triad": 2}


def fastest(work: Callable[[], Any], rounds: int, calls: int = 300) -> float:
    """The fastest round's CPU microseconds per call of ``work``."""
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        for _ in range(calls):
            work()
        best = min(best, (time.process_time() - start) / calls)
    return best * 1e6


def random_game(game: Any, key: str, moves: int, seed: int, table: str) -> list[Any]:
    """A new game's state, then the state after each of up to ``moves`` random legal moves
    (fewer if the game ends)."""
    seats = [f"s{i}" for i in range(PLAYERS[key])]
    rng = random.Random(seed)
    state = game.new(seats, table, None)
    states = [state]
    for _ in range(moves):
        movers = sorted(s for s in game.to_act(state) if game.legal_actions(state, s))
        if not movers or game.is_over(state):
            break
        seat = rng.choice(movers)
        state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        states.append(state)
    return states


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--games", type=int, default=20, help="games a game for the count")
    parser.add_argument("--row", type=int, default=60, help="moves of the dumps in a row")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(args.root))
    from bot.registry import load_games

    print(f"{args.root}: microseconds of CPU per call (fastest of {args.rounds} rounds)")
    header = (
        "game",
        "dump_state",
        "view seat",
        "view public",
        "view json",
        "load_state",
        "decode",
        "apply",
        "bytes",
    )
    print("| " + " | ".join(header) + " |")
    print("|---" * len(header) + "|")
    totals = [0.0] * 7
    for key, game in sorted(load_games().items()):
        states = random_game(game, key, args.moves, seed=7, table="dumps")
        state = states[-1]
        middle = states[len(states) // 2]  # (a state with moves left: Triple Triad's are nine)
        seat = state.seats[1]
        view = game.view(state, seat)
        text = game.dump_state(state)
        works = [
            partial(game.dump_state, state),
            partial(game.view, state, seat),
            partial(game.view, state, None),
            partial(view.model_dump_json, exclude={"version"}),
            partial(game.load_state, text),
            partial(decode_offered, game, middle),
            partial(apply_first, game, middle),
        ]
        figures = [fastest(work, args.rounds) for work in works]
        totals = [t + f for t, f in zip(totals, figures, strict=True)]
        cells = " | ".join(f"{f:.1f}" for f in figures)
        print(f"| {key} | {cells} | {len(text)} |")
    print("| all five | " + " | ".join(f"{t:.1f}" for t in totals) + " | |")
    print()
    print(f"dump_state in a row: microseconds of CPU per move's dump ({args.row} moves a game)")
    row = {
        key: dumps_in_a_row(game, key, args.row, args.rounds)
        for key, game in sorted(load_games().items())
    }
    print(
        ", ".join(f"{k} {v:.1f}" for k, v in row.items())
        + f"; mean {sum(row.values()) / len(row):.1f}"
    )
    print()
    print(f"waiting seats' views after a move of {args.games} random games a game")
    print("| game | unchanged but for the version | changed |")
    print("|---|---:|---:|")
    for key, game in sorted(load_games().items()):
        same, changed = unchanged_views(game, key, args.games)
        print(f"| {key} | {same} | {changed} |")
    return 0


def decode_offered(game: Any, state: Any) -> None:
    """Decode the text of each seat's first legal action, as a click brings it back (the
    action encoded for its button first, as the bot does)."""
    for seat in state.seats:
        legal = game.legal_actions(state, seat)
        if legal:
            game.decode_action(legal[0].encode())


def apply_first(game: Any, state: Any) -> None:
    """``apply`` of the first legal action of the first seat (by id) that has one."""
    seat = min(s for s in state.seats if game.legal_actions(state, s))
    game.apply(state, seat, game.legal_actions(state, seat)[0])


def dumps_in_a_row(game: Any, key: str, moves: int, rounds: int) -> float:
    """The fastest round's CPU microseconds per ``dump_state`` of each state of one random game,
    move after move (new states built beforehand: only the dumps are timed)."""
    states = random_game(game, key, moves, seed=11, table="row")[1:]
    best = float("inf")
    for _ in range(rounds):
        replay = [game.copy_state(s) for s in states]  # (the same log nodes: as a new game's)
        dumps = getattr(sys.modules.get("games.core.eventlog"), "LOG_DUMPS", None)
        if dumps is not None:  # (an older checkout's has no ``clear``: its dict emptied)
            getattr(dumps, "clear", dumps._kept.clear)()
        start = time.process_time()
        for each in replay:
            game.dump_state(each)
        best = min(best, (time.process_time() - start) / len(replay))
    return best * 1e6


def unchanged_views(game: Any, key: str, games: int) -> tuple[int, int]:
    """(views unchanged but for the version, changed views) of waiting seats, move after move,
    over ``games`` random games to their end (or 300 moves)."""
    same = changed = 0
    for number in range(games):
        seats = [f"s{i}" for i in range(PLAYERS[key])]
        rng = random.Random(number)
        state = game.new(seats, f"unchanged-{number}", None)
        shown: dict[str, str] = {}
        for _ in range(300):
            movers = sorted(s for s in seats if game.legal_actions(state, s))
            if not movers or game.is_over(state):
                break
            turn = [s for s in movers if s in game.to_act(state)]
            seat = rng.choice(turn or movers)
            state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
            for each in seats:
                if game.legal_actions(state, each):
                    shown.pop(each, None)  # a view with actions: its buttons carry the version
                    continue
                text = game.view(state, each).model_dump_json(exclude={"version"})
                if each in shown:
                    same, changed = (
                        (same + 1, changed) if shown[each] == text else (same, changed + 1)
                    )
                shown[each] = text
    return same, changed


if __name__ == "__main__":
    raise SystemExit(main())
