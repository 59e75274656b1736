/**
 * The server's time in milliseconds since the epoch, as `Date.now()` reads it. Rate-limit windows,
 * lockouts, one-time codes' expiry, refresh tokens' expiry and grace window, API keys' expiry and
 * token buckets, and invitations' expiry read it from the server's context (`ctx.now`), never
 * from `Date.now()`, and hand the times they compute to SQL as parameters, never comparing with
 * the database's own `now()`: so a test can set the time they are counted in
 * (`createServer({ now })`). Columns the database fills itself (`DEFAULT now()`)
 * are compared with its own `now()`.
 */
export type Clock = () => number;

/** The real time: every server's clock unless `createServer` is given another. */
export const systemClock: Clock = () => Date.now();
