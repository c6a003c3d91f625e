"""Render every game's table and hand images with long and CPU names; print render times.

    python -m bench.render_images [OUT_DIR]

Writes the PNGs to OUT_DIR (default /tmp/mesa-images) so they can be looked at, and prints the
mean time per image (a figure, never asserted).
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from bot.i18n import translator as bot_translator
from bot.ui.amapatolli import images as amapatolli
from bot.ui.chupate2 import images as chupate2
from bot.ui.macarena import images as macarena
from bot.ui.maquiavelo import images as maquiavelo
from bot.ui.triad import images as triad
from games.amapatolli import GAME as AMAPATOLLI
from games.chupate2 import GAME as CHUPATE2
from games.macarena import GAME as MACARENA
from games.maquiavelo import GAME as MAQUIAVELO
from games.triad import GAME as TRIAD

TOTAL_MS = 0.0
NAMES = [
    "🤖 CPU 1 (normal)",
    "Alejandra Fernández",
    "🤖 CPU 3 (difícil)",
    "Zoë",
    "🤖 CPU 5 (fácil)",
]


def translator(game: str, locale: str = "es") -> Callable[..., str]:
    """The bot's own translator (ICU plurals and all)."""
    return bot_translator(locale)


def played(game: Any, players: int, steps: int, seed: str) -> Any:
    state = game.new([f"s{i}" for i in range(players)], seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.outcome(state) is not None or not game.to_act(state):
            break
        seat = sorted(game.to_act(state))[0]
        action = game.choose_action(
            game.view(state, seat), game.legal_actions(state, seat), "normal", rng
        )
        state, _ = game.apply(state, seat, action)
    return state


def timed(label: str, func: Callable[[], bytes], out: Path, repeat: int = 5) -> None:
    data = func()
    start = time.perf_counter()
    for _ in range(repeat):
        func()
    ms = (time.perf_counter() - start) / repeat * 1000
    global TOTAL_MS
    TOTAL_MS += ms
    (out / f"{label}.png").write_bytes(data)
    print(f"{label:28s} {ms:7.1f} ms  {len(data) / 1024:6.0f} KiB")


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/mesa-images")
    out.mkdir(parents=True, exist_ok=True)
    cases: list[tuple[str, Any, Any, int, int, bool]] = [
        ("amapatolli", AMAPATOLLI, amapatolli, 4, 12, False),
        ("chupate2", CHUPATE2, chupate2, 4, 12, False),
        ("macarena", MACARENA, macarena, 5, 60, True),
        ("maquiavelo", MAQUIAVELO, maquiavelo, 5, 300, False),
        ("triad", TRIAD, triad, 2, 5, True),
    ]
    for key, game, module, players, steps, callable_names in cases:
        tr = translator(key)
        state = played(game, players, steps, f"bench-{key}")
        by_seat = dict(zip(state.seats, NAMES, strict=False))
        names: Any = by_seat.__getitem__ if callable_names else by_seat
        view = game.view(state, None)
        timed(f"{key}_table", partial(module.render_table, view, tr, names), out)
        seat = sorted(game.to_act(state) or state.seats)[0]
        hand_view = game.view(state, seat)
        timed(f"{key}_hand", partial(module.render_hand, hand_view, tr), out)
        if module is chupate2:
            marked = chupate2.playable_cards(game.legal_actions(state, seat), hand_view.hand)
            render = partial(chupate2.render_hand, hand_view, tr, playable=marked)
            timed(f"{key}_hand_playable", render, out)
    print(f"{'total':28s} {TOTAL_MS:7.1f} ms")


if __name__ == "__main__":
    main()
