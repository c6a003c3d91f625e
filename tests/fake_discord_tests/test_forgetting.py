"""A load run's fake forgets what is older than ``forget_after`` (tests/fakediscord/forgetting.py):
what it forgets answers as an expired token or a deleted message would, what was touched
since is kept, and the indexes forget with the store."""

from __future__ import annotations

import aiohttp
import pytest

from tests.fake_discord_tests.test_ratelimit import answer, call, slash_interaction, webhook
from tests.fakediscord import forgetting
from tests.fakediscord.model import MESSAGE_COMPONENT
from tests.fakediscord.server import FakeDiscord

FORGET_AFTER = 16 * 60.0


@pytest.fixture
async def fake_discord():
    fake = FakeDiscord(forget_after=FORGET_AFTER)
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()
    fake.assert_no_violations()


@pytest.fixture
async def http(fake_discord):
    headers = {"Authorization": f"Bot {fake_discord.token}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        yield session


async def test_answered_interactions_and_untouched_messages_are_forgotten(fake_discord, http):
    fake = fake_discord
    alice = fake.user("alice")
    inter = slash_interaction(fake)
    await answer(fake, http, inter, {"type": 4, "data": {"content": "hi", "flags": 64}})
    status, followup = await call(
        http, "POST", webhook(fake, inter, "?wait=true"), json={"content": "f"}
    )
    assert status == 200 and len(alice.ephemerals()) == 1 and len(alice.replies()) == 2
    kept = fake.new_message(fake.channel, fake.bot_user, content="kept")
    fake.advance(minutes=15)
    fake.apply_message_body(kept, {"content": "edited"}, [], edit=True)  # touched: kept
    fake.advance(minutes=2)
    await fake.forgetting.sweep()
    assert fake.interactions.all == {} and fake.interactions.by_token == {}
    assert alice.handles == [] and inter.original is None and inter.followups == []
    assert list(fake.messages.values()) == [kept] and fake.channel_messages() == [kept]
    assert alice.ephemerals() == [] and alice.replies() == []
    assert fake.forgetting.forgotten == {"interactions": 1, "messages": 2}
    for method, tail in (
        ("PATCH", "/messages/@original"),
        ("DELETE", f"/messages/{followup['id']}"),
    ):
        status, data = await call(http, method, webhook(fake, inter, tail), json={"content": "x"})
        assert (status, data["code"]) == (401, 50027), method  # as an expired token
    status, data = await call(
        http,
        "PATCH",
        f"{fake.api_base}/channels/{fake.channel.id}/messages/{followup['id']}",
        json={"content": "x"},
    )
    assert (status, data["code"]) == (404, 10008)  # as a deleted message


async def test_what_is_young_or_clicked_or_unanswered_is_kept(fake_discord, http):
    fake = fake_discord
    alice = fake.user("alice")
    old = slash_interaction(fake)
    await answer(fake, http, old, {"type": 4, "data": {"content": "lobby"}})
    lobby = old.original
    fake.advance(minutes=10)
    click = fake.interactions.create(
        user=alice.model,
        type=MESSAGE_COMPONENT,
        channel=fake.channel,
        data={"custom_id": "x", "component_type": 2},
        message=lobby,
    )  # unanswered: it fails at its deadline, later
    fake.advance(minutes=7)
    await fake.forgetting.sweep()
    assert list(fake.interactions.all.values()) == [click]
    assert fake.channel_messages() == [lobby]  # clicked 7 minutes ago
    assert fake.forgetting.forgotten == {"interactions": 1}
    fake.interactions.cancel_timers()


async def test_a_session_keeps_only_its_newest_frames_for_a_resume(fake_discord, monkeypatch):
    fake = fake_discord
    monkeypatch.setattr(forgetting, "REPLAY_FRAMES", 3)
    session = type(
        "Session", (), {"events": [(n, f"frame {n}") for n in range(1, 8)], "replay_from": 0}
    )()
    fake.gateway.sessions[0] = session  # type: ignore[assignment]
    try:
        await fake.forgetting.sweep()
        assert session.events == [(5, "frame 5"), (6, "frame 6"), (7, "frame 7")]
        assert session.replay_from == 5 and fake.forgetting.forgotten == {"replay_frames": 4}
    finally:
        del fake.gateway.sessions[0]
