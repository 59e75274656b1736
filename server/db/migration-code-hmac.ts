/**
 * One-time codes are stored as HMAC-SHA-256 under a key kept outside the database from this
 * migration on. Codes stored before it (a plain SHA-256 of user id and code) can no longer be
 * checked: they are expired, and their holders ask for a new one (a reset code lived 30 minutes,
 * an access code 3 days).
 */
export const CODE_HMAC_SQL = `
  UPDATE one_time_codes SET used_at = now() WHERE used_at IS NULL;
`;
