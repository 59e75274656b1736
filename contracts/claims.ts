import { z } from 'zod';
import { serialNumberPattern } from './catalogue.ts';

/**
 * Claim codes: every device's label carries its serial and a claim code, also as a QR code. The
 * service knows each serial's code from a manufacturing list (as a hash only); whoever holds the
 * device reads both from its label, and the pair claims it for a site.
 *
 * A code is 16 characters of Crockford's base 32 (80 random bits), printed in groups of four:
 * `K7M2-Q9XD-4TRW-8HNB`. People type it as they read it: case, spaces and dashes do not matter,
 * and the letters O, I and L read as 0, 1 and 1, as Crockford's alphabet does.
 */

/** The characters of a claim code: digits and capital letters but I, L, O and U. */
export const CLAIM_CODE_PATTERN = /^[0-9A-HJKMNP-TV-Z]{16}$/;

/**
 * A claim code as typed or scanned, in its one stored form.
 * @example normalizeClaimCode('k7m2-q9xd 4trw-8hnb') // 'K7M2Q9XD4TRW8HNB'
 * @example normalizeClaimCode('O1IL') // '0111'
 */
export function normalizeClaimCode(text: string): string {
  return text.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
}

/**
 * A claim code in its printed form, four groups of four.
 * @example printedClaimCode('K7M2Q9XD4TRW8HNB') // 'K7M2-Q9XD-4TRW-8HNB'
 */
export function printedClaimCode(code: string): string {
  return normalizeClaimCode(code).replace(/(.{4})(?=.)/g, '$1-');
}

export const claimCodeSchema = z
  .string()
  .max(64, 'a claim code has 16 characters')
  .transform(normalizeClaimCode)
  .pipe(
    z
      .string()
      .regex(CLAIM_CODE_PATTERN, 'the 16 characters printed on the label, such as K7M2-Q9XD-4TRW-8HNB'),
  );

/** What a claim is refused with when the serial and code do not go together (or the serial is unknown). */
export const CLAIM_NOT_MATCHED = 'claim_not_matched';
/** What a claim is refused with when another company holds the device. */
export const CLAIMED_ELSEWHERE = 'device_claimed_elsewhere';
/**
 * What a person is told when another company holds the device: neither the company nor its site
 * is named, but what to do next is.
 */
export const claimedElsewhereMessage = (serial: string) =>
  `${serial} is on another company's site. It can be claimed here once they take it off that site: ask whoever installed it, or ask company staff to release it, giving the serial and the claim code on the label.`;
/** What a bare install of a serial that has a claim code is refused with. */
export const CLAIM_CODE_NEEDED = 'claim_code_needed';

/** A device label's text: its serial and, where the label has one, its claim code. */
export interface LabelText {
  serial: string;
  claimCode: string | null;
}

/** A serial number anywhere in a text (the form of `serialNumberPattern`, unanchored). */
const SERIAL_IN_TEXT = new RegExp(serialNumberPattern.source.replace(/^\^|\$$/g, ''));
const CODE_IN_TEXT = /(?:^|[^A-Z0-9])(?:CC|CLAIM)\s*[:=]\s*([0-9A-Z]{4}(?:[\s-]?[0-9A-Z]{4}){3})(?![0-9A-Z])/;

/**
 * The serial and claim code a label's code holds. A label's QR code reads
 * `SN:HX5K-24-000123;CC:K7M2-Q9XD-4TRW-8HNB`; a linear barcode or an older label holds the serial
 * alone (or in a longer text), and its claim code is typed from the label.
 * @example labelFromText('SN:HX5K-24-000123;CC:K7M2-Q9XD-4TRW-8HNB') // { serial: 'HX5K-24-000123', claimCode: 'K7M2Q9XD4TRW8HNB' }
 * @example labelFromText('hx5k-24-000123') // { serial: 'HX5K-24-000123', claimCode: null }
 */
export function labelFromText(text: string): LabelText | null {
  const upper = text.toUpperCase();
  const serial = SERIAL_IN_TEXT.exec(upper)?.[0];
  if (!serial) return null;
  const code = CODE_IN_TEXT.exec(upper)?.[1];
  const claimCode = code === undefined ? null : normalizeClaimCode(code);
  return { serial, claimCode: claimCode && CLAIM_CODE_PATTERN.test(claimCode) ? claimCode : null };
}

/**
 * The text of a device label's QR code.
 * @example labelText('HX5K-24-000123', 'K7M2Q9XD4TRW8HNB') // 'SN:HX5K-24-000123;CC:K7M2-Q9XD-4TRW-8HNB'
 */
export function labelText(serial: string, claimCode: string): string {
  return `SN:${serial};CC:${printedClaimCode(claimCode)}`;
}

/**
 * `POST /fleet/devices/{serial}/provisioning`: what the app gives a device over Bluetooth at
 * commissioning (`Provision`, docs/device-protocol.md): a new service-comms secret (the old one
 * stops working) and the address of the service's device socket.
 */
export const provisioningSchema = z.object({
  serialNumber: z.string(),
  secret: z.string(),
  address: z.string(),
});
export type ProvisioningAnswer = z.infer<typeof provisioningSchema>;
