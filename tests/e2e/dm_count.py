"""Issue 31 "A DM flood": one private hand message per player per table, edited in place; the
turn notice that must notify is short and deleted when the turn passes. Counted over every
message the bot ever posted in a player's DM (deleted ones too), for one game."""

from __future__ import annotations

from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import FakeUser

MOST_DMS_PER_GAME = 3


def dms_posted(fake: FakeDiscord, user: FakeUser) -> int:
    """Every message the bot posted in ``user``'s DM so far, deleted or not."""
    channel = fake.dm_channels.get(user.model.id)
    if channel is None:
        return 0
    return sum(1 for m in fake.messages.values() if m.channel is channel and m.visible_to is None)


def assert_few_dms(fake: FakeDiscord, players: list[FakeUser]) -> dict[str, int]:
    """At most ``MOST_DMS_PER_GAME`` DM messages per player for the game just played."""
    counts = {p.name: dms_posted(fake, p) for p in players}
    assert all(n <= MOST_DMS_PER_GAME for n in counts.values()), counts
    return counts
