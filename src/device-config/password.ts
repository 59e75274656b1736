import type { Codec } from '../codec/types.ts';

/** The 16 rawData items that hold a device's password, one character code each. */
export const PASSWORD_ITEMS: readonly string[] = Array.from(
  { length: 16 },
  (_, i) => `pass_${String(i).padStart(2, '0')}`,
);

/**
 * The device's 16 password codes from decoded raw values (missing items count as 0).
 * @example devicePasswordCodes(decoded.raw) // [48, 48, 48, 48, 0, …]
 */
export function devicePasswordCodes(raw: Readonly<Record<string, number>>): number[] {
  return PASSWORD_ITEMS.map((name) => raw[name] ?? 0);
}

/**
 * Whether an entered password matches the device's: both 16-code arrays equal in length and content.
 * @throws CodecError 'password-too-long' (more than 16 characters) or 'password-character' (code > 255).
 * @example checkPassword(codec, '1234', decoded.raw) // true when pass_00…pass_03 are 49…52 and the rest 0
 */
export function checkPassword(codec: Codec, entered: string, raw: Readonly<Record<string, number>>): boolean {
  return codec.passwordsEqual(codec.passwordCodes(entered), devicePasswordCodes(raw));
}
