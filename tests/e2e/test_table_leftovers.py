"""Nothing of a table that is over stays in the bot's memory (issue 29: at 1,000 busy tables 4
games end a second; ``bench/memory_leftovers.py`` counts what each leaves). The real bot on
the fake Discord plays a game to its end (or has a table closed) and then every container of
ours reachable from its listeners, table service and cogs is searched for an entry keyed by
that table (its id, or a tuple that starts with it or names it second: ``(table, seat)``,
``("public", table)``, ``("dm", table, seat)``) or holding the table itself. Counts, not
timings."""

from __future__ import annotations

import collections
import contextlib
import gc
from typing import Any

from bot.client import create_bot
from bot.service import Table
from tests.e2e.amapatolli_driver import start_game
from tests.e2e.chupate2_driver import start_game as start_chupate2
from tests.e2e.driver_kit import draft_buttons
from tests.e2e.test_amapatolli_abuse import ephemeral_answer
from tests.e2e.test_chupate2_e2e import WILD_SEED
from tests.e2e.test_shards_e2e import _settings, _start_chupate2
from tests.fakediscord.pytest_plugin import running_bot
from tests.fakediscord.server import FakeDiscord
from tests.waiting import until

SEED = "e2e-0063"  # 12 moves
OURS = ("bot.", "storage.", "games.")


def _names(key: Any, table_id: int) -> bool:
    if type(key) is int:
        return key == table_id
    if isinstance(key, str):
        return key == str(table_id)
    return isinstance(key, tuple) and any(
        type(part) is int and part == table_id for part in key[:2]
    )


def leftovers(bot: Any, table_id: int) -> list[str]:
    """Where the bot still keeps something of ``table_id`` (paths from its listener, service,
    spectators, threads and cogs; only our own objects and plain containers are walked, not
    discord.py's)."""
    roots = [("listener", bot.listener), ("tables", bot.tables)]
    roots += [(name, getattr(bot, name)) for name in ("spectators", "threads", "followers")]
    roots += [(f"cog {name}", cog) for name, cog in bot.cogs.items()]
    found = []
    seen = {id(bot)}
    todo = collections.deque(roots)
    while todo:
        where, o = todo.popleft()
        if id(o) in seen:
            continue
        seen.add(id(o))
        if isinstance(o, Table) and o.id == table_id:
            found.append(where)
            continue
        if isinstance(o, dict):
            found += [f"{where}[{k!r}]" for k in o if _names(k, table_id)]
            todo.extend((f"{where}[{k!r}]", v) for k, v in o.items())
        elif isinstance(o, (set, frozenset)):
            found += [f"{where}{{{k!r}}}" for k in o if _names(k, table_id)]
        elif isinstance(o, (list, tuple, collections.deque)):
            todo.extend((f"{where}[]", v) for v in o)
        elif type(o).__module__.startswith(OURS):
            attributes = getattr(o, "__dict__", {})
            slots = [s for k in type(o).__mro__ for s in getattr(k, "__slots__", ())]
            for name in slots:
                if name not in attributes and hasattr(o, name):
                    todo.append((f"{where}.{name}", getattr(o, name)))
            todo.extend((f"{where}.{name}", v) for name, v in attributes.items())
    return found


async def _all_shown(fake, bot) -> None:
    """Every interaction answered, every view shown, and what they show written (the
    write-behind's queue is no holder: it empties every ``FLUSH_SECONDS``)."""
    await fake.settle()
    await bot.listener.drain()
    await bot.listener.shown.flush()


async def test_a_finished_game_leaves_nothing_of_it_in_memory(fake_discord, mesa):
    """Bob plays from "Ver mi mano" (his DMs are closed): his ephemeral hands, the table's
    tokens, the players' clicks, what the messages showed: all gone once the end is shown;
    an old button of the game is still answered "the game finished", and keeps nothing."""
    fake = fake_discord
    mesa.seed = SEED
    alice, bob, carol = fake.user("alice"), fake.user("bob", dms_open=False), fake.user("carol")
    table = await start_game(fake, [alice, bob, carol], seed=SEED)
    version = table.version()
    await table.move()
    assert leftovers(mesa.bot, table.table_id)  # (the search finds a table being played)
    await table.play_to_the_end()
    await _all_shown(fake, mesa.bot)
    assert leftovers(mesa.bot, table.table_id) == []

    old = await ephemeral_answer(
        alice, await alice.forge_click(alice.dms()[-1], f"t:{table.table_id}:{version}:draw")
    )
    assert f"La partida de la mesa #{table.table_id} ya terminó" in old.text
    await _all_shown(fake, mesa.bot)
    assert leftovers(mesa.bot, table.table_id) == []
    assert fake.violations == []


async def test_a_closed_table_leaves_nothing_of_it_in_memory(fake_discord, mesa):
    """A move being built over two clicks (a wild's colour picker: the play cog's draft) when
    the host stops the table: the draft goes with the rest."""
    fake = fake_discord
    mesa.seed = WILD_SEED
    alice, bob = fake.user("alice"), fake.user("bob")
    table = await start_chupate2(fake, [alice, bob], seed=WILD_SEED, options={})
    dm = await table.private_view(alice, 0)
    await (
        await alice.click(dm, custom_id=draft_buttons(dm, table.table_id)["w.Wc"][1])
    ).acknowledged()
    await fake.wait_until(lambda: "x" in draft_buttons(dm, table.table_id), what="the picker")
    assert any("_drafts" in where for where in leftovers(mesa.bot, table.table_id))
    await (await alice.slash("stop")).response()
    await _all_shown(fake, mesa.bot)
    assert leftovers(mesa.bot, table.table_id) == []
    assert fake.violations == []


