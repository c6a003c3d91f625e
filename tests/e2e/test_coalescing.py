"""Issue 25, DM play: nobody clicks the public table, so no interaction token may edit it. Its
bot-token edits are coalesced (settings' ``public_edit_every_seconds``): a change within that
many seconds of the last bot-token edit waits, and the changes meanwhile go out as ONE edit of
the newest version, never out of order; the game's end or a drain is shown at once."""

from __future__ import annotations

import re

from bot import metrics
from tests.e2e.test_presenting import _any_move, _dm_play_table, _footer_version
from tests.fakediscord.server import RequestRecord

CHANNEL_EDIT = re.compile(r"^/channels/(\d+)/messages/(\d+)$")


def _bot_token_edits(fake, public_channel: int) -> list[RequestRecord]:
    """The bot-token edits of the public channel's messages from now on (a live list)."""
    edits: list[RequestRecord] = []

    def heard(record: RequestRecord) -> None:
        m = CHANNEL_EDIT.match(record.path)
        if record.method == "PATCH" and m and int(m[1]) == public_channel:
            edits.append(record)

    fake.request_observers.append(heard)
    return edits


async def test_bot_token_edits_of_a_played_table_are_coalesced_to_its_newest_version(
    fake_discord, mesa
):
    fake = fake_discord
    driver, bot, table = await _dm_play_table(fake, mesa)
    edits = _bot_token_edits(fake, int(table.record.channel_id))
    # An hour: the hold below never depends on how fast this machine plays four moves (only
    # the drain ends it).
    bot.listener.kit.public_every = 3600.0
    bot.listener.kit.coalesce_share = 0.0  # coalesce whatever the bot token's load
    # The lobby was the /play answer (no bot-token call): the first change's bot-token edit
    # goes at once, and the hold runs from it.
    seat, action = _any_move(table)
    await bot.tables.act(table.id, seat, None, action)
    first = table.version
    await driver.wait_version(first)
    assert len(edits) == 1
    edits.clear()
    moves = 0
    for _ in range(4):
        if table.record.status != "playing":
            break
        seat, action = _any_move(table)
        await bot.tables.act(table.id, seat, None, action)
        moves += 1
    assert moves >= 2
    await fake.settle()
    assert edits == []  # held: within public_every of the table's last bot-token call
    assert _footer_version(driver.public()) == first  # still the older version

    await bot.listener.drain()  # a drain (and a shutdown) shows what waits at once
    last = table.version
    await driver.wait_version(last)
    assert len(edits) == 1  # every change meanwhile in ONE edit, of the newest version
    public = driver.public()
    shown = [_footer_version(v) for v in public.versions] + [_footer_version(public)]
    shown = [v for v in shown if v is not None]
    assert shown == sorted(set(shown)) and shown[-2:] == [first, last]


async def test_with_budget_to_spare_each_change_of_a_played_table_goes_at_once(fake_discord, mesa):
    """The window keeps many tables inside the bot token's global limit; it never holds a
    table's edit while that budget is idle (issue 29: DM-played tables whose table token aged
    out waited up to 5 s each with nothing else queued). The settings' share (four fifths of the budget
    in the last second) is far above this test's few calls: every change is its own edit,
    shown with no drain, in order."""
    fake = fake_discord
    driver, bot, table = await _dm_play_table(fake, mesa)
    edits = _bot_token_edits(fake, int(table.record.channel_id))
    kit = bot.listener.kit
    kit.public_every = 3600.0  # would hold every change after the first for an hour
    kit.coalesce_share = mesa.settings().public_edit_coalesce_share
    assert kit.coalesce_share > 0 and kit.pacer.enabled
    spared = metrics.counters["public.coalescing_spared"]
    shown: list[int] = []
    for _ in range(4):
        if table.record.status != "playing":
            break
        seat, action = _any_move(table)
        await bot.tables.act(table.id, seat, None, action)
        await driver.wait_version(table.version)  # no drain: shown at once
        shown.append(table.version)
    assert len(shown) >= 2
    assert len(edits) == len(shown)  # one bot-token edit per change, none held
    # every change after the first was within the window, and went for want of contention
    assert metrics.counters["public.coalescing_spared"] - spared == len(shown) - 1
    assert fake.violations == []


async def test_a_fresh_table_token_ends_the_wait_and_shows_the_newest_version_through_it(
    fake_discord, mesa
):
    """The window only holds back bot-token edits: when a player presses a button of the table
    while its change waits ("Ver mi mano": a deferred update, whose token may edit the table),
    the newest version goes out at once through that token, not after the window."""
    fake = fake_discord
    driver, bot, table = await _dm_play_table(fake, mesa)
    public_channel = int(table.record.channel_id)
    bot_edits: list[RequestRecord] = []
    token_edits: list[RequestRecord] = []

    def heard(record: RequestRecord) -> None:
        m = CHANNEL_EDIT.match(record.path)
        if record.method == "PATCH" and m and int(m[1]) == public_channel:
            bot_edits.append(record)
        elif record.method == "PATCH" and record.path.startswith("/webhooks/"):
            token_edits.append(record)

    fake.request_observers.append(heard)
    bot.listener.kit.public_every = 3600.0
    bot.listener.kit.coalesce_share = 0.0  # coalesce whatever the bot token's load
    seat, action = _any_move(table)
    await bot.tables.act(table.id, seat, None, action)
    first = table.version
    await driver.wait_version(first)  # the bot token's edit: the window runs from it
    for _ in range(2):
        seat, action = _any_move(table)
        await bot.tables.act(table.id, seat, None, action)
    await fake.settle()
    assert _footer_version(driver.public()) == first  # held
    assert len(bot_edits) == 1
    token_edits.clear()

    alice = driver.players[0]
    await (await alice.click(driver.public(), "Ver mi mano")).acknowledged()
    await driver.wait_version(table.version)  # no drain: the press's token showed it
    assert len(bot_edits) == 1  # not one more bot-token edit
    assert any("/messages/@original" in r.path for r in token_edits)
    assert fake.violations == []


async def test_a_turn_of_a_player_who_acts_from_the_table_is_never_held(fake_discord, mesa):
    """The window never holds the view that lets someone act: bob plays from the tables (the
    public message is his view), so the change that hands him the turn goes out at once,
    first in line for the bot token, while alice's turns (her DM is her view) are still held."""
    fake = fake_discord
    driver, bot, table = await _dm_play_table(fake, mesa)
    edits = _bot_token_edits(fake, int(table.record.channel_id))
    bob = str(driver.players[1].id)
    bot.listener.kit.places.played(bob, from_table=True)  # bob plays from the tables
    bot.listener.kit.public_every = 3600.0
    bot.listener.kit.coalesce_share = 0.0  # coalesce whatever the bot token's load
    game = table.game
    while bob in game.to_act(table.state):  # the window starts on a turn of alice's
        seat, action = _any_move(table)
        await bot.tables.act(table.id, seat, None, action)
    seat, action = _any_move(table)
    await bot.tables.act(table.id, seat, None, action)
    first = table.version
    await driver.wait_version(first)
    edits.clear()
    held = handed = 0
    for _ in range(12):
        if table.record.status != "playing" or handed:
            break
        seat, action = _any_move(table)
        await bot.tables.act(table.id, seat, None, action)
        await fake.settle()
        if bob in game.to_act(table.state):  # his turn now: shown at once, no drain
            handed += 1
            await driver.wait_version(table.version)
            assert len(edits) == 1
        else:
            held += 1
            assert edits == []  # alice's turn: held by the window
            assert _footer_version(driver.public()) == first
    assert handed == 1 and held >= 1
    assert fake.violations == []
