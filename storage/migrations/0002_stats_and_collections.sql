-- Game-specific counters for leaderboards (Macarena amulets and Macarenas, ...), and card
-- collections with a ledger of every grant and transfer (Triple Triad).
CREATE TABLE player_stats (
    guild_id    TEXT NOT NULL,
    user_id     TEXT NOT NULL,
    game        TEXT NOT NULL,
    stat        TEXT NOT NULL,
    value       INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, user_id, game, stat)
);
CREATE INDEX player_stats_board ON player_stats (guild_id, game, stat, value DESC);

CREATE TABLE card_collections (
    user_id     TEXT NOT NULL,
    game        TEXT NOT NULL,
    card_id     TEXT NOT NULL,
    count       INTEGER NOT NULL CHECK (count >= 0),
    PRIMARY KEY (user_id, game, card_id)
);

CREATE TABLE card_ledger (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id      TEXT NOT NULL,
    game         TEXT NOT NULL,
    card_id      TEXT NOT NULL,
    delta        INTEGER NOT NULL CHECK (delta != 0),
    reason       TEXT NOT NULL,          -- starter, top_up, payout, admin
    table_id     INTEGER REFERENCES tables (id),
    counterparty TEXT,                   -- the other side of a transfer
    created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX card_ledger_user ON card_ledger (user_id, game);
