"""Maquiavelo best-play finder vs two independent solvers from PyPI.

    .venv/bin/pip install machiavelli "rummikub-solver[highs]"
    .venv/bin/python bench/maquiavelo_solver.py [--per-cell N] [--seed S] [--json]

Positions: a random valid table of 20, 40 or 60 cards (built from random sets and runs of the
two decks) and a random hand of 6, 11 or 20 of the remaining cards, ``N`` per cell. The optimum
compared is the largest number of hand cards that can join the table (our finder also breaks
ties by hand value; the others maximise the count only, so only the count is compared, and our
value is checked to be at least that of their solution).

- ``machiavelli`` (integer programming through cvxpy) knows ace-high runs: it runs on every
  position, with aces and without.
- ``rummikub-solver`` (HiGHS MILP; ruleset: 13 numbers, 4 colours, 2 repeats, no jokers) has no
  ace-high runs, so it runs on the positions without aces only.

Every solution of theirs is also checked with our meld rules and card counts. Prints one JSON
line per cell (``--json``) or a table, then the overall agreement and time ratios. Times are CPU
time of this process (``time.process_time``, all threads), so other load on the machine does not
inflate them. Every solver is timed alike: each runs over all positions of a pass in turn, so
none runs on caches another just filled (``--interleaved``: one position at a time, as this
bench did before), with the garbage collector paused during each timed call (as ``timeit``
does; it collects between calls), so no solver pays for collecting what another left behind.
HiGHS runs threads of its own: their CPU time is counted in its calls.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import io
import json
import os
import random
import statistics
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.maquiavelo.solver import best_play, face_value, meld_kind

TABLE_SIZES = (20, 40, 60)
HAND_SIZES = (6, 11, 20)
RANK_NAMES_M = "123456789tjqk"  # machiavelli's ranks
SUITS_M = "schd"  # machiavelli's suit letters for our S H D C order
OUR_SUITS = "SHDC"


# ----- positions ------------------------------------------------------------------------------
def random_table(rng: random.Random, n: int, aces: bool) -> list[int]:
    """A valid table of exactly n cards (faces), made of random sets and runs."""
    allowed = [f for f in range(52) if aces or f % 13 != 0]
    while True:
        pool = Counter({f: 2 for f in allowed})
        table: list[int] = []
        for _ in range(400):
            need = n - len(table)
            if need == 0:
                return table
            if need < 3:
                break
            if rng.random() < 0.45:
                r = rng.randrange(13) if aces else rng.randrange(1, 13)
                suits = [s for s in range(4) if pool[s * 13 + r]]
                k = 3 if need in (3, 5) or rng.random() < 0.5 else 4
                if len(suits) < k or need - k in (1, 2):
                    continue
                meld = [s * 13 + r for s in rng.sample(suits, k)]
            else:
                s = rng.randrange(4)
                length = rng.randint(3, min(7, need))
                if need - length in (1, 2):
                    continue
                start = rng.randint(1, 15 - length) if aces else rng.randint(2, 14 - length)
                meld = [s * 13 + (start + i - 1) % 13 for i in range(length)]
                if len(set(meld)) < length or any(pool[f] == 0 for f in meld):
                    continue
            for f in meld:
                pool[f] -= 1
            table += meld


def positions(seed: int, per_cell: int, aces: bool):
    rng = random.Random(f"{seed}:{aces}")
    for t in TABLE_SIZES:
        for h in HAND_SIZES:
            for _ in range(per_cell):
                table = random_table(rng, t, aces)
                rest = Counter({f: 2 for f in range(52) if aces or f % 13}) - Counter(table)
                hand = rng.sample(sorted(rest.elements()), h)
                yield t, h, table, hand


# ----- the solvers ----------------------------------------------------------------------------
class _Timer:
    seconds = 0.0


@contextlib.contextmanager
def _cpu_timer():
    """CPU seconds of the block, with the garbage collector paused inside."""
    timer = _Timer()
    gc.disable()
    t0 = time.process_time()
    try:
        yield timer
    finally:
        timer.seconds = time.process_time() - t0
        gc.enable()


def ours(table: list[int], hand: list[int]) -> tuple[int, int, float]:
    with _cpu_timer() as timer:
        best = best_play(table, hand)
    dt = timer.seconds
    if best is None:
        return 0, 0, dt
    assert Counter(f for m in best.melds for f in m) == Counter(table + best.hand_faces)
    assert all(meld_kind(m) for m in best.melds)
    return best.count, best.value, dt


def _m_code(face: int) -> str:
    return RANK_NAMES_M[face % 13] + SUITS_M[face // 13]


def _m_face(code: str) -> int:
    return SUITS_M.index(code[1]) * 13 + RANK_NAMES_M.index(code[0])


@contextlib.contextmanager
def _quiet_fd1():
    """Silence C-level prints to stdout (HiGHS prints a banner)."""
    sys.stdout.flush()
    saved = os.dup(1)
    with open(os.devnull, "w") as devnull:
        os.dup2(devnull.fileno(), 1)
        try:
            yield
        finally:
            os.dup2(saved, 1)
            os.close(saved)


class Machiavelli:
    name = "machiavelli"

    def __init__(self) -> None:
        import machiavelli.solver as msolver
        from machiavelli import Solver

        self.solver = Solver(quiet=True, pretty=False, color=False, emoji=False)
        self.backend = "?"
        original = msolver.problem_solve_suppress_stdout

        def solve_and_record(problem, **kwargs):
            result = original(problem, **kwargs)
            self.backend = f"cvxpy -> {problem.solver_stats.solver_name}"
            return result

        msolver.problem_solve_suppress_stdout = solve_and_record

    def __call__(self, table: list[int], hand: list[int]) -> tuple[int, int, float]:
        cards = [_m_code(f) for f in table + hand]
        optional = [_m_code(f) for f in hand]
        with contextlib.redirect_stdout(io.StringIO()), _cpu_timer() as timer:
            groups = self.solver.solve(cards, optional)
        dt = timer.seconds
        if not groups:
            return 0, 0, dt
        faces = [_m_face(c) for g in groups for c in g]
        assert all(meld_kind([_m_face(c) for c in g]) for g in groups), groups
        used = Counter(faces) - Counter(table)
        assert not Counter(table) - Counter(faces), "machiavelli dropped table cards"
        assert not used - Counter(hand), "machiavelli used cards it does not have"
        return sum(used.values()), sum(face_value(f) for f in used.elements()), dt


class Rummikub:
    name = "rummikub-solver"

    def __init__(self) -> None:
        from rummikub_solver import RuleSet, SolverMode

        self.ruleset = RuleSet(numbers=13, repeats=2, colours=4, jokers=0, min_len=3)
        self.mode = SolverMode.TILE_COUNT
        self.backend = f"cvxpy -> {self.ruleset.backend}"

    def __call__(self, table: list[int], hand: list[int]) -> tuple[int, int, float]:
        state = self.ruleset.new_game()
        state.initial = False
        # tile numbers: colour * 13 + number (1-based), i.e. our face + 1
        if table:
            state.add_table(*[f + 1 for f in table])
        state.add_rack(*[f + 1 for f in hand])
        with _quiet_fd1():
            with _cpu_timer() as timer:
                sol = self.ruleset.solve(state, self.mode)
            dt = timer.seconds
        if sol is None:
            return 0, 0, dt
        placed = [int(t) - 1 for t in sol.tiles]
        sets = [[int(t) - 1 for t in s] for s in sol.sets]
        assert all(meld_kind(s) for s in sets), sets
        assert Counter(f for s in sets for f in s) == Counter(table + placed)
        return len(placed), sum(face_value(f) for f in placed), dt


# ----- the run --------------------------------------------------------------------------------
def run(per_cell: int, seed: int, as_json: bool, interleaved: bool = False) -> dict:
    others = []
    for cls in (Machiavelli, Rummikub):
        try:
            others.append(cls())
        except ImportError as exc:  # pragma: no cover - reported, not hidden
            print(f"# {cls.name} unavailable: {exc}", file=sys.stderr)
    rows = []
    totals: dict[str, dict] = {}
    for aces in (True, False):
        cells: dict[tuple[int, int], list] = {}
        todo = list(positions(seed, per_cell, aces))
        runs_here = [s for s in others if not (s.name == "rummikub-solver" and aces)]
        if interleaved:  # every solver on one position, then the next position
            results = []
            for _t, _h, table, hand in todo:
                entry = {"ours": ours(table, hand)}
                for solver in runs_here:
                    entry[solver.name] = solver(table, hand)
                results.append(entry)
        else:  # each solver in its own pass over the positions
            results = [{"ours": ours(table, hand)} for _t, _h, table, hand in todo]
            for solver in runs_here:
                for entry, (_t, _h, table, hand) in zip(results, todo, strict=True):
                    entry[solver.name] = solver(table, hand)
        for entry, (t, h, _table, _hand) in zip(results, todo, strict=True):
            cells.setdefault((t, h), []).append(entry)
        for (t, h), entries in cells.items():
            row = {
                "aces": aces,
                "table": t,
                "hand": h,
                "positions": len(entries),
                "ours_ms_median": 1000 * statistics.median(e["ours"][2] for e in entries),
                "ours_ms_p95": 1000 * p95([e["ours"][2] for e in entries]),
                "ours_ms_max": 1000 * max(e["ours"][2] for e in entries),
                "ours_cards_mean": statistics.mean(e["ours"][0] for e in entries),
            }
            for solver in others:
                name = solver.name
                if name not in entries[0]:
                    continue
                agree = sum(e["ours"][0] == e[name][0] for e in entries)
                value_ok = sum(
                    e["ours"][0] != e[name][0] or e["ours"][1] >= e[name][1] for e in entries
                )
                ours_t = sum(e["ours"][2] for e in entries)
                theirs_t = sum(e[name][2] for e in entries)
                theirs_med = statistics.median(e[name][2] for e in entries)
                theirs_p95 = p95([e[name][2] for e in entries])
                row[name] = {
                    "agree": agree,
                    "value_ge": value_ok,
                    "ms_median": 1000 * theirs_med,
                    "ms_p95": 1000 * theirs_p95,
                    "time_ratio": theirs_t / ours_t if ours_t else float("inf"),
                    "median_ratio": 1000 * theirs_med / row["ours_ms_median"],
                    "p95_ratio": 1000 * theirs_p95 / row["ours_ms_p95"],
                }
                tot = totals.setdefault(
                    name, {"positions": 0, "agree": 0, "ours_s": 0.0, "theirs_s": 0.0, "ratios": []}
                )
                tot["positions"] += len(entries)
                tot["agree"] += agree
                tot["ours_s"] += ours_t
                tot["theirs_s"] += theirs_t
                tot["ratios"] += [e[name][2] / e["ours"][2] for e in entries]
            rows.append(row)
            if as_json:
                print(json.dumps(row))
    summary = {
        name: {
            "positions": tot["positions"],
            "agreement_pct": 100.0 * tot["agree"] / tot["positions"],
            "total_time_ratio": tot["theirs_s"] / tot["ours_s"],
            "median_time_ratio": statistics.median(tot["ratios"]),
            "ours_total_s": tot["ours_s"],
            "theirs_total_s": tot["theirs_s"],
        }
        for name, tot in totals.items()
    }
    backends = {s.name: s.backend for s in others}
    if as_json:
        print(json.dumps({"summary": summary, "backends": backends}))
    else:
        _print_table(rows, summary, [s.name for s in others], backends)
    return summary


def p95(values: list[float]) -> float:
    """The 95th percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def _print_table(rows, summary, names, backends) -> None:
    head = f"{'aces':>4} {'table':>5} {'hand':>4} {'n':>3} {'ours ms med/p95/max':>20} {'cards':>5}"
    for name in names:
        head += f" | {name + ' agree':>22} {'ms med/p95':>13} {'x med/p95':>11}"
    print(head)
    for r in rows:
        line = (
            f"{'yes' if r['aces'] else 'no':>4} {r['table']:>5} {r['hand']:>4} "
            f"{r['positions']:>3} {r['ours_ms_median']:>6.2f}/{r['ours_ms_p95']:>6.2f}/"
            f"{r['ours_ms_max']:<6.1f}{r['ours_cards_mean']:>5.1f}"
        )
        for name in names:
            if name in r:
                d = r[name]
                line += (
                    f" | {d['agree']:>3}/{r['positions']:<3} (value>= {d['value_ge']:>3})"
                    f" {d['ms_median']:>6.1f}/{d['ms_p95']:<6.1f}"
                    f" {d['median_ratio']:>5.1f}/{d['p95_ratio']:<5.1f}"
                )
            else:
                line += f" | {'-':>22} {'-':>13} {'-':>11}"
        print(line)
    for name, s in summary.items():
        print(
            f"{name} [{backends[name]}]: agreement {s['agreement_pct']:.1f}% on "
            f"{s['positions']} positions; time theirs/ours: total {s['total_time_ratio']:.2f}x, "
            f"median per position {s['median_time_ratio']:.2f}x "
            f"(ours {s['ours_total_s']:.2f} s, theirs {s['theirs_total_s']:.2f} s)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-cell", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--focus",
        type=int,
        default=0,
        help="also time ours alone on this many 60-card tables + 20-card hands with aces",
    )
    parser.add_argument(
        "--versus-highs",
        type=int,
        default=0,
        help="also time ours and rummikub-solver (HiGHS) on this many 40-card tables + 11-card "
        "hands without aces (the goal's cell, with enough positions for a steady p95)",
    )
    parser.add_argument(
        "--interleaved",
        action="store_true",
        help="run every solver on one position before the next (this bench's older order: "
        "each solver then starts on caches and garbage the others left)",
    )
    args = parser.parse_args()
    run(args.per_cell, args.seed, args.json, args.interleaved)
    if args.focus:
        focus(args.focus, args.seed)
    if args.versus_highs:
        versus_highs(args.versus_highs, args.seed)


