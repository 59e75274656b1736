import type { DeviceProduct } from '../../src/device-config/load-product.ts';
import { PASSWORD_ITEMS } from '../../src/device-config/password.ts';

/** A raw item that holds one character of a text field (a `cts` step over character codes). */
export interface TextCharacter {
  /** The derived text field, e.g. `deviceName`. */
  text: string;
  /** Which character it holds, from 0. */
  index: number;
}

/**
 * The raw items that hold text one character code each (`name_00`…`name_11` of `deviceName`),
 * by raw item name: the derived items whose only step is `cts` over them. The Remote Debugger
 * shows such a field as its text rather than as twelve numbers.
 */
export function textCharacters(product: DeviceProduct): Map<string, TextCharacter> {
  const characters = new Map<string, TextCharacter>();
  for (const item of product.config.otherData) {
    const [step, ...rest] = item.processData;
    if (step?.type !== 'cts' || rest.length > 0) continue;
    step.refs.forEach((ref, index) => {
      characters.set(ref, { text: item.name, index });
    });
  }
  return characters;
}

/**
 * What one character code reads as: the character in quotes, a byte of a letter beyond A–Z (a
 * name's bytes are UTF-8: src/device-config/text-codes.ts), or that it is empty padding.
 * @example characterText(72) // '“H” (72)'
 * @example characterText(195) // 'byte 0xc3 of a letter beyond A–Z (195)'
 */
export function characterText(code: number): string {
  if (code <= 0) return `empty (${code})`;
  if (code >= 0x80 && code <= 0xff) return `byte 0x${code.toString(16)} of a letter beyond A–Z (${code})`;
  return `“${String.fromCodePoint(code)}” (${code})`;
}

/** What a masked value reads as: the device password is never shown in a decoded answer. */
export const MASKED = '••••••••';

/**
 * The names whose values are the device password: the 16 raw items `pass_00`…`pass_15` and the
 * derived text made of them (a `cts` step over password items only).
 */
export function passwordNames(product: DeviceProduct): Set<string> {
  const raw = new Set(PASSWORD_ITEMS);
  const names = new Set(product.config.rawData.map((item) => item.name).filter((name) => raw.has(name)));
  for (const item of product.config.otherData) {
    const [step, ...rest] = item.processData;
    if (step?.type === 'cts' && rest.length === 0 && step.refs.every((ref) => raw.has(ref)))
      names.add(item.name);
  }
  return names;
}
