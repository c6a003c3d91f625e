"""Triple Triad collections through the bot: starter set once, top-up, ledger = counts, and a
finished game's payout changing both collections (through the table service)."""

from __future__ import annotations

import random
from collections import Counter

from bot.cogs.triad import ensure_collection, holds
from bot.registry import load_games
from bot.tables import ServiceConfig, TableService
from games.triad.cards import STARTER_SIZE, card, starter_set
from storage import CardTransfer, CollectionsRepo, open_database
from tests.bot.test_tables import RecordingListener

GAME = load_games(("triad",))["triad"]


async def _ledger_matches(repo: CollectionsRepo, user: str) -> dict[str, int]:
    cards = await repo.cards(user, "triad")
    sums: Counter[str] = Counter()
    for row in await repo.ledger(user, "triad"):
        sums[row.card_id] += row.delta
    assert {c: n for c, n in sums.items() if n} == cards
    return cards


async def test_starter_set_is_granted_once_and_recorded(tmp_path):
    db = await open_database(tmp_path / "c.db")
    repo = CollectionsRepo(db)
    first = await ensure_collection(repo, "42")
    assert sum(first.values()) == STARTER_SIZE
    assert sorted(Counter(starter_set("starter:42")).elements()) == sorted(
        Counter(first).elements()
    )
    assert all(card(c).level in (1, 2) for c in first)
    again = await ensure_collection(repo, "42")
    assert again == first
    ledger = await repo.ledger("42", "triad")
    assert [r.reason for r in ledger] == ["starter"] * STARTER_SIZE
    await _ledger_matches(repo, "42")
    await db.close()


async def test_a_user_below_five_cards_is_topped_up(tmp_path):
    db = await open_database(tmp_path / "c.db")
    repo = CollectionsRepo(db)
    cards = await ensure_collection(repo, "7")
    lost = sorted(Counter(cards).elements())[:4]  # lose 4 of 7 to the computer
    await repo.transfer(
        "triad", [CardTransfer(card_id=c, from_user="7", to_user=None) for c in lost], table_id=None
    )
    assert sum((await repo.cards("7", "triad")).values()) == 3
    after = await ensure_collection(repo, "7")
    assert sum(after.values()) == 5
    reasons = [r.reason for r in await repo.ledger("7", "triad")]
    assert reasons.count("top_up") == 2 and reasons.count("payout") == 4
    await _ledger_matches(repo, "7")
    assert await ensure_collection(repo, "7") == after  # at 5 nothing more is granted
    await db.close()


def test_holds_checks_quantities():
    cards = {"c001": 2, "c002": 1, "c003": 1, "c004": 1}
    assert holds(cards, ["c001", "c001", "c002", "c003", "c004"])
    assert not holds(cards, ["c002", "c002", "c001", "c003", "c004"])  # only one c002
    assert not holds(cards, ["c001", "c002", "c003", "c004"])  # four cards
    assert not holds(cards, ["c001", "c002", "c003", "c004", "zzz"])


async def test_a_finished_game_moves_the_picked_card_between_collections(tmp_path):
    db = await open_database(tmp_path / "c.db")
    repo = CollectionsRepo(db)
    service = TableService(
        db, {"triad": GAME}, RecordingListener(), ServiceConfig(cpu_delay_seconds=0)
    )
    ana = await ensure_collection(repo, "1")
    beto = await ensure_collection(repo, "2")
    hands = {"1": sorted(Counter(ana).elements())[:5], "2": sorted(Counter(beto).elements())[:5]}
    table = await service.open(
        guild_id="g",
        channel_id="c",
        game_key="triad",
        host_id="1",
        host_name="Ana",
        locale="es",
        options={"payout": "una"},
        seed="pay-3",
    )
    await service.join(table.id, "2", "Beto")
    await service.start(table.id, "1", setup={"hands": hands})
    rng = random.Random(0)  # with seed pay-3: a win, so the winner picks (no draw)
    try:
        while table.state.phase == "play":
            seat = sorted(GAME.to_act(table.state))[0]
            await service.act(
                table.id,
                seat,
                table.version,
                rng.choice(GAME.legal_actions(table.state, seat)).encode(),
            )
        assert table.state.phase == "pick" and table.record.status == "playing"
    finally:
        if table.state.phase != "pick":
            await service.close()
            await db.close()
    assert await repo.cards("1", "triad") == ana  # nothing moves before the pick
    winner = sorted(GAME.to_act(table.state))[0]
    loser = "2" if winner == "1" else "1"
    pick = GAME.legal_actions(table.state, winner)[0]
    before = {"1": dict(ana), "2": dict(beto)}
    await service.act(table.id, winner, table.version, pick.encode())
    assert table.record.status == "finished"
    now = {u: await _ledger_matches(repo, u) for u in ("1", "2")}
    assert now[winner].get(pick.card, 0) == before[winner].get(pick.card, 0) + 1
    assert now[loser].get(pick.card, 0) == before[loser].get(pick.card, 0) - 1
    assert sum(now["1"].values()) + sum(now["2"].values()) == 2 * STARTER_SIZE
    payout = [r for u in ("1", "2") for r in await repo.ledger(u, "triad") if r.reason == "payout"]
    assert {(r.user_id, r.delta, r.table_id, r.counterparty) for r in payout} == {
        (winner, 1, table.id, loser),
        (loser, -1, table.id, winner),
    }
    await service.close()
    await db.close()


