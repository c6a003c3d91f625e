"""Random playouts per second of every game's engine, this tree beside another checkout.

    .venv/bin/python bench/playouts.py --before /tmp/mesa-before [--seconds 3] [--rounds 3]

``--before`` is a checkout of the code to compare with (e.g. ``git archive 210a6d9 | tar -x -C
/tmp/mesa-before``); without it only this tree is measured. Each tree runs in its own worker
process (the two cannot share one interpreter: same module names); the workers take turns, game
by game and round by round, so machine load falls on both alike. A playout is a whole game from
``new`` to the end: at each step one seat the game waits on (``to_act``; the first in seat
order) plays a uniformly random legal action through ``apply``, i.e. with the engine contract's
guards and state copy. Games still going after ``MAX_STEPS`` actions are counted as played
(their count is printed). Figures are CPU-time rates of the worker; never asserted on.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
GAMES = ("amapatolli", "chupate2", "macarena", "maquiavelo", "triad")
PLAYERS = {"amapatolli": 4, "chupate2": 4, "macarena": 4, "maquiavelo": 4, "triad": 2}
MAX_STEPS = 3000


# ----- the worker: runs inside one tree ---------------------------------------------------------
def playouts(key: str, seconds: float, start: int) -> dict:
    from importlib import import_module

    game = import_module(f"games.{key}").GAME
    seats = [f"p{i}" for i in range(PLAYERS[key])]
    apply, legal_actions, to_act, is_over = (
        game.apply,
        game.legal_actions,
        game.to_act,
        game.is_over,
    )
    games = steps = capped = 0
    c0 = time.process_time()
    while time.process_time() - c0 < seconds:
        seed = start + games
        rng = random.Random(seed)
        state = game.new(seats, f"playout-{seed}")
        n = 0
        while not is_over(state):
            if n == MAX_STEPS:
                capped += 1
                break
            waiting = to_act(state)
            seat = next(s for s in state.seats if s in waiting)
            legal = legal_actions(state, seat)
            state, _ = apply(state, seat, legal[rng.randrange(len(legal))])
            n += 1
        steps += n
        games += 1
    cpu = time.process_time() - c0
    return {"games": games, "steps": steps, "cpu_s": cpu, "capped": capped}


def worker() -> None:
    """Answer one JSON request per line: {"game", "seconds", "start"}."""
    for line in sys.stdin:
        req = json.loads(line)
        print(json.dumps(playouts(req["game"], req["seconds"], req["start"])), flush=True)


# ----- the driver ------------------------------------------------------------------------------
class Tree:
    def __init__(self, name: str, root: Path) -> None:
        self.name = name
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _BOOT, str(root), str(Path(__file__).resolve())],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def run(self, game: str, seconds: float, start: int) -> dict:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps({"game": game, "seconds": seconds, "start": start}))
        self.proc.stdin.write("\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        assert self.proc.stdin
        self.proc.stdin.close()
        self.proc.wait()


# The worker imports the games of ``root`` (first on sys.path) and this file's ``worker``.
_BOOT = """
import importlib.util, sys
sys.path.insert(0, sys.argv[1])
spec = importlib.util.spec_from_file_location("playouts_worker", sys.argv[2])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
module.worker()
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="checkout to compare with")
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per turn")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", default=",".join(GAMES))
    args = parser.parse_args()
    trees = [Tree("after", HERE)]
    if args.before is not None:
        trees.insert(0, Tree("before", args.before))
    keys = args.games.split(",")
    totals: dict[tuple[str, str], dict] = {}
    for r in range(args.rounds):
        for key in keys:
            for tree in trees if r % 2 == 0 else trees[::-1]:
                got = tree.run(key, args.seconds, 100_000 * r)
                acc = totals.setdefault((key, tree.name), {"games": 0, "steps": 0, "cpu_s": 0.0})
                acc["capped"] = acc.get("capped", 0) + got["capped"]
                for field in ("games", "steps", "cpu_s"):
                    acc[field] += got[field]
    for tree in trees:
        tree.close()
    print(f"random playouts per CPU second ({args.rounds} x {args.seconds} s per tree and game)")
    head = f"{'game':12} {'players':>7}"
    for tree in trees:
        head += f" | {tree.name + ' games/s':>15} {'actions/s':>10} {'actions/game':>12}"
    if len(trees) == 2:
        head += f" | {'speed-up':>8}"
    print(head)
    for key in keys:
        line = f"{key:12} {PLAYERS[key]:>7}"
        rates = []
        for tree in trees:
            t = totals[(key, tree.name)]
            rate = t["games"] / t["cpu_s"]
            rates.append(rate)
            per_game = t["steps"] / t["games"] if t["games"] else 0
            line += f" | {rate:>15.1f} {t['steps'] / t['cpu_s']:>10.0f} {per_game:>12.1f}"
            if t["capped"]:
                line += f" ({t['capped']} capped)"
        if len(trees) == 2:
            line += f" | {rates[1] / rates[0]:>7.2f}x"
        print(line)
        print(
            json.dumps(
                {
                    "bench": "playouts",
                    "game": key,
                    **{f"{t.name}": totals[(key, t.name)] for t in trees},
                }
            )
        )


if __name__ == "__main__":
    main()
