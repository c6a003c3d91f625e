-- Whether a player's place is known (issue 25, a new channel player's first game): 1 once they
-- chose where they play (the question a new player gets when they join a lobby, "here" or "by
-- DM") or played from either place; 0 for a player the bot has not asked yet. Only a player
-- whose place is unknown is asked. A player who already plays from the tables is known.
ALTER TABLE players ADD COLUMN place_known INTEGER NOT NULL DEFAULT 0;
UPDATE players SET place_known = 1 WHERE plays_from_tables = 1;
