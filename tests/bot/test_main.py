"""`python -m bot`: a clear message without a token, and --help."""

import os
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
