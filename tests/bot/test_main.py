"""`python -m bot`: a clear message without a token, and --help."""

import asyncio
import os
import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(*args, tmp_path, lang="es_ES.UTF-8"):
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "LANG", "LC_ALL")}
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(ROOT), "LANG": lang},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_without_a_token_it_explains_how_to_get_one(tmp_path):
    result = _run(tmp_path=tmp_path)
    assert result.returncode != 0
    assert "DISCORD_TOKEN" in result.stderr
    assert "discord.com/developers/applications" in result.stderr
    assert ".env" in result.stderr


def test_the_explanation_follows_the_terminal_language(tmp_path):
    assert "No hay token" in _run(tmp_path=tmp_path, lang="es_ES.UTF-8").stderr
    english = _run(tmp_path=tmp_path, lang="en_US.UTF-8")
    assert "No Discord bot token found" in english.stderr
    assert "settings file to read" in _run("--help", tmp_path=tmp_path, lang="en_GB").stdout


def test_a_blank_token_in_env_file_counts_as_missing(tmp_path):
    (tmp_path / ".env").write_text("DISCORD_TOKEN=\n")
    result = _run(tmp_path=tmp_path)
    assert result.returncode != 0 and "DISCORD_TOKEN" in result.stderr


def test_help_lists_the_options(tmp_path):
    result = _run("--help", tmp_path=tmp_path)
    assert result.returncode == 0
    for flag in ("--env-file", "--database", "--log-level", "--dev-guild", "--locale"):
        assert flag in result.stdout


def test_spanish_help_is_all_spanish(tmp_path):
    out = _run("--help", tmp_path=tmp_path).stdout
    assert out.startswith("uso: python -m bot")
    assert "\nopciones:\n" in out and "muestra esta ayuda y termina" in out
    for english in ("usage:", "options:", "show this help message and exit"):
        assert english not in out


def test_spanish_argument_errors(tmp_path):
    result = _run("--log-level", "LOUD", tmp_path=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("uso: python -m bot")
    assert "python -m bot: error: argumento --log-level: opción no válida: 'LOUD'" in result.stderr
    unknown = _run("--bogus", tmp_path=tmp_path).stderr
    assert "argumentos desconocidos: --bogus" in unknown
    assert "usage:" not in unknown and "unrecognized" not in unknown
    english = _run("--dev-guild", "x", tmp_path=tmp_path, lang="en_US.UTF-8").stderr
    assert "usage: python -m bot" in english
    assert "argument --dev-guild: invalid int value: 'x'" in english


def test_argparse_is_left_as_it_was_after_parsing():
    import argparse

    from bot.__main__ import parse_args

    before = argparse._  # type: ignore[attr-defined]
    parse_args([])
    assert argparse._ is before  # type: ignore[attr-defined]


def test_the_no_token_message_names_the_file_it_reads(tmp_path):
    result = _run(tmp_path=tmp_path)
    assert str(tmp_path.resolve() / ".env") in result.stderr
    other = tmp_path / "conf" / "bot.env"
    assert str(other.resolve()) in _run("--env-file", str(other), tmp_path=tmp_path).stderr


def test_an_untouched_env_example_is_valid_settings(tmp_path):
    from bot.settings import Settings

    env = tmp_path / ".env"
    shutil.copy(ROOT / ".env.example", env)
    settings = Settings(_env_file=env)
    assert settings.discord_token is None and settings.dev_guild_id is None
    # Every blank line of .env.example means "unset", whatever the field's type.
    blank = [
        line.split("=", 1)[0]
        for line in (ROOT / ".env.example").read_text().splitlines()
        if re.fullmatch(r"[A-Z_]+=\s*", line)
    ]
    assert "DEV_GUILD_ID" in blank and "DISCORD_TOKEN" in blank
    every_field_blank = "".join(f"{name.upper()}=  \n" for name in Settings.model_fields)
    env.write_text(every_field_blank)
    assert Settings(_env_file=env) == Settings(_env_file=None)


def test_without_a_network_one_sentence_not_a_traceback(tmp_path):
    with socket.socket() as probe:  # a port nobody listens on: the connection is refused
        probe.bind(("127.0.0.1", 0))
        closed_port = probe.getsockname()[1]
    (tmp_path / ".env").write_text(
        "DISCORD_TOKEN=abc.def.ghi\n"
        f"DISCORD_API_BASE=http://127.0.0.1:{closed_port}/api/v10\n"
        f"DATABASE_PATH={tmp_path / 'bot.db'}\n"
        "LOG_LEVEL=ERROR\n"
    )
    result = _run(tmp_path=tmp_path)
    assert result.returncode == 4
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("No se pudo conectar con Discord")
    assert f"127.0.0.1:{closed_port}" in lines[0]


def test_a_garbage_env_in_the_working_folder_does_not_reach_the_suites_settings(
    tmp_path, monkeypatch
):
    from bot.settings import Settings

    (tmp_path / ".env").write_text(
        "DISCORD_TOKEN=from-the-developers-env\nDEV_GUILD_ID=not-a-number\n"
        "TURN_TIMEOUT_SECONDS=abc\nLOG_LEVEL=LOUD\nDATABASE_PATH=/nowhere/bot.db\n"
    )
    monkeypatch.chdir(tmp_path)
    no_choice = Settings  # the class itself, called with no file chosen, reads no .env
    for settings in (Settings(_env_file=None), no_choice()):
        assert settings.discord_token is None and settings.dev_guild_id is None
        assert settings.database_path == Path("data/bot.db")
    # ... and every Settings the suite builds says so explicitly.
    tests = ROOT / "tests"
    for path in tests.rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        for call in re.finditer(r"\bSettings\((?P<args>[^)]*)\)", source):
            assert "_env_file=" in call["args"], f"{path.relative_to(ROOT)}: {call[0]}"


def test_database_takes_a_sqlite_file_or_a_postgresql_url(tmp_path):
    from bot.__main__ import load_settings, parse_args

    env = tmp_path / ".env"
    env.write_text("DATABASE_URL=postgresql://from-env/mesa\n")
    url = load_settings(parse_args(["--env-file", str(env), "--database", "postgresql://h/db"]))
    assert url.database == "postgresql://h/db"
    path = load_settings(parse_args(["--env-file", str(env), "--database", "x/bot.db"]))
    assert path.database == Path("x/bot.db") and path.database_url is None
    assert (
        load_settings(parse_args(["--env-file", str(env)])).database == "postgresql://from-env/mesa"
    )


def test_postgresql_timeouts_and_read_pool_are_settings(tmp_path):
    from bot.settings import Settings
    from storage.sql import PgTuning

    assert Settings(_env_file=None).pg_tuning() == PgTuning()
    env = tmp_path / ".env"
    env.write_text(
        "DATABASE_STATEMENT_TIMEOUT_MS=250\nDATABASE_LOCK_TIMEOUT_MS=0\nDATABASE_READ_CONNECTIONS=2\n"
    )
    tuning = Settings(_env_file=env).pg_tuning()
    assert tuning == PgTuning(statement_timeout_ms=250, lock_timeout_ms=0, read_connections=2)
    assert tuning.server_settings() == {"statement_timeout": "250", "lock_timeout": "0"}


def test_python_m_bot_runs_on_uvloops_event_loop():
    import uvloop

    from bot.__main__ import loop_factory

    factory = loop_factory()
    assert factory is uvloop.new_event_loop

    async def running() -> asyncio.AbstractEventLoop:
        return asyncio.get_running_loop()

    with asyncio.Runner(loop_factory=factory) as runner:
        assert isinstance(runner.run(running()), uvloop.Loop)
