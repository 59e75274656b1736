import { z } from 'zod';

const email = z
  .string()
  .trim()
  .min(1, 'Enter your e-mail address')
  .max(254, 'That e-mail address is too long')
  .email('Enter a valid e-mail address');

/** Fields of the sign-in form, with the messages shown under each field. */
export const signInSchema = z.object({
  email,
  password: z.string().min(1, 'Enter your password').max(256, 'That password is too long'),
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
    .trim()
    .min(4, 'Enter the access code from the e-mail')
    .max(32, 'That access code is too long'),
  newPassword: z.string().min(8, 'Use at least 8 characters').max(256, 'That password is too long'),
});
export type ResetSubmitValues = z.infer<typeof resetSubmitSchema>;
