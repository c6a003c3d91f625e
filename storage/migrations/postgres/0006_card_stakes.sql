-- PostgreSQL twin of ../0006_card_stakes.sql.
CREATE TABLE card_stakes (
    table_id    BIGINT NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
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
FROM tables AS t
CROSS JOIN LATERAL jsonb_array_elements_text(t.state::jsonb -> 'seats')
    WITH ORDINALITY AS seat (value, n)
CROSS JOIN LATERAL jsonb_array_elements_text(t.state::jsonb -> 'originals' -> (seat.n::int - 1))
    AS card (value)
WHERE t.game = 'triad' AND t.status = 'playing' AND t.state IS NOT NULL
  AND seat.value NOT LIKE 'cpu%'
GROUP BY t.id, seat.value, card.value;
