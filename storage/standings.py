"""Standings per (guild, user, game): played, won, points, team wins."""

from __future__ import annotations

from pydantic import BaseModel

from storage.db import Database
from storage.sql import Transaction

# A player's standings in one guild, a row per game.
_USER_STANDINGS = (
    "SELECT user_id, game, played, won, points, team_won FROM standings"
    " WHERE guild_id = ? AND user_id = ? ORDER BY game"
)


class StandingDelta(BaseModel):
    user_id: str
    played: int = 1
    won: int = 0
    points: int = 0
    team_won: int = 0
    stats: dict[str, int] = {}  # game-specific counters: amulets, macarenas, ...


class StandingRow(BaseModel):
    user_id: str
    game: str
    played: int
    won: int
    points: int
    team_won: int


def apply_standings(
    conn: Transaction, guild_id: str, game: str, deltas: list[StandingDelta]
) -> None:
    """Add ``deltas`` inside the caller's transaction (a writer unit, ``storage/writer.py``),
    in user order (rows locked in one order by every process: no deadlock between two)."""
    for d in sorted(deltas, key=lambda d: d.user_id):
        conn.execute(
            "INSERT INTO standings (guild_id, user_id, game, played, won, points, team_won)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (guild_id, user_id, game) DO UPDATE SET"
            " played = standings.played + excluded.played, won = standings.won + excluded.won,"
            " points = standings.points + excluded.points,"
            " team_won = standings.team_won + excluded.team_won",
            (guild_id, d.user_id, game, d.played, d.won, d.points, d.team_won),
        )
        for stat, value in d.stats.items():
            conn.execute(
                "INSERT INTO player_stats (guild_id, user_id, game, stat, value)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, user_id, game, stat)"
                " DO UPDATE SET value = player_stats.value + excluded.value",
                (guild_id, d.user_id, game, stat, value),
            )


class StandingsRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def add(self, guild_id: str, game: str, deltas: list[StandingDelta]) -> None:
        await self.db.write(lambda conn: apply_standings(conn, guild_id, game, deltas))

    async def leaderboard(
        self, guild_id: str, game: str | None = None, limit: int = 10, by: str = "won"
    ) -> list[StandingRow]:
        """Best first: wins, then points (``by="points"``: points, then wins). Without
        ``game``, totals across games."""
        order = "points DESC, won DESC" if by == "points" else "won DESC, points DESC"
        if game is None:
            sql = (
                "SELECT user_id, '*' AS game, SUM(played) AS played, SUM(won) AS won,"
                " SUM(points) AS points, SUM(team_won) AS team_won FROM standings"
                f" WHERE guild_id = ? GROUP BY user_id ORDER BY {order}, user_id"
                " LIMIT ?"
            )
            params: tuple = (guild_id, limit)
        else:
            sql = (
                "SELECT user_id, game, played, won, points, team_won FROM standings"
                f" WHERE guild_id = ? AND game = ? ORDER BY {order}, user_id"
                " LIMIT ?"
            )
            params = (guild_id, game, limit)
        return await self.db.models(StandingRow, sql, params)

    async def stat_board(
        self, guild_id: str, game: str, stat: str, limit: int = 10
    ) -> list[tuple[str, int]]:
        """(user, value) for one game-specific counter, highest first."""
        rows = await self.db.fetchall(
            "SELECT user_id, value FROM player_stats WHERE guild_id = ? AND game = ?"
            " AND stat = ? AND value > 0 ORDER BY value DESC, user_id LIMIT ?",
            (guild_id, game, stat, limit),
        )
        return [(r["user_id"], r["value"]) for r in rows]

    async def stat_names(self, guild_id: str, game: str) -> list[str]:
        rows = await self.db.fetchall(
            "SELECT DISTINCT stat FROM player_stats WHERE guild_id = ? AND game = ? ORDER BY stat",
            (guild_id, game),
        )
        return [r["stat"] for r in rows]

    async def stats_of(self, guild_id: str, user_id: str, game: str) -> dict[str, int]:
        rows = await self.db.fetchall(
            "SELECT stat, value FROM player_stats WHERE guild_id = ? AND user_id = ? AND game = ?",
            (guild_id, user_id, game),
        )
        return {r["stat"]: r["value"] for r in rows}

    async def of_user(self, guild_id: str, user_id: str) -> list[StandingRow]:
        return await self.db.models(StandingRow, _USER_STANDINGS, (guild_id, user_id))
