"""Ratings: written in the final transaction, equal to a recomputation from the stored outcomes,
computer seats fixed per level, house rules not rated, and the backfill of older games."""

from __future__ import annotations

import pytest

from bot.service import ServiceConfig, TableService
from bot.service.ratings import CPU_SKILLS, INITIAL, backfill, finished_game, recompute
from bot.workers import InlineWorkers
from storage import GLOBAL, GuildSettingsRepo, RatingsRepo, open_database, ordinal
from tests.bot.test_tables import RecordingListener
from tests.bot.toy_game import TOY
from tests.waiting import computer_idle


async def _play(service: TableService, channel: str, guild: str, host: str, guest: str | None):
    table = await service.lobby.open(
        guild_id=guild,
        channel_id=channel,
        game_key="toy",
        host_id=host,
        host_name=host,
        locale="es",
        options={"pile": 7},
        seed=f"seed-{channel}",
    )
    if guest is None:
        await service.lobby.add_cpu(table.id, host, "hard")
    else:
        await service.lobby.join(table.id, guest, guest)
    await service.lobby.start(table.id, host)
    while table.record.status == "playing":
        await computer_idle(service, table.id)
        if table.record.status != "playing":
            break
        seat = next(iter(TOY.to_act(table.state)))
        if seat.startswith("cpu"):
            continue
        await service.act(
            table.id, seat, table.version, TOY.legal_actions(table.state, seat)[0].encode()
        )
    return table


@pytest.fixture
async def service(db_target):
    db = await open_database(db_target)
    svc = TableService(db, {"toy": TOY}, RecordingListener(), ServiceConfig(cpu_delay_seconds=0))
    yield db, svc
    await svc.close()
    await db.close()


async def test_games_are_rated_in_their_final_transaction_and_match_a_recomputation(service):
    db, svc = service
    await GuildSettingsRepo(db).put("g2", {"global_board": False})
    await _play(svc, "c1", "g1", "ana", "bea")
    await _play(svc, "c2", "g1", "ana", None)  # against the hard computer
    await _play(svc, "c3", "g2", "ana", "bea")  # a guild off the global board
    repo = RatingsRepo(db)
    stored = await repo.all_ratings()
    assert stored == recompute(await repo.finished())  # the same maths in the same order
    assert stored[("g1", "toy", "ana")][2] == 2
    assert stored[(GLOBAL, "toy", "ana")][2] == 2  # g2's game is not global
    assert stored[("g2", "toy", "ana")][2] == 1
    assert not any(user.startswith("cpu") for _, _, user in stored)
    history = await repo.history("g1", "ana")
    assert [h.table_id for h in history] == [2, 1]
    assert (await repo.trend("g1", "toy", "ana"))[-1] == pytest.approx(
        stored[("g1", "toy", "ana")][0] - 3 * stored[("g1", "toy", "ana")][1]
    )


async def test_the_end_message_gets_the_rating_changes_from_the_final_transaction(
    service, monkeypatch
):
    """``meta["rating_changes"]`` comes from the transaction that rated the game (nothing is
    read back under the table lock) and says what the stored history says: before and after
    each person's ordinal in the table's server, a newcomer starting at the initial skill."""
    db, svc = service
    repo = RatingsRepo(db)

    async def no_reads(*args, **kwargs):
        raise AssertionError("rating changes read back at a game's end")

    for n, guest in enumerate(("bea", "bea", None), start=1):
        monkeypatch.setattr(RatingsRepo, "changes", no_reads)
        table = await _play(svc, f"c{n}", "g1", "ana", guest)
        monkeypatch.undo()
        told = table.record.meta.get("rating_changes")
        stored = await repo.changes(table.id, "g1", ordinal(*INITIAL))
        assert told == {user: list(pair) for user, pair in stored.items()}
        assert set(told) == ({"ana", "bea"} if guest else {"ana"})  # a computer is not rated
    assert told["ana"][0] != ordinal(*INITIAL)  # the third game starts from the second's end


def test_beating_hard_is_worth_more_than_beating_easy_and_house_rules_are_not_rated():
    outcome = {"ranking": [["ana"], ["cpu1"]], "points": {}, "teams": None}
    from bot.service.ratings import rate

    def after(level):
        game = finished_game(1, "g", "toy", {}, [("ana", None), ("cpu1", level)], outcome, "")
        assert game.fixed == {"cpu1": CPU_SKILLS[level]}
        return rate([[INITIAL], [CPU_SKILLS[level]]], game.ranks)[0][0][0]

    assert after("hard") > after("normal") > after("easy") > INITIAL[0]
    house = finished_game(
        1, "g", "chupate2", {"seven_o": True}, [("a", None), ("b", None)], outcome, ""
    )
    assert house.rated == "house_rules"
    teams = finished_game(
        1,
        "g",
        "chupate2",
        {"teams": "pairs"},
        [("a", None), ("b", None), ("c", None), ("d", None)],
        {"ranking": [["a", "c"], ["b", "d"]], "points": {}, "teams": [["a", "c"], ["b", "d"]]},
        "",
    )
    assert teams.teams == [["a", "c"], ["b", "d"]] and teams.ranks == [0, 1]


async def test_backfill_rates_games_finished_before_ratings(service):
    db, svc = service
    await _play(svc, "c1", "g1", "ana", "bea")
    await _play(svc, "c2", "g1", "bea", "ana")
    expected = await RatingsRepo(db).all_ratings()

    def forget(conn):  # as before migration 0003 recorded anything
        for name in ("rating_changes", "ratings", "game_players", "finished_games"):
            conn.execute(f"DELETE FROM {name}")

    await db.write(forget)
    assert await backfill(db, {"toy": TOY}, InlineWorkers()) == 2
    assert await RatingsRepo(db).all_ratings() == expected
    assert await backfill(db, {"toy": TOY}, InlineWorkers()) == 0


def test_the_shown_rating_starts_at_1000_and_is_never_negative():
    from bot.service.ratings import rate
    from bot.ui.ratings_view import shown_rating

    mu, sigma = INITIAL
    assert shown_rating(mu - 3 * sigma) == 1000
    assert shown_rating(-40.0) == 0 and shown_rating(1.0) == 1040
    winner, loser = (team[0] for team in rate([[INITIAL], [INITIAL]], [0, 1]))
    assert shown_rating(winner[0] - 3 * winner[1]) > shown_rating(loser[0] - 3 * loser[1]) >= 0
