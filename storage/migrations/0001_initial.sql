-- Tables (one game instance in one channel), their action log, players and standings.
-- PostgreSQL: timestamps are TEXT in the SQLite form (ISO 8601 UTC, milliseconds) so that both
-- backends store and compare the same values; mesa_utc_now() makes them.
--postgres: CREATE FUNCTION mesa_utc_now() RETURNS text LANGUAGE sql STABLE
--postgres:     AS $$ SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') $$;

CREATE TABLE players (
    user_id     TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    locale      TEXT,
    dms_closed  INTEGER NOT NULL DEFAULT 0,
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE tables (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    TEXT NOT NULL,
    channel_id  TEXT NOT NULL,
    game        TEXT NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled')),
    host_id     TEXT NOT NULL,
    locale      TEXT NOT NULL,
    options     TEXT NOT NULL,           -- JSON of the game's Options + table options
    seats       TEXT NOT NULL,           -- JSON list of {id, name, cpu_level}
    seed        TEXT NOT NULL,
    message_id  TEXT,                    -- the public table message
    state       TEXT,                    -- JSON snapshot of the game state
    version     INTEGER NOT NULL DEFAULT 0,
    meta        TEXT NOT NULL DEFAULT '{}',  -- JSON: timeouts in a row, rematch links, ...
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX tables_open ON tables (status) WHERE status IN ('lobby', 'playing');
CREATE UNIQUE INDEX tables_one_active_per_channel
    ON tables (channel_id) WHERE status IN ('lobby', 'playing');

CREATE TABLE actions (
    table_id    INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    version     INTEGER NOT NULL,        -- the state version this action produced
    seat        TEXT NOT NULL,
    action      TEXT NOT NULL,           -- the action's compact text form
    by_timer    INTEGER NOT NULL DEFAULT 0,
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (table_id, version)
);

CREATE TABLE standings (
    guild_id    TEXT NOT NULL,
    user_id     TEXT NOT NULL,
    game        TEXT NOT NULL,
    played      INTEGER NOT NULL DEFAULT 0 CHECK (played >= 0),
    won         INTEGER NOT NULL DEFAULT 0 CHECK (won >= 0),
    points      INTEGER NOT NULL DEFAULT 0,
    team_won    INTEGER NOT NULL DEFAULT 0 CHECK (team_won >= 0),
    rating      REAL NOT NULL DEFAULT 1000,
    PRIMARY KEY (guild_id, user_id, game)
);
CREATE INDEX standings_board ON standings (guild_id, game, won DESC, points DESC);
