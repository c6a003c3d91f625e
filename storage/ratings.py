"""Finished games and ratings: what a game's final transaction writes besides its last action.

``apply_finished`` runs inside that transaction (the writer unit of ``record_action``): it stores
the outcome and who played, then rates the game in the guild's pool and, unless the guild opted
out of the global board, in the global pool (scope ``'*'``). A group DM's games (scope
``channel:<id>``) are rated in its own pool only. The current ratings are read in the
same transaction, so two games finishing together with the same player both count. The rating
maths is the caller's (``rate``, an openskill model in ``bot/service/ratings.py``): storage only
reads and writes numbers.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from storage.db import Database
from storage.rows import as_model
from storage.sql import Transaction
from storage.stored_state import unpack

GLOBAL = "*"  # the scope of the global board
RATED = "rated"
GLOBAL_BOARD_KEY = "global_board"  # guild setting: counted on the global board (default on)
# The scopes of group DMs and DMs (``bot/places.py``: ``channel:<id>``): private places where
# nobody can opt out of the global board (no /settings there), so their games stay in their
# own pool and never reach the global board.
PRIVATE_SCOPE_PREFIX = "channel:"
# Held (``Transaction.lock``) by every transaction that stores a finished game: the next
# ``seq`` and the ratings are read then written, so two processes finishing games take turns.
FINISH_LOCK = "finish"
Skill = tuple[float, float]  # (mu, sigma)
# (teams of skills, ranks: lower is better, ties equal) -> the teams' new skills
Rate = Callable[[list[list[Skill]], list[int]], list[list[Skill]]]
# scope -> user -> (ordinal before the game, ordinal after): what a game's rating changed
RatingChanges = dict[str, dict[str, tuple[float, float]]]
# The key of a finished table's meta holding the rating changes in its guild's pool (user ->
# [before, after]), written by its final transaction, so a message rebuilt later shows them.
RATING_CHANGES_META = "rating_changes"


def ordinal(mu: float, sigma: float) -> float:
    """The conservative skill estimate boards sort by (openskill's default ``mu - 3 sigma``)."""
    return mu - 3 * sigma


class FinishedGame(BaseModel):
    """One finished game as its final transaction stores it."""

    table_id: int
    guild_id: str
    game: str
    engine: str
    outcome: dict[str, Any]  # {"ranking": [[seat...]...], "points": {...}, "teams": ...}
    players: list[str]  # the people who played (user ids)
    rated: str = RATED  # or why not
    teams: list[list[str]] = []  # seat ids per rating side
    ranks: list[int] = []  # place of each side (0 best; ties share one)
    fixed: dict[str, Skill] = {}  # seats with a fixed skill (computer players)
    initial: Skill = (25.0, 25.0 / 3)  # a newcomer's skill


class RatingRow(BaseModel):
    user_id: str
    game: str
    mu: float
    sigma: float
    ordinal: float
    games: int
    name: str | None = None  # the player's last known display name


class FinishedRow(BaseModel):
    table_id: int
    seq: int
    guild_id: str
    game: str
    engine: str
    outcome: dict[str, Any]
    rated: str
    global_: bool
    finished_at: str
    channel_id: str = ""
    message_id: str | None = None
    seats: list[dict[str, Any]] = []


def _global_board(conn: Transaction, guild_id: str) -> bool:
    if guild_id.startswith(PRIVATE_SCOPE_PREFIX):
        return False  # a group DM's games are its own
    row = conn.execute(
        "SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,)
    ).fetchone()
    if row is None:
        return True
    return bool(json.loads(row[0]).get(GLOBAL_BOARD_KEY, True))


def apply_finished(conn: Transaction, game: FinishedGame, rate: Rate | None) -> RatingChanges:
    """Store ``game`` and rate it (inside the caller's transaction). ``rate`` None, or a game
    not rated, stores the outcome only. Returns every rated person's ordinal before and after,
    per scope (empty when not rated)."""
    rated = game.rated == RATED and rate is not None and len(game.teams) >= 2
    conn.lock(FINISH_LOCK)
    counted_globally = rated and _global_board(conn, game.guild_id)
    seq = conn.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM finished_games").fetchone()[0]
    conn.execute(
        "INSERT INTO finished_games (table_id, seq, guild_id, game, engine, outcome, rated,"
        " global) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            game.table_id,
            seq,
            game.guild_id,
            game.game,
            game.engine,
            json.dumps(game.outcome),
            game.rated,
            int(counted_globally),
        ),
    )
    conn.executemany(
        "INSERT INTO game_players (table_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
        [(game.table_id, u) for u in game.players],
    )
    if not rated or rate is None:
        return {}
    return {
        scope: _rate_in(conn, scope, game, rate)
        for scope in [game.guild_id, *([GLOBAL] if counted_globally else [])]
    }


