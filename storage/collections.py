"""Card collections (Triple Triad) and the ledger behind them, and the cards at stake.

Counts only change together with a ledger row, in one transaction, so a collection always
equals the sum of its ledger; ``count >= 0`` is a CHECK, so a transfer of a card someone no
longer holds fails whole instead of going negative.

Stakes: the copies a player brought to a game in progress (``card_stakes``), written by the
transaction that starts the game (``stake_cards``, inside ``TablesRepo.start``). A player's free
copies are their collection minus the stakes of their tables still playing, counted by the
database in the same statement, so every process sees the same number; the stake takes a
per-player lock first (PostgreSQL: an advisory lock; SQLite: its one writer), so two processes
starting games at once cannot both stake the last copy.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from pydantic import BaseModel

from storage.db import Database
from storage.sql import Transaction


class CardNotHeld(Exception):
    """A transfer takes a card its owner does not hold; the whole transaction is undone."""


class CardsAtStake(Exception):
    """A stake asks for more copies than the player has free (the others are at stake in
    their other games in progress, or no longer held); nothing of the start is written."""

    def __init__(self, user_id: str, missing: dict[str, int]) -> None:
        super().__init__(user_id, missing)
        self.user_id = user_id
        self.missing = missing


class CardStake(BaseModel):
    """The cards each player puts at stake at a table (computer seats: none)."""

    game: str
    cards: dict[str, list[str]]


# A player's free copies: held minus at stake at their tables still playing. One statement (one
# snapshot on PostgreSQL, whose statements each see the latest commit).
_FREE_SQL = (
    "SELECT c.card_id, c.count - COALESCE(s.staked, 0) AS free FROM card_collections c"
    " LEFT JOIN (SELECT k.card_id, SUM(k.count) AS staked FROM card_stakes k"
    " JOIN tables t ON t.id = k.table_id AND t.status = 'playing'"
    " WHERE k.user_id = ? AND k.game = ? GROUP BY k.card_id) s ON s.card_id = c.card_id"
    " WHERE c.user_id = ? AND c.game = ? AND c.count > 0 ORDER BY c.card_id"
)

# A player's ledger of one game, oldest entry first.
_LEDGER_SQL = (
    "SELECT user_id, card_id, delta, reason, table_id, counterparty FROM card_ledger"
    " WHERE user_id = ? AND game = ? ORDER BY id"
)


# The same, with the copies held: a player's collection and what of it is free, in one read.
_HOLDINGS_SQL = _FREE_SQL.replace(
    "SELECT c.card_id, c.count - COALESCE(s.staked, 0) AS free",
    "SELECT c.card_id, c.count - COALESCE(s.staked, 0) AS free, c.count",
)


def _free(rows: list[Any]) -> dict[str, int]:
    return {r[0]: int(r[1]) for r in rows if int(r[1]) > 0}


def stake_lock(game: str, user_id: str) -> str:
    return f"stake:{game}:{user_id}"


def stake_cards(conn: Transaction, table_id: int, stake: CardStake) -> None:
    """Put ``stake`` at stake at ``table_id`` inside the caller's transaction (the game's start),
    or raise ``CardsAtStake`` if a player lacks free copies. Each player's lock is taken
    before their free copies are counted (in one order: no two starts deadlock)."""
    for user_id in sorted(stake.cards):
        conn.lock(stake_lock(stake.game, user_id))
    for user_id in sorted(stake.cards):
        wanted = Counter(stake.cards[user_id])
        free = _free(conn.execute(_FREE_SQL, (user_id, stake.game, user_id, stake.game)).fetchall())
        missing = {c: n - free.get(c, 0) for c, n in wanted.items() if n > free.get(c, 0)}
        if missing:
            raise CardsAtStake(user_id, missing)
        conn.executemany(
            "INSERT INTO card_stakes (table_id, user_id, game, card_id, count)"
            " VALUES (?, ?, ?, ?, ?)",
            [(table_id, user_id, stake.game, c, n) for c, n in sorted(wanted.items())],
        )


def release_stakes(conn: Transaction, table_id: int) -> None:
    """The table ended (in the caller's transaction): its stakes go (they already count for
    nothing once it is not playing; this keeps the table small)."""
    conn.execute("DELETE FROM card_stakes WHERE table_id = ?", (table_id,))


class CardTransfer(BaseModel):
    """One card moving between players; ``None`` on a side is the computer (no collection)."""

    card_id: str
    from_user: str | None
    to_user: str | None


class LedgerRow(BaseModel):
    user_id: str
    card_id: str
    delta: int
    reason: str
    table_id: int | None
    counterparty: str | None


def _change(
    conn: Transaction,
    user_id: str,
    game: str,
    card_id: str,
    delta: int,
    reason: str,
    table_id: int | None = None,
    counterparty: str | None = None,
) -> None:
    if delta > 0:
        conn.execute(
            "INSERT INTO card_collections (user_id, game, card_id, count) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (user_id, game, card_id) DO UPDATE SET count = card_collections.count + excluded.count",
            (user_id, game, card_id, delta),
        )
    else:
        cur = conn.execute(
            "UPDATE card_collections SET count = count + ? WHERE user_id = ? AND game = ?"
            " AND card_id = ? AND count >= ?",
            (delta, user_id, game, card_id, -delta),
        )
        if cur.rowcount != 1:
            raise CardNotHeld(user_id, card_id)
    conn.execute(
        "INSERT INTO card_ledger (user_id, game, card_id, delta, reason, table_id, counterparty)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        (user_id, game, card_id, delta, reason, table_id, counterparty),
    )


def _holds(conn: Transaction, user_id: str, game: str, card_id: str) -> bool:
    row = conn.execute(
        "SELECT count FROM card_collections WHERE user_id = ? AND game = ? AND card_id = ?",
        (user_id, game, card_id),
    ).fetchone()
    return bool(row and row[0] > 0)


def apply_transfers(
    conn: Transaction,
    game: str,
    transfers: list[CardTransfer],
    table_id: int | None,
    *,
    skip_unheld: bool = False,
) -> list[CardTransfer]:
    """Move cards inside the caller's transaction (e.g. with a game's final action).

    With ``skip_unheld`` a transfer whose giver no longer holds the card (it left their
    collection in another game meanwhile) is skipped instead of undoing everything; the
    transfers actually made are returned."""
    done = []
    for t in transfers:
        if (
            skip_unheld
            and t.from_user is not None
            and not _holds(conn, t.from_user, game, t.card_id)
        ):
            continue
        done.append(t)
        if t.from_user is not None:
            _change(conn, t.from_user, game, t.card_id, -1, "payout", table_id, t.to_user or "cpu")
        if t.to_user is not None:
            _change(conn, t.to_user, game, t.card_id, +1, "payout", table_id, t.from_user or "cpu")
    return done


class CollectionsRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def cards(self, user_id: str, game: str) -> dict[str, int]:
        rows = await self.db.fetchall(
            "SELECT card_id, count FROM card_collections WHERE user_id = ? AND game = ?"
            " AND count > 0 ORDER BY card_id",
            (user_id, game),
        )
        return {r["card_id"]: r["count"] for r in rows}

    async def free(self, user_id: str, game: str) -> dict[str, int]:
        """The copies of each card not at stake in the user's games in progress (any process's:
        counted by the database)."""
        return _free(await self.db.fetchall(_FREE_SQL, (user_id, game, user_id, game)))

    async def holdings(self, user_id: str, game: str) -> tuple[dict[str, int], dict[str, int]]:
        """(``cards``, ``free``) in one read: the copies held of each card and those not at
        stake (a Triad pick asked for each apart, issue 29)."""
        rows = await self.db.fetchall(_HOLDINGS_SQL, (user_id, game, user_id, game))
        return {r[0]: int(r[2]) for r in rows}, _free(rows)

    async def staked(self, table_id: int) -> dict[str, dict[str, int]]:
        """user -> {card: copies} at stake at ``table_id`` (tests, operators)."""
        rows = await self.db.fetchall(
            "SELECT user_id, card_id, count FROM card_stakes WHERE table_id = ?"
            " ORDER BY user_id, card_id",
            (table_id,),
        )
        found: dict[str, dict[str, int]] = {}
        for r in rows:
            found.setdefault(r["user_id"], {})[r["card_id"]] = r["count"]
        return found

    async def grant(self, user_id: str, game: str, cards: list[str], reason: str) -> None:
        def unit(conn: Transaction) -> None:
            for card_id in cards:
                _change(conn, user_id, game, card_id, +1, reason)

        await self.db.write(unit)

    async def ensure_starter(self, user_id: str, game: str, starter: list[str]) -> bool:
        """Grant ``starter`` to a user who never had cards of ``game``; True if granted.

        A user known to have a ledger (granted or found here before: the ledger is never
        deleted from) costs no write: every Triad game start asks (issue 29: 0.1 writer jobs
        per move at 500 tables)."""
        known = self.db.ledgers_known
        if (user_id, game) in known:
            return False

        def unit(conn: Transaction) -> bool:
            conn.lock(f"starter:{game}:{user_id}")  # two processes: one grants
            if conn.execute(
                "SELECT 1 FROM card_ledger WHERE user_id = ? AND game = ? LIMIT 1",
                (user_id, game),
            ).fetchone():
                return False
            for card_id in starter:
                _change(conn, user_id, game, card_id, +1, "starter")
            return True

        granted: bool = await self.db.write(unit)
        known[user_id, game] = None  # committed: a ledger from now on, in every process
        return granted

    async def top_up(self, user_id: str, game: str, minimum: int, filler: list[str]) -> list[str]:
        """Bring a collection below ``minimum`` cards back up, granting from ``filler`` in
        order; returns the cards granted."""
        held = sum((await self.cards(user_id, game)).values())
        grants = filler[: max(0, minimum - held)]
        if grants:
            await self.grant(user_id, game, grants, "top_up")
        return grants

    async def transfer(
        self, game: str, transfers: list[CardTransfer], table_id: int | None = None
    ) -> None:
        await self.db.write(lambda conn: apply_transfers(conn, game, transfers, table_id))

    async def ledger(self, user_id: str, game: str) -> list[LedgerRow]:
        return await self.db.models(LedgerRow, _LEDGER_SQL, (user_id, game))
