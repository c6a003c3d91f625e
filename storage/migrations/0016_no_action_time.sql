-- Issue 29: a move's row no longer records when it was written. ``actions.created_at`` was
-- filled on every move by its default (SQLite formatting the clock's time, PostgreSQL calling
-- mesa_utc_now()) and read by nothing: replays, deal exports and the history read a move's
-- seat, action and version; a game's times are the table's ``created_at``/``updated_at`` and
-- ``finished_games.finished_at``. Without it a move costs the writer ~5.6k instructions and the
-- actions b-tree a third of its row's bytes less. Both backends drop the column in place:
-- PostgreSQL marks it dropped (no rewrite); SQLite (3.35+, as RETURNING needs) rewrites each
-- row once, ~0.4 s of CPU per million moves (bench/migration_time.py).
ALTER TABLE actions DROP COLUMN created_at;
