import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import {
  currentEmail,
  currentRole,
  currentUserName,
  isAuthenticated,
  isCompanyStaff,
} from '../../machines/auth/auth-selectors.ts';
import { pair, startAuth } from './auth-harness.ts';
import { fakeJwt } from './fakes.ts';

async function signedInAs(email: string, claims: Record<string, unknown>) {
  const h = startAuth();
  h.actor.send({ type: 'auth.login', email, password: 'secret-pass' });
  h.configLogin.last().resolve(pair(fakeJwt({ sub: '1', email, ...claims }), 'r'));
  await waitFor(h.actor, () => h.monitoringLogin.pending().length > 0);
  h.monitoringLogin.last().resolve(pair('mon', 'r2'));
  return waitFor(h.actor, isAuthenticated);
}

describe('auth selectors', () => {
  it("names the user from the configuration token's name claim and reads the role", async () => {
    const s = await signedInAs('admin@fleet.example', { name: 'Avery Admin', role: 'admin' });
    expect(currentUserName(s)).toBe('Avery Admin');
    expect(currentRole(s)).toBe('admin');
    expect(currentEmail(s)).toBe('admin@fleet.example');
  });

  it('falls back to the e-mail when the token has no name, and to no role for an unknown one', async () => {
    const s = await signedInAs('owner@homeowner.example', { role: 'superuser' });
    expect(currentUserName(s)).toBe('owner@homeowner.example');
    expect(currentRole(s)).toBeNull();
  });

  it('counts company staff by e-mail domain, case-insensitively', async () => {
    const s = await signedInAs('Admin@FLEET.Example', { name: 'A', role: 'admin' });
    expect(isCompanyStaff(s, 'fleet.example')).toBe(true);
    expect(isCompanyStaff(s, '@Fleet.Example')).toBe(true);
    expect(isCompanyStaff(s, 'example')).toBe(false);
  });

  it('does not count a look-alike domain or a signed-out user as staff', async () => {
    const s = await signedInAs('mallory@notfleet.example', { name: 'M', role: 'installer' });
    expect(isCompanyStaff(s, 'fleet.example')).toBe(false);
    const signedOut = startAuth({ email: 'admin@fleet.example' }).actor.getSnapshot();
    expect(isCompanyStaff(signedOut, 'fleet.example')).toBe(false);
  });
});
