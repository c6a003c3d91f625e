"""Every golden playout of another checkout (before a change of stored shapes), replayed here.

    .venv/bin/python bench/old_shape_replay.py --before /tmp/mesa-before [--write FILE]

``--before`` is a checkout whose engines wrote their states, action texts and events in an
older shape (e.g. ``git archive 157965d | tar -x -C /tmp/mesa-before``, before issue 26 renamed
``current`` to ``turn``, ``d``/``x`` to ``draw``/``pass``...). A worker process in that tree plays
the golden playouts (``tests/games/golden_playouts.py``: the same families, seeds and random
choices) and prints, per step, the seat, the action text, the events and the stored JSON. This
tree then loads the old first state, decodes each old action text, applies it, and checks at
every step that its events equal the old ones and that its state equals the old stored JSON
*as this tree loads it* (``Game.same_end``: ``load_state``, so old shapes go through the
decoders; a log's versions compared where the old row kept them, a row without a log compared
without). The old events are compared with today's codes (each state's ``log_old_codes``, as
stored rows are renamed on load), every other field as it was. Prints the playouts and steps
matched; exits 1 at the first difference.

``--write FILE`` also keeps a few short old playouts (the first 40 steps of one per game, and
a whole short one) as a fixture for ``tests/games/test_old_shapes.py``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from importlib import import_module
from pathlib import Path
from typing import Any

from games.core.eventlog import renamed

HERE = Path(__file__).resolve().parents[1]


def _worker(root: str) -> None:
    """Inside the old tree: every golden playout as JSON lines."""
    sys.path.insert(0, root)
    import random

    golden = import_module("tests.games.golden_playouts")
    for key, sets in golden.OPTION_SETS.items():
        game = import_module(f"games.{key}").GAME
        for i, (players, options) in enumerate(sets):
            for seed in range(golden.SEEDS[key]):
                seats = [f"s{n}" for n in range(players)]
                state = game.new(seats, f"golden-{key}-{seed}", options)
                rng = random.Random(seed)
                steps: list[Any] = []
                first = game.dump_state(state)
                while not game.is_over(state) and len(steps) < golden.MAX_STEPS:
                    legal = {s: game.legal_actions(state, s) for s in seats}
                    waiting = [s for s in seats if s in game.to_act(state) and legal[s]]
                    others = [s for s in seats if s not in waiting and legal[s]]
                    use_others = others and (not waiting or rng.random() < golden.OUT_OF_TURN)
                    seat = rng.choice(others if use_others else waiting)
                    action = rng.choice(legal[seat])
                    state, events = game.apply(state, seat, action)
                    steps.append(
                        [
                            seat,
                            action.encode(),
                            [e.model_dump(mode="json") for e in events],
                            game.dump_state(state),
                        ]
                    )
                line = {
                    "key": key,
                    "family": i,
                    "seed": seed,
                    "seats": seats,
                    "options": options,
                    "first": first,
                    "steps": steps,
                }
                print(json.dumps(line))


def replay(playout: dict[str, Any]) -> int:
    """Apply the old playout's action texts here; the number of steps that matched."""
    key = playout["key"]
    game = import_module(f"games.{key}").GAME
    seeds = f"golden-{key}-{playout['seed']}"
    state = game.new(playout["seats"], seeds, playout["options"])
    where = f"{key}/{playout['family']}/{playout['seed']}"
    old_codes = game.state_model.log_old_codes
    if not game.same_end(playout["first"], state):
        raise SystemExit(f"{where}: the new game differs from the old one")
    for n, (seat, text, events, stored) in enumerate(playout["steps"], 1):
        state, new_events = game.apply(state, seat, game.decode_action(text))
        if [e.model_dump(mode="json") for e in new_events] != [
            renamed(e, old_codes) for e in events
        ]:
            raise SystemExit(f"{where} step {n}: events differ")
        if stored is not None and not game.same_end(stored, state):
            raise SystemExit(f"{where} step {n}: state differs from the old one as loaded")
    if playout.get("ended", True) and not game.is_over(state) and len(playout["steps"]) < 4000:
        raise SystemExit(f"{where}: the old game ended, the new one did not")
    return len(playout["steps"])


def fixture(
    playouts: list[dict[str, Any]], steps: int = 150, every: int = 50
) -> list[dict[str, Any]]:
    """Per game and family, the shortest old playout: whole if it ends within ``steps`` moves,
    else its first ``steps`` (``ended`` false), with the stored JSON of every ``every``-th state
    and of the last kept (the states between are checked by ``--before`` runs)."""
    out = []
    for key, family in dict.fromkeys((p["key"], p["family"]) for p in playouts):
        mine = [p for p in playouts if p["key"] == key and p["family"] == family]
        shortest = min(mine, key=lambda p: len(p["steps"]))
        head = shortest["steps"][:steps]
        kept = [
            [seat, text, events, stored if n % every == 0 or n == len(head) else None]
            for n, (seat, text, events, stored) in enumerate(head, 1)
        ]
        out.append({**shortest, "steps": kept, "ended": len(head) == len(shortest["steps"])})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=Path, help="checkout of the older shapes")
    parser.add_argument("--write", type=Path, help="keep a short fixture of old playouts")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        _worker(args.worker)
        return
    if args.before is None:
        parser.error("--before is required")
    sys.path.insert(0, str(HERE))
    root = str(args.before.resolve())
    proc = subprocess.run(
        [sys.executable, __file__, "--worker", root],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONDONTWRITEBYTECODE": "1", "PATH": "/usr/bin:/bin"},
    )
    playouts = [json.loads(line) for line in proc.stdout.splitlines()]
    steps = sum(replay(p) for p in playouts)
    print(f"{len(playouts)} old playouts replayed here, {steps} steps: every event and state equal")
    if args.write:
        kept = fixture(playouts)
        args.write.write_text(json.dumps(kept, separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"kept {len(kept)} old playouts in {args.write}")


if __name__ == "__main__":
    main()
