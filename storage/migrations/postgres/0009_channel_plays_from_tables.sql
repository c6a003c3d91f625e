-- PostgreSQL twin of ../0008_channel_plays_from_tables.sql.
-- Where a player plays (issue 25, channel play): 1 once their last move was made from a table's
-- ephemeral "Ver mi mano" hand, 0 once they clicked a DM hand again. A player who plays from
-- the tables gets no DM hand at any table; the channel's turn mention names them instead.
ALTER TABLE players ADD COLUMN plays_from_tables INTEGER NOT NULL DEFAULT 0;
