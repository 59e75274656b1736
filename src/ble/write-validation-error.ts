import type { FieldError } from '../device-config/encode-form.ts';

/** Form values that cannot be written, each named by its field; nothing is sent. */
export class WriteValidationError extends Error {
  constructor(readonly errors: FieldError[]) {
    super(errors.map((e) => e.message).join('\n'));
    this.name = 'WriteValidationError';
  }
}
