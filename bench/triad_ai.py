"""Triple Triad ``hard``: the new exact search beside the old one (main @ 210a6d9), one run.

Parts (``--parts``, default all):

- ``plies``: ``--deals`` random deals (random hands from the whole catalogue) under Abierto, with
  the basic rule and with every flip rule (Igual, Pared, Suma, Cadena, Elemental). The new
  ``hard`` plays both sides with the production budget (``--seconds`` of wall-clock time on
  ``time.monotonic``); at every position the old ``hard`` (its default 400,000-node budget) is
  timed on the same view. Per ply (0 = the first move): wall time p50/p95/max of each, CPU p50,
  nodes, the share of exact moves, and the new move's optimality: its value is checked against
  the old search run without a budget (independent code: its own board, flips and keys), and
  from 5 empty cells on also against the tests' exhaustive solver (``tests/games/triad/
  reference.py``, the engine's ``resolve`` and no pruning).
- ``first``: unbudgeted exact solves of the first move, old and new, on the same deals: CPU
  and wall seconds p50/p95/max, nodes, same value, and peak memory (tracemalloc) on the first
  ``--memory-deals``. CPU seconds do not depend on the machine's load; wall seconds do.
- ``duel``: the new ``hard`` against the old one, each deal played twice with seats swapped,
  under Abierto and with hidden hands: wins, draws, losses and the mean card difference.
- ``hidden``: the new ``hard`` per ply with hidden hands (guesses solved exactly per move).

Run under ``nice -n 10``; the last line is machine-readable JSON.

    .venv/bin/python bench/triad_ai.py [--deals 12] [--seconds 2.0] [--parts plies,duel]
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

from games.triad import GAME  # noqa: E402
from games.triad.ai import choose_action, problem_from_view  # noqa: E402
from games.triad.cards import catalogue  # noqa: E402
from games.triad.search import Budget, Solver  # noqa: E402
from tests.games.triad.reference import exact_value  # noqa: E402

OLD_COMMIT = "210a6d9"
SEATS = ["a", "b"]
ALL_RULES = {"same": True, "same_wall": True, "plus": True, "combo": True, "elemental": True}
SETTINGS = {
    "open_basic": {"open": True},
    "open_all_rules": {"open": True, **ALL_RULES},
    "hidden_basic": {},
    "hidden_all_rules": ALL_RULES,
}


def load_old_ai() -> ModuleType:
    """``games/triad/ai.py`` as it was on main at ``OLD_COMMIT`` (it imports today's rules,
    cards and view, which it reads only through functions unchanged since)."""
    source = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{OLD_COMMIT}:games/triad/ai.py"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    path = Path(tempfile.mkdtemp()) / "old_triad_ai.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("old_triad_ai", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


OLD = load_old_ai()


def deal(n: int, setting: str):
    rng = random.Random(n)
    ids = [c.id for c in catalogue().cards]
    hands = {s: rng.sample(ids, 5) for s in SEATS}
    return GAME.new(SEATS, f"bench-{n}", SETTINGS[setting], hands=hands), rng


def new_move(view, legal, rng, seconds: float):
    stats: dict = {}
    w0, c0 = time.perf_counter(), time.process_time()
    action = choose_action(
        view, legal, "hard", rng, think_seconds=seconds, clock=time.monotonic, stats=stats
    )
    return action, time.perf_counter() - w0, time.process_time() - c0, stats


def old_move(view, legal, rng):
    stats: dict = {}
    w0, c0 = time.perf_counter(), time.process_time()
    action = OLD.choose_action(view, legal, "hard", rng, stats=stats)
    return action, time.perf_counter() - w0, time.process_time() - c0, stats


def old_exact_value(view) -> int:
    """The old search without a budget: exact value (cards) for the side to move."""
    (_slot, _cell), value, exact, _nodes = OLD.search_best(OLD.position_from_view(view), 10**9)
    assert exact
    return value // OLD.WIN


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


# ----- parts ------------------------------------------------------------------------------------


def part_plies(setting: str, deals: int, seconds: float, check: bool) -> dict:
    per_ply: dict[int, list[dict]] = {p: [] for p in range(9)}
    for n in range(deals):
        state, rng = deal(n, setting)
        ply = 0
        while state.phase == "play":
            seat = SEATS[state.turn]
            legal = GAME.legal_actions(state, seat)
            view = GAME.view(state, seat)
            action, wall, cpu, stats = new_move(view, legal, random.Random(n), seconds)
            _old_action, old_wall, old_cpu, old_stats = old_move(view, legal, random.Random(n))
            row = {
                "wall": wall,
                "cpu": cpu,
                "nodes": stats["nodes"],
                "exact": stats["exact"],
                "old_wall": old_wall,
                "old_cpu": old_cpu,
                "old_nodes": old_stats["nodes"],
                "old_exact": old_stats["exact"],
            }
            if check:
                after, _ = GAME.apply(state, seat, action)
                truth = old_exact_value(view)
                if after.phase == "play" and after.round == state.round:
                    got = -old_exact_value(GAME.view(after, SEATS[after.turn]))
                else:
                    got = truth if stats["value"] == truth else None  # last placement
                row["value_ok"] = stats["value"] == truth
                row["optimal"] = got == truth
                empties = sum(p is None for p in state.board)
                if empties <= 5:
                    row["reference_ok"] = exact_value(state, state.turn) == truth
            per_ply[ply].append(row)
            state, _ = GAME.apply(state, seat, action)
            ply += 1
    rows = []
    for ply, samples in per_ply.items():
        if not samples:
            continue

        def col(key: str, rows: list[dict] = samples) -> list:
            return [r[key] for r in rows]

        out = {
            "ply": ply,
            "moves": len(samples),
            "new_p50": statistics.median(col("wall")),
            "new_p95": pct(col("wall"), 0.95),
            "new_max": max(col("wall")),
            "new_cpu_p50": statistics.median(col("cpu")),
            "new_nodes_p50": int(statistics.median(col("nodes"))),
            "new_nodes_max": max(col("nodes")),
            "new_exact": sum(col("exact")),
            "old_p50": statistics.median(col("old_wall")),
            "old_p95": pct(col("old_wall"), 0.95),
            "old_max": max(col("old_wall")),
            "old_nodes_p50": int(statistics.median(col("old_nodes"))),
            "old_exact": sum(col("old_exact")),
        }
        if check:
            out["value_ok"] = sum(col("value_ok"))
            out["optimal"] = sum(col("optimal"))
            refs = [r["reference_ok"] for r in samples if "reference_ok" in r]
            out["reference_ok"] = f"{sum(refs)}/{len(refs)}" if refs else "-"
        rows.append(out)
    all_new = [r["wall"] for s in per_ply.values() for r in s]
    all_old = [r["old_wall"] for s in per_ply.values() for r in s]
    return {
        "setting": setting,
        "deals": deals,
        "plies": rows,
        "all_moves": {
            "new_p50": statistics.median(all_new),
            "new_p95": pct(all_new, 0.95),
            "new_max": max(all_new),
            "old_p50": statistics.median(all_old),
            "old_p95": pct(all_old, 0.95),
            "old_max": max(all_old),
        },
    }


def print_plies(r: dict, check: bool) -> None:
    print(f"\n{r['setting']}: {r['deals']} deals, wall seconds per move (new | old)")
    head = "ply moves  new_p50 new_p95 new_max cpu_p50  nodes_p50 nodes_max exact |"
    head += "  old_p50 old_p95 old_max  nodes_p50 exact"
    if check:
        head += " | value_ok optimal reference"
    print(head)
    for x in r["plies"]:
        line = (
            f"{x['ply']:>3} {x['moves']:>5}  {x['new_p50']:>7.3f} {x['new_p95']:>7.3f} "
            f"{x['new_max']:>7.3f} {x['new_cpu_p50']:>7.3f} {x['new_nodes_p50']:>10} "
            f"{x['new_nodes_max']:>9} {x['new_exact']:>5} |  {x['old_p50']:>7.3f} "
            f"{x['old_p95']:>7.3f} {x['old_max']:>7.3f} {x['old_nodes_p50']:>10} "
            f"{x['old_exact']:>5}"
        )
        if check:
            line += f" | {x['value_ok']:>8} {x['optimal']:>7} {x['reference_ok']:>9}"
        print(line)
    a = r["all_moves"]
    print(
        f"all moves: new p50 {a['new_p50']:.3f} p95 {a['new_p95']:.3f} max {a['new_max']:.3f}"
        f" | old p50 {a['old_p50']:.3f} p95 {a['old_p95']:.3f} max {a['old_max']:.3f}"
    )


def part_first_move(deals: int, memory_deals: int) -> list[dict]:
    """Unbudgeted exact solves of the first move, old and new: CPU and wall seconds, nodes, and
    (first ``memory_deals`` deals, a second run under tracemalloc) peak memory."""
    out = []
    for setting in ("open_basic", "open_all_rules"):
        rows = []
        for n in range(deals):
            state, _ = deal(n, setting)
            view = GAME.view(state, SEATS[state.turn])
            w0, c0 = time.perf_counter(), time.process_time()
            result = Solver(problem_from_view(view)).solve(Budget())
            new_wall, new_cpu = time.perf_counter() - w0, time.process_time() - c0
            searcher = OLD.Searcher(OLD.position_from_view(view), 10**9)
            w0, c0 = time.perf_counter(), time.process_time()
            _move, old_value, old_exact = searcher.best()
            old_wall, old_cpu = time.perf_counter() - w0, time.process_time() - c0
            assert result.exact and old_exact
            row = {
                "deal": n,
                "new_cpu": new_cpu,
                "new_wall": new_wall,
                "new_nodes": result.nodes,
                "old_cpu": old_cpu,
                "old_wall": old_wall,
                "old_nodes": searcher.nodes,
                "same_value": result.value == old_value // OLD.WIN,
            }
            if n < memory_deals:
                tracemalloc.start()
                Solver(problem_from_view(view)).solve(Budget())
                row["new_mib"] = tracemalloc.get_traced_memory()[1] / 2**20
                tracemalloc.stop()
                tracemalloc.start()
                OLD.Searcher(OLD.position_from_view(view), 10**9).best()
                row["old_mib"] = tracemalloc.get_traced_memory()[1] / 2**20
                tracemalloc.stop()
            rows.append(row)

        def col(key: str, rows: list[dict] = rows) -> list:
            return [r[key] for r in rows if key in r]

        summary = {"setting": setting, "deals": deals, "same_value": sum(col("same_value"))}
        for who in ("new", "old"):
            for key in ("cpu", "wall", "nodes"):
                values = col(f"{who}_{key}")
                summary[f"{who}_{key}_p50"] = statistics.median(values)
                summary[f"{who}_{key}_p95"] = pct(values, 0.95)
                summary[f"{who}_{key}_max"] = max(values)
            mib = col(f"{who}_mib")
            summary[f"{who}_mib_max"] = round(max(mib), 1) if mib else None
        out.append(summary)
        print(
            f"{setting}: {deals} deals, same value {summary['same_value']}/{deals}\n"
            f"  new: cpu p50 {summary['new_cpu_p50']:.2f} p95 {summary['new_cpu_p95']:.2f} "
            f"max {summary['new_cpu_max']:.2f} s | wall p50 {summary['new_wall_p50']:.2f} "
            f"max {summary['new_wall_max']:.2f} s | nodes p50 {summary['new_nodes_p50']:.0f} "
            f"max {summary['new_nodes_max']} | peak {summary['new_mib_max']} MiB\n"
            f"  old: cpu p50 {summary['old_cpu_p50']:.2f} p95 {summary['old_cpu_p95']:.2f} "
            f"max {summary['old_cpu_max']:.2f} s | wall p50 {summary['old_wall_p50']:.2f} "
            f"max {summary['old_wall_max']:.2f} s | nodes p50 {summary['old_nodes_p50']:.0f} "
            f"max {summary['old_nodes_max']} | peak {summary['old_mib_max']} MiB"
        )
    return out


def part_duel(setting: str, deals: int, seconds: float) -> dict:
    wins = draws = losses = 0
    diffs = []
    for n in range(deals):
        for new_seat in SEATS:
            state, rng = deal(1_000 + n, setting)
            while state.phase == "play":
                seat = SEATS[state.turn]
                legal = GAME.legal_actions(state, seat)
                view = GAME.view(state, seat)
                if seat == new_seat:
                    action = new_move(view, legal, rng, seconds)[0]
                else:
                    action = old_move(view, legal, rng)[0]
                state, _ = GAME.apply(state, seat, action)
            scores = state.scores()
            me = SEATS.index(new_seat)
            diff = scores[me] - scores[1 - me]
            diffs.append(diff)
            wins += diff > 0
            draws += diff == 0
            losses += diff < 0
    return {
        "setting": setting,
        "games": 2 * deals,
        "new_wins": wins,
        "draws": draws,
        "new_losses": losses,
        "mean_card_diff": round(statistics.mean(diffs), 2),
    }


def part_hidden(setting: str, deals: int, seconds: float) -> dict:
    per_ply: dict[int, list[dict]] = {p: [] for p in range(9)}
    for n in range(deals):
        state, rng = deal(2_000 + n, setting)
        ply = 0
        while state.phase == "play":
            seat = SEATS[state.turn]
            legal = GAME.legal_actions(state, seat)
            action, wall, _cpu, stats = new_move(GAME.view(state, seat), legal, rng, seconds)
            per_ply[ply].append({"wall": wall, **stats})
            state, _ = GAME.apply(state, seat, action)
            ply += 1
    rows = []
    for ply, s in per_ply.items():
        if s:
            walls = [r["wall"] for r in s]
            rows.append(
                {
                    "ply": ply,
                    "moves": len(s),
                    "p50": statistics.median(walls),
                    "p95": pct(walls, 0.95),
                    "max": max(walls),
                    "guesses_solved_p50": statistics.median(r.get("guesses_solved", 1) for r in s),
                    "exact": sum(r["exact"] for r in s),
                }
            )
    return {"setting": setting, "deals": deals, "plies": rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--duel-deals", type=int, default=12)
    parser.add_argument("--first-deals", type=int, default=12)
    parser.add_argument("--memory-deals", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--parts", default="plies,first,duel,hidden")
    parser.add_argument("--no-check", action="store_true", help="skip the exactness checks")
    args = parser.parse_args()
    parts = args.parts.split(",")
    check = not args.no_check
    out: dict = {"bench": "triad_ai", "seconds": args.seconds, "old": OLD_COMMIT}
    print(f"new hard: {args.seconds} s wall-clock budget | old hard ({OLD_COMMIT}): 400,000 nodes")
    if "plies" in parts:
        out["plies"] = []
        for setting in ("open_basic", "open_all_rules"):
            r = part_plies(setting, args.deals, args.seconds, check)
            print_plies(r, check)
            out["plies"].append(r)
    if "first" in parts:
        print("\nunbudgeted exact solve of the first move (CPU seconds are load-independent)")
        out["first_move"] = part_first_move(args.first_deals, args.memory_deals)
    if "duel" in parts:
        print("\nnew hard vs old hard, each deal twice with seats swapped")
        out["duel"] = []
        for setting in ("open_basic", "open_all_rules", "hidden_basic"):
            d = part_duel(setting, args.duel_deals, args.seconds)
            out["duel"].append(d)
            print(
                f"{setting}: {d['games']} games: new wins {d['new_wins']}, draws {d['draws']},"
                f" new losses {d['new_losses']}, mean card difference {d['mean_card_diff']:+}"
            )
    if "hidden" in parts:
        out["hidden"] = []
        for setting in ("hidden_basic", "hidden_all_rules"):
            h = part_hidden(setting, args.deals, args.seconds)
            out["hidden"].append(h)
            print(f"\n{setting}: {args.deals} deals, new hard, wall seconds per move")
            print("ply moves    p50    p95    max  guesses_solved_p50  exact")
            for x in h["plies"]:
                print(
                    f"{x['ply']:>3} {x['moves']:>5} {x['p50']:>6.3f} {x['p95']:>6.3f} "
                    f"{x['max']:>6.3f} {x['guesses_solved_p50']:>19} {x['exact']:>6}"
                )
    print(json.dumps(out))


if __name__ == "__main__":
    main()
