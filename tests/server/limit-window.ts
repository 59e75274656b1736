/**
 * Rate limits count in fixed windows (`server/auth/rate-limit.ts`). A test that sends a limit's
 * worth of calls and expects the next one refused must send them all in one window: when the
 * current window has less than `needMs` left, wait for the next one to begin.
 */
export async function inOneWindow(windowSeconds: number, needMs = 10_000): Promise<void> {
  const windowMs = windowSeconds * 1000;
  const left = windowMs - (Date.now() % windowMs);
  if (left < needMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
