"""Operations: shard settings, SQLite's refusal of a multi-process set-up, the health and
metrics endpoint over real HTTP on 127.0.0.1, and JSON log lines."""

from __future__ import annotations

import io
import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest
from pydantic import ValidationError

from bot import metrics
from bot.ops.http import Health, OpsServer
from bot.ops.logs import ErrorCounter, JsonFormatter
from bot.ops.prometheus import Sources
from bot.settings import Settings, parse_shard_ids

ROOT = Path(__file__).resolve().parents[2]


# ----- settings ------------------------------------------------------------------------------
def test_shard_ids_are_ranges_or_lists():
    assert parse_shard_ids("0-3") == (0, 1, 2, 3)
    assert parse_shard_ids("4, 0-1,1") == (0, 1, 4)
    for bad in ("", "a", "3-1", "1-", "-2"):
        with pytest.raises(ValueError):
            parse_shard_ids(bad)


def test_shard_settings():
    assert Settings(_env_file=None).shards() is None
    assert Settings(_env_file=None, shard_count=3).shards() == (0, 1, 2)
    assert Settings(_env_file=None, shard_count=4, shard_ids="2-3").shards() == (2, 3)
    with pytest.raises(ValidationError):
        Settings(_env_file=None, shard_ids="0")  # no count
    with pytest.raises(ValidationError):
        Settings(_env_file=None, shard_count=2, shard_ids="0-2")  # shard 2 of 2


def _run(*args: str, tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in ("LANG", "LC_ALL")}
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=tmp_path,
        env={**base, "PYTHONPATH": str(ROOT), "LANG": "en_US.UTF-8", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_sqlite_refuses_shards_left_to_another_process(tmp_path):
    result = _run(
        "--shard-count", "2", "--shards", "1", tmp_path=tmp_path, DISCORD_TOKEN="not-used"
    )
    assert result.returncode == 2
    assert "Shards 1 of 2" in result.stderr and "SQLite serves one process only" in result.stderr
    assert "DATABASE_URL=postgresql://" in result.stderr
    spanish = _run(
        tmp_path=tmp_path, DISCORD_TOKEN="x", SHARD_COUNT="4", SHARD_IDS="0-1", LANG="es_ES.UTF-8"
    )
    assert spanish.returncode == 2 and "SQLite solo sirve a un proceso" in spanish.stderr


def test_help_lists_the_shard_options(tmp_path):
    out = _run("--help", tmp_path=tmp_path).stdout
    assert "--shard-count" in out and "--shards" in out and "SHARD_IDS" in out


# ----- the endpoint --------------------------------------------------------------------------
@pytest.fixture
def fresh_metrics():
    metrics.reset()
    yield
    metrics.reset()


async def test_health_and_metrics_over_http(fresh_metrics):
    connected = {0: True, 1: False}
    errors = ErrorCounter()
    errors.handle(logging.makeLogRecord({"levelname": "ERROR", "levelno": logging.ERROR}))
    server = OpsServer(
        Health(ready=lambda: True, shards=lambda: dict(connected)),
        Sources(
            open_tables=lambda: 7,
            gateway_latencies=lambda: [(0, 0.042), (1, float("inf"))],
            log_counts=lambda: errors.counts,
        ),
        "127.0.0.1",
        0,
    )
    port = await server.start()
    try:
        metrics.count("moves", 3)
        for ms in (1.0, 2.0, 30.0):
            metrics.observe("persist", ms)
        metrics.histograms[metrics.LOOP_LAG].add(4.5)
        async with aiohttp.ClientSession() as http:
            base = f"http://127.0.0.1:{port}"
            async with http.get(f"{base}/health") as response:
                assert response.status == 503  # shard 1 is down
                assert await response.json() == {
                    "status": "starting",
                    "shards": {"0": "connected", "1": "down"},
                }
            connected[1] = True
            async with http.get(f"{base}/health") as response:
                assert response.status == 200
                assert (await response.json())["status"] == "ok"
            async with http.get(f"{base}/metrics") as response:
                assert response.status == 200
                assert response.headers["Content-Type"].startswith("text/plain")
                text = await response.text()
    finally:
        await server.close()
    lines = set(text.splitlines())
    assert 'mesa_events_total{event="moves"} 3.0' in lines
    assert 'mesa_phase_milliseconds_count{phase="persist"} 3.0' in lines
    assert 'mesa_phase_milliseconds_sum{phase="persist"} 33.0' in lines
    assert 'mesa_phase_quantile_milliseconds{phase="persist",quantile="0.99"} 30.0' in lines
    assert 'mesa_event_loop_lag_milliseconds{stat="max"} 4.5' in lines
    assert "mesa_open_tables 7.0" in lines
    assert 'mesa_gateway_latency_seconds{shard="0"} 0.042' in lines
    assert not any(line.startswith('mesa_gateway_latency_seconds{shard="1"}') for line in lines)
    assert 'mesa_log_records_total{level="ERROR"} 1.0' in lines


# ----- JSON logs -----------------------------------------------------------------------------
def test_json_log_lines():
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter({"shards": [0, 1]}))
    log = logging.getLogger("mesa.test.json")
    log.addHandler(handler)
    log.propagate = False
    log.setLevel(logging.INFO)
    try:
        log.info("table %s moved", 12, extra={"table": 12, "seat": "u1"})
        try:
            raise RuntimeError("boom ñ")
        except RuntimeError:
            log.exception("it failed")
    finally:
        log.removeHandler(handler)
        log.propagate = True
    first, second = (json.loads(line) for line in stream.getvalue().splitlines())
    assert first["msg"] == "table 12 moved" and first["level"] == "INFO"
    assert first["logger"] == "mesa.test.json" and first["shards"] == [0, 1]
    assert first["table"] == 12 and first["seat"] == "u1"
    assert first["ts"].endswith("+00:00")
    assert second["level"] == "ERROR" and "RuntimeError: boom ñ" in second["exc"]


def test_a_taken_metrics_port_is_said_as_such(tmp_path):
    import socket

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    try:
        port = taken.getsockname()[1]
        result = _run(tmp_path=tmp_path, DISCORD_TOKEN="x", METRICS_PORT=str(port))
    finally:
        taken.close()
    assert result.returncode == 5
    assert f"127.0.0.1:{port}" in result.stderr and "METRICS_PORT" in result.stderr


def test_interaction_tokens_never_reach_the_log():
    """discord.py's DEBUG lines name webhook and callback URLs, which carry interaction tokens
    (secrets): the handler redacts them."""
    import io
    import logging

    from bot.ops.logs import RedactTokens

    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.addFilter(RedactTokens())
    log = logging.getLogger("test.redact")
    log.addHandler(handler)
    log.setLevel(logging.DEBUG)
    token = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5OmFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6"
    try:
        log.debug(
            "PATCH %s has returned 200", f"https://x/api/v10/webhooks/42/{token}/messages/@original"
        )
        log.debug("POST https://x/api/v10/interactions/99/%s/callback", token)
    finally:
        log.removeHandler(handler)
    text = out.getvalue()
    assert token not in text
    assert (
        "/webhooks/42/<token>/messages/@original" in text
        and "/interactions/99/<token>/callback" in text
    )
