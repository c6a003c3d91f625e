-- PostgreSQL twin of ../0007_threads.sql.
-- A table in a thread of its own (issue 28): ``channel_id`` is where the table lives (the thread
-- once it exists), ``parent_channel_id`` the text channel /play was typed in and
-- ``parent_message_id`` the one short line there (the thread starts from it and so has its id;
-- the result is edited into it). Tables bound for a thread are not held to one open table per
-- channel: any number of them may open in one channel, each in its own thread.
ALTER TABLE tables ADD COLUMN parent_channel_id TEXT;
ALTER TABLE tables ADD COLUMN parent_message_id TEXT;
DROP INDEX tables_one_active_per_channel;
CREATE UNIQUE INDEX tables_one_active_per_channel
    ON tables (channel_id) WHERE status IN ('lobby', 'playing') AND parent_channel_id IS NULL;
