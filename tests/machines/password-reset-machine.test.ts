import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { GENERIC_RESET_ERROR, passwordResetMachine } from '../../machines/auth/password-reset-machine.ts';
import { isResetBusy, resetError, resetStep } from '../../machines/auth/password-reset-selectors.ts';
import { controlledActor } from './fakes.ts';

function startReset() {
  const requestCode = controlledActor<void, { email: string }>();
  const changePassword = controlledActor<void, { email: string; code: string; newPassword: string }>();
  const actor = createActor(
    passwordResetMachine.provide({
      actors: { requestCode: requestCode.logic, changePassword: changePassword.logic },
    }),
  ).start();
  return { actor, requestCode, changePassword };
}

describe('password reset machine', () => {
  it('asks for a code, then sets the new password with e-mail, code and password', async () => {
    const { actor, requestCode, changePassword } = startReset();
    expect(resetStep(actor.getSnapshot())).toBe('email');
    actor.send({ type: 'reset.request', email: ' owner@homeowner.example ' });
    expect(isResetBusy(actor.getSnapshot())).toBe(true);
    expect(requestCode.last().input).toEqual({ email: 'owner@homeowner.example' });
    requestCode.last().resolve();
    await waitFor(actor, (s) => resetStep(s) === 'code');
    actor.send({
      type: 'reset.submit',
      email: 'owner@homeowner.example',
      code: ' 123456 ',
      newPassword: 'New#Pass2026',
    });
    expect(changePassword.last().input).toEqual({
      email: 'owner@homeowner.example',
      code: '123456',
      newPassword: 'New#Pass2026',
    });
    changePassword.last().resolve();
    await waitFor(actor, (s) => resetStep(s) === 'done');
  });

  it("stays on the code step with the server's message when the code is wrong", async () => {
    const { actor, requestCode, changePassword } = startReset();
    actor.send({ type: 'reset.request', email: 'owner@homeowner.example' });
    requestCode.last().resolve();
    await waitFor(actor, (s) => resetStep(s) === 'code');
    actor.send({
      type: 'reset.submit',
      email: 'owner@homeowner.example',
      code: '000000',
      newPassword: 'New#Pass2026',
    });
    changePassword.last().reject(new Error('The access code is wrong or has expired'));
    const s = await waitFor(actor, (x) => !isResetBusy(x));
    expect(resetStep(s)).toBe('code');
    expect(resetError(s)).toBe('The access code is wrong or has expired');
  });

  it('stays on the e-mail step with a generic message when the request fails silently', async () => {
    const { actor, requestCode } = startReset();
    actor.send({ type: 'reset.request', email: 'owner@homeowner.example' });
    requestCode.last().reject(undefined);
    const s = await waitFor(actor, (x) => !isResetBusy(x));
    expect(resetStep(s)).toBe('email');
    expect(resetError(s)).toBe(GENERIC_RESET_ERROR);
  });

  it('goes back to the e-mail step, forgetting the error, on cancel', async () => {
    const { actor, requestCode } = startReset();
    actor.send({ type: 'reset.request', email: 'owner@homeowner.example' });
    requestCode.last().reject(new Error('Too many requests'));
    await waitFor(actor, (s) => resetError(s) !== null);
    actor.send({ type: 'reset.cancel' });
    expect(resetStep(actor.getSnapshot())).toBe('email');
    expect(resetError(actor.getSnapshot())).toBeNull();
  });
});
