/**
 * Migration 5: what ends sessions and how mail leaves.
 * - `users.sessions_valid_after`: access tokens issued before it no longer pass (a password or
 *   e-mail change ends every session on both services).
 * - `refresh_tokens.successor_sealed`: the successor of a spent refresh token, sealed with a key
 *   only the spent token's holder can derive, so a second tab presenting the just-rotated token
 *   within the grace window gets the same successor instead of revoking the family.
 * - The outbox becomes a queue with attempts, backoff and a `failed` state. A message carrying a
 *   one-time code names the code's user and purpose; the worker creates the code when it sends, so
 *   no code ever rests in the table. Codes written into bodies before this migration are blanked.
 */
export const SESSIONS_OUTBOX_SQL = `
      ALTER TABLE users ADD COLUMN sessions_valid_after timestamptz;
      ALTER TABLE refresh_tokens ADD COLUMN successor_sealed text;
      CREATE INDEX refresh_tokens_user_idx ON refresh_tokens (user_id) WHERE revoked_at IS NULL;

      ALTER TABLE outbox
        ADD COLUMN status text NOT NULL DEFAULT 'pending'
          CHECK (status IN ('pending', 'sending', 'sent', 'failed')),
        ADD COLUMN attempts integer NOT NULL DEFAULT 0,
        ADD COLUMN next_attempt_at timestamptz NOT NULL DEFAULT now(),
        ADD COLUMN last_error text,
        ADD COLUMN code_user_id integer REFERENCES users(id) ON DELETE CASCADE,
        ADD COLUMN code_purpose text CHECK (code_purpose IN ('reset', 'access'));
      UPDATE outbox SET status = 'sent' WHERE sent_at IS NOT NULL;
      UPDATE outbox SET status = 'failed', last_error = 'written before the mail queue; its code was removed'
        WHERE sent_at IS NULL;
      UPDATE outbox SET body = regexp_replace(body, '[0-9]{8}', '########', 'g');
      CREATE INDEX outbox_due_idx ON outbox (next_attempt_at) WHERE status IN ('pending', 'sending');
`;
