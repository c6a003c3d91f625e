"""The ratings backfill (``bot/service/ratings.py: backfill``) on N finished games, beside what
it replaces: rebuilding each game from seed + action log. Also the cost a finished game adds to
its final transaction (recording + rating it) and a recomputation of every rating from the
stored outcomes. Games are computer-only Ce Amapatolli games played offline, 2-4 players,
stored as finished tables. Prints JSON.

    .venv/bin/python bench/ratings_backfill.py [games]
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path

from bot.service.ratings import backfill, finished_game, rate, recompute, stored_outcome
from bot.service.replay import rebuild
from bot.workers import InlineWorkers, Workers
from games.amapatolli import GAME
from games.core import rng_for
from storage import ActionRow, FinishedGame, RatingsRepo, SeatInfo, TablesRepo, open_database
from storage.ratings import apply_finished


def play(seed: str, seats: list[str]) -> tuple[str, list[tuple[str, str]]]:
    state = GAME.new(seats, seed, {"hand_size": 5})
    log = []
    while GAME.outcome(state) is None:
        seat = sorted(GAME.to_act(state), key=seats.index)[0]
        legal = GAME.legal_actions(state, seat)
        rng = rng_for(seed, "cpu", seat, state.version)
        choice = GAME.choose_action(GAME.view(state, seat), legal, "normal", rng) or legal[0]
        state, _ = GAME.apply(state, seat, choice)
        log.append((seat, choice.encode()))
    return GAME.dump_state(state), log


async def main(n: int) -> None:
    players = [str(10_000 + i) for i in range(40)]
    pick = random.Random(7)
    with tempfile.TemporaryDirectory() as folder:
        db = await open_database(Path(folder) / "bench.db")
        tables = TablesRepo(db)
        logs = {}
        for i in range(n):
            seats = pick.sample(players, pick.randint(2, 4))
            final, log = play(f"bench-{i}", seats)
            record = await tables.create(
                guild_id=str(i % 3),
                channel_id=f"c{i}",
                game="amapatolli",
                host_id=seats[0],
                locale="es",
                options={"hand_size": 5},
                seats=[SeatInfo(id=s, name=s) for s in seats],
                seed=f"bench-{i}",
            )

            def finish(conn, table_id=record.id, final=final, log=log):
                conn.execute(
                    "UPDATE tables SET status = 'finished', state = ?, version = ? WHERE id = ?",
                    (final, len(log), table_id),
                )
                conn.executemany(
                    "INSERT INTO actions (table_id, version, seat, action) VALUES (?, ?, ?, ?)",
                    [(table_id, v, s, a) for v, (s, a) in enumerate(log, start=1)],
                )

            await db.write(finish)
            logs[record.id] = (record, log)
        moves = sum(len(log) for _, log in logs.values())

        start = time.perf_counter()
        for record, log in logs.values():
            full = await tables.get(record.id)
            assert full is not None
            rebuild(
                GAME,
                full,
                [
                    ActionRow(version=v, seat=s, action=a, by_timer=False)
                    for v, (s, a) in enumerate(log, 1)
                ],
            )
        replay_s = time.perf_counter() - start

        start = time.perf_counter()
        done = await backfill(db, {"amapatolli": GAME}, InlineWorkers())
        backfill_s = time.perf_counter() - start
        assert done == n

        ratings = RatingsRepo(db)
        start = time.perf_counter()
        rows = await ratings.finished()
        again = recompute(rows)
        recompute_s = time.perf_counter() - start
        assert again == await ratings.all_ratings()

        # One more finished game's record + rating, as the final transaction adds it.
        record, _ = logs[1]
        final_state = GAME.load_state((await tables.get(1)).state or "")
        game: FinishedGame = finished_game(
            10_000_000,
            "0",
            "amapatolli",
            {},
            [(s, None) for s in final_state.seats],
            stored_outcome(GAME.outcome(final_state)),
            "amapatolli@1",
        )
        timings = []
        for k in range(200):
            extra = await tables.create(
                guild_id="0",
                channel_id=f"extra{k}",
                game="amapatolli",
                host_id=record.seats[0].id,
                locale="es",
                options={},
                seats=record.seats,
                seed="x",
            )
            one = game.model_copy(update={"table_id": extra.id})

            def unit(conn, one=one):
                t = time.perf_counter()
                apply_finished(conn, one, rate)
                timings.append((time.perf_counter() - t) * 1000)

            await db.write(unit)
        timings.sort()
        await db.close()
    print(
        json.dumps(
            {
                "games": n,
                "moves": moves,
                "backfill_s (from final snapshots)": round(backfill_s, 3),
                "rebuild_from_action_logs_s (the alternative)": round(replay_s, 3),
                "recompute_all_ratings_s": round(recompute_s, 3),
                "final_transaction_extra_ms p50/p99": [
                    round(timings[len(timings) // 2], 3),
                    round(timings[int(len(timings) * 0.99)], 3),
                ],
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    _ = Workers  # the bot runs the backfill's snapshot reads in its worker pool
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 300))