async def test_losing_everything_to_the_computer_then_topped_up(tmp_path):
    db = await open_database(tmp_path / "c.db")
    repo = CollectionsRepo(db)
    service = TableService(
        db, {"triad": GAME}, RecordingListener(), ServiceConfig(cpu_delay_seconds=0)
    )
    mine = await ensure_collection(repo, "1")
    hand = sorted(Counter(mine).elements())[:5]
    table = await service.open(
        guild_id="g",
        channel_id="c",
        game_key="triad",
        host_id="1",
        host_name="Ana",
        locale="es",
        options={"payout": "todas", "cpu_level": "hard"},
        seed="all-1",
    )
    await service.add_cpu(table.id, "1")
    from games.triad.cards import deck_for_level

    await service.start(
        table.id, "1", setup={"hands": {"1": hand, "cpu1": deck_for_level(10, "strong")}}
    )
    while table.record.status == "playing":
        if "1" in GAME.to_act(table.state):
            await service.act(
                table.id, "1", table.version, GAME.legal_actions(table.state, "1")[0].encode()
            )
        await service.wait_idle(table.id)
    outcome = GAME.outcome(table.state)
    assert outcome.winner == "cpu1"
    left = await _ledger_matches(repo, "1")
    assert sum(left.values()) == STARTER_SIZE - 5
    topped = await ensure_collection(repo, "1")
    assert sum(topped.values()) == 5
    await _ledger_matches(repo, "1")
    await service.close()
    await db.close()


async def test_a_draw_is_counted_as_a_draw_for_the_profile(tmp_path):
    from storage import StandingsRepo

    db = await open_database(tmp_path / "c.db")
    repo = CollectionsRepo(db)
    service = TableService(
        db, {"triad": GAME}, RecordingListener(), ServiceConfig(cpu_delay_seconds=0)
    )
    hands = {
        u: sorted(Counter(await ensure_collection(repo, u)).elements())[:5] for u in ("1", "2")
    }
    table = await service.open(
        guild_id="g",
        channel_id="c",
        game_key="triad",
        host_id="1",
        host_name="Ana",
        locale="es",
        seed="pay-3",
    )
    await service.join(table.id, "2", "Beto")
    await service.start(table.id, "1", setup={"hands": hands})
    while table.record.status == "playing":  # the last legal move each turn: a 5-5 draw
        seat = sorted(GAME.to_act(table.state))[0]
        await service.act(
            table.id, seat, table.version, GAME.legal_actions(table.state, seat)[-1].encode()
        )
    assert GAME.outcome(table.state).winner is None
    standings = StandingsRepo(db)
    for user in ("1", "2"):
        assert await standings.stats_of("g", user, "triad") == {"draws": 1}
        [row] = await standings.of_user("g", user)
        assert (row.played, row.won) == (1, 0)  # a draw is no win on any leaderboard
    assert [r.reason for r in await repo.ledger("1", "triad")].count("payout") == 0
    await service.close()
    await db.close()


async def test_cards_staked_in_a_game_in_progress_are_not_offered_again(tmp_path):
    from types import SimpleNamespace

    from bot.cogs.triad import TriadCog

    db = await open_database(tmp_path / "c.db")
    repo = CollectionsRepo(db)
    service = TableService(
        db, {"triad": GAME}, RecordingListener(), ServiceConfig(cpu_delay_seconds=0)
    )
    cog = TriadCog(SimpleNamespace(games={"triad": GAME}, db=db, tables=service))
    mine = await ensure_collection(repo, "1")
    assert await cog.available("1") == mine
    hand = sorted(Counter(mine).elements())[:5]
    table = await service.open(
        guild_id="g",
        channel_id="c",
        game_key="triad",
        host_id="1",
        host_name="Ana",
        locale="es",
        seed="stake",
    )
    await service.add_cpu(table.id, "1")
    await service.start(table.id, "1", setup={"hands": {"1": hand, "cpu1": hand}})
    left = await cog.available("1")
    assert sum(left.values()) == STARTER_SIZE - 5
    assert Counter(left) + Counter(hand) == Counter(mine)
    assert not holds(left, hand)
    await service.cancel(table.id, "1")
    assert await cog.available("1") == mine  # a closed table stakes nothing
    await service.close()
    await db.close()
