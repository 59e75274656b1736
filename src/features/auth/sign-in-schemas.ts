// zod/mini rather than zod: the sign-in screen is the first thing a phone loads, and the mini
// build keeps only the checks used here (the messages and their order are the same).
import * as z from 'zod/mini';

const email = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, 'Enter your e-mail address'),
    z.maxLength(254, 'That e-mail address is too long'),
    z.email('Enter a valid e-mail address'),
  );

/** Fields of the sign-in form, with the messages shown under each field. */
export const signInSchema = z.object({
  email,
  password: z
    .string()
    .check(z.minLength(1, 'Enter your password'), z.maxLength(256, 'That password is too long')),
});
export type SignInValues = z.infer<typeof signInSchema>;

/** First step of a password reset: where to send the access code. */
export const resetRequestSchema = z.object({ email });
export type ResetRequestValues = z.infer<typeof resetRequestSchema>;

/** Second step: the code from the e-mail and the new password (limits as the service checks them). */
export const resetSubmitSchema = z.object({
  email,
  code: z
    .string()
    .check(
      z.trim(),
      z.minLength(4, 'Enter the access code from the e-mail'),
      z.maxLength(32, 'That access code is too long'),
    ),
  newPassword: z
    .string()
    .check(z.minLength(8, 'Use at least 8 characters'), z.maxLength(256, 'That password is too long')),
});
export type ResetSubmitValues = z.infer<typeof resetSubmitSchema>;
