"""An interaction token's 15 minutes start when Discord made the interaction (its id's time,
``created_at``), not when a loaded bot gets round to offering it (``bot/ui/tokens.py``)."""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace

import discord

from bot.ui.tokens import LIFETIME, Tokens


def _made(seconds_ago: float) -> SimpleNamespace:
    made = discord.utils.utcnow() - dt.timedelta(seconds=seconds_ago)
    # (a discord.Interaction's ``created_at`` is its id's time)
    return SimpleNamespace(id=discord.utils.time_snowflake(made), created_at=made)


def test_a_token_offered_late_lives_from_its_interaction_s_arrival() -> None:
    now = [1000.0]
    tokens = Tokens(lambda: now[0])
    tokens.offer("k", _made(40.0), 7)  # offered 40 s after Discord made it
    assert tokens.fresh("k", 7) is not None
    now[0] += LIFETIME - 20.0  # 20 s before a birth at the offer would end...
    assert tokens.fresh("k", 7) is None  # ...but it was born 40 s before the offer: gone


def test_its_birth_is_never_later_than_now_nor_before_its_lifetime() -> None:
    tokens = Tokens(lambda: 500.0)
    assert tokens.arrival(_made(-30.0)) == 500.0  # a clock behind Discord's: born now
    assert tokens.arrival(_made(3600.0)) == 500.0 - LIFETIME  # long dead: expires at once
    tokens.offer("k", _made(3600.0), 1)
    assert tokens.fresh("k", 1) is None


def test_an_explicit_received_time_wins() -> None:
    tokens = Tokens(lambda: 100.0)
    tokens.offer("k", _made(600.0), 3, received=100.0)
    hook = tokens.fresh("k", 3)
    assert hook is not None and hook.until == 100.0 + LIFETIME
