-- PostgreSQL twin of ../0008_v2answers_thread_archive.sql.
-- When a finished (or closed) table's thread is to be archived (issue 28): the end of its
-- rematch window, as Unix seconds. Stored so that a restart re-arms the archive instead of
-- leaving it to Discord's 60-minute auto-archive; cleared once archived or when a rematch opens.
ALTER TABLE tables ADD COLUMN thread_archive_at DOUBLE PRECISION;
