/**
 * Migration 28: each 5-minute step counts the readings merged into it (`telemetry_5m.readings`).
 *
 * The ingest merges a step's readings into its row every few seconds rather than one batch at a
 * time, so a process that stops without warning leaves readings stored but not merged. When a step
 * is folded into its hour and day, its count is held against the raw rows of the step, and a step
 * that differs is worked out again from them (rollup-fold.ts). Steps stored before the count have
 * none (null), and are folded as they are.
 */
export const STEP_READINGS_SQL = `
  ALTER TABLE telemetry_5m ADD COLUMN readings integer;
`;