def _rate_in(
    conn: Transaction, scope: str, game: FinishedGame, rate: Rate
) -> dict[str, tuple[float, float]]:
    people = {s for team in game.teams for s in team if s not in game.fixed}
    current: dict[str, Skill] = {}
    for user in people:
        row = conn.execute(
            "SELECT mu, sigma FROM ratings WHERE scope = ? AND game = ? AND user_id = ?",
            (scope, game.game, user),
        ).fetchone()
        current[user] = (row[0], row[1]) if row is not None else game.initial
    skills = [[game.fixed.get(s) or current[s] for s in team] for team in game.teams]
    after = rate(skills, game.ranks)
    changes: dict[str, tuple[float, float]] = {}
    for team, new in zip(game.teams, after, strict=True):
        for seat, (mu, sigma) in zip(team, new, strict=True):
            if seat not in people:
                continue  # a computer's rating is fixed
            value = ordinal(mu, sigma)
            conn.execute(
                "INSERT INTO ratings (scope, game, user_id, mu, sigma, ordinal, games)"
                " VALUES (?, ?, ?, ?, ?, ?, 1) ON CONFLICT (scope, game, user_id) DO UPDATE SET"
                " mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal,"
                " games = ratings.games + 1",
                (scope, game.game, seat, mu, sigma, value),
            )
            conn.execute(
                "INSERT INTO rating_changes (table_id, scope, game, user_id, mu, sigma, ordinal)"
                " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, scope, user_id) DO UPDATE"
                " SET game = excluded.game, mu = excluded.mu, sigma = excluded.sigma,"
                " ordinal = excluded.ordinal",
                (game.table_id, scope, game.game, seat, mu, sigma, value),
            )
            changes[seat] = (ordinal(*current[seat]), value)
    return changes


_FINISHED_FIELDS = {"global": "global_"}  # a Python keyword: the field has another name


def _finished(row: Any) -> FinishedRow:
    """A finished game's row (``channel_id``, ``message_id`` and ``seats`` only when joined
    with its table: ``_HISTORY``)."""
    return as_model(FinishedRow, row, json_columns=("outcome", "seats"), fields=_FINISHED_FIELDS)


_HISTORY = (
    "SELECT f.*, t.channel_id, t.message_id, t.seats FROM finished_games f"
    " JOIN tables t ON t.id = f.table_id"
)
# A player's ratings in one scope, a row per game.
_USER_RATINGS = (
    "SELECT user_id, game, mu, sigma, ordinal, games FROM ratings"
    " WHERE scope = ? AND user_id = ? ORDER BY game"
)


