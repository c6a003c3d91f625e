"""Triple Triad collections through the bot: starter set once, top-up, ledger = counts, and a
finished game's payout changing both collections (through the table service)."""

from __future__ import annotations

import random
from collections import Counter

from bot.registry import load_games
from bot.service import ServiceConfig, TableService
from bot.service.triad import TriadLobby, ensure_collection, holds
from games.triad.cards import STARTER_SIZE, card, starter_set
from storage import CardTransfer, CollectionsRepo, open_database
from tests.bot.lobby_kit import open_lobby
from tests.bot.test_tables import RecordingListener
from tests.waiting import computer_idle

GAME = load_games(("triad",))["triad"]


async def _ledger_matches(repo: CollectionsRepo, user: str) -> dict[str, int]:
    cards = await repo.cards(user, "triad")
    sums: Counter[str] = Counter()
    for row in await repo.ledger(user, "triad"):
        sums[row.card_id] += row.delta
    assert {c: n for c, n in sums.items() if n} == cards
    return cards


async def test_starter_set_is_granted_once_and_recorded(db_target):
    db = await open_database(db_target)
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


async def test_a_user_below_five_cards_is_topped_up(db_target):
    db = await open_database(db_target)
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


async def test_a_pick_s_free_cards_are_one_read_and_a_short_collection_is_topped_up(db_target):
    """``available`` (every pick) reads the collection and its free copies in one statement
    while the collection holds a hand (issue 29: it read the collection twice and the whole
    ledger besides); below five it tops the collection up as ``ensure_collection`` does."""
    db = await open_database(db_target)
    repo = CollectionsRepo(db)
    service = TableService(
        db, {"triad": GAME}, RecordingListener(), ServiceConfig(cpu_delay_seconds=0)
    )
    triad = service.lobby_rules("triad", TriadLobby)
    mine = await triad.available("1")  # a new player: the starter set first
    assert mine == await ensure_collection(repo, "1") and sum(mine.values()) == STARTER_SIZE
    reads: list[str] = []
    fetchall = db.reads.fetchall

    async def counted(sql, params=()):
        reads.append(sql)
        return await fetchall(sql, params)

    db.reads.fetchall = counted
    assert await triad.available("1") == mine
    assert len(reads) == 1
    lost = sorted(Counter(mine).elements())[:4]
    await repo.transfer(
        "triad", [CardTransfer(card_id=c, from_user="1", to_user=None) for c in lost], table_id=None
    )
    after = await triad.available("1")
    assert sum(after.values()) == 5
    reasons = [r.reason for r in await repo.ledger("1", "triad")]
    assert reasons.count("top_up") == 2
    assert await _ledger_matches(repo, "1") == after
    await service.close()
    await db.close()


def test_holds_checks_quantities():
    cards = {"c001": 2, "c002": 1, "c003": 1, "c004": 1}
    assert holds(cards, ["c001", "c001", "c002", "c003", "c004"])
    assert not holds(cards, ["c002", "c002", "c001", "c003", "c004"])  # only one c002
    assert not holds(cards, ["c001", "c002", "c003", "c004"])  # four cards
    assert not holds(cards, ["c001", "c002", "c003", "c004", "zzz"])


async def test_a_finished_game_moves_the_picked_card_between_collections(db_target):
    db = await open_database(db_target)
    repo = CollectionsRepo(db)
    service = TableService(
        db, {"triad": GAME}, RecordingListener(), ServiceConfig(cpu_delay_seconds=0)
    )
    ana = await ensure_collection(repo, "1")
    beto = await ensure_collection(repo, "2")
    hands = {"1": sorted(Counter(ana).elements())[:5], "2": sorted(Counter(beto).elements())[:5]}
    table = await open_lobby(
        service, "triad", host=("1", "Ana"), seed="pay-3", options={"payout": "una"}
    )
    await service.lobby.join(table.id, "2", "Beto")
    await service.lobby.start(table.id, "1", setup={"hands": hands})
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


