"""Triple Triad cards at stake counted by the database (``card_stakes``), on both backends:
two table services on one database model two bot processes, each with its own connection and
writer. A card staked at one process's table is not offered by the other, and two starts
racing for the last copies stake them once."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest

from bot.errors import Notice
from bot.registry import load_games
from bot.service import ServiceConfig, TableService
from bot.service.feed import LocalFeedHub
from bot.service.triad import TriadLobby, ensure_collection, lobby_state
from storage import CardsAtStake, CollectionsRepo, open_database
from tests.bot.test_tables import RecordingListener

GAME = load_games(("triad",))["triad"]
CONFIG = ServiceConfig(cpu_delay_seconds=0)


@pytest.fixture
async def two_processes(db_target):
    """Two services, each with its own database connection (and writer), sharing one
    database and a change feed; both own every guild (where they differ does not matter)."""
    dbs = [await open_database(db_target), await open_database(db_target)]
    hub = LocalFeedHub()
    services = [
        TableService(db, {"triad": GAME}, RecordingListener(), CONFIG, feed=hub.feed())
        for db in dbs
    ]
    for service in services:
        await service.load()
    yield dbs, services
    for service in services:
        await service.close(drain_seconds=1)
    for db in dbs:
        await db.close()


async def _lobby_against_cpu(service: TableService, channel: str):
    table = await service.lobby.open(
        guild_id="g", channel_id=channel, game_key="triad", host_id="1", host_name="Ana",
        locale="es", seed=f"seed-{channel}",
    )  # fmt: skip
    await service.lobby.add_cpu(table.id, "1")
    return table


async def test_a_card_staked_by_one_process_is_not_offered_by_the_other(two_processes):
    dbs, (first, second) = two_processes
    repo = CollectionsRepo(dbs[0])
    mine = await ensure_collection(repo, "1")
    hand = sorted(Counter(mine).elements())[:5]
    table = await _lobby_against_cpu(first, "c1")
    await first.lobby.start(table.id, "1", setup={"hands": {"1": hand, "cpu1": hand}})
    left = await second.lobby_rules("triad", TriadLobby).available("1")
    assert Counter(left) + Counter(hand) == Counter(mine)
    # The other process cannot stake them again either: its start is refused whole.
    other = await _lobby_against_cpu(second, "c2")
    with pytest.raises(CardsAtStake) as refused:
        await second.lobby.start(other.id, "1", setup={"hands": {"1": hand, "cpu1": hand}})
    assert refused.value.user_id == "1"
    assert (await second.repo.get(other.id)).status == "lobby"
    assert await CollectionsRepo(dbs[1]).staked(other.id) == {}
    # The first game ends (cancelled): its cards are free again, for both processes.
    await first.lobby.cancel(table.id, "1")
    assert await second.lobby_rules("triad", TriadLobby).available("1") == mine
    await second.lobby.start(other.id, "1", setup={"hands": {"1": hand, "cpu1": hand}})
    assert await repo.staked(other.id) == {"1": dict(Counter(hand))}


async def test_two_starts_racing_for_the_last_copies_stake_them_once(two_processes):
    dbs, services = two_processes
    mine = await ensure_collection(CollectionsRepo(dbs[0]), "1")
    hand = sorted(Counter(mine).elements())[:5]  # 5 of 7: two games need 10
    tables = [await _lobby_against_cpu(s, f"c{n}") for n, s in enumerate(services)]
    results = await asyncio.gather(
        *(
            s.lobby.start(t.id, "1", setup={"hands": {"1": hand, "cpu1": hand}})
            for s, t in zip(services, tables, strict=True)
        ),
        return_exceptions=True,
    )
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(refused) == 1 and isinstance(refused[0], CardsAtStake)
    statuses = [(await services[0].repo.get(t.id)).status for t in tables]
    assert sorted(statuses) == ["lobby", "playing"]
    stakes = [await CollectionsRepo(dbs[0]).staked(t.id) for t in tables]
    assert sorted(map(bool, stakes)) == [False, True]


async def test_a_player_whose_picks_were_staked_elsewhere_is_asked_to_pick_again(
    two_processes,
):
    """Both confirmed their five in one process's lobby; meanwhile the other process staked
    some of them: the start is refused, that player is no longer ready and is told why."""
    dbs, (first, second) = two_processes
    triad = first.lobby_rules("triad", TriadLobby)
    table, _ = await triad.challenge(
        guild_id="g", channel_id="c1", host_id="1", host_name="Ana", locale="es",
        options={}, opponent="2", level="normal",
    )  # fmt: skip
    await triad.accept(table.id, "2", "Beto")
    hands = {}
    for user in ("1", "2"):
        cards, _, _ = await triad.picker(table.id, user)
        hands[user] = sorted(Counter(cards).elements())[:5]
        for card_id in hands[user]:
            await triad.change_picks(table.id, user, "add", card_id)
    await triad.confirm(table.id, "1")
    elsewhere = await _lobby_against_cpu(second, "c2")
    await second.lobby.start(
        elsewhere.id, "1", setup={"hands": {"1": hands["1"], "cpu1": hands["1"]}}
    )
    with pytest.raises(Notice) as told:
        await triad.confirm(table.id, "2")
        await triad.start_if_ready(table.id)
    assert told.value.code == "pick_five"
    assert table.record.status == "lobby" and lobby_state(table).ready == ["2"]
    assert await CollectionsRepo(dbs[0]).staked(table.id) == {}


async def test_games_in_progress_before_the_migration_stake_their_cards(tmp_path):
    """Migration 0006 fills ``card_stakes`` from the games already playing (SQLite's JSON
    functions here; the PostgreSQL twin's jsonb in the next test)."""
    await _backfilled(tmp_path / "old.db")


async def test_games_in_progress_before_the_migration_stake_their_cards_on_postgres(pg_url):
    await _backfilled(pg_url)


async def _backfilled(target) -> None:
    db = await open_database(target)
    repo = CollectionsRepo(db)
    service = TableService(db, {"triad": GAME}, RecordingListener(), CONFIG)
    mine = await ensure_collection(repo, "1")
    hand = sorted(Counter(mine).elements())[:5]
    table = await _lobby_against_cpu(service, "c")
    await service.lobby.start(table.id, "1", setup={"hands": {"1": hand, "cpu1": hand}})
    await service.close()
    from storage.migrations import migration_scripts

    [script] = [text for n, text in migration_scripts(db.dialect) if n == 6]
    insert = script[script.index("INSERT INTO card_stakes") :]

    def rerun(conn):
        conn.execute("DELETE FROM card_stakes")
        conn.execute(insert)

    await db.write(rerun)
    assert await repo.staked(table.id) == {"1": dict(Counter(hand))}
    await db.close()
