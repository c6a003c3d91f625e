"""Issue 30.1: games played in a group DM (scope ``channel:<id>``, ``bot/places.py``) are kept
in that place's own standings, ratings and history, never in a server's nor in another group
DM's, and never on the global board (nobody there can opt out of it); a server's games never
reach a group DM's. Real games of the toy engine through the real service, both backends."""

from __future__ import annotations

from bot.places import Place, PlaceKind
from storage import GLOBAL, RatingsRepo, StandingsRepo
from storage.ratings import PRIVATE_SCOPE_PREFIX
from tests.bot.test_ratings import _play, recompute, service  # noqa: F401  (fixture)

SERVER = "g1"
FRIENDS = Place(PlaceKind.GROUP_DM, 77, None).scope
OTHERS = Place(PlaceKind.GROUP_DM, 88, None).scope


async def test_a_group_dm_keeps_its_own_standings_ratings_and_history(service):  # noqa: F811
    db, svc = service
    await _play(svc, "c1", SERVER, "ana", "bea")  # in the server
    await _play(svc, "77", FRIENDS, "ana", "cris")  # in a group DM: ana plays in both
    await _play(svc, "77b", FRIENDS, "cris", "dani")
    ratings, standings = RatingsRepo(db), StandingsRepo(db)

    stored = await ratings.all_ratings()
    assert stored == recompute(await ratings.finished())
    by_scope: dict[str, set[str]] = {}
    for scope, _, user in stored:
        by_scope.setdefault(scope, set()).add(user)
    assert by_scope == {
        SERVER: {"ana", "bea"},
        FRIENDS: {"ana", "cris", "dani"},
        GLOBAL: {"ana", "bea"},  # the server's game only: a group DM's never reach it
    }
    assert stored[(FRIENDS, "toy", "ana")][2] == 1 and stored[(SERVER, "toy", "ana")][2] == 1
    assert stored[(GLOBAL, "toy", "ana")][2] == 1

    assert {r.user_id for r in await standings.leaderboard(SERVER)} == {"ana", "bea"}
    assert {r.user_id for r in await standings.leaderboard(FRIENDS)} == {"ana", "cris", "dani"}
    assert await standings.leaderboard(OTHERS) == []
    assert [r.played for r in await standings.of_user(SERVER, "ana")] == [1]
    assert [r.played for r in await standings.of_user(FRIENDS, "ana")] == [1]
    assert await standings.of_user(SERVER, "cris") == []

    assert [h.table_id for h in await ratings.history(SERVER)] == [1]
    assert [h.table_id for h in await ratings.history(FRIENDS)] == [3, 2]
    assert [h.table_id for h in await ratings.history(FRIENDS, "ana")] == [2]
    assert await ratings.history(OTHERS) == []
    assert await ratings.board(OTHERS, "toy") == []
    finished = {f.table_id: f for f in await ratings.finished()}
    assert [finished[t].global_ for t in (1, 2, 3)] == [True, False, False]


def test_the_storage_knows_a_group_dm_s_scope():
    assert FRIENDS.startswith(PRIVATE_SCOPE_PREFIX)
    assert Place(PlaceKind.BOT_DM, 5, None).scope.startswith(PRIVATE_SCOPE_PREFIX)
    assert not Place(PlaceKind.SERVER_WITHOUT_BOT, 5, 9).scope.startswith(PRIVATE_SCOPE_PREFIX)
