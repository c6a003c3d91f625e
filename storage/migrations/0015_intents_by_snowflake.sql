-- Issue 29: a click's intent appended to the intents' b-tree without splitting its last pages.
-- Interaction ids are Discord's snowflakes, which grow with time, so each new intent goes to the
-- end of the b-tree. Keyed by their text (WITHOUT ROWID, 0013), a full last page was split by
-- SQLite's general balance, which shares the cells out over it and its two left siblings and
-- writes all three and their parent; the last page was then left a third full, so it split again
-- within a few intents: 1.64-1.77 pages written per intent (bench/storage_per_move.py). A rowid
-- table whose INTEGER PRIMARY KEY is the snowflake itself is still one b-tree, and SQLite
-- appends to the end of such a table by starting a new page holding only the new row (writing
-- it and the parent): 1.1 pages per intent. The repository passes the id as text (SQLite stores
-- it as the integer: the column's affinity) and reads it back as text. An intent whose id is not
-- a snowflake's digits (the text of an integer) cannot be kept under this key: none comes from
-- Discord, only from tests; such a row is dropped (an intent answers one click, within 15
-- minutes). PostgreSQL keeps its table (a heap and its key's index either way).
CREATE TABLE intents_by_id (  -- sqlite only
    interaction_id  INTEGER PRIMARY KEY,  -- sqlite only
    application_id  TEXT NOT NULL,  -- sqlite only
    token           TEXT NOT NULL,  -- sqlite only
    table_id        INTEGER NOT NULL,  -- sqlite only
    seat            TEXT NOT NULL,  -- sqlite only
    version         INTEGER,  -- sqlite only
    action          TEXT NOT NULL,  -- sqlite only
    locale          TEXT NOT NULL,  -- sqlite only
    ack             TEXT NOT NULL DEFAULT 'update',  -- sqlite only
    created_at      REAL NOT NULL,  -- sqlite only
    done            INTEGER NOT NULL DEFAULT 0,  -- sqlite only
    answered        INTEGER NOT NULL DEFAULT 0,  -- sqlite only
    origin          TEXT NOT NULL DEFAULT ''  -- sqlite only
);  -- sqlite only
INSERT INTO intents_by_id SELECT CAST(interaction_id AS INTEGER), application_id, token, table_id, seat, version, action, locale, ack, created_at, done, answered, origin FROM intents WHERE CAST(CAST(interaction_id AS INTEGER) AS TEXT) = interaction_id;  -- sqlite only
DROP TABLE intents;  -- sqlite only
ALTER TABLE intents_by_id RENAME TO intents;  -- sqlite only
