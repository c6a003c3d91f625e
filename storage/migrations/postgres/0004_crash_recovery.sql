-- PostgreSQL twin of ../0004_crash_recovery.sql.
CREATE TABLE intents (
    interaction_id  TEXT PRIMARY KEY,
    application_id  TEXT NOT NULL,
    token           TEXT NOT NULL,           -- the interaction's webhook token (15 minutes)
    table_id        BIGINT NOT NULL,
    seat            TEXT NOT NULL,
    version         INTEGER,                 -- the table version the player saw
    action          TEXT NOT NULL,           -- the action's canonical text
    locale          TEXT NOT NULL,
    ack             TEXT NOT NULL DEFAULT 'update',  -- update (type 6) or thinking (type 5)
    created_at      DOUBLE PRECISION NOT NULL,       -- unix seconds
    done            INTEGER NOT NULL DEFAULT 0,      -- the move committed (or was refused)
    answered        INTEGER NOT NULL DEFAULT 0       -- the interaction got its final answer
);
CREATE INDEX intents_open ON intents (created_at) WHERE answered = 0;

CREATE TABLE presented (
    table_id    BIGINT NOT NULL,
    slot        TEXT NOT NULL,               -- '' public message, '@mention' turn mention, else a seat
    message_id  TEXT,
    version     INTEGER NOT NULL DEFAULT 0,  -- the table version the message shows
    state       TEXT NOT NULL DEFAULT '{}',  -- JSON: digest, image, waiting, clickable, older, seats
    PRIMARY KEY (table_id, slot)
);
-- Tables open before this migration are taken as shown (their message was edited on every move).
INSERT INTO presented (table_id, slot, message_id, version)
    SELECT id, '', message_id, version FROM tables WHERE status IN ('lobby', 'playing');

ALTER TABLE tables ADD COLUMN wake_at DOUBLE PRECISION;  -- unix seconds; NULL: nothing scheduled
CREATE INDEX tables_wake ON tables (wake_at) WHERE status = 'playing';

ALTER TABLE players ADD COLUMN dms_retry_at DOUBLE PRECISION;  -- closed DMs: when to try again
ALTER TABLE players ADD COLUMN dms_failures INTEGER NOT NULL DEFAULT 0;
