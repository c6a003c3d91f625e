-- PostgreSQL twin of ../0003_ratings_history_settings.sql.
CREATE TABLE finished_games (
    table_id    BIGINT PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    seq         BIGINT NOT NULL UNIQUE,     -- order of the finishes: ratings replay in it
    guild_id    TEXT NOT NULL,
    game        TEXT NOT NULL,
    engine      TEXT NOT NULL,              -- rules version played under; '' = unknown
    outcome     TEXT NOT NULL,              -- JSON {ranking, points, teams}
    rated       TEXT NOT NULL,              -- 'rated' or why not: house_rules, no_opponent
    global      INTEGER NOT NULL DEFAULT 0, -- also rated on the global board
    finished_at TEXT NOT NULL DEFAULT mesa_utc_now()
);
CREATE INDEX finished_games_guild ON finished_games (guild_id, game, seq DESC);

CREATE TABLE game_players (
    table_id    BIGINT NOT NULL REFERENCES finished_games (table_id) ON DELETE CASCADE,
    user_id     TEXT NOT NULL,
    PRIMARY KEY (user_id, table_id)
);

CREATE TABLE ratings (
    scope       TEXT NOT NULL,              -- a guild id, or '*' for the global board
    game        TEXT NOT NULL,
    user_id     TEXT NOT NULL,
    mu          DOUBLE PRECISION NOT NULL,
    sigma       DOUBLE PRECISION NOT NULL,
    ordinal     DOUBLE PRECISION NOT NULL,  -- mu - 3 sigma: what boards sort by
    games       INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (scope, game, user_id)
);
CREATE INDEX ratings_board ON ratings (scope, game, ordinal DESC);

CREATE TABLE rating_changes (
    table_id    BIGINT NOT NULL REFERENCES finished_games (table_id) ON DELETE CASCADE,
    scope       TEXT NOT NULL,
    game        TEXT NOT NULL,
    user_id     TEXT NOT NULL,
    mu          DOUBLE PRECISION NOT NULL,  -- the rating after this game
    sigma       DOUBLE PRECISION NOT NULL,
    ordinal     DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, scope, user_id)
);
CREATE INDEX rating_changes_user ON rating_changes (scope, game, user_id, table_id);

CREATE TABLE guild_settings (
    guild_id    TEXT PRIMARY KEY,
    settings    TEXT NOT NULL DEFAULT '{}'  -- JSON of bot.service.guild_settings.GuildSettings
);

CREATE TABLE followers (
    table_id    BIGINT NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    user_id     TEXT NOT NULL,
    message_id  TEXT,                       -- the follower's DM showing the table
    PRIMARY KEY (table_id, user_id)
);
