/**
 * Configuration history in the exact order received: a sequence number taken at insert. Ordering
 * by `received_at` alone left records received within one clock tick in random (id) order, and
 * the embedded database's clock ticks once a millisecond. Records already stored are numbered in
 * the order they were received.
 */
export const HISTORY_SEQUENCE_SQL = `
  ALTER TABLE config_history ADD COLUMN seq bigint;
  UPDATE config_history h SET seq = o.n
    FROM (SELECT id, row_number() OVER (ORDER BY received_at, id) AS n FROM config_history) o
    WHERE h.id = o.id;
  CREATE SEQUENCE config_history_seq_seq OWNED BY config_history.seq;
  SELECT setval('config_history_seq_seq', COALESCE((SELECT max(seq) FROM config_history), 0) + 1, false);
  ALTER TABLE config_history
    ALTER COLUMN seq SET DEFAULT nextval('config_history_seq_seq'),
    ALTER COLUMN seq SET NOT NULL;
  CREATE UNIQUE INDEX config_history_seq_idx ON config_history (serial, seq DESC);
  DROP INDEX config_history_received_idx;
`;
