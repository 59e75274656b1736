import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { GENERIC_RESET_ERROR, passwordResetMachine } from '../../machines/auth/password-reset-machine.ts';
import {
  isResetBusy,
  isSignedInAfterReset,
  resetCode,
  resetEmail,
  resetError,
  resetStep,
} from '../../machines/auth/password-reset-selectors.ts';
import { controlledActor } from './fakes.ts';

function startReset() {
  const requestCode = controlledActor<void, { email: string }>();
  const changePassword = controlledActor<void, { email: string; code: string; newPassword: string }>();
  const signIn = controlledActor<void, { email: string; password: string }>();
  const remembered: (string | null)[] = [];
  const actor = createActor(
    passwordResetMachine.provide({
      actors: { requestCode: requestCode.logic, changePassword: changePassword.logic, signIn: signIn.logic },
      actions: { rememberCodeStep: (_, { email }) => remembered.push(email) },
    }),
  ).start();
  return { actor, requestCode, changePassword, signIn, remembered };
}

describe('password reset machine', () => {
  it('asks for a code, then sets the new password with e-mail, code and password', async () => {
    const { actor, requestCode, changePassword, signIn } = startReset();
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
    await changePassword.last().resolve();
    expect(resetStep(actor.getSnapshot())).toBe('code');
    await signIn.last().resolve();
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

  it('goes straight to the code step with "I have a code", filled in from a mail\'s link', () => {
    const { actor, remembered } = startReset();
    actor.send({ type: 'reset.haveCode', email: ' new@roof.example ', code: ' 12345678 ' });
    const s = actor.getSnapshot();
    expect(resetStep(s)).toBe('code');
    expect(resetEmail(s)).toBe('new@roof.example');
    expect(resetCode(s)).toBe('12345678');
    // The open step is remembered, so that a reload comes back to it.
    expect(remembered).toEqual(['new@roof.example']);
  });

  it('signs in with the new password once it is set, and forgets the open step', async () => {
    const { actor, changePassword, signIn, remembered } = startReset();
    actor.send({ type: 'reset.haveCode' });
    expect(resetStep(actor.getSnapshot())).toBe('code');
    actor.send({
      type: 'reset.submit',
      email: 'new@roof.example',
      code: '12345678',
      newPassword: 'Roof-top#2026',
    });
    await changePassword.last().resolve();
    expect(signIn.last().input).toEqual({ email: 'new@roof.example', password: 'Roof-top#2026' });
    expect(isResetBusy(actor.getSnapshot())).toBe(true);
    await signIn.last().resolve();
    const s = await waitFor(actor, isSignedInAfterReset);
    expect(s.context.newPassword).toBeNull();
    expect(remembered.at(-1)).toBeNull();
  });

  it('asks the person to sign in when the sign-in after the change fails', async () => {
    const { actor, changePassword, signIn } = startReset();
    actor.send({ type: 'reset.haveCode', email: 'new@roof.example' });
    actor.send({
      type: 'reset.submit',
      email: 'new@roof.example',
      code: '12345678',
      newPassword: 'Roof-top#2026',
    });
    await changePassword.last().resolve();
    await signIn.last().reject(new Error('The monitoring service is not answering'));
    const s = await waitFor(actor, (x) => resetStep(x) === 'done');
    expect(isSignedInAfterReset(s)).toBe(false);
    expect(s.context.newPassword).toBeNull();
  });
});
