import { CODE_TTL_SECONDS, type CodePurpose } from '../auth/one-time-codes.ts';
import type { MailMessage } from './mailer.ts';

/** The app's screen that a code link opens: "Choose your password", on the sign-in route. */
export const CODE_STEP_PATH = '/login?step=code';

/**
 * The link of a code mail: the app's "Choose your password" step with the e-mail and the code
 * filled in. Both ride in the fragment, which a browser never sends to a server, so neither ever
 * reaches a server's or a proxy's request log. `{code}` is replaced when the message is sent.
 * @example codeLink('https://fleet.example.com', 'a@b.example')
 * // 'https://fleet.example.com/login?step=code#email=a%40b.example&code={code}'
 */
export function codeLink(appUrl: string, email: string): string {
  return `${appUrl}${CODE_STEP_PATH}#email=${encodeURIComponent(email)}&code={code}`;
}

const lifetime = (purpose: CodePurpose) => {
  const minutes = CODE_TTL_SECONDS[purpose] / 60;
  return minutes % 1440 === 0 ? `${minutes / 1440} days` : `${minutes} minutes`;
};

/**
 * A mail carrying a one-time code (`{code}` in the body, made when it is sent): the code, a link
 * that opens "Choose your password" filled in, and the same steps in words for whoever would
 * rather type, or reads the mail on another device.
 */
export function codeMail(
  appUrl: string,
  user: { id: number; main_email: string },
  purpose: CodePurpose,
): MailMessage {
  const why =
    purpose === 'reset'
      ? `It works once, within ${lifetime(purpose)}, to choose a new password. If you did not ask for it, ignore this mail: your password stays as it is.`
      : `It works once, within ${lifetime(purpose)}, to choose your password and sign in.`;
  return {
    to: user.main_email,
    subject: 'Your Fleet Manager access code',
    body: [
      'Your access code is {code}.',
      why,
      '',
      'The quickest way: open this link. It opens "Choose your password" with your e-mail and the code filled in.',
      codeLink(appUrl, user.main_email),
      '',
      'Or step by step:',
      `1. Open ${appUrl}/login`,
      '2. Choose "I have a code".',
      `3. Type your e-mail (${user.main_email}) and the access code {code}.`,
      '4. Choose a password of at least 8 characters, then "Set password and sign in".',
      '',
      purpose === 'reset'
        ? 'If the code has run out, choose "Forgot password?" on the sign-in page for a new one.'
        : 'If the code has run out, choose "Forgot password?" on the sign-in page, or ask whoever made your account, for a new one.',
    ].join('\n'),
    code: { userId: user.id, purpose },
  };
}
