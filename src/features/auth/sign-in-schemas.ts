// valibot rather than zod: the sign-in screen is the first thing a phone loads, and valibot ships
// only the checks used here (see contracts/app-config.ts). Checks run in order; the form shows
// the first message of a field.
import * as v from 'valibot';

const email = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, 'Enter your e-mail address'),
  v.maxLength(254, 'That e-mail address is too long'),
  v.email('Enter a valid e-mail address'),
);

/** Fields of the sign-in form, with the messages shown under each field. */
export const signInSchema = v.object({
  email,
  password: v.pipe(
    v.string(),
    v.minLength(1, 'Enter your password'),
    v.maxLength(256, 'That password is too long'),
  ),
});
export type SignInValues = v.InferOutput<typeof signInSchema>;

/** First step of a password reset: where to send the access code. */
export const resetRequestSchema = v.object({ email });
export type ResetRequestValues = v.InferOutput<typeof resetRequestSchema>;

/** Second step: the code from the e-mail and the new password (limits as the service checks them). */
export const resetSubmitSchema = v.object({
  email,
  code: v.pipe(
    v.string(),
    v.trim(),
    v.minLength(4, 'Enter the access code from the e-mail'),
    v.maxLength(32, 'That access code is too long'),
  ),
  newPassword: v.pipe(
    v.string(),
    v.minLength(8, 'Use at least 8 characters'),
    v.maxLength(256, 'That password is too long'),
  ),
});
export type ResetSubmitValues = v.InferOutput<typeof resetSubmitSchema>;
