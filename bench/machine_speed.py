"""How fast this machine runs Python right now: the CPU milliseconds of one fixed piece of work.

This VM changes speed by up to ±20 % within a day (session 20 measured the same bot tree at 5.28
and 4.41 ms of CPU per move 50 minutes apart, and the computers' fixed-work searches moved with
it), so a CPU-per-move figure means little without the machine's speed beside it.
``bench/load.py`` runs this before its bot starts and after it stops and prints both: two runs
compare only when their figures here are close (or scale by their ratio to compare roughly).

The work is the bot's kind of Python (objects, dicts, lists, strings, JSON, pickle), run in a
fresh process several times; the fastest round is the figure (interference only adds time).

    .venv/bin/python bench/machine_speed.py
"""

from __future__ import annotations

import subprocess
import sys

_WORK = r"""
import json, pickle, time

class Card:
    __slots__ = ("suit", "rank")
    def __init__(self, suit, rank):
        self.suit, self.rank = suit, rank

def one_round():
    total = 0
    for n in range(500):
        cards = [Card(s, r) for s in range(4) for r in range(13)]
        cards.sort(key=lambda c: (c.rank * 7 + c.suit * 3 + n) % 52)
        view = {
            "seats": [{"name": f"player {i}", "cards": [f"{c.suit}:{c.rank}" for c in cards[i::4]]}
                      for i in range(4)],
            "log": [{"kind": "play", "seat": i % 4, "text": "x" * (i % 17)} for i in range(40)],
        }
        text = json.dumps(view)
        total += len(json.loads(text)["seats"][n % 4]["cards"])
        total += len(pickle.loads(pickle.dumps(view)))
        total += sum(len(line["text"]) for line in view["log"] if line["seat"] != n % 4)
    return total

best = float("inf")
for _ in range(ROUNDS):
    start = time.process_time()
    one_round()
    best = min(best, time.process_time() - start)
print(best * 1000)
"""


def measure(rounds: int = 7, python: str | None = None) -> float:
    """CPU ms of the fastest of `rounds` rounds of the fixed work, in a fresh Python process
    (``python``: another interpreter's, e.g. the one ``bench/load.py --bot-python`` runs)."""
    out = subprocess.run(
        [python or sys.executable, "-c", _WORK.replace("ROUNDS", str(rounds))],
        capture_output=True,
        text=True,
        check=True,
    )
    return round(float(out.stdout.strip()), 2)


if __name__ == "__main__":
    print(f"machine: {measure()} ms of CPU for the fixed work (lower = faster)")
