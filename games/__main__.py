"""``python -m games verify EXPORT.json [--show]``: check a finished game's deal without the bot.

Prints ``verified`` (exit 0) or ``NOT verified`` and why (exit 1); ``--show`` also prints each
seat's view of the first deal (compare it with the hand you were dealt). The export's format
and the commitment's exact bytes: ``games/core/fairness.py``; README "Provably fair deals".
The command's only I/O (reading the file, printing) lives here; the check itself is pure.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path

from pydantic import ValidationError

from games.core import Game
from games.core.fairness import DealExport, hands, redeal, verify


def _game(key: str) -> Game | None:
    try:
        module = importlib.import_module(f"games.{key}")
    except ModuleNotFoundError:
        return None
    game = getattr(module, "GAME", None)
    return game if isinstance(game, Game) else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games")
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("verify", help="check a finished game's deal export")
    check.add_argument("export", help="the export's JSON file ('-' reads standard input)")
    check.add_argument("--show", action="store_true", help="print every seat's first view")
    args = parser.parse_args(argv)
    text = sys.stdin.read() if args.export == "-" else Path(args.export).read_text("utf-8")
    try:
        export = DealExport.model_validate(json.loads(text))
    except (ValueError, ValidationError) as exc:
        print(f"NOT verified: the file is not a deal export ({exc})")
        return 1
    game = _game(export.game)
    if game is None:
        print(f"NOT verified: no game {export.game!r} in this copy of games/")
        return 1
    verdict = verify(game, export)
    table = f"table #{export.table} " if export.table is not None else ""
    if verdict.verified:
        print(f"verified: {table}{export.game}, seed {export.seed!r}")
    else:
        print(f"NOT verified: {table}{export.game}")
        for reason in verdict.reasons:
            print(f"  ✗ {reason}")
        if export.engine:
            print(f"  (played under {export.engine}: a later rules change may deal differently)")
    for held in verdict.checked:
        print(f"  ✓ {held}")
    if args.show and verdict.first_state is not None:
        first = redeal(game, export.seats, export.seed, export.options, export.setup)
        for seat, view in hands(game, first).items():
            print(f"  {seat}: {view}")
    return 0 if verdict.verified else 1


if __name__ == "__main__":
    sys.exit(main())
