/**
 * Configuration history is read in the order the service received it (`received_at`), page by
 * page; `written_at` is the app's clock and only shown. The old index ordered by `written_at`.
 */
export const HISTORY_ORDER_SQL = `
  CREATE INDEX config_history_received_idx ON config_history (serial, received_at DESC, id DESC);
  DROP INDEX config_history_serial_idx;
`;
