/** Bad input on the command line (bad hex, unreadable file, invalid descriptor): exit code 2. */
export class InputError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'InputError';
  }
}
