import type { OtherItem } from './config-schema.ts';

/**
 * How a derived item can be written back into raw values, when it can:
 * - `text`: one `cts` step; the string's character codes fill `refs` in order, padded with 0.
 * - `composite`: one `ass` step of padded numbers and literal text (a date-time such as
 *   `2025-03-04T13:05`); the string is split on the literals and each number goes to its ref.
 */
export type DerivedInverse =
  | { kind: 'text'; refs: string[] }
  | { kind: 'composite'; refs: string[]; pattern: RegExp };

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The inverse of a derived item, or null when it is read-only by nature.
 * @example derivedInverse(deviceNameItem) // { kind: 'text', refs: ['name_00', …, 'name_11'] }
 */
export function derivedInverse(item: OtherItem): DerivedInverse | null {
  if (item.processData.length !== 1) return null;
  const [step] = item.processData;
  if (step?.type === 'cts') return { kind: 'text', refs: step.refs };
  if (step?.type !== 'ass') return null;
  const refs: string[] = [];
  let source = '';
  let previousWasRef = false;
  for (const part of step.parts) {
    if ('ref' in part) {
      // Two numbers with nothing between them could not be told apart when parsing back.
      if (previousWasRef || part.ref === '$') return null;
      refs.push(part.ref);
      source += '(-?\\d+)';
      previousWasRef = true;
    } else {
      source += escapeRegExp(part.text);
      previousWasRef = false;
    }
  }
  return refs.length === 0 ? null : { kind: 'composite', refs, pattern: new RegExp(`^${source}$`) };
}