class RatingsRepo:
    """Reads of ratings, finished games and history; writes of the backfill."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def board(self, scope: str, game: str, limit: int = 10) -> list[RatingRow]:
        return await self.db.models(
            RatingRow,
            "SELECT r.user_id, r.game, r.mu, r.sigma, r.ordinal, r.games, p.name FROM ratings r"
            " LEFT JOIN players p ON p.user_id = r.user_id"
            " WHERE r.scope = ? AND r.game = ? ORDER BY r.ordinal DESC, r.user_id LIMIT ?",
            (scope, game, limit),
        )

    async def of_user(self, scope: str, user_id: str) -> list[RatingRow]:
        return await self.db.models(RatingRow, _USER_RATINGS, (scope, user_id))

    async def all_ratings(self) -> dict[tuple[str, str, str], tuple[float, float, int]]:
        """(scope, game, user) -> (mu, sigma, games): every rating (tests, checks)."""
        rows = await self.db.fetchall("SELECT scope, game, user_id, mu, sigma, games FROM ratings")
        return {
            (r["scope"], r["game"], r["user_id"]): (r["mu"], r["sigma"], r["games"]) for r in rows
        }

    async def changes(
        self, table_id: int, scope: str, initial: float = 0.0
    ) -> dict[str, tuple[float, float]]:
        """user -> (ordinal before, ordinal after) of the people game ``table_id`` rated in
        ``scope``; ``initial`` is the ordinal of someone it rated for the first time."""
        after = await self.db.fetchall(
            "SELECT c.user_id, c.game, c.ordinal, f.seq FROM rating_changes c"
            " JOIN finished_games f USING (table_id) WHERE c.table_id = ? AND c.scope = ?",
            (table_id, scope),
        )
        found: dict[str, tuple[float, float]] = {}
        for row in after:
            before = await self.db.fetchone(
                "SELECT c.ordinal FROM rating_changes c JOIN finished_games f USING (table_id)"
                " WHERE c.scope = ? AND c.game = ? AND c.user_id = ? AND f.seq < ?"
                " ORDER BY f.seq DESC LIMIT 1",
                (scope, row["game"], row["user_id"], row["seq"]),
            )
            found[row["user_id"]] = (before["ordinal"] if before else initial, row["ordinal"])
        return found

    async def trend(self, scope: str, game: str, user_id: str, last: int = 5) -> list[float]:
        """The ordinals after each of the user's last ``last`` rated games, oldest first."""
        rows = await self.db.fetchall(
            "SELECT c.ordinal FROM rating_changes c JOIN finished_games f USING (table_id)"
            " WHERE c.scope = ? AND c.game = ? AND c.user_id = ? ORDER BY f.seq DESC LIMIT ?",
            (scope, game, user_id, last),
        )
        return [r["ordinal"] for r in rows][::-1]

    async def finished(self) -> list[FinishedRow]:
        """Every finished game in the order they finished (recomputing ratings)."""
        return [_finished(r) for r in await self.db.fetchall(f"{_HISTORY} ORDER BY f.seq")]

    async def finished_game(self, table_id: int) -> FinishedRow | None:
        row = await self.db.fetchone(f"{_HISTORY} WHERE f.table_id = ?", (table_id,))
        return _finished(row) if row else None

    async def history(
        self, guild_id: str, user_id: str | None = None, game: str | None = None, limit: int = 10
    ) -> list[FinishedRow]:
        """The guild's last finished games, newest first (of one player, of one game)."""
        sql, params = f"{_HISTORY} WHERE f.guild_id = ?", [guild_id]
        if user_id is not None:
            sql += " AND f.table_id IN (SELECT table_id FROM game_players WHERE user_id = ?)"
            params.append(user_id)
        if game is not None:
            sql += " AND f.game = ?"
            params.append(game)
        sql += " ORDER BY f.seq DESC LIMIT ?"
        return [_finished(r) for r in await self.db.fetchall(sql, (*params, limit))]

    async def unrecorded_finished(self) -> list[tuple[int, str, str, str]]:
        """(table id, guild, game, final state JSON) of finished tables that have no
        finished-game row (finished before ratings existed), in the order they finished."""
        rows = await self.db.fetchall(
            "SELECT id, guild_id, game, state FROM tables WHERE status = 'finished'"
            " AND state IS NOT NULL AND id NOT IN (SELECT table_id FROM finished_games)"
            " ORDER BY updated_at, id"
        )
        return [(r["id"], r["guild_id"], r["game"], unpack(r["state"])) for r in rows]

    async def record(self, games: list[FinishedGame], rate: Rate) -> None:
        """Store and rate ``games`` in order, in one transaction (the backfill)."""

        def unit(conn: Transaction) -> None:
            for game in games:
                apply_finished(conn, game, rate)

        await self.db.write(unit)
