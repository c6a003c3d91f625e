"""The README's first command, for real: `python -m bot` in its own process, configured only
through `.env`, logs in to (the fake) Discord, syncs its commands and serves a slash command."""

import asyncio
import os
import signal
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _settings_free_environment() -> dict[str, str]:
    """The test process's environment without anything a setting could be read from."""
    from bot.settings import Settings

    names = {name.upper() for name in Settings.model_fields}
    return {k: v for k, v in os.environ.items() if k.upper() not in names}


async def _start(tmp_path: Path, **env: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=tmp_path,
        env={**_settings_free_environment(), "PYTHONPATH": str(ROOT), **env},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )


async def _stop(process: asyncio.subprocess.Process) -> None:
    if process.returncode is None:
        process.send_signal(signal.SIGINT)
        try:
            await asyncio.wait_for(process.wait(), 20)
        except TimeoutError:
            process.kill()
            await process.wait()


async def test_the_readme_first_run_from_an_untouched_env_example(fake_discord, tmp_path):
    """`cp .env.example .env`, fill in DISCORD_TOKEN, run: the bot logs in. Only the fake's
    address comes from the environment (as .env.example's last lines explain)."""
    fake = fake_discord
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    assert "\nDISCORD_TOKEN=\n" in example
    (tmp_path / ".env").write_text(
        example.replace("\nDISCORD_TOKEN=\n", f"\nDISCORD_TOKEN={fake.token}\n"),
        encoding="utf-8",
    )
    process = await _start(
        tmp_path, DISCORD_API_BASE=fake.api_base, DISCORD_GATEWAY_URL=fake.gateway_url
    )
    try:
        await fake.wait_until(
            lambda: fake.commands.get(None), timeout=60, what="the bot's global command sync"
        )
        await fake.wait_until_connected(timeout=30)
        assert process.returncode is None
        assert (tmp_path / "data" / "bot.db").is_file()  # DATABASE_PATH=./data/bot.db
    finally:
        await _stop(process)


async def test_python_m_bot_starts_from_an_env_file(fake_discord, tmp_path):
    fake = fake_discord
    (tmp_path / ".env").write_text(
        f"DISCORD_TOKEN={fake.token}\n"
        f"DATABASE_PATH={tmp_path / 'data' / 'bot.db'}\n"
        f"DISCORD_API_BASE={fake.api_base}\n"
        f"DISCORD_GATEWAY_URL={fake.gateway_url}\n"
    )
    process = await _start(tmp_path)
    try:
        synced = await fake.wait_until(
            lambda: fake.commands.get(None), timeout=60, what="the bot's global command sync"
        )
        assert {c["name"] for c in synced} >= {"play", "leaderboard", "rules", "stop"}
        await fake.wait_until_connected(timeout=30)
        alice = fake.user("alice")
        answer = await (await alice.slash("rules", game="amapatolli"))
        assert answer.ephemeral  # /rules answers privately
        assert "Amapatolli" in answer.text
        assert (tmp_path / "data" / "bot.db").is_file()
    finally:
        await _stop(process)