def versus_highs(n: int, seed: int) -> None:
    """Ours and rummikub-solver (HiGHS) on ``n`` positions of 40 table + 11 hand cards without
    aces, each in its own pass over the same positions; the counts must agree."""
    rng = random.Random(f"versus:{seed}")
    todo = []
    for _ in range(n):
        table = random_table(rng, 40, False)
        rest = Counter({f: 2 for f in range(52) if f % 13}) - Counter(table)
        todo.append((table, rng.sample(sorted(rest.elements()), 11)))
    highs = Rummikub()
    mine = [ours(table, hand) for table, hand in todo]
    theirs = [highs(table, hand) for table, hand in todo]
    agree = sum(a[0] == b[0] and a[1] >= b[1] for a, b in zip(mine, theirs, strict=True))
    ours_ms = [1000 * m[2] for m in mine]
    highs_ms = [1000 * t[2] for t in theirs]
    med_o, med_h = statistics.median(ours_ms), statistics.median(highs_ms)
    p95_o, p95_h = p95(ours_ms), p95(highs_ms)
    print(
        f"40+11 no aces, {n} positions: ours median {med_o:.2f} ms, p95 {p95_o:.2f} ms | "
        f"HiGHS median {med_h:.2f} ms, p95 {p95_h:.2f} ms | HiGHS/ours {med_h / med_o:.1f}x at "
        f"the median, {p95_h / p95_o:.1f}x at p95 | same count (value >=) {agree}/{n}"
    )


def focus(n: int, seed: int) -> None:
    """Ours alone on many of the hardest positions: 60 table + 20 hand cards, with aces."""
    rng = random.Random(f"focus:{seed}")
    times = []
    for _ in range(n):
        table = random_table(rng, 60, True)
        rest = Counter({f: 2 for f in range(52)}) - Counter(table)
        hand = rng.sample(sorted(rest.elements()), 20)
        times.append(ours(table, hand)[2])
    ms = [1000 * t for t in times]
    print(
        f"60+20 with aces, ours alone, {n} positions: median {statistics.median(ms):.2f} ms, "
        f"p95 {p95(ms):.2f} ms, over 10 ms {100 * sum(t > 10 for t in ms) / n:.1f} %, "
        f"max {max(ms):.1f} ms"
    )


if __name__ == "__main__":
    main()
