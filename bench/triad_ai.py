"""Triple Triad ``hard``: this tree's exact search beside main's (before), in one run.

"Before" is ``games/triad/search.py`` and ``games/triad/ai.py`` as they are on the git ref
``--before`` (default ``main``: the pure-Python search), loaded from ``git show`` into their own
modules; "after" is the working tree (``hard`` searches with ``games/triad/compiled.py``, the
numba kernel). Parts (``--parts``, default ``compile,plies,first``):

- ``compile``: the kernel's cold compile and its load from numba's disk cache, each in a fresh
  process (``import`` + ``compiled.warm_up()``) with ``NUMBA_CACHE_DIR`` set to a new folder.

- ``plies``: under Abierto, for every rule combination the game offers (Igual, Pared, Suma,
  Cadena, Elemental: 22 sets; ``--rules`` keeps some), ``--deals`` random deals (random hands
  from the whole catalogue). The new ``hard`` plays both sides with the production budget
  (``--seconds`` of wall-clock time on ``time.monotonic``); at every position the old ``hard``
  is timed on the same view with the same budget. Per rule set: wall seconds p50/p95/max at ply
  0 (the first move) and over all moves, CPU seconds (``time.process_time``) beside, nodes, and
  how many first moves were proven exact. ``--check`` also verifies each exact value: against
  the old search run without a budget, and from 5 empty cells on against the tests'
  exhaustive solver (``tests/games/triad/reference.py``: the engine's ``resolve``, no pruning).
- ``first``: unbudgeted exact solves of the first move on ``--first-deals`` deals under a few
  rule sets: CPU/wall seconds, nodes (and nodes per CPU second) and peak memory (tracemalloc, a
  second run) of the compiled search, of the old one, and of the session-3 search (``--independent``, default 210a6d9: its
  own board, flips and keys, no code shared with either): the three values must agree.
- ``hidden``: ``hard`` per ply with hidden hands, after and before on the same views: wall
  seconds and how many of the (up to 12) guesses were solved exactly.

Run under ``nice -n 15`` (the machine is shared); it prints ``uptime`` first and last, and the
last line is machine-readable JSON.

    .venv/bin/python bench/triad_ai.py [--deals 8] [--seconds 2.0] [--parts plies,first]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.triad import GAME, compiled  # noqa: E402
from games.triad import ai as new_ai  # noqa: E402
from games.triad import search as new_search  # noqa: E402
from games.triad.cards import catalogue  # noqa: E402
from tests.games.triad.randomgames import rule_sets  # noqa: E402
from tests.games.triad.reference import exact_value  # noqa: E402

SEATS = ["a", "b"]
FIRST_RULES = ("basic", "elemental", "plus+combo", "same+same_wall+plus+combo+elemental")


def git_source(ref: str, path: str) -> str:
    return subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{ref}:{path}"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def load_module(name: str, source: str) -> ModuleType:
    path = Path(tempfile.mkdtemp()) / f"{name}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def load_before(ref: str) -> tuple[ModuleType, ModuleType]:
    """(search, ai) as on ``ref``: its ai imports its own search."""
    search = load_module("before_triad_search", git_source(ref, "games/triad/search.py"))
    ai_source = git_source(ref, "games/triad/ai.py").replace(
        "from games.triad.search import", "from before_triad_search import"
    )
    return search, load_module("before_triad_ai", ai_source)


def load_independent(ref: str) -> ModuleType:
    """The session-3 ``hard`` (ai.py with its own search), for value agreement only."""
    return load_module("independent_triad_ai", git_source(ref, "games/triad/ai.py"))


def deal(n: int, rules: dict[str, bool], open_hands: bool = True):
    rng = random.Random(n)
    ids = [c.id for c in catalogue().cards]
    hands = {s: rng.sample(ids, 5) for s in SEATS}
    options = {"open": open_hands, **rules}
    return GAME.new(SEATS, f"bench-{n}", options, hands=hands), rng


def timed_move(ai: ModuleType, view, legal, rng, seconds: float):
    stats: dict = {}
    w0, c0 = time.perf_counter(), time.process_time()
    if hasattr(ai, "decide"):  # the decision behind the core's entry, which takes no stats
        budget = GAME.think_budget(seconds, time.monotonic)
        action = ai.decide(view, legal, "hard", rng, budget, stats)
    elif hasattr(ai, "make_budget"):  # an ai from before the core Budget (issue 26)
        action = ai.choose_action(
            view, legal, "hard", rng, stats=stats, think_seconds=seconds, clock=time.monotonic
        )
    else:
        budget = GAME.think_budget(seconds, time.monotonic)
        action = ai.choose_action(view, legal, "hard", rng, stats=stats, budget=budget)
    return action, time.perf_counter() - w0, time.process_time() - c0, stats


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def summary(values: list[float]) -> dict[str, float]:
    return {"p50": statistics.median(values), "p95": pct(values, 0.95), "max": max(values)}


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


# ----- plies ------------------------------------------------------------------------------------


def unbounded(search: ModuleType):
    """A search module's budget without limits (``Allowance`` since issue 26, ``Budget`` before)."""
    make = getattr(search, "Allowance", None) or search.Budget
    return make()


