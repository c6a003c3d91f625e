"""Chúpate 2 random-playout throughput (4 players) side by side with RLCard's UNO, and memory.

Run: ``.venv/bin/python bench/chupate2_throughput.py [seconds_per_round]`` (needs ``rlcard``:
``.venv/bin/pip install rlcard``). Prints one JSON object per line (``{"bench": name, ...}``)
and a readable summary at the end; never asserts on timings.

What is compared (all in this one process, interleaved in alternating rounds so that machine
load hits every contender alike):
- ``chupate2/uniform``: our engine, each action drawn uniformly from ``legal_actions`` (a random
  player often draws voluntarily, so games are long).
- ``chupate2/rlcard_policy``: our engine with RLCard's random-agent behaviour: a uniformly random
  *play* when one exists, draw only when none does, accept every +4 (RLCard has no challenge).
- ``rlcard/env``: ``rlcard.make("uno", game_num_players=4)`` with four ``RandomAgent``s and
  ``env.run`` (what RLCard users time: includes its observation encoding).
- ``rlcard/game``: RLCard's bare ``UnoGame`` stepped with uniformly random legal actions.
Our ``apply`` returns a new state and leaves the old one untouched (RLCard mutates in place).
"""

from __future__ import annotations

import gc
import json
import random
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.chupate2 import GAME

SEATS = ["p0", "p1", "p2", "p3"]


def emit(name: str, **figures) -> None:
    print(json.dumps({"bench": name, **figures}), flush=True)


# ----- contenders: each plays games for about ``seconds`` and returns (games, steps, wall, cpu)
def ours(seconds: float, policy: str, start_seed: int) -> tuple[int, int, float, float]:
    apply, legal_actions, new = GAME.apply, GAME.legal_actions, GAME.new
    games = steps = 0
    t0, c0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - t0 < seconds:
        seed = start_seed + games
        rng = random.Random(seed)
        state = new(SEATS, f"bench-{seed}")
        while state.phase != "over":
            seat = state.seats[state.turn]
            legal = legal_actions(state, seat)
            if policy == "rlcard_policy":
                plays = [a for a in legal if a.kind == "play"]
                if plays:
                    legal = plays
                elif state.phase == "challenge":
                    legal = [a for a in legal if a.kind == "take"]
            state, _ = apply(state, seat, legal[rng.randrange(len(legal))])
            steps += 1
        games += 1
    return games, steps, time.perf_counter() - t0, time.process_time() - c0


