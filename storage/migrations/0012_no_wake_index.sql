-- Issue 29: tables_wake indexed each playing table's next wake-up, which every move rewrites,
-- yet no query reads by it (start-up reads wake_at of the open tables through tables_open).
-- Each move paid an index update for nothing, and on PostgreSQL a change of an indexed column
-- also rules out a HOT update (every index of the row gets a new entry).
DROP INDEX tables_wake;
