-- Cards at stake (Triple Triad): the copies each player brought to a game in progress, written
-- in the transaction that starts the game, so that every process counts a player's free copies
-- from the database (collection minus the stakes of their tables still playing) and two
-- processes cannot both stake the last copy. Rows of ended tables are deleted with the end.
CREATE TABLE card_stakes (
    table_id    INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    user_id     TEXT NOT NULL,
    game        TEXT NOT NULL,
    card_id     TEXT NOT NULL,
    count       INTEGER NOT NULL CHECK (count > 0),
    PRIMARY KEY (table_id, user_id, card_id)
);
CREATE INDEX card_stakes_user ON card_stakes (user_id, game);

-- Games already in progress stake their players' original five (computer seats hold none).
INSERT INTO card_stakes (table_id, user_id, game, card_id, count)
SELECT t.id, seat.value, 'triad', card.value, COUNT(*)
FROM tables AS t,  -- sqlite only
     json_each(t.state, '$.seats') AS seat,  -- sqlite only
     json_each(t.state, '$.originals[' || seat.key || ']') AS card  -- sqlite only
--postgres: FROM tables AS t
--postgres: CROSS JOIN LATERAL jsonb_array_elements_text(t.state::jsonb -> 'seats')
--postgres:     WITH ORDINALITY AS seat (value, n)
--postgres: CROSS JOIN LATERAL jsonb_array_elements_text(t.state::jsonb -> 'originals' -> (seat.n::int - 1))
--postgres:     AS card (value)
WHERE t.game = 'triad' AND t.status = 'playing' AND t.state IS NOT NULL
  AND seat.value NOT LIKE 'cpu%'
GROUP BY t.id, seat.value, card.value;