def solver_of(search: ModuleType):
    """A search module's pure-Python ``Solver`` (in ``tests/games/triad/solver.py`` since
    issue 26 moved it out of the product)."""
    found = getattr(search, "Solver", None)
    if found is None:
        from tests.games.triad.solver import Solver as found
    return found


def exact_by(search: ModuleType, view) -> int:
    """A search module's unbudgeted exact value for the side to move in ``view``."""
    result = solver_of(search)(new_ai.problem_from_view(view)).solve(unbounded(search))
    assert result.exact
    return result.value


def part_plies(
    name: str, rules: dict, deals: int, seconds: float, before: tuple, check: bool
) -> dict:
    before_search, before_ai = before
    rows: list[dict] = []
    checks = {"checked": 0, "agree": 0, "reference": 0, "reference_agree": 0}
    for n in range(deals):
        state, _rng = deal(n, rules)
        ply = 0
        while state.phase == "play":
            seat = SEATS[state.turn]
            legal = GAME.legal_actions(state, seat)
            view = GAME.view(state, seat)
            action, wall, cpu, stats = timed_move(new_ai, view, legal, random.Random(n), seconds)
            _a, old_wall, old_cpu, old_stats = timed_move(
                before_ai, view, legal, random.Random(n), seconds
            )
            rows.append(
                {
                    "ply": ply,
                    "wall": wall,
                    "cpu": cpu,
                    "nodes": stats["nodes"],
                    "exact": stats["exact"],
                    "old_wall": old_wall,
                    "old_cpu": old_cpu,
                    "old_nodes": old_stats["nodes"],
                    "old_exact": old_stats["exact"],
                }
            )
            if check and stats["exact"]:
                checks["checked"] += 1
                checks["agree"] += stats["value"] == exact_by(before_search, view)
                if sum(p is None for p in state.board) <= 5:
                    checks["reference"] += 1
                    checks["reference_agree"] += stats["value"] == exact_value(state, state.turn)
            state, _ = GAME.apply(state, seat, action)
            ply += 1

    def col(key: str, first_only: bool) -> list:
        return [r[key] for r in rows if r["ply"] == 0 or not first_only]

    out: dict = {"rules": name, "deals": deals}
    for scope, first_only in (("ply0", True), ("all", False)):
        for who in ("", "old_"):
            out[f"{who}{scope}_wall"] = summary(col(f"{who}wall", first_only))
            out[f"{who}{scope}_cpu"] = summary(col(f"{who}cpu", first_only))
            out[f"{who}{scope}_nodes_p50"] = int(statistics.median(col(f"{who}nodes", first_only)))
    out["ply0_exact"] = sum(col("exact", True))
    out["old_ply0_exact"] = sum(col("old_exact", True))
    out["all_exact"] = sum(col("exact", False))
    out["old_all_exact"] = sum(col("old_exact", False))
    out["moves"] = len(rows)
    if check:
        out["checks"] = checks
    return out


def print_plies_header(check: bool) -> None:
    head = (
        f"{'rules':<36} | ply 0 wall p50/p95/max (cpu p95) nodes exact"
        " | before, same | all moves wall p95/max exact: after | before"
    )
    if check:
        head += " | value checks"
    print(head)


def print_plies(r: dict, check: bool) -> None:
    def w(prefix: str) -> str:
        s, c = r[f"{prefix}ply0_wall"], r[f"{prefix}ply0_cpu"]
        return (
            f"{s['p50']:.2f}/{s['p95']:.2f}/{s['max']:.2f} ({c['p95']:.2f}) "
            f"{r[f'{prefix}ply0_nodes_p50']:>7} {r[f'{prefix}ply0_exact']:>2}/{r['deals']}"
        )

    a, b = r["all_wall"], r["old_all_wall"]
    line = (
        f"{r['rules']:<36} | {w('')} | {w('old_')} | {a['p95']:.2f}/{a['max']:.2f} "
        f"{r['all_exact']}/{r['moves']} | {b['p95']:.2f}/{b['max']:.2f} "
        f"{r['old_all_exact']}/{r['moves']}"
    )
    if check:
        c = r["checks"]
        line += (
            f" | {c['agree']}/{c['checked']} = before unbudgeted, "
            f"{c['reference_agree']}/{c['reference']} = reference"
        )
    print(line, flush=True)


