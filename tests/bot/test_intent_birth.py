"""A click's stored intent and the token store read the interaction's age alike: its
``created_at`` is when Discord made the interaction (``bot.ui.tokens.token_birth``, on the wall
clock a restart measures a token's age by), not when a loaded bot got round to recording it."""

from __future__ import annotations

import datetime as dt
import time
from types import SimpleNamespace

import discord

from bot.ui.pending_commands import intent_of
from bot.ui.tokens import Tokens


def _click(seconds_ago: float) -> SimpleNamespace:
    made = discord.utils.utcnow() - dt.timedelta(seconds=seconds_ago)
    return SimpleNamespace(
        id=discord.utils.time_snowflake(made),  # (``created_at`` is its id's time)
        application_id=22,
        token="secret",
        user=SimpleNamespace(id=33),
        locale=None,
        created_at=made,
    )


def test_an_intent_recorded_late_is_as_old_as_its_interaction() -> None:
    click = _click(40.0)  # handled 40 s after Discord made it (a loaded bot)
    before = time.time()
    intent = intent_of(click, 5, 3, "p.r7a", "update", "o")  # type: ignore[arg-type]
    after = time.time()
    assert before - 41.0 <= intent.created_at <= after - 39.0  # not "now"
    wall_tokens = Tokens(time.time)  # the token store on the same clock: the same birth
    assert abs(wall_tokens.arrival(click) - intent.created_at) < 1.0  # type: ignore[arg-type]


def test_a_clock_behind_discord_records_now() -> None:
    click = _click(-30.0)  # "made" 30 s in our future
    before = time.time()
    intent = intent_of(click, 5, 3, "p.r7a", "update", "o")  # type: ignore[arg-type]
    assert before <= intent.created_at <= time.time()
