-- Issue 29: the rows a game's end writes (standings, ratings and their changes, the players of
-- a finished game, statistics, cards and their stakes) and what each message shows (presented),
-- each in one b-tree. In SQLite a table whose primary key is not an INTEGER keeps its rows and its
-- key apart: a new row went into two b-trees (and a page of each written), and every look-up by
-- the key (the upserts of a game's end, the presented rows of every move) went through the key's
-- index to the row. WITHOUT ROWID keeps each row in its key's b-tree (as 0013 did for the actions
-- and intents). Their other indexes are made again as they were. PostgreSQL keeps its tables.
CREATE TABLE standings_keyed (  -- sqlite only
    guild_id    TEXT NOT NULL,  -- sqlite only
    user_id     TEXT NOT NULL,  -- sqlite only
    game        TEXT NOT NULL,  -- sqlite only
    played      INTEGER NOT NULL DEFAULT 0 CHECK (played >= 0),  -- sqlite only
    won         INTEGER NOT NULL DEFAULT 0 CHECK (won >= 0),  -- sqlite only
    points      INTEGER NOT NULL DEFAULT 0,  -- sqlite only
    team_won    INTEGER NOT NULL DEFAULT 0 CHECK (team_won >= 0),  -- sqlite only
    rating      REAL NOT NULL DEFAULT 1000,  -- sqlite only
    PRIMARY KEY (guild_id, user_id, game)  -- sqlite only
) WITHOUT ROWID;  -- sqlite only
INSERT INTO standings_keyed (guild_id, user_id, game, played, won, points, team_won, rating) SELECT guild_id, user_id, game, played, won, points, team_won, rating FROM standings;  -- sqlite only
DROP TABLE standings;  -- sqlite only
ALTER TABLE standings_keyed RENAME TO standings;  -- sqlite only
CREATE INDEX standings_board ON standings (guild_id, game, won DESC, points DESC);  -- sqlite only
CREATE TABLE ratings_keyed (  -- sqlite only
    scope       TEXT NOT NULL,  -- sqlite only
    game        TEXT NOT NULL,  -- sqlite only
    user_id     TEXT NOT NULL,  -- sqlite only
    mu          REAL NOT NULL,  -- sqlite only
    sigma       REAL NOT NULL,  -- sqlite only
    ordinal     REAL NOT NULL,  -- sqlite only
    games       INTEGER NOT NULL DEFAULT 0,  -- sqlite only
    PRIMARY KEY (scope, game, user_id)  -- sqlite only
) WITHOUT ROWID;  -- sqlite only
INSERT INTO ratings_keyed (scope, game, user_id, mu, sigma, ordinal, games) SELECT scope, game, user_id, mu, sigma, ordinal, games FROM ratings;  -- sqlite only
DROP TABLE ratings;  -- sqlite only
ALTER TABLE ratings_keyed RENAME TO ratings;  -- sqlite only
CREATE INDEX ratings_board ON ratings (scope, game, ordinal DESC);  -- sqlite only
CREATE TABLE rating_changes_keyed (  -- sqlite only
    table_id    INTEGER NOT NULL REFERENCES finished_games (table_id) ON DELETE CASCADE,  -- sqlite only
    scope       TEXT NOT NULL,  -- sqlite only
    game        TEXT NOT NULL,  -- sqlite only
    user_id     TEXT NOT NULL,  -- sqlite only
    mu          REAL NOT NULL,  -- sqlite only
    sigma       REAL NOT NULL,  -- sqlite only
    ordinal     REAL NOT NULL,  -- sqlite only
    PRIMARY KEY (table_id, scope, user_id)  -- sqlite only
) WITHOUT ROWID;  -- sqlite only
INSERT INTO rating_changes_keyed (table_id, scope, game, user_id, mu, sigma, ordinal) SELECT table_id, scope, game, user_id, mu, sigma, ordinal FROM rating_changes;  -- sqlite only
DROP TABLE rating_changes;  -- sqlite only
ALTER TABLE rating_changes_keyed RENAME TO rating_changes;  -- sqlite only
CREATE INDEX rating_changes_user ON rating_changes (scope, game, user_id, table_id);  -- sqlite only
CREATE TABLE game_players_keyed (  -- sqlite only
    table_id    INTEGER NOT NULL REFERENCES finished_games (table_id) ON DELETE CASCADE,  -- sqlite only
    user_id     TEXT NOT NULL,  -- sqlite only
    PRIMARY KEY (user_id, table_id)  -- sqlite only
) WITHOUT ROWID;  -- sqlite only
INSERT INTO game_players_keyed (table_id, user_id) SELECT table_id, user_id FROM game_players;  -- sqlite only
DROP TABLE game_players;  -- sqlite only
ALTER TABLE game_players_keyed RENAME TO game_players;  -- sqlite only
CREATE TABLE player_stats_keyed (  -- sqlite only
    guild_id    TEXT NOT NULL,  -- sqlite only
    user_id     TEXT NOT NULL,  -- sqlite only
    game        TEXT NOT NULL,  -- sqlite only
    stat        TEXT NOT NULL,  -- sqlite only
    value       INTEGER NOT NULL DEFAULT 0,  -- sqlite only
    PRIMARY KEY (guild_id, user_id, game, stat)  -- sqlite only
) WITHOUT ROWID;  -- sqlite only
INSERT INTO player_stats_keyed (guild_id, user_id, game, stat, value) SELECT guild_id, user_id, game, stat, value FROM player_stats;  -- sqlite only
DROP TABLE player_stats;  -- sqlite only
ALTER TABLE player_stats_keyed RENAME TO player_stats;  -- sqlite only
CREATE INDEX player_stats_board ON player_stats (guild_id, game, stat, value DESC);  -- sqlite only
CREATE TABLE card_collections_keyed (  -- sqlite only
    user_id     TEXT NOT NULL,  -- sqlite only
    game        TEXT NOT NULL,  -- sqlite only
    card_id     TEXT NOT NULL,  -- sqlite only
    count       INTEGER NOT NULL CHECK (count >= 0),  -- sqlite only
    PRIMARY KEY (user_id, game, card_id)  -- sqlite only
) WITHOUT ROWID;  -- sqlite only
INSERT INTO card_collections_keyed (user_id, game, card_id, count) SELECT user_id, game, card_id, count FROM card_collections;  -- sqlite only
DROP TABLE card_collections;  -- sqlite only
ALTER TABLE card_collections_keyed RENAME TO card_collections;  -- sqlite only
CREATE TABLE card_stakes_keyed (  -- sqlite only
    table_id    INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,  -- sqlite only
    user_id     TEXT NOT NULL,  -- sqlite only
    game        TEXT NOT NULL,  -- sqlite only
    card_id     TEXT NOT NULL,  -- sqlite only
    count       INTEGER NOT NULL CHECK (count > 0),  -- sqlite only
    PRIMARY KEY (table_id, user_id, card_id)  -- sqlite only
) WITHOUT ROWID;  -- sqlite only
INSERT INTO card_stakes_keyed (table_id, user_id, game, card_id, count) SELECT table_id, user_id, game, card_id, count FROM card_stakes;  -- sqlite only
DROP TABLE card_stakes;  -- sqlite only
ALTER TABLE card_stakes_keyed RENAME TO card_stakes;  -- sqlite only
CREATE INDEX card_stakes_user ON card_stakes (user_id, game);  -- sqlite only
CREATE TABLE presented_keyed (  -- sqlite only
    table_id    INTEGER NOT NULL,  -- sqlite only
    slot        TEXT NOT NULL,  -- sqlite only
    message_id  TEXT,  -- sqlite only
    version     INTEGER NOT NULL DEFAULT 0,  -- sqlite only
    state       TEXT NOT NULL DEFAULT '{}',  -- sqlite only
    PRIMARY KEY (table_id, slot)  -- sqlite only
) WITHOUT ROWID;  -- sqlite only
INSERT INTO presented_keyed (table_id, slot, message_id, version, state) SELECT table_id, slot, message_id, version, state FROM presented;  -- sqlite only
DROP TABLE presented;  -- sqlite only
ALTER TABLE presented_keyed RENAME TO presented;  -- sqlite only