def rlcard_env(seconds: float, env) -> tuple[int, int, float, float]:
    games = steps = 0
    t0, c0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - t0 < seconds:
        trajectories, _ = env.run(is_training=False)
        steps += sum((len(t) - 1) // 2 for t in trajectories)
        games += 1
    return games, steps, time.perf_counter() - t0, time.process_time() - c0


def rlcard_game(seconds: float, start_seed: int) -> tuple[int, int, float, float]:
    from rlcard.games.uno.game import UnoGame

    games = steps = 0
    t0, c0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - t0 < seconds:
        seed = start_seed + games
        rng = random.Random(seed)
        game = UnoGame(num_players=4)
        game.configure({"game_num_players": 4})
        game.np_random.seed(seed)
        game.init_game()
        while not game.is_over():
            legal = game.get_legal_actions()
            game.step(legal[rng.randrange(len(legal))])
            steps += 1
        games += 1
    return games, steps, time.perf_counter() - t0, time.process_time() - c0


# ----- memory of one game state -------------------------------------------------------------
def mid_game_state(actions: int = 30):
    state = GAME.new(SEATS, "memory")
    rng = random.Random(1)
    for _ in range(actions):
        seat = state.seats[state.turn]
        legal = GAME.legal_actions(state, seat)
        state, _ = GAME.apply(state, seat, rng.choice(legal))
    return state


def traced_bytes(build, copies: int = 50) -> int:
    """Bytes allocated per object ``build`` returns, ``copies`` of them kept alive at once (so
    that the snapshots' own memory is shared out). The collections before each snapshot empty
    CPython's free lists (freed dicts and lists kept for reuse), which would otherwise hide
    allocations or count the temporaries of ``build`` as if the object held them."""
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    objs = [build() for _ in range(copies)]
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    size = sum(s.size_diff for s in after.compare_to(before, "filename"))
    del objs
    return round(size / copies)


def states_after(state, moves: int = 60) -> list:
    """The states of the next ``moves`` random moves from ``state``, all kept alive (as a
    search's tree keeps them)."""
    rng = random.Random(2)
    states = []
    for _ in range(moves):
        if state.phase == "over":
            break
        seat = state.seats[state.turn]
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        states.append(state)
    return states


def bytes_per_move(start) -> int:
    """Bytes allocated per state that ``apply`` makes (it shares what the move left alone)."""
    states_after(start)  # lazily built tables and caches: not counted
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    states = states_after(start)
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    size = sum(s.size_diff for s in after.compare_to(before, "filename"))
    return round(size / max(1, len(states)))


def memory() -> dict:
    state = mid_game_state()
    text = GAME.dump_state(state)
    GAME.load_state(text)  # pydantic-core's string cache warmed, not counted
    figures = {
        "state_json_bytes": len(text.encode()),
        "state_tracemalloc_bytes": traced_bytes(lambda: GAME.load_state(text)),
        # a state made by ``apply`` shares what the move left unchanged with the one before
        "state_per_move_bytes": bytes_per_move(state),
        "log_events_kept": len(state.log),
        "view_json_bytes": len(GAME.view(state, "p0").model_dump_json().encode()),
    }
    try:
        from pympler.asizeof import asizeof

        figures["state_asizeof_bytes"] = asizeof(state)
    except ImportError:
        figures["state_asizeof_bytes"] = None
    try:
        import copy

        from rlcard.games.uno.game import UnoGame

        game = UnoGame(num_players=4)
        game.configure({"game_num_players": 4})
        game.np_random.seed(1)
        game.init_game()
        figures["rlcard_game_tracemalloc_bytes"] = traced_bytes(
            lambda: copy.deepcopy((game.dealer, game.players, game.round))
        )
    except ImportError:
        pass
    return figures


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    rounds = 3
    try:
        import rlcard
        from rlcard.agents import RandomAgent

        env = rlcard.make("uno", config={"seed": 7, "game_num_players": 4})
        env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(4)])
        rlcard_version = rlcard.__version__ if hasattr(rlcard, "__version__") else None
        if rlcard_version is None:
            from importlib.metadata import version

            rlcard_version = version("rlcard")
    except ImportError:
        env = None
        rlcard_version = None
    totals: dict[str, list[float]] = {}
    for r in range(rounds):  # interleaved, so machine load is shared fairly
        seed0 = 10_000 * r
        runs = {
            "chupate2/uniform": lambda s=seed0: ours(seconds, "uniform", s),
            "chupate2/rlcard_policy": lambda s=seed0: ours(seconds, "rlcard_policy", s),
        }
        if env is not None:
            runs["rlcard/env"] = lambda: rlcard_env(seconds, env)
            runs["rlcard/game"] = lambda s=seed0: rlcard_game(seconds, s)
        for name, run in runs.items():
            g, s, wall, cpu = run()
            acc = totals.setdefault(name, [0, 0, 0.0, 0.0])
            for i, v in enumerate((g, s, wall, cpu)):
                acc[i] += v
    results = {}
    for name, (g, s, wall, cpu) in totals.items():
        results[name] = {
            "games": int(g),
            "steps": int(s),
            "games_per_s": round(g / wall, 1),
            "steps_per_s": round(s / wall),
            "games_per_cpu_s": round(g / cpu, 1) if cpu else None,
            "steps_per_game": round(s / g, 1) if g else None,
        }
        emit(f"throughput/{name}", players=4, **results[name])
    if env is not None:
        for ours_name in ("chupate2/uniform", "chupate2/rlcard_policy"):
            for theirs in ("rlcard/env", "rlcard/game"):
                a, b = results[ours_name], results[theirs]
                emit(
                    "ratio",
                    ours=ours_name,
                    theirs=theirs,
                    games_per_s=round(a["games_per_s"] / b["games_per_s"], 2),
                    steps_per_s=round(a["steps_per_s"] / b["steps_per_s"], 2),
                    games_per_cpu_s=round(a["games_per_cpu_s"] / b["games_per_cpu_s"], 2),
                )
    mem = memory()
    emit("memory/one_state", **mem)
    emit("versions", rlcard=rlcard_version, python=sys.version.split()[0])
    print("\nsummary (4 players, random playouts; wall clock, and CPU time of this process):")
    for name, r in results.items():
        print(
            f"  {name:24} {r['games_per_s']:>9} games/s  {r['steps_per_s']:>9} actions/s"
            f"  {r['games_per_cpu_s']:>9} games/CPU-s  ({r['steps_per_game']} actions/game)"
        )
    print(
        f"  one state: {mem['state_json_bytes']} bytes of JSON, "
        f"{mem['state_tracemalloc_bytes']} bytes allocated (tracemalloc) when loaded, "
        f"{mem['state_per_move_bytes']} bytes per state made by apply (structural sharing)"
    )
    if env is not None:
        a = results["chupate2/rlcard_policy"]
        env_r, game_r = results["rlcard/env"], results["rlcard/game"]
        print(
            f"  chupate2/rlcard_policy vs rlcard/env: "
            f"{a['games_per_s'] / env_r['games_per_s']:.2f}x games/s, "
            f"vs rlcard/game: {a['games_per_s'] / game_r['games_per_s']:.2f}x "
            f"games/s ({a['steps_per_s'] / game_r['steps_per_s']:.2f}x actions/s)"
        )
        print(
            f"  same in CPU time: vs rlcard/env "
            f"{a['games_per_cpu_s'] / env_r['games_per_cpu_s']:.2f}x games/CPU-s, "
            f"vs rlcard/game {a['games_per_cpu_s'] / game_r['games_per_cpu_s']:.2f}x games/CPU-s"
        )


if __name__ == "__main__":
    main()
