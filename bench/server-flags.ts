/**
 * The Node flags the server runs with in production (`npm start`, `start:config`,
 * `start:monitoring` in package.json), so a bench measures the process as deployed: a young
 * generation of 64 MB a half (V8's default is 16), since a telemetry batch's readings and what
 * is built from them live about a second, and a young generation that small copied them out of it
 * at every scavenge and promoted many into the old one.
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=64'];
