"""Numbered SQL migrations, one set per backend, numbered alike.

``storage/migrations/NNNN_name.sql`` are SQLite's, ``storage/migrations/postgres/NNNN_name.sql``
PostgreSQL's: the same numbers and names, 1..n without gaps, each the other's dialect twin (a
migration added for one backend needs its twin, or neither backend opens)."""

from __future__ import annotations

import re
from importlib import resources
from typing import Literal

_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
_PACKAGES = {"sqlite": "storage.migrations", "postgres": "storage.migrations.postgres"}


def _scripts(package: str) -> list[tuple[int, str, str]]:
    found = []
    for entry in resources.files(package).iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort()
    numbers = [n for n, _, _ in found]
    if numbers != list(range(1, len(numbers) + 1)):
        raise RuntimeError(
            f"{package}: migrations must be numbered 1..n without gaps, found {numbers}"
        )
    return found


def migration_scripts(dialect: Literal["sqlite", "postgres"] = "sqlite") -> list[tuple[int, str]]:
    """The numbered migrations of ``dialect``, in order; refuses sets that are not twins."""
    sets = {name: _scripts(package) for name, package in _PACKAGES.items()}
    names = {name: [file for _, file, _ in found] for name, found in sets.items()}
    if names["sqlite"] != names["postgres"]:
        raise RuntimeError(
            "SQLite and PostgreSQL migrations must be numbered and named alike:"
            f" {names['sqlite']} vs {names['postgres']}"
        )
    return [(number, script) for number, _, script in sets[dialect]]
