-- PostgreSQL twin of ../0011_anyscope_notices.sql.
-- What a person has been told once (issue 30.1): the note on their first command where the
-- app is installed to them alone (a group DM, a server without the bot), kept per user so it
-- is said once. ``notice`` names the note, so a later one needs no migration of its own.
CREATE TABLE user_notices (
    user_id     TEXT NOT NULL,
    notice      TEXT NOT NULL,
    told_at     TEXT NOT NULL DEFAULT mesa_utc_now(),
    PRIMARY KEY (user_id, notice)
);
