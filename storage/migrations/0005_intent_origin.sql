-- Which process recorded an intent: several shard processes share one database, and after a
-- restart a process resolves only the clicks its own predecessor left open (another live
-- process answers its own). '' for a single process and for intents recorded before this.
ALTER TABLE intents ADD COLUMN origin TEXT NOT NULL DEFAULT '';