def _cyclic_garbage() -> collections.Counter[str]:
    """Our objects among what only the cyclic collector would free now, by type."""
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
    finally:
        gc.set_debug(0)
    found = collections.Counter(
        f"{type(o).__module__}.{type(o).__qualname__}"
        for o in gc.garbage
        if type(o).__module__.startswith(OURS)
    )
    gc.garbage.clear()
    gc.collect()
    return found


async def test_a_finished_game_leaves_no_reference_cycle_of_its_views(fake_discord, mesa):
    """The bot freezes what survives its collections (``bot/ops/collector.py``): a reference
    cycle alive then is freed only by the thaw. A slot and its work were one (its work closed
    over it), and every finished table's slots, builders, table and state hung off it (~1.2
    million objects in 30 minutes at 1,000 busy tables). With the cyclic collector off while a
    game is played to its end, none of the views' slots, tables or states is left for it."""
    fake = fake_discord
    mesa.seed = SEED
    alice, bob, carol = fake.user("alice"), fake.user("bob", dms_open=False), fake.user("carol")
    _cyclic_garbage()  # what the start left
    gc.disable()
    try:
        table = await start_game(fake, [alice, bob, carol], seed=SEED)
        await table.play_to_the_end()
        await _all_shown(fake, mesa.bot)
        assert leftovers(mesa.bot, table.table_id) == []
        found = _cyclic_garbage()
    finally:
        gc.enable()
    ours = {kind: n for kind, n in found.items() if not kind.startswith("bot.ui.items.")}
    # (a lobby button and its discord.py View refer to each other: short-lived, a few a game)
    assert ours == {}


# ----- shard processes: the one answering DM clicks at tables it does not present --------------
@contextlib.asynccontextmanager
async def _two_processes(fake, tmp_path, url, seed):
    """Two bots sharing one PostgreSQL in this process, as two shard processes would: "zero"
    runs shard 0 (every DM interaction reaches it), "one" runs the default guild's shard 1."""
    bots = []
    for shard in (0, 1):  # zero first: it migrates the database
        settings = _settings(
            fake, tmp_path / "unused.db", shard_count=2, shard_ids=str(shard), database_url=url
        )
        bots.append(create_bot(settings, guild_ready_timeout=0.05, seed_factory=lambda: seed))
    zero, one = bots
    async with running_bot(fake, zero), running_bot(fake, one):
        await fake.wait_until_shards_connected([0, 1])
        yield zero, one


async def _start_in_shard_1(fake, url, players):
    assert fake.shard_of(fake.guild) == 1  # the table's guild: "one" presents it
    zero_guild = fake.add_guild("Shard Zero", shard=0)
    for user in players:
        user.join(zero_guild)
    return await _start_chupate2(fake, players, url)


async def _forgotten_by(fake, bot, table_id: int) -> None:
    await until(lambda: bot.tables.registry.find(table_id) is None, "the table released")
    await _all_shown(fake, bot)


async def test_a_game_played_from_dms_leaves_nothing_in_the_process_that_answered_them(
    pg_url, tmp_path, discord_pace
):
    """Every move is a DM click, answered by "zero", which never presents the table: its DM
    slots, tokens and clicks of the game go once the game is over (heard from its own last
    move, or from the change feed), as the owner's do."""
    async with (
        FakeDiscord(shard_count=2, route_pace=discord_pace) as fake,
        _two_processes(fake, tmp_path, pg_url, SEED) as bots,
    ):
        zero, one = bots
        alice, bob = fake.user("alice"), fake.user("bob")
        table = await _start_in_shard_1(fake, pg_url, [alice, bob])
        await table.move()
        await table.move()
        assert any("private" in where for where in leftovers(zero, table.table_id))
        await table.play_to_the_end()
        for bot in (zero, one):
            await _forgotten_by(fake, bot, table.table_id)
        assert leftovers(zero, table.table_id) == []
        assert leftovers(one, table.table_id) == []
        fake.assert_no_violations()


async def test_a_table_closed_by_its_owner_leaves_nothing_in_the_process_that_answered_dms(
    pg_url, tmp_path, discord_pace
):
    """A wild's colour picker open in Alice's DM ("zero" keeps the draft) when the host stops
    the table in its channel ("one"): "zero" hears the closing from the change feed only, and
    forgets the draft with the rest."""
    async with (
        FakeDiscord(shard_count=2, route_pace=discord_pace) as fake,
        _two_processes(fake, tmp_path, pg_url, WILD_SEED) as bots,
    ):
        zero, one = bots
        alice, bob = fake.user("alice"), fake.user("bob")
        table = await _start_in_shard_1(fake, pg_url, [alice, bob])
        dm = await table.private_view(alice, 0)
        await (
            await alice.click(dm, custom_id=draft_buttons(dm, table.table_id)["w.Wc"][1])
        ).acknowledged()
        await fake.wait_until(lambda: "x" in draft_buttons(dm, table.table_id), what="the picker")
        assert any("_drafts" in where for where in leftovers(zero, table.table_id))
        await (await alice.slash("stop")).response()
        for bot in (zero, one):
            await _forgotten_by(fake, bot, table.table_id)
        assert leftovers(zero, table.table_id) == []
        assert leftovers(one, table.table_id) == []
        fake.assert_no_violations()
