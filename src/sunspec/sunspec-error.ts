export type SunSpecErrorCode =
  | 'bad-definition'
  | 'bad-dump'
  | 'no-marker'
  | 'truncated'
  | 'bad-value'
  | 'bad-changes'
  | 'bad-request';

/** Every bad input to the SunSpec library is one of these; `message` says what is wrong, by name. */
export class SunSpecError extends Error {
  readonly code: SunSpecErrorCode;

  constructor(code: SunSpecErrorCode, message: string) {
    super(message);
    this.name = 'SunSpecError';
    this.code = code;
  }
}