# ----- first move, unbudgeted -------------------------------------------------------------------


def peak_mib(fn) -> float:
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def part_first(names: list[str], deals: int, before_search, independent, memory: int) -> list:
    out = []
    for name in names:
        rules = rule_sets()[name]
        rows = []
        for n in range(deals):
            state, _ = deal(n, rules)
            view = GAME.view(state, SEATS[state.turn])
            row: dict = {"deal": n}
            values = {}
            for who, make in (("new", compiled.CompiledSolver), ("old", solver_of(before_search))):
                w0, c0 = time.perf_counter(), time.process_time()
                solver = make(new_ai.problem_from_view(view))
                result = solver.solve(unbounded(new_search))
                row[f"{who}_wall"] = time.perf_counter() - w0
                row[f"{who}_cpu"] = time.process_time() - c0
                row[f"{who}_nodes"] = result.nodes
                row[f"{who}_rate"] = result.nodes / max(row[f"{who}_cpu"], 1e-9)
                assert result.exact
                values[who] = result.value
                if n < memory:
                    problem = new_ai.problem_from_view(view)
                    row[f"{who}_mib"] = peak_mib(
                        lambda m=make, p=problem: m(p).solve(unbounded(new_search))
                    )
            if independent is not None:
                w0, c0 = time.perf_counter(), time.process_time()
                searcher = independent.Searcher(independent.position_from_view(view), 10**9)
                _move, value, exact = searcher.best()
                row["ind_wall"] = time.perf_counter() - w0
                row["ind_cpu"] = time.process_time() - c0
                assert exact
                values["independent"] = value // independent.WIN
            row["agree"] = len(set(values.values())) == 1
            rows.append(row)

        def col(key: str, rows: list[dict] = rows) -> list:
            return [r[key] for r in rows if key in r]

        s: dict = {"rules": name, "deals": deals, "agree": sum(col("agree"))}
        for who in ("new", "old", "ind"):
            for key in ("cpu", "wall", "nodes", "rate", "mib"):
                values_ = col(f"{who}_{key}")
                if values_:
                    s[f"{who}_{key}"] = summary(values_)
        out.append(s)
        print(
            f"{name}: {deals} deals, the values agree (new = before = independent) in {s['agree']}"
        )
        for who, label in (("new", "after"), ("old", "before"), ("ind", "session 3")):
            if f"{who}_cpu" not in s:
                continue
            c, wl = s[f"{who}_cpu"], s[f"{who}_wall"]
            line = (
                f"  {label:>9}: cpu p50/p95/max {c['p50']:.3f}/{c['p95']:.3f}/{c['max']:.3f} s"
                f" | wall p50/p95/max {wl['p50']:.3f}/{wl['p95']:.3f}/{wl['max']:.3f} s"
            )
            if f"{who}_nodes" in s:
                line += (
                    f" | nodes p50 {s[f'{who}_nodes']['p50']:.0f} max {s[f'{who}_nodes']['max']}"
                    f" | {s[f'{who}_rate']['p50'] / 1e6:.2f} M nodes/cpu s"
                )
            if f"{who}_mib" in s:
                line += f" | peak {s[f'{who}_mib']['max']:.1f} MiB"
            print(line, flush=True)
    return out


# ----- hidden hands -----------------------------------------------------------------------------


def part_hidden(name: str, deals: int, seconds: float, before_ai: ModuleType) -> dict:
    """After plays both sides; before is timed on the same views (its own guesses)."""
    rules = rule_sets()[name]
    per_ply: dict[int, list[dict]] = {p: [] for p in range(9)}
    for n in range(deals):
        state, rng = deal(2_000 + n, rules, open_hands=False)
        ply = 0
        while state.phase == "play":
            seat = SEATS[state.turn]
            legal = GAME.legal_actions(state, seat)
            view = GAME.view(state, seat)
            action, wall, cpu, stats = timed_move(new_ai, view, legal, rng, seconds)
            _a, old_wall, _old_cpu, old_stats = timed_move(
                before_ai, view, legal, random.Random(n * 10 + ply), seconds
            )
            per_ply[ply].append(
                {
                    "wall": wall,
                    "cpu": cpu,
                    **stats,
                    "old_wall": old_wall,
                    "old_solved": old_stats.get("guesses_solved", 1),
                }
            )
            state, _ = GAME.apply(state, seat, action)
            ply += 1
    rows = []
    for ply, s in per_ply.items():
        if s:
            rows.append(
                {
                    "ply": ply,
                    "moves": len(s),
                    **summary([r["wall"] for r in s]),
                    "cpu_p95": pct([r["cpu"] for r in s], 0.95),
                    "guesses_solved_p50": statistics.median(r.get("guesses_solved", 1) for r in s),
                    "guesses_solved_min": min(r.get("guesses_solved", 1) for r in s),
                    "exact": sum(r["exact"] for r in s),
                    "old_p95": pct([r["old_wall"] for r in s], 0.95),
                    "old_solved_p50": statistics.median(r["old_solved"] for r in s),
                    "old_solved_min": min(r["old_solved"] for r in s),
                }
            )
    return {"rules": name, "deals": deals, "plies": rows}


