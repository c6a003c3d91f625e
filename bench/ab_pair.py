"""Before/after of the bot's CPU per move with both trees measured at the same time.

Sequential A/B runs of ``bench/load.py`` drown a 0.1-0.3 ms/move change: this VM's speed drifts
by ±15 % between runs (session 28: the same tree 4.59-5.28 ms/move at 1,000 tables,
``bench/machine_speed.py`` 52.8-63.4 ms). Here two ``bench/load.py`` runs go side by side, each
with its own fake Discord, players and bot (``--bot-root A`` and ``--bot-root B``), half the
tables each: both bots share the same cores, the same drift and the same neighbours, so their
difference per round is the trees' difference, and the rounds' spread of that difference says
how far to trust it. Each round swaps which run starts first.

    .venv/bin/python bench/ab_pair.py --a ../before --b . --tables 500 --rounds 3
    .venv/bin/python bench/ab_pair.py --a ../before --b . -- --channel-play 0.5 --no-validate

``--a-python`` / ``--b-python`` run a side's ``bench/load.py`` (its driver and its bot) under
another interpreter, a virtual environment of that tree built with another CPython: the same code
on two Pythons side by side (session 31: 3.11 against 3.13). ``--a-bot-python`` /
``--b-bot-python`` run that side's bot alone on another (``bench/load.py --bot-python``:
``production``, its default, a CPython built as the Docker image's, ``bench/production_python.py``;
``current``, the driver's; or a path), its driver and fake Discord on the same interpreter as the
other side's (session 35: this machine's pyenv build against a PGO+LTO build, the same tree).

    .venv/bin/python bench/ab_pair.py --a . --b ../py313 --b-python ../py313/.venv/bin/python
    .venv/bin/python bench/ab_pair.py --a . --b . --a-bot-python current

Arguments after ``--`` go to both ``bench/load.py`` runs. Prints each round's figures of both
runs and B − A, then the mean difference with its range over rounds.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOAD = ROOT / "bench" / "load.py"

# (key in load.py's JSON object, label, how its value is read)
FIGURES = (
    ("bot_and_renders_cpu_ms_per_move", "bot + renders ms/move", None),
    ("bot_cpu_ms_per_move", "bot ms/move", None),
    ("render_workers_cpu_ms_per_move", "render workers ms/move", None),
    ("search_workers_cpu_ms_per_move", "searches ms/move", None),
    ("moves_per_s", "moves/s", None),
    ("rest_per_move", "REST calls/move", None),
    ("images_drawn_per_move", "images/move", None),
    ("next_view_ms", "next view p99 ms", "p99"),
    ("public_edit_ms", "public p99 ms", "p99"),
    ("ack_ms", "ack p99 ms", "p99"),
    ("route_429", "route 429s", None),
    ("route_spent", "route buckets spent", None),
    ("bot_rss_mb", "bot RSS MB", None),
    ("driver_cpu_pct", "driver CPU %", None),
)


def parse_args(argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    own, passed = (
        (argv[: argv.index("--")], argv[argv.index("--") + 1 :]) if "--" in argv else (argv, [])
    )
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", type=Path, required=True, help="the before tree (bot root)")
    parser.add_argument("--b", type=Path, default=ROOT, help="the after tree (default: this one)")
    for side in ("a", "b"):
        parser.add_argument(
            f"--{side}-python",
            type=Path,
            default=Path(sys.executable),
            help=f"the interpreter of side {side.upper()}'s driver and bot (default: this one)",
        )
    for side in ("a", "b"):
        parser.add_argument(
            f"--{side}-bot-python",
            default="",
            help=f"side {side.upper()}'s bot alone on another interpreter (bench/load.py"
            f" --bot-python: 'production', its default, 'current' or a path); its driver stays"
            f" on --{side}-python",
        )
    parser.add_argument(
        "--tables", type=int, default=500, help="tables per run (500: 1,000 in all)"
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--window", type=float, default=120.0)
    parser.add_argument("--warmup", type=float, default=60.0)
    return parser.parse_args(own), passed


def load_command(args: argparse.Namespace, side: str, seed: int, passed: list[str]) -> list[str]:
    root = args.a if side == "a" else args.b
    return [
        str(getattr(args, f"{side}_python")),
        str(LOAD),
        *("--tables", str(args.tables), "--window", str(args.window)),
        *("--warmup", str(args.warmup), "--drain", "10", "--seed", str(seed)),
        *("--bot-root", str(root.resolve()), "--quiet", *passed),
        *(
            ("--bot-python", bot_python)
            if (bot_python := getattr(args, f"{side}_bot_python"))
            else ()
        ),
    ]


def figures_of(output: str) -> dict[str, object]:
    """The JSON object ``bench/load.py`` prints for its one table count."""
    for line in output.splitlines():
        if line.startswith("{") and '"bot_cpu_ms_per_move"' in line:
            figures: dict[str, object] = json.loads(line)
            return figures
    raise ValueError("bench/load.py printed no figures:\n" + output[-2000:])


def value(figures: dict[str, object], key: str, part: str | None) -> float:
    raw = figures.get(key, float("nan"))  # (a figure an older bench/load.py did not print)
    if part is not None:
        assert isinstance(raw, dict)
        raw = raw[part]
    assert isinstance(raw, int | float)
    return float(raw)


def run_round(args: argparse.Namespace, passed: list[str], number: int) -> dict[str, dict]:
    """Both runs side by side; the same seed for both (the same games and players)."""
    order = ("a", "b") if number % 2 == 0 else ("b", "a")
    running = {}
    for name in order:
        running[name] = subprocess.Popen(
            load_command(args, name, seed=number + 1, passed=passed),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            cwd=ROOT,
        )
    outputs = {name: process.communicate()[0] for name, process in running.items()}
    for name, process in running.items():
        if process.returncode != 0:
            raise SystemExit(f"run {name} failed ({process.returncode}):\n{outputs[name][-3000:]}")
    return {name: figures_of(outputs[name]) for name in ("a", "b")}


def row(label: str, cells: list[str]) -> str:
    return f"| {label} | " + " | ".join(cells) + " |"


def main(argv: list[str] | None = None) -> None:
    args, passed = parse_args(sys.argv[1:] if argv is None else argv)
    print(f"A = {args.a.resolve()} ({args.a_python})\nB = {args.b.resolve()} ({args.b_python})")
    print(f"{args.rounds} rounds, {args.tables} tables per run side by side, {args.window:.0f}-s")
    print(f"windows after {args.warmup:.0f} s of warm-up; passed to bench/load.py: {passed}\n")
    differences: dict[str, list[float]] = {label: [] for _, label, _ in FIGURES}
    means: dict[str, dict[str, list[float]]] = {"a": {}, "b": {}}
    for number in range(args.rounds):
        pair = run_round(args, passed, number)
        print(
            f"round {number + 1} (machine ms A {pair['a']['machine_ms']}, B {pair['b']['machine_ms']})"
        )
        print(row("figure", ["A", "B", "B − A"]))
        print(row("---", ["---:", "---:", "---:"]))
        for key, label, part in FIGURES:
            a, b = value(pair["a"], key, part), value(pair["b"], key, part)
            differences[label].append(b - a)
            means["a"].setdefault(label, []).append(a)
            means["b"].setdefault(label, []).append(b)
            print(row(label, [f"{a:.2f}", f"{b:.2f}", f"{b - a:+.2f}"]))
        print(flush=True)
    print(f"over {args.rounds} rounds: mean A, mean B, mean B − A (its range over rounds)")
    print(row("figure", ["A", "B", "B − A", "range of B − A"]))
    print(row("---", ["---:", "---:", "---:", "---"]))
    for _, label, _ in FIGURES:
        spread = differences[label]
        print(
            row(
                label,
                [
                    f"{statistics.fmean(means['a'][label]):.2f}",
                    f"{statistics.fmean(means['b'][label]):.2f}",
                    f"**{statistics.fmean(spread):+.2f}**",
                    f"{min(spread):+.2f} … {max(spread):+.2f}",
                ],
            )
        )


if __name__ == "__main__":
    main()
