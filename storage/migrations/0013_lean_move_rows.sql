-- Issue 29: fewer b-trees written per move. A person's move inserted into five b-trees besides
-- its table's row: the actions row and its primary key's own index, the intent row, its primary
-- key's index and ``intents_open``. In SQLite a table whose primary key is not an INTEGER keeps
-- the rows and the key apart; WITHOUT ROWID keeps the rows in the key's b-tree (one b-tree, one
-- page written per row instead of two). ``intents_open`` indexed every intent (a running
-- process never marks one answered: only the start-up's recovery does), and only that
-- recovery's one read used it; the pruning reads by ``created_at`` without it (as before).
-- PostgreSQL keeps its tables (a heap and its indexes either way) and drops the index too.
DROP INDEX intents_open;
CREATE TABLE intents_keyed (  -- sqlite only
    interaction_id  TEXT PRIMARY KEY,  -- sqlite only
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
) WITHOUT ROWID;  -- sqlite only
INSERT INTO intents_keyed SELECT interaction_id, application_id, token, table_id, seat, version, action, locale, ack, created_at, done, answered, origin FROM intents;  -- sqlite only
DROP TABLE intents;  -- sqlite only
ALTER TABLE intents_keyed RENAME TO intents;  -- sqlite only
CREATE TABLE actions_keyed (  -- sqlite only
    table_id    INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,  -- sqlite only
    version     INTEGER NOT NULL,  -- sqlite only
    seat        TEXT NOT NULL,  -- sqlite only
    action      TEXT NOT NULL,  -- sqlite only
    by_timer    INTEGER NOT NULL DEFAULT 0,  -- sqlite only
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),  -- sqlite only
    PRIMARY KEY (table_id, version)  -- sqlite only
) WITHOUT ROWID;  -- sqlite only
INSERT INTO actions_keyed SELECT table_id, version, seat, action, by_timer, created_at FROM actions;  -- sqlite only
DROP TABLE actions;  -- sqlite only
ALTER TABLE actions_keyed RENAME TO actions;  -- sqlite only