# ----- compile time -----------------------------------------------------------------------------

WARM = (
    "import time; t = time.perf_counter(); import games.triad.compiled as c; c.warm_up(); "
    "print(time.perf_counter() - t)"
)


def part_compile() -> dict:
    """Seconds to import and warm up the kernel in a fresh process: with an empty numba cache
    (cold compile), then again with the cache it left (load)."""
    import os

    out = {}
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        for label in ("cold", "cached", "cached_again"):
            w0 = time.perf_counter()
            done = subprocess.run(
                [sys.executable, "-c", WARM],
                cwd=ROOT,
                env=env,
                check=True,
                capture_output=True,
                text=True,
            )
            out[label] = {
                "inside": float(done.stdout.strip()),
                "process": time.perf_counter() - w0,
            }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=8)
    parser.add_argument("--first-deals", type=int, default=6)
    parser.add_argument("--memory-deals", type=int, default=2)
    parser.add_argument("--hidden-deals", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--before", default="main")
    parser.add_argument("--independent", default="210a6d9", help="'' to skip")
    parser.add_argument("--rules", default="", help="comma-separated rule-set names (all)")
    parser.add_argument("--parts", default="compile,plies,first")
    parser.add_argument("--check", action="store_true", help="verify every exact value")
    args = parser.parse_args()
    parts = args.parts.split(",")
    names = args.rules.split(",") if args.rules else list(rule_sets())
    before = load_before(args.before)
    compiled.warm_up()  # as the bot's worker processes do when they start
    out: dict = {"bench": "triad_ai", "seconds": args.seconds, "before": args.before}
    out["uptime_start"] = uptime()
    print(f"uptime: {out['uptime_start']}")
    print(f"after: this tree | before: {args.before} | {args.seconds} s wall-clock per move")
    if "compile" in parts:
        out["compile"] = part_compile()
        print("\nkernel compile, fresh process: import + warm_up (whole process incl. start-up)")
        for label, c in out["compile"].items():
            print(f"  {label:>12}: {c['inside']:.2f} s ({c['process']:.2f} s)")
    if "plies" in parts:
        print(f"\nAbierto, {args.deals} deals per rule set, wall seconds per move")
        print_plies_header(args.check)
        out["plies"] = []
        for name in names:
            r = part_plies(name, rule_sets()[name], args.deals, args.seconds, before, args.check)
            print_plies(r, args.check)
            out["plies"].append(r)
        ply0 = out["plies"]
        print(
            "every rule set, first moves proven exact: after "
            f"{sum(r['ply0_exact'] for r in ply0)}/{sum(r['deals'] for r in ply0)}, before "
            f"{sum(r['old_ply0_exact'] for r in ply0)}/{sum(r['deals'] for r in ply0)}"
        )
    if "first" in parts:
        print("\nunbudgeted exact solves of the first move (CPU seconds barely depend on load)")
        independent = load_independent(args.independent) if args.independent else None
        first_names = [n for n in FIRST_RULES if n in names] or names[:1]
        out["first"] = part_first(
            first_names, args.first_deals, before[0], independent, args.memory_deals
        )
    if "hidden" in parts:
        out["hidden"] = []
        for name in ("basic", "same+same_wall+plus+combo+elemental"):
            h = part_hidden(name, args.hidden_deals, args.seconds, before[1])
            out["hidden"].append(h)
            print(f"\nhidden hands, {name}: {args.hidden_deals} deals, wall seconds per move")
            print(
                "ply moves | after: p50    p95    max  cpu_p95  guesses solved p50/min  exact"
                " | before: p95  guesses solved p50/min"
            )
            for x in h["plies"]:
                print(
                    f"{x['ply']:>3} {x['moves']:>5} |    {x['p50']:>6.3f} {x['p95']:>6.3f} "
                    f"{x['max']:>6.3f} {x['cpu_p95']:>8.3f} {x['guesses_solved_p50']:>17}/"
                    f"{x['guesses_solved_min']:<4} {x['exact']:>6} | {x['old_p95']:>11.3f} "
                    f"{x['old_solved_p50']:>17}/{x['old_solved_min']}"
                )
    out["uptime_end"] = uptime()
    print(f"\nuptime: {out['uptime_end']}")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