async def test_losing_everything_to_the_computer_then_topped_up(db_target):
    db = await open_database(db_target)
    repo = CollectionsRepo(db)
    service = TableService(
        db, {"triad": GAME}, RecordingListener(), ServiceConfig(cpu_delay_seconds=0)
    )
    mine = await ensure_collection(repo, "1")
    hand = sorted(Counter(mine).elements())[:5]
    table = await open_lobby(
        service,
        "triad",
        host=("1", "Ana"),
        seed="all-1",
        options={"payout": "todas", "cpu_level": "hard"},
    )
    await service.lobby.add_cpu(table.id, "1")
    from games.triad.cards import deck_for_level

    await service.lobby.start(
        table.id, "1", setup={"hands": {"1": hand, "cpu1": deck_for_level(10, "strong")}}
    )
    while table.record.status == "playing":
        if "1" in GAME.to_act(table.state):
            await service.act(
                table.id, "1", table.version, GAME.legal_actions(table.state, "1")[0].encode()
            )
        await computer_idle(service, table.id)
    outcome = GAME.outcome(table.state)
    assert outcome.winner == "cpu1"
    left = await _ledger_matches(repo, "1")
    assert sum(left.values()) == STARTER_SIZE - 5
    topped = await ensure_collection(repo, "1")
    assert sum(topped.values()) == 5
    await _ledger_matches(repo, "1")
    await service.close()
    await db.close()


async def test_a_draw_is_counted_as_a_draw_for_the_profile(db_target):
    from storage import StandingsRepo

    db = await open_database(db_target)
    repo = CollectionsRepo(db)
    service = TableService(
        db, {"triad": GAME}, RecordingListener(), ServiceConfig(cpu_delay_seconds=0)
    )
    hands = {
        u: sorted(Counter(await ensure_collection(repo, u)).elements())[:5] for u in ("1", "2")
    }
    table = await open_lobby(service, "triad", host=("1", "Ana"), seed="pay-3")
    await service.lobby.join(table.id, "2", "Beto")
    await service.lobby.start(table.id, "1", setup={"hands": hands})
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


async def test_cards_staked_in_a_game_in_progress_are_not_offered_again(db_target):
    db = await open_database(db_target)
    repo = CollectionsRepo(db)
    service = TableService(
        db, {"triad": GAME}, RecordingListener(), ServiceConfig(cpu_delay_seconds=0)
    )
    triad = service.lobby_rules("triad", TriadLobby)
    mine = await ensure_collection(repo, "1")
    assert await triad.available("1") == mine
    hand = sorted(Counter(mine).elements())[:5]
    table = await open_lobby(service, "triad", host=("1", "Ana"), seed="stake")
    await service.lobby.add_cpu(table.id, "1")
    await service.lobby.start(table.id, "1", setup={"hands": {"1": hand, "cpu1": hand}})
    left = await triad.available("1")
    assert sum(left.values()) == STARTER_SIZE - 5
    assert Counter(left) + Counter(hand) == Counter(mine)
    assert not holds(left, hand)
    await service.lobby.cancel(table.id, "1")
    assert await triad.available("1") == mine  # a closed table stakes nothing
    await service.close()
    await db.close()


async def test_after_a_lazy_start_up_staked_cards_still_count_without_loading_a_table(
    db_target,
):
    """Start-up loads no Triple Triad table (lazy, like every game); staked cards are counted
    by the database, so a card at stake is still not offered and no table has to load."""
    db = await open_database(db_target)
    repo = CollectionsRepo(db)
    config = ServiceConfig(cpu_delay_seconds=0)
    service = TableService(db, {"triad": GAME}, RecordingListener(), config)
    mine = await ensure_collection(repo, "1")
    hand = sorted(Counter(mine).elements())[:5]
    table = await open_lobby(service, "triad", host=("1", "Ana"), seed="stake")
    await service.lobby.add_cpu(table.id, "1")
    await service.lobby.start(table.id, "1", setup={"hands": {"1": hand, "cpu1": hand}})
    assert await repo.staked(table.id) == {"1": dict(Counter(hand))}  # the computer stakes none
    await service.close()

    restarted = TableService(db, {"triad": GAME}, RecordingListener(), config)
    assert await restarted.load(lazy=True) == []
    assert restarted.registry.find(table.id) is None and restarted.registry.unloaded_count == 1
    left = await restarted.lobby_rules("triad", TriadLobby).available("1")
    assert Counter(left) + Counter(hand) == Counter(mine)
    assert restarted.registry.find(table.id) is None and restarted.registry.unloaded_count == 1
    await restarted.close()
    await db.close()


