"""``python -m bot.deal_export TABLE [--database PATH_OR_URL]``: print a finished table's deal
export (JSON), which ``python -m games verify`` checks without the bot.

Reads the bot's database: the SQLite file (``DATABASE_PATH``, default ``./data/bot.db``) or
PostgreSQL (``DATABASE_URL``). Only a finished table has an export: before the end its seed
and salt are secret.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path

from bot.registry import load_games
from bot.service.fairness import deal_export
from storage import TablesRepo, open_database
from storage.sql import is_postgres_url


async def export_json(database: str | Path, table_id: int) -> str | None:
    """The export of table ``table_id`` as JSON; None when it has none (not finished, no
    seal, no such table)."""
    db = await open_database(database)
    try:
        repo = TablesRepo(db)
        record = await repo.get(table_id)
        if record is None:
            return None
        game = load_games().get(record.game)
        if game is None:
            return None
        export = deal_export(game, record, await repo.actions(table_id))
        return None if export is None else export.model_dump_json(indent=2)
    finally:
        await db.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.deal_export")
    parser.add_argument("table", type=int, help="the table's number (#N)")
    parser.add_argument(
        "--database",
        default=os.environ.get("DATABASE_URL") or os.environ.get("DATABASE_PATH", "data/bot.db"),
        help="the SQLite file or the postgresql:// URL (default: DATABASE_URL, DATABASE_PATH)",
    )
    args = parser.parse_args(argv)
    if not is_postgres_url(args.database) and not Path(args.database).is_file():
        print(f"no database at {args.database}", file=sys.stderr)
        return 2
    text = asyncio.run(export_json(args.database, args.table))
    if text is None:
        print(
            f"table #{args.table} has no deal export (not finished, or not sealed)", file=sys.stderr
        )
        return 1
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
