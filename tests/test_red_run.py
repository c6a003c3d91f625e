"""A red test run reports its failure and exits (issue 27): a test that fails before it closes
its database must not leave pytest waiting at exit for the database's thread."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

RED_TEST = """
from storage.db import open_database


async def test_fails_with_its_database_open(tmp_path):
    db = await open_database(tmp_path / "left-open.db")
    await db.write(lambda tx: tx.execute("CREATE TABLE IF NOT EXISTS t (x)"))
    assert await db.fetchone("SELECT 1") is not None
    raise AssertionError("deliberately red, the database still open")
"""

# Generous for a loaded machine (the run itself takes ~2 s); a hang would never end.
LIMIT_SECONDS = 60


def test_a_failing_test_that_leaves_its_database_open_ends_the_run_non_zero(tmp_path):
    red = tmp_path / "test_red.py"
    red.write_text(RED_TEST, encoding="utf-8")
    try:
        result = subprocess.run(
            # The suite's own configuration and root conftest (its hooks), on the red file.
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
            + ["-c", str(ROOT / "pyproject.toml"), "-p", "tests.conftest", str(red)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=LIMIT_SECONDS,
        )
    except subprocess.TimeoutExpired as exc:
        raise AssertionError(
            f"the red run was still running after {LIMIT_SECONDS} s:\n{exc.stdout}"
        ) from None
    assert result.returncode == 1, result.stdout + result.stderr
    assert "1 failed" in result.stdout, result.stdout
    assert "deliberately red" in result.stdout
