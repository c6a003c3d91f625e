"""Fault injection (429, 500, gateway close 4000, expired tokens) and the protocol rules the fake
enforces (invalid payloads, the 3-second answer), proven with a real discord.py bot."""

from __future__ import annotations

import json

import pytest

from tests.fakediscord.users import InteractionFailed

MESSAGES = "/channels/{channel_id}/messages"


def statuses(fake, method: str, template: str) -> list[int | None]:
    return [r.status for r in fake.requests if r.method == method and r.template == template]


async def test_429_storm_with_via_is_retried(fake_discord, bot):
    alice = fake_discord.user("alice")
    fault = fake_discord.rate_limit(MESSAGES, method="POST", count=3, retry_after=0.01)
    note = await (await alice.slash("announce", text="storm"))
    assert note.content == "posted"
    assert fault.hits == 3
    assert statuses(fake_discord, "POST", MESSAGES) == [429, 429, 429, 200]
    [posted] = fake_discord.channel_messages()
    assert posted.content == "storm (edited)"


async def test_global_429_on_every_route_including_the_callback(fake_discord, bot):
    alice = fake_discord.user("alice")
    fake_discord.rate_limit(method="POST", count=2, retry_after=0.01, global_=True)
    note = await (await alice.slash("announce", text="global"))
    assert note.content == "posted"
    callback = "/interactions/{interaction_id}/{interaction_token}/callback"
    assert statuses(fake_discord, "POST", callback) == [429, 429, 200]
    assert fake_discord.channel_messages()[0].content == "global (edited)"


async def test_429_without_via_is_not_retried(fake_discord, bot):
    alice = fake_discord.user("alice")
    fake_discord.rate_limit(MESSAGES, method="POST", count=1, retry_after=0.01, via=False)
    note = await (await alice.slash("announce", text="banned"))
    assert note.content == "error 429/0"
    assert fake_discord.channel_messages() == []


async def test_500_is_retried(fake_discord, bot):
    alice = fake_discord.user("alice")
    fault = fake_discord.fail(MESSAGES, method="POST", count=1)
    note = await (await alice.slash("announce", text="after a 500"))
    assert note.content == "posted" and fault.hits == 1
    assert statuses(fake_discord, "POST", MESSAGES) == [500, 200]


async def test_gateway_close_4000_resumes_and_replays_missed_events(fake_discord, bot):
    alice = fake_discord.user("alice")
    release = fake_discord.hold_resumes()
    await fake_discord.close_gateway(4000)
    await fake_discord.wait_until(
        lambda: fake_discord.gateway.pending_resumes == 1, what="the bot's RESUME"
    )
    # The bot is disconnected: this interaction is queued and must be replayed after RESUME.
    assert not fake_discord.gateway.connected
    handle = await alice.slash("play", game="amapatolli")
    release.set()
    lobby = await handle
    assert lobby.content == "Lobby amapatolli for 3"
    await fake_discord.wait_for_resume()
    await fake_discord.wait_until(lambda: bot.resumed == 1, what="on_resumed")
    assert fake_discord.gateway.identifies == 1
    assert fake_discord.gateway.resume_paths == ["/resume-gateway"]  # READY's resume_gateway_url
    # Still fully working afterwards.
    assert (await (await alice.click(lobby, "Count"))).content.endswith("count=1")


async def test_sequence_numbers_increase(fake_discord, bot):
    alice = fake_discord.user("alice")
    await (await alice.slash("play", game="amapatolli"))
    seqs = [seq for seq, _ in fake_discord.gateway.session.events]
    assert seqs == list(range(1, len(seqs) + 1))
    assert [json.loads(frame)["t"] for _, frame in fake_discord.gateway.session.events] == [
        "READY",
        "GUILD_CREATE",
        "INTERACTION_CREATE",
        "MESSAGE_CREATE",
    ]
    # The bot acknowledges what it received: its heartbeat sequence catches up with the last event.
    await fake_discord.wait_until(
        lambda: bot.ws.sequence == seqs[-1], what="the bot's sequence number"
    )


async def test_interaction_token_expires_after_15_minutes_of_fake_clock(fake_discord, bot):
    alice = fake_discord.user("alice")
    handle = await alice.slash("slow", wait=True)
    assert await handle.acknowledged() == 5
    fake_discord.advance(minutes=16)
    bot.gate.set()
    await fake_discord.wait_until(lambda: bot.http_errors, what="the bot's follow-up")
    assert bot.http_errors == [(401, 50027)]
    await fake_discord.settle(timeout=0.5)
    [violation] = fake_discord.take_violations("deferred_never_completed")
    assert "/slow" in violation.detail


