import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { isAuthenticated, isRefreshing } from '../../machines/auth/auth-selectors.ts';
import { NO_REFRESH_TOKEN } from '../../machines/auth/auth-setup.ts';
import { createTokenSession, SessionExpiredError } from '../../src/api/token-session.ts';
import { pair, startAuth } from '../machines/auth-harness.ts';

async function signedIn() {
  const h = startAuth();
  h.actor.send({ type: 'auth.login', email: 'installer@solarpros.example', password: 'Installer#2026' });
  h.configLogin.last().resolve(pair('cfg-a1', 'cfg-r1'));
  await waitFor(h.actor, () => h.monitoringLogin.pending().length > 0);
  h.monitoringLogin.last().resolve(pair('mon-a1', 'mon-r1'));
  await waitFor(h.actor, isAuthenticated);
  return h;
}

describe('token session', () => {
  it('gives five concurrent callers the token of one shared refresh', async () => {
    const h = await signedIn();
    const session = createTokenSession(h.actor);
    expect(session.getAccessToken('config')).toBe('cfg-a1');
    const waiting = Array.from({ length: 5 }, () => session.refresh('config'));
    await waitFor(h.actor, (s) => isRefreshing(s, 'config'));
    expect(h.refreshesOf('config')).toHaveLength(1);
    h.refresh.last().resolve(pair('cfg-a2', 'cfg-r2'));
    expect(await Promise.all(waiting)).toEqual(Array(5).fill('cfg-a2'));
    expect(session.getAccessToken('config')).toBe('cfg-a2');
  });

  it('rejects every waiting caller with the refresh failure, after logging out', async () => {
    const h = await signedIn();
    const session = createTokenSession(h.actor);
    const waiting = Array.from({ length: 3 }, () => session.refresh('monitoring').catch((e: unknown) => e));
    h.refresh.last().reject(new Error('Refresh token revoked'));
    const errors = await Promise.all(waiting);
    for (const error of errors) {
      expect(error).toBeInstanceOf(SessionExpiredError);
      expect((error as Error).message).toBe('Refresh token revoked');
    }
    expect(isAuthenticated(h.actor.getSnapshot())).toBe(false);
    expect(h.navigations).toEqual([{ to: '/login', replace: true, resume: true }]);
  });

  it(`rejects with '${NO_REFRESH_TOKEN}' when nothing is stored`, async () => {
    const h = startAuth();
    const error = await createTokenSession(h.actor)
      .refresh('config')
      .catch((e: unknown) => e);
    expect((error as Error).message).toBe(NO_REFRESH_TOKEN);
  });
});
