"""Fixtures every test folder may use: the storage backends (SQLite and a real PostgreSQL)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.open_databases import pytest_sessionfinish  # noqa: F401  (a red run ends promptly)
from tests.pg_server import PostgresServer, postgres_server

BACKENDS = ("sqlite", "postgres")

# Property tests judge properties, never speed (speed is bench/'s): Hypothesis's per-example
# deadline (200 ms) and its "generation too slow" check fail a correct test on a loaded machine
# (``test_pacer``'s window property: examples of ~125 ms at load 10 were reported as
# "unreliable timings" once one ran past 200 ms).
settings.register_profile("mesa", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("mesa")


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PostgresServer]:
    """One PostgreSQL server for the whole session (embedded unless MESA_TEST_POSTGRES_URL)."""
    with postgres_server() as server:
        yield server


@pytest.fixture
def pg_url(pg_server: PostgresServer) -> Iterator[str]:
    """A fresh, empty PostgreSQL database (``open_database(pg_url)`` migrates it)."""
    url = pg_server.create_database()
    yield url
    pg_server.drop_database(url)


@pytest.fixture(params=BACKENDS)
def db_target(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    """What ``open_database`` opens, once per backend: a SQLite file path, or the URL of a fresh
    PostgreSQL database. Opening it again (a restart) finds the same data."""
    if request.param == "sqlite":
        return tmp_path / "b.db"
    url: str = request.getfixturevalue("pg_url")
    return url


@pytest.fixture(params=BACKENDS)
def db_targets(
    request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[Callable[[], str | Path]]:
    """A maker of fresh, empty databases of one backend, once per backend (a test that compares
    two runs, each on a database of its own)."""
    if request.param == "sqlite":
        numbers = itertools.count(1)
        yield lambda: tmp_path / f"db{next(numbers)}.db"
        return
    server: PostgresServer = request.getfixturevalue("pg_server")
    made: list[str] = []

    def make() -> str:
        made.append(server.create_database())
        return made[-1]

    yield make
    for url in made:
        server.drop_database(url)
