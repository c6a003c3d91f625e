"""A ``/play``'s lobby ready while its late acknowledgement ("thinking") is still being sent: the
lobby waits for that request, then edits the acknowledgement (an interaction-only place) or
goes by bot token (acknowledged privately). Before, it found the response claimed and was
never shown (seen in tests/e2e/test_anywhere.py, depending on the order the tests ran)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

from bot.ui.lobby_answer import LobbyAnswers
from bot.ui.payload import Payload
from tests.waiting import until, within_guard


class _Response:
    def __init__(self, sent: asyncio.Event) -> None:
        self.sent, self.done, self.deferred_how = sent, False, None

    def is_done(self) -> bool:
        return self.done

    async def defer(self, *, ephemeral: bool, thinking: bool) -> None:
        self.deferred_how = "ephemeral" if ephemeral else "public"
        await self.sent.wait()  # the request's round trip, as long as the test holds it
        self.done = True


class _Interaction:
    def __init__(self, sent: asyncio.Event) -> None:
        self.response = _Response(sent)
        self.edited: list[dict] = []

    async def edit_original_response(self, **kwargs):
        self.edited.append(kwargs)
        return SimpleNamespace(id=42)


def _lobby(channel_id: str):
    record = SimpleNamespace(
        id=7, channel_id=channel_id, status="lobby", parent_channel_id=None, message_id=None
    )
    return SimpleNamespace(id=7, record=record)


@pytest.mark.parametrize("only", [True, False])
async def test_a_lobby_ready_while_the_late_acknowledgement_is_sent_is_not_lost(only):
    offered: list = []
    answers = LobbyAnswers(SimpleNamespace(offer=lambda *a, **k: offered.append(a)))
    sent = asyncio.Event()
    interaction = _Interaction(sent)
    answer = answers.expect("c", interaction, only=only)  # type: ignore[arg-type]
    late = asyncio.ensure_future(answer.acknowledge_late(0.0))
    await until(lambda: interaction.response.deferred_how, "the acknowledgement under way")
    posting = asyncio.ensure_future(answers.post(_lobby("c"), Payload(content="lobby")))
    await asyncio.sleep(0)
    assert not posting.done()  # it waits for the acknowledgement's request (held)
    late.cancel()  # the command's end: the request already sent is not cut short
    sent.set()
    message = await within_guard(posting)
    if only:  # acknowledged publicly: the lobby edits it, through the command's token
        assert message is not None and message.id == 42
        assert [e["content"] for e in interaction.edited] == ["lobby"]
        assert offered == [(("public", 7), interaction, 42)]
    else:  # acknowledged privately: the lobby goes by bot token
        assert message is None and interaction.edited == []
    assert interaction.response.is_done()
