import { ApiError } from '../http/errors.ts';

/**
 * Run an insert or update of a user and turn a duplicate e-mail (unique violation) into a 409.
 * @throws {ApiError} 409 `email_taken`.
 */
export async function uniqueEmail<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if ((error as { code?: string }).code === '23505') {
      throw new ApiError(409, 'email_taken', 'A user with this e-mail exists already', 'main_email');
    }
    throw error;
  }
}
