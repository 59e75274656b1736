import { expect } from 'vitest';
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
import { recordCoverage } from './paths/coverage-recorder.ts';
import type { ModelDriver } from './paths/model-entry.ts';

const EMAIL = 'owner@homeowner.example';
const TOO_MANY = 'Too many reset codes were asked for this account: try again in an hour.';
const WRONG_CODE = 'The access code is wrong or has expired.';

/** Events and state checks that run one path of the password-reset model against the real machine. */
export function passwordResetModelDriver(): ModelDriver {
  const requestCode = controlledActor<void, { email: string }>();
  const changePassword = controlledActor<void, { email: string; code: string; newPassword: string }>();
  const signIn = controlledActor<void, { email: string; password: string }>();
  const actor = createActor(
    passwordResetMachine.provide({
      actors: { requestCode: requestCode.logic, changePassword: changePassword.logic, signIn: signIn.logic },
    }),
    { inspect: recordCoverage },
  ).start();
  const snap = () => actor.getSnapshot();
  const requests = () => requestCode.calls.length;
  let requestsBefore = 0;
  const emailForm = (error: string | null) => {
    expect(resetStep(snap())).toBe('email');
    expect(isResetBusy(snap())).toBe(false);
    expect(resetError(snap())).toBe(error);
  };
  const codeForm = (error: string | null) => {
    expect(resetStep(snap())).toBe('code');
    expect(isResetBusy(snap())).toBe(false);
    expect(resetEmail(snap())).toBe(EMAIL);
    expect(resetError(snap())).toBe(error);
  };
  return {
    events: {
      'reset.request': () => {
        requestsBefore = requests();
        // Typed with spaces around it, as people paste it.
        actor.send({ type: 'reset.request', email: ` ${EMAIL} ` });
      },
      'code.sent': () => requestCode.last().resolve(),
      'code.refused': () => requestCode.last().reject(new Error(TOO_MANY)),
      'code.lost': () => requestCode.last().reject(new Error('')),
      'reset.submit': () => {
        actor.send({ type: 'reset.submit', email: EMAIL, code: ' 482913 ', newPassword: 'New#Pass2026' });
      },
      'password.changed': () => changePassword.last().resolve(),
      'code.link': () => actor.send({ type: 'reset.haveCode', email: ` ${EMAIL} `, code: ' 482913 ' }),
      'signIn.works': () => signIn.last().resolve(),
      'signIn.fails': () => signIn.last().reject(new Error('The database is busy; try again')),
      'password.refused': () => changePassword.last().reject(new Error(WRONG_CODE)),
      'reset.cancel': async () => {
        actor.send({ type: 'reset.cancel' });
        // A call cut short may still answer: that late answer must change nothing.
        await Promise.all([
          ...requestCode.pending().map((c) => c.resolve()),
          ...changePassword.pending().map((c) => c.resolve()),
        ]);
      },
    },
    states: {
      email: () => emailForm(null),
      requesting: () => {
        expect(isResetBusy(snap())).toBe(true);
        expect(requests()).toBe(requestsBefore + 1);
        expect(requestCode.last().input).toEqual({ email: EMAIL });
      },
      emailRefused: () => emailForm(TOO_MANY),
      emailFailed: () => emailForm(GENERIC_RESET_ERROR),
      codeSent: () => codeForm(null),
      submitting: () => {
        expect(isResetBusy(snap())).toBe(true);
        expect(resetStep(snap())).toBe('code');
        expect(changePassword.last().input).toEqual({
          email: EMAIL,
          code: '482913',
          newPassword: 'New#Pass2026',
        });
      },
      codeRefused: () => codeForm(WRONG_CODE),
      done: () => {
        expect(resetStep(snap())).toBe('done');
        expect(resetError(snap())).toBeNull();
        expect(isSignedInAfterReset(snap())).toBe(false);
      },
      codeFromLink: () => {
        codeForm(null);
        expect(resetCode(snap())).toBe('482913');
      },
      signingIn: () => {
        expect(isResetBusy(snap())).toBe(true);
        expect(resetStep(snap())).toBe('code');
        // The new password signs in: the one just set, for the trimmed e-mail.
        expect(signIn.last().input).toEqual({ email: EMAIL, password: 'New#Pass2026' });
      },
      signedIn: () => {
        expect(resetStep(snap())).toBe('done');
        expect(isSignedInAfterReset(snap())).toBe(true);
      },
      cancelled: async () => {
        await waitFor(actor, (s) => s.matches('email'));
        emailForm(null);
        expect(resetEmail(snap())).toBeNull();
      },
    },
  };
}
