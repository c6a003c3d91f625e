"""Issue 25 "Every view edited by the freshest token that may edit it", on the fake Discord
(which lets an interaction token edit only its ``@original`` and its own follow-ups, for 15
minutes): a DM move edits the other players' DM hands through their own last click on them
and the public table through a table token (the lobby's Start press, then "Ver mi mano"), with
the bot token only when no token is fresh; a token 16 minutes old is never used."""

from __future__ import annotations

import re

from tests.e2e.amapatolli_driver import start_game
from tests.e2e.driver_kit import HandlersDone
from tests.fakediscord.server import RequestRecord

SEED = "e2e-big-0223"  # 7-card hands, 67 moves
WEBHOOK = re.compile(r"^/webhooks/\d+/([^/]+)/messages/")
CHANNEL_EDIT = re.compile(r"^/channels/(\d+)/messages/(\d+)$")


class Edits:
    """Every message edit, by who made it: (token or None for the bot token, channel, message)."""

    def __init__(self, fake) -> None:
        self.fake = fake
        self.log: list[tuple[str | None, RequestRecord]] = []
        fake.request_observers.append(self._heard)

    def _heard(self, record: RequestRecord) -> None:
        if record.method != "PATCH":
            return
        if m := WEBHOOK.match(record.path):
            self.log.append((m[1], record))
        elif CHANNEL_EDIT.match(record.path):
            self.log.append((None, record))

    def mark(self) -> int:
        return len(self.log)

    def since(self, mark: int) -> list[tuple[str | None, RequestRecord]]:
        return self.log[mark:]


def _bot_edits_of(edits, channel_ids: set[int]) -> int:
    return sum(
        1
        for token, r in edits
        if token is None and int(CHANNEL_EDIT.match(r.path)[1]) in channel_ids
    )


async def test_views_ride_the_players_own_clicks(fake_discord, mesa, monkeypatch):
    fake = fake_discord
    handled = HandlersDone(mesa.bot.pending_commands, monkeypatch)
    mesa.seed = SEED
    players = [fake.user(n) for n in ("alice", "bob", "carol")]
    edits = Edits(fake)
    table = await start_game(fake, players, seed=SEED, hand_size=7)
    dm_channels = {fake.dm_channels[p.model.id].id for p in players}
    public_channel = {table.public().channel.id}

    # Everyone moves once from their DM: from then on their hand rides their own click.
    movers: set[str] = set()
    while len(movers) < 3:
        seat, _ = await table.move()
        movers.add(seat)
    await mesa.bot.listener.drain()
    mark = edits.mark()
    for _ in range(3):
        await table.move()
    await mesa.bot.listener.drain()
    later = edits.since(mark)
    assert _bot_edits_of(later, dm_channels) == 0, later  # DM hands: their own tokens only
    assert any(t is not None for t, _ in later)
    # Nobody pressed a table button since the lobby: the host's "Start" press (a deferred
    # update of the lobby message, which became the table) still edits the public table.
    assert _bot_edits_of(later, public_channel) == 0, later
    public_id = table.public().id
    start_tokens = {
        t
        for t, _ in later
        if t is not None and fake.interactions.by_token[t].original.id == public_id
    }
    assert [fake.interactions.by_token[t].data["custom_id"] for t in start_tokens] == [
        f"l:{table.table_id}:start"
    ]

    # A press of "Ver mi mano" (a deferred update of the table + an ephemeral follow-up)
    # leaves a token that edits the public table.
    await table.show_hand(players[0])
    mark = edits.mark()
    for _ in range(2):
        await table.move()
    await mesa.bot.listener.drain()
    later = edits.since(mark)
    assert _bot_edits_of(later, public_channel) == 0, later
    public_id = table.public().id
    assert any(
        t is not None and fake.interactions.by_token[t].original.id == public_id for t, _ in later
    )

    # Sixteen minutes on (for Discord and for the bot): no token of before is ever used.
    # First every click's handler has returned: a handler still running when the clocks jump
    # would offer its own click's token as received 16 minutes later (a test artifact).
    await fake.wait_until(lambda: handled.all_done(fake), what="every click's handler done")
    fake.advance(minutes=16)
    listener = mesa.bot.listener
    listener.clock = lambda real=listener.clock: real() + 16 * 60
    listener.ephemerals.clock = lambda real=listener.ephemerals.clock: real() + 16 * 60
    now = fake.clock.now()
    mark = edits.mark()
    for _ in range(2):
        await table.move()
    await mesa.bot.listener.drain()
    later = edits.since(mark)
    used = [fake.interactions.by_token[t] for t, _ in later if t is not None]
    assert all(now - inter.created_fake < 60 for inter in used), "an expired token was used"
    assert _bot_edits_of(later, public_channel) >= 1  # no fresh table token: the bot token
    assert not [r for _, r in later if r.status in (401, 404)]  # never tried, never refused
    assert fake.violations == []
