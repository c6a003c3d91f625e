"""Ce Amapatolli benchmarks: engine speed, image speed/size, computer-player strength.

Run: ``.venv/bin/python -m bench.amapatolli_bench`` (or the file path). Prints one JSON object per
line (``{"bench": name, ...figures}``); never asserts on timings.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.amapatolli import GAME

SEATS = [f"p{i}" for i in range(6)]


def emit(name: str, **figures) -> None:
    print(json.dumps({"bench": name, **figures}))


def random_playouts(games: int = 500) -> None:
    steps = 0
    start = time.perf_counter()
    for n in range(games):
        rng = random.Random(n)
        seats = SEATS[: 2 + n % 5]
        state = GAME.new(seats, f"b{n}")
        while not state.finished:
            pairs = [(s, a) for s in seats for a in GAME.legal_actions(state, s)]
            seat, action = rng.choice(pairs)
            state, _ = GAME.apply(state, seat, action)
            steps += 1
    elapsed = time.perf_counter() - start
    emit(
        "amapatolli.random_playouts",
        games=games,
        steps=steps,
        games_per_s=round(games / elapsed, 1),
        us_per_step=round(elapsed / steps * 1e6, 1),
    )


def per_call() -> None:
    state = GAME.new(SEATS[:4], "calls")
    legal = GAME.legal_actions(state, "p0")
    n = 5000
    timings = {}
    for name, fn in [
        ("apply", lambda: GAME.apply(state, "p0", legal[0])),
        ("legal_actions", lambda: GAME.legal_actions(state, "p0")),
        ("view", lambda: GAME.view(state, "p0")),
        ("dump_state", lambda: GAME.dump_state(state)),
        (
            "choose_normal",
            lambda: GAME.choose_action(GAME.view(state, "p0"), legal, "normal", random.Random(0)),
        ),
    ]:
        start = time.perf_counter()
        for _ in range(n):
            fn()
        timings[f"{name}_us"] = round((time.perf_counter() - start) / n * 1e6, 1)
    emit("amapatolli.per_call", **timings, state_json_bytes=len(GAME.dump_state(state)))


def images() -> None:
    from bot.i18n import translator
    from bot.ui.amapatolli import images as img

    tr = translator("es")
    state = GAME.new(SEATS[:6], "img")
    view = GAME.view(state, "p0")
    for name, fn in [("render_table", img.render_table), ("render_hand", img.render_hand)]:
        start = time.perf_counter()
        for _ in range(20):
            png = fn(view, tr)
        emit(
            f"amapatolli.{name}",
            ms=round((time.perf_counter() - start) / 20 * 1e3, 1),
            bytes=len(png),
        )


def _play(n: int, levels: list[str]):
    rng = random.Random(n)
    seats = SEATS[: len(levels)]
    state = GAME.new(seats, f"ai{n}")
    while not state.finished:
        turn = seats[state.turn]
        for seat in [s for s in seats if s != turn] + [turn]:
            legal = GAME.legal_actions(state, seat)
            level = levels[seats.index(seat)]
            choice = (
                GAME.choose_action(GAME.view(state, seat), legal, level, rng) if legal else None
            )
            if choice is not None:
                state, _ = GAME.apply(state, seat, choice)
                break
    return GAME.outcome(state)


def strength(games: int = 400) -> None:
    for table in (
        ["normal", "easy"],
        ["normal", "easy", "easy", "easy"],
        ["hard", "normal"],
        ["hard", "normal", "normal", "normal"],
    ):
        wins: Counter[str] = Counter()
        for n in range(games):
            shift = n % len(table)
            levels = table[shift:] + table[:shift]  # rotate who starts
            outcome = _play(n, levels)
            for seat in outcome.winners:
                wins[levels[SEATS.index(seat)]] += 1 / len(outcome.winners)
        first = table[0]
        emit(
            "amapatolli.strength",
            table="-".join(table),
            games=games,
            win_rate=round(wins[first] / games, 3),
            fair_share=round(1 / len(table), 3),
        )


if __name__ == "__main__":
    random_playouts()
    per_call()
    images()
    strength()