async def test_token_is_still_valid_before_15_minutes(fake_discord, bot):
    alice = fake_discord.user("alice")
    handle = await alice.slash("slow", wait=True)
    await handle.acknowledged()
    fake_discord.advance(minutes=14)
    bot.gate.set()
    assert (await handle).content == "done thinking"


async def test_answer_after_3_seconds_is_caught(fake_discord, bot):
    """The real 3-second deadline, measured by a timer (the test itself never sleeps)."""
    assert fake_discord.interaction_deadline == 3.0
    alice = fake_discord.user("alice")
    handle = await alice.slash("late")
    with pytest.raises(InteractionFailed):
        await handle
    bot.gate.set()
    await fake_discord.wait_until(lambda: bot.http_errors, what="the late answer")
    assert bot.http_errors == [(404, 10062)]  # Unknown interaction, as Discord answers
    [violation] = fake_discord.take_violations()
    assert violation.kind == "late_response" and "answered after 3." in violation.detail


async def test_an_interaction_nobody_answers_is_a_violation(fake_discord, bot):
    fake_discord.interaction_deadline = 0.2
    alice = fake_discord.user("alice")
    lobby = await (await alice.slash("play", game="amapatolli"))
    # A component no view or dynamic item handles: discord.py drops it silently.
    lobby.components[0]["components"].append(
        {"type": 2, "style": 1, "label": "Ghost", "custom_id": "ghost"}
    )
    handle = await alice.click(lobby, "Ghost")
    with pytest.raises(InteractionFailed):
        await handle
    [violation] = fake_discord.take_violations("unanswered")
    assert "'ghost' by alice" in violation.detail


@pytest.mark.parametrize(
    ("kind", "where"),
    [
        ("rows", "components"),
        ("long", "content"),
        ("embeds", "embeds"),
        ("dupe", "components.0.components.1.custom_id"),
    ],
)
async def test_invalid_payloads_get_400_50035_and_are_recorded(fake_discord, bot, kind, where):
    alice = fake_discord.user("alice")
    note = await (await alice.slash("bad", kind=kind))
    assert note.content == "error 400/50035"
    [violation] = fake_discord.take_violations("invalid_body")
    assert violation.path == f"/channels/{fake_discord.channel.id}/messages"
    assert where in violation.detail
    assert fake_discord.channel_messages() == []


async def test_a_gateway_outage_refuses_connections_then_the_bot_resumes(fake_discord, bot):
    alice = fake_discord.user("alice")
    await fake_discord.gateway_outage(1.5)
    assert not fake_discord.gateway.connected
    await fake_discord.wait_until(
        lambda: fake_discord.gateway.refused >= 1, timeout=30, what="a refused reconnection"
    )
    await fake_discord.wait_for_resume(timeout=30)
    await fake_discord.wait_until(lambda: bot.resumed == 1, timeout=30, what="on_resumed")
    assert fake_discord.gateway.identifies == 1
    lobby = await (await alice.slash("play", game="amapatolli"))
    assert lobby.content == "Lobby amapatolli for 3"


async def test_a_gateway_outage_that_loses_the_session_makes_the_bot_identify_again(
    fake_discord, bot
):
    alice = fake_discord.user("alice")
    await fake_discord.gateway_outage(0.5, resumable=False)
    await fake_discord.wait_until(
        lambda: fake_discord.gateway.identifies == 2 and fake_discord.gateway.connected,
        timeout=30,
        what="a second IDENTIFY",
    )
    lobby = await (await alice.slash("play", game="amapatolli"))
    assert lobby.content == "Lobby amapatolli for 3"


async def test_a_spell_of_5xx_fails_every_matching_request_until_it_ends(fake_discord, bot):
    alice = fake_discord.user("alice")
    fault = fake_discord.fail_for(1.0, MESSAGES, method="POST", status=502)
    note = await (await alice.slash("announce", text="after the spell"))
    assert note.content == "posted"  # discord.py retried its way past the spell
    assert fault.hits >= 1
    sent = statuses(fake_discord, "POST", MESSAGES)
    assert sent[-1] == 200 and set(sent[:-1]) == {502}
