import { createMachine } from 'xstate';
import { passwordResetMachine } from '../../../machines/auth/password-reset-machine.ts';
import { passwordResetModelDriver } from '../password-reset-model-driver.ts';
import { defineModel } from '../paths/model-entry.ts';

/** Abstract model of "Forgot password": the code asked for and sent or refused, the new password set or refused, giving up. */
const model = createMachine({
  id: 'passwordResetModel',
  initial: 'email',
  states: {
    email: { on: { 'reset.request': 'requesting', 'code.link': 'codeFromLink' } },
    requesting: {
      on: {
        'code.sent': 'codeSent',
        'code.refused': 'emailRefused',
        'code.lost': 'emailFailed',
        'reset.cancel': 'cancelled',
      },
    },
    emailRefused: { on: { 'reset.request': 'requesting' } },
    emailFailed: { on: { 'reset.request': 'requesting' } },
    codeSent: {
      on: {
        'reset.submit': 'submitting',
        'reset.request': 'requesting',
        'reset.cancel': 'cancelled',
        'code.link': 'codeFromLink',
      },
    },
    codeFromLink: { on: { 'reset.submit': 'submitting', 'code.link': 'codeFromLink' } },
    submitting: {
      on: { 'password.changed': 'signingIn', 'password.refused': 'codeRefused', 'reset.cancel': 'cancelled' },
    },
    signingIn: {
      on: { 'signIn.works': 'signedIn', 'signIn.fails': 'done' },
    },
    codeRefused: { on: { 'reset.submit': 'submitting' } },
    done: { on: { 'reset.cancel': 'cancelled' } },
    signedIn: {},
    cancelled: {},
  },
});

export default defineModel({
  name: 'password-reset',
  title: 'Password reset ("Forgot password")',
  source: 'machines/auth/password-reset-machine.ts',
  about:
    "Asking for an access code by e-mail, then setting a new password with the e-mail, the code and the new password; a refusal at either step stays on that step with the service's message.",
  machine: passwordResetMachine,
  model,
  driver: passwordResetModelDriver,
  events: {
    'reset.request': 'The person types their e-mail (with spaces around it) and asks for an access code.',
    'code.sent': 'The configuration service accepts and e-mails the code.',
    'code.refused': 'The configuration service refuses: too many codes were asked for this account.',
    'code.lost': 'The request fails without a message from the service (the network dropped).',
    'reset.submit': 'The person types the code (with spaces) and a new password and submits.',
    'password.changed': 'The configuration service accepts the code and sets the new password.',
    'password.refused': 'The configuration service refuses: the code is wrong or expired.',
    'reset.cancel': 'The person goes back to the start (and a call still under way answers late).',
    'code.link': "The person opens the mail's link, which carries the e-mail and the code (with spaces).",
    'signIn.works': 'The new password signs the person in.',
    'signIn.fails': 'Signing in with the new password fails (the service is busy).',
  },
  states: {
    email: 'The e-mail form, no error.',
    requesting: 'Asking for a code for the trimmed e-mail; the form is busy.',
    emailRefused: "The e-mail form again, with the service's message.",
    emailFailed: 'The e-mail form again, with "The password could not be reset. Please try again."',
    codeSent: 'The code form, the e-mail prefilled, no error.',
    submitting: 'Setting the new password with the trimmed code; the form is busy.',
    codeRefused: "The code form again, with the service's message.",
    done: 'The success message: the new password is set; signing in is left to the person.',
    codeFromLink: 'The code form filled from the link: its e-mail and code, trimmed, no error.',
    signingIn: 'The new password is set; signing in with it, the form still busy.',
    signedIn: 'The success message, and the person is signed in with the new password.',
    cancelled: 'The e-mail form, empty; the late answer changed nothing.',
  },
});
