"""Numbered SQL migrations, one file each for both backends.

``storage/migrations/NNNN_name.sql``, numbered 1..n without gaps, is written in SQLite's dialect
and run by SQLite as it is; PostgreSQL runs the text ``dialect.to_postgres`` makes of it (its
rules, and the lines marked for one backend only, are in ``storage/migrations/dialect.py``)."""

from __future__ import annotations

import re
from importlib import resources
from typing import Literal

from storage.migrations.dialect import to_postgres

_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


def _scripts() -> list[tuple[int, str]]:
    folder = resources.files(__name__)
    twins = folder / "postgres"
    if twins.is_dir() and any(e.name.endswith(".sql") for e in twins.iterdir()):
        raise RuntimeError(
            f"{__name__}: a hand-written PostgreSQL twin in postgres/: PostgreSQL's text is made"
            " from the SQLite file now (storage/migrations/dialect.py); compare the twin with"
            " to_postgres(<the SQLite file>), mark what differs in the SQLite file, delete it"
        )
    found = []
    for entry in folder.iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.read_text(encoding="utf-8")))
    found.sort()
    numbers = [n for n, _ in found]
    if numbers != list(range(1, len(numbers) + 1)):
        raise RuntimeError(
            f"{__name__}: migrations must be numbered 1..n without gaps, found {numbers}"
        )
    return found


def migration_scripts(dialect: Literal["sqlite", "postgres"] = "sqlite") -> list[tuple[int, str]]:
    """The numbered migrations in ``dialect``, in order."""
    scripts = _scripts()
    if dialect == "postgres":
        return [(number, to_postgres(script)) for number, script in scripts]
    return scripts
