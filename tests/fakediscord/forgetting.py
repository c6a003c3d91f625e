"""A long load run's bound on the fake's memory (``FakeDiscord(forget_after=seconds)``; the tests
keep everything). Every ``SWEEP_EVERY`` seconds the fake forgets:

- interactions answered (or failed) more than ``forget_after`` seconds ago (fake clock): their
  token, owners and the users' handles of them; a forgotten token still answers as an expired
  one (401 / 50027), so ``forget_after`` is at least the token's life (15 minutes);
- messages nobody created, changed or clicked for ``forget_after`` seconds (an ephemeral one
  is then out of reach: only its interaction's token edits it): the bot's later edit of one
  gets 404 / 10008, as for a deleted message;
- gateway frames kept for a RESUME beyond the newest ``REPLAY_FRAMES`` of each session: a
  RESUME from before them is refused (INVALID_SESSION), as Discord refuses one it cannot
  replay.

What is kept: every channel, guild, user and command; the messages and interactions of the
last ``forget_after`` seconds. A forgotten interaction lets go of the messages it answered
(``original``, follow-ups, its result, the clicked message), so a message and its interaction
are no reference cycle once forgotten: reference counting frees them, with no collection."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import TYPE_CHECKING

from .model import Interaction, Message

if TYPE_CHECKING:
    from .server import FakeDiscord

SWEEP_EVERY = 10.0
REPLAY_FRAMES = 10_000
CHUNK = 2_000  # messages looked at per loop turn (a sweep must not stall the fake's loop)


class Forgetting:
    def __init__(self, fake: FakeDiscord, after: float) -> None:
        self.fake = fake
        self.after = after
        self.forgotten: Counter[str] = Counter()  # by kind, over the run

    async def run(self, every: float = SWEEP_EVERY) -> None:
        while True:
            await asyncio.sleep(every)
            await self.sweep()

    async def sweep(self) -> None:
        self.forget_interactions()
        self.forget_replay_frames()
        await self.forget_messages()

    def forget_interactions(self) -> None:
        fake = self.fake
        interactions = fake.interactions
        horizon = fake.clock.now() - self.after
        old: list[Interaction] = []
        for inter in interactions.all.values():
            if inter.created_fake > horizon:
                break
            if inter.callback_type is not None or inter.failed:
                old.append(inter)
        for inter in old:
            interactions.forget(inter)
            fake.installs.forget(inter)
        if old:
            self.forgotten["interactions"] += len(old)
            for user in fake.fake_users():
                user.forget_handles(interactions.forgotten_through)

    def forget_replay_frames(self) -> None:
        for session in self.fake.gateway.sessions.values():
            extra = len(session.events) - REPLAY_FRAMES
            if extra > 0:
                del session.events[:extra]
                session.replay_from = session.events[0][0]
                self.forgotten["replay_frames"] += extra

    async def forget_messages(self) -> None:
        fake = self.fake
        horizon = fake.clock.now() - self.after
        stored = list(fake.messages.values())
        for start in range(0, len(stored), CHUNK):
            if start:
                await asyncio.sleep(0)
            for msg in stored[start : start + CHUNK]:
                if msg.touched_at <= horizon and fake.messages.get(msg.id) is msg:
                    self._forget(msg)

    def _forget(self, msg: Message) -> None:
        del self.fake.messages[msg.id]
        self.fake.message_index.remove(msg)
        self.forgotten["messages"] += 1
