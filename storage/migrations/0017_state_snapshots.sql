-- Issue 29: a move no longer rewrites its table's whole state. The state is stored every few
-- moves (``bot/service/snapshots.py``: at the start, every SNAPSHOT_EVERY moves, at a game's
-- end), the action row at every move as before; a loader takes the stored state and replays
-- the actions after it. ``state_version`` says which version the stored state is: NULL for a
-- row without a state (a lobby). A row written before this had its state at ``version`` (every
-- move wrote it): set so once, here (a table playing across the upgrade moves on from it).
ALTER TABLE tables ADD COLUMN state_version INTEGER;
UPDATE tables SET state_version = version WHERE state IS NOT NULL;
