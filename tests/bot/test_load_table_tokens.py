"""``bench/load.py --table-token-lifetime S`` reaches the launched bot: its table tokens (the
public message's, ``("public", table)`` in ``bot/ui/tokens.py``) edit for S seconds, so a
DM-played table's public edits go through the bot token after S, not 14 minutes; the DM
hands' tokens keep Discord's lifetime (issue 29)."""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace

import discord
import pytest

from bench import load
from bot.ui.tokens import LIFETIME, Tokens


def _made(seconds_ago: float) -> SimpleNamespace:
    made = discord.utils.utcnow() - dt.timedelta(seconds=seconds_ago)
    return SimpleNamespace(id=discord.utils.time_snowflake(made), created_at=made)


def _launch_patches(argv: list[str]) -> None:
    """What ``BOT_LAUNCHER`` runs before the bot's ``main`` with ``argv``'s environment."""
    env = load.bot_environment(load.parse_args(argv))
    lines = [line for line in load.BOT_LAUNCHER.splitlines() if "MESA_BENCH_TABLE_TOKENS" in line]
    assert lines == ["exec(os.environ.get('MESA_BENCH_TABLE_TOKENS', ''))"]
    exec(env["MESA_BENCH_TABLE_TOKENS"], {})


def test_the_lifetime_ages_the_table_token_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Tokens, "offer", Tokens.offer)  # the patch's, undone after the test
    _launch_patches(["--tables", "3", "--table-token-lifetime", "60"])
    now = [1000.0]
    tokens = Tokens(lambda: now[0])
    tokens.offer(("public", 5), _made(10.0), 7)  # Discord made it 10 s ago
    tokens.offer(("dm", 5, "1"), _made(10.0), 8)
    public, hand = tokens.fresh(("public", 5), 7), tokens.fresh(("dm", 5, "1"), 8)
    assert public is not None and public.until == pytest.approx(1050.0, abs=0.5)
    assert hand is not None and hand.until == pytest.approx(990.0 + LIFETIME, abs=0.5)
    now[0] += 51.0
    assert tokens.fresh(("public", 5), 7) is None  # the bot token edits the table from now on
    assert tokens.fresh(("dm", 5, "1"), 8) is not None


def test_without_the_option_the_bot_keeps_discord_s_lifetime(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    offer = Tokens.offer
    monkeypatch.setattr(Tokens, "offer", offer)
    _launch_patches(["--tables", "3"])
    assert Tokens.offer is offer
    tokens = Tokens(lambda: 1000.0)
    tokens.offer(("public", 5), _made(10.0), 7)
    hook = tokens.fresh(("public", 5), 7)
    assert hook is not None and hook.until == pytest.approx(990.0 + LIFETIME, abs=0.5)