async def _triad_service(db_target):
    db = await open_database(db_target)
    listener = RecordingListener()
    service = TableService(db, {"triad": GAME}, listener, ServiceConfig(cpu_delay_seconds=0))
    return db, service, listener, service.lobby_rules("triad", TriadLobby)


async def _challenge(triad, opponent):
    return await triad.challenge(
        guild_id="g",
        channel_id="c",
        host_id="1",
        host_name="Ana",
        locale="es",
        options={},
        opponent=opponent,
        level="normal",
    )


async def test_a_challenge_is_accepted_then_both_pick_five_and_the_game_starts(db_target):
    import pytest

    from bot.errors import Notice
    from bot.service.triad import lobby_state, pending_opponent

    db, service, listener, triad = await _triad_service(db_target)
    await triad.available("1")
    table, started = await _challenge(triad, "2")
    assert not started and pending_opponent(table) == "2"
    for wrong in (triad.accept(table.id, "3", "Caro"), triad.decline(table.id, "3")):
        with pytest.raises(Notice) as err:
            await wrong
        assert err.value.code == "not_challenged"
    assert not await triad.accept(table.id, "2", "Beto")
    assert [s.id for s in table.record.seats] == ["1", "2"] and pending_opponent(table) is None
    hands = {}
    for user in ("1", "2"):
        cards, picks, ready = await triad.picker(table.id, user)
        assert picks == [] and not ready
        with pytest.raises(Notice) as err:
            await triad.confirm(table.id, user)
        assert err.value.code == "pick_five"
        hands[user] = sorted(Counter(cards).elements())[:5]
        for card_id in [*hands[user], hands[user][0]]:  # one more than held or allowed
            await triad.change_picks(table.id, user, "add", card_id)
        await triad.change_picks(table.id, user, "remove", hands[user][0])
        await triad.change_picks(table.id, user, "add", hands[user][0])
        assert sorted(lobby_state(table).picks[user]) == hands[user]
    await triad.confirm(table.id, "1")
    assert not await triad.start_if_ready(table.id)  # Beto has not confirmed
    with pytest.raises(Notice) as err:
        await triad.change_picks(table.id, "1", "clear")
    assert err.value.code == "already_ready"
    await triad.confirm(table.id, "2")
    assert await triad.start_if_ready(table.id)
    assert table.record.status == "playing"
    setup = (await service.repo.get(table.id)).meta["setup"]
    assert {u: sorted(h) for u, h in setup["hands"].items()} == hands
    assert ("lobby", table.id, ["1", "2"]) in listener.calls
    await service.close()
    await db.close()


async def test_a_declined_challenge_closes_the_table_and_the_computer_starts_at_once(db_target):
    db, service, listener, triad = await _triad_service(db_target)
    table, started = await _challenge(triad, "2")
    await triad.decline(table.id, "2")
    assert table.record.status == "cancelled" and service.registry.find(table.id) is None
    assert ("closed", table.id, "stopped") in listener.calls
    table, started = await _challenge(triad, None)  # against the computer: its deck is set
    assert not started and [s.id for s in table.record.seats] == ["1", "cpu1"]
    await service.close()
    await db.close()


async def test_a_lobby_s_picks_survive_a_restart(db_target):
    from bot.service.triad import lobby_state

    db, service, listener, triad = await _triad_service(db_target)
    table, _ = await _challenge(triad, "2")
    await triad.accept(table.id, "2", "Beto")
    cards, _, _ = await triad.picker(table.id, "1")
    hand = sorted(Counter(cards).elements())[:5]
    for card_id in hand:
        await triad.change_picks(table.id, "1", "add", card_id)
    await triad.confirm(table.id, "1")
    await service.close()
    await db.close()

    db, service, listener, triad = await _triad_service(db_target)  # a new process
    [table] = await service.load()
    state = lobby_state(table)
    assert state.ready == ["1"] and sorted(state.picks["1"]) == hand
    _, picks, ready = await triad.picker(table.id, "1")
    assert sorted(picks) == hand and ready
    await service.close()
    await db.close()
