import { scaleRaw } from '../codec/scale.ts';
import { DATA_VIEW_LENGTH } from '../codec/types.ts';
import { checkMonitoring } from './check-monitoring.ts';
import type { DataObj, DeviceConfig, OtherItem, RawItem } from './config-schema.ts';
import { derivedInverse } from './derived-inverse.ts';
import { describeField, fieldRange } from './field-range.ts';
import { stepRefs } from './process-step-schema.ts';

/** A problem in a shape-valid configuration, located by its JSON path. */
export interface ConfigProblem {
  path: (string | number)[];
  problem: string;
}

function checkRawData(config: DeviceConfig, bufferSize: number, out: ConfigProblem[]): void {
  const owner: string[] = [];
  const crcStart = bufferSize - 2;
  config.rawData.forEach((item, i) => {
    const { position, length } = item.buffer;
    const bytes = length / 8;
    const at = ['rawData', i, 'buffer', 'position'];
    if (position + bytes > DATA_VIEW_LENGTH) {
      out.push({
        path: at,
        problem: `${position} + ${bytes} bytes runs past the ${DATA_VIEW_LENGTH}-byte view`,
      });
      return;
    }
    if (position === 0) out.push({ path: at, problem: '0 is the opcode byte, fields start at 1' });
    else if (position + bytes > crcStart)
      out.push({ path: at, problem: `${position} + ${bytes} bytes overlaps the CRC at byte ${crcStart}` });
    for (let b = position; b < position + bytes; b++) {
      const other = owner[b];
      if (other !== undefined) {
        out.push({ path: ['rawData', i, 'buffer'], problem: `byte ${b} is already used by "${other}"` });
        break;
      }
      owner[b] = item.name;
    }
    const { min, max } = fieldRange(item.buffer);
    if (item.value < min || item.value > max)
      out.push({
        path: ['rawData', i, 'value'],
        problem: `${item.value} does not fit ${describeField(item.buffer)}`,
      });
  });
}

function checkOtherData(config: DeviceConfig, known: Set<string>, out: ConfigProblem[]): void {
  config.otherData.forEach((item, i) => {
    item.processData.forEach((step, s) => {
      for (const ref of stepRefs(step)) {
        const path = ['otherData', i, 'processData', s];
        if (ref === '$' && s === 0)
          out.push({ path, problem: '"$" (previous step) cannot be used in the first step' });
        else if (ref !== '$' && !known.has(ref))
          out.push({
            path,
            problem: `refers to "${ref}", which is not a rawData item or an earlier otherData item`,
          });
      }
    });
    known.add(item.name);
  });
}

// A bound the field cannot reach would accept values that the write then refuses.
function checkBounds(obj: DataObj, item: RawItem, path: (string | number)[], out: ConfigProblem[]): void {
  const { min, max } = fieldRange(item.buffer);
  const low = scaleRaw(min, item.multiplier);
  const high = scaleRaw(max, item.multiplier);
  if (obj.min !== undefined && obj.min < low)
    out.push({
      path: [...path, 'min'],
      problem: `${obj.min} is below ${low}, the least "${obj.dataId}" holds`,
    });
  if (obj.max !== undefined && obj.max > high)
    out.push({
      path: [...path, 'max'],
      problem: `${obj.max} is above ${high}, the most "${obj.dataId}" holds`,
    });
}

/** Why `display` cannot show this field in words, or null when it can. */
function displayProblem(
  obj: DataObj,
  rawItem: RawItem | undefined,
  shown: OtherItem | undefined,
): string | null {
  if (!rawItem) return `applies to number fields only, and "${obj.dataId}" is text`;
  if (!shown) return `"${obj.display}" names no otherData item`;
  const [step] = shown.processData;
  const kinds = new Set(['vfa', 'tfm', 'itd', 'its']);
  if (shown.processData.length !== 1 || !step || !kinds.has(step.type))
    return `"${obj.display}" must have one vfa, tfm, itd or its step`;
  if (!('ref' in step) || step.ref !== obj.dataId) return `"${obj.display}" does not show "${obj.dataId}"`;
  if (step.type === 'vfa' && !step.list?.length) return `"${obj.display}" has no list of labels`;
  return null;
}

function checkFormData(config: DeviceConfig, out: ConfigProblem[]): void {
  const raw = new Map(config.rawData.map((r) => [r.name, r]));
  const other = new Map(config.otherData.map((o) => [o.name, o]));
  config.formData.forEach((group, g) => {
    group.dataObjs.forEach((obj, d) => {
      const path = ['formData', g, 'dataObjs', d];
      const rawItem = raw.get(obj.dataId);
      const otherItem = other.get(obj.dataId);
      if (!rawItem && !otherItem) {
        out.push({
          path: [...path, 'dataId'],
          problem: `"${obj.dataId}" names no rawData or otherData item`,
        });
        return;
      }
      const inverse = otherItem ? derivedInverse(otherItem) : null;
      if (obj.active && rawItem?.readOnly)
        out.push({ path: [...path, 'active'], problem: `"${obj.dataId}" is a read-only live value` });
      if (obj.active && otherItem && !inverse)
        out.push({
          path: [...path, 'active'],
          problem: `"${obj.dataId}" is derived and cannot be written back`,
        });
      const misplaced = rawItem
        ? (['minLength', 'maxLength', 'rex'] as const).find((k) => obj[k] !== undefined)
        : (['min', 'max'] as const).find((k) => obj[k] !== undefined);
      if (misplaced)
        out.push({
          path: [...path, misplaced],
          problem: `applies to ${rawItem ? 'text' : 'number'} fields only, and "${obj.dataId}" is ${rawItem ? 'a number' : 'text'}`,
        });
      if (rawItem) checkBounds(obj, rawItem, path, out);
      if (obj.min !== undefined && obj.max !== undefined && obj.min > obj.max)
        out.push({ path: [...path, 'min'], problem: `${obj.min} is greater than max ${obj.max}` });
      if (obj.rex !== undefined) {
        try {
          new RegExp(obj.rex, 'u');
        } catch {
          out.push({ path: [...path, 'rex'], problem: `"${obj.rex}" is not a valid regular expression` });
        }
      }
      if (obj.autoInput && inverse?.kind !== 'composite')
        out.push({ path: [...path, 'autoInput'], problem: 'needs a date-time item built by one "ass" step' });
      if (obj.display !== undefined) {
        const problem = displayProblem(obj, rawItem, other.get(obj.display));
        if (problem) out.push({ path: [...path, 'display'], problem });
      }
      if (inverse?.kind === 'text' && obj.maxLength !== undefined && obj.maxLength > inverse.refs.length)
        out.push({
          path: [...path, 'maxLength'],
          problem: `${obj.maxLength} is more than the ${inverse.refs.length} characters the device stores`,
        });
    });
  });
}

function checkLayout(config: DeviceConfig, known: Set<string>, out: ConfigProblem[]): void {
  config.layout.rows.forEach((row, r) => {
    row.cols.forEach((col, c) => {
      if (col.refData !== undefined && !known.has(col.refData))
        out.push({
          path: ['layout', 'rows', r, 'cols', c, 'refData'],
          problem: `"${col.refData}" names no rawData or otherData item`,
        });
    });
  });
}

/**
 * Every meaning-level problem of a configuration whose shape is already valid (what
 * `loadDeviceConfig` adds to the schema): fields inside the view and apart, references that name
 * something earlier, rules that fit their fields.
 * @example checkConfig(parsed, 255) // [{ path: ['rawData', 3, 'buffer', 'position'], problem: '…' }]
 */
export function checkConfig(config: DeviceConfig, bufferSize: number): ConfigProblem[] {
  const out: ConfigProblem[] = [];
  if (bufferSize < DATA_VIEW_LENGTH)
    out.push({
      path: [],
      problem: `frames of ${bufferSize} bytes (write.bufferSize) are shorter than the ${DATA_VIEW_LENGTH}-byte data view the configuration is read through`,
    });
  checkRawData(config, bufferSize, out);
  const seen = new Set<string>();
  [...config.rawData, ...config.otherData].forEach((item, i) => {
    const isRaw = i < config.rawData.length;
    if (seen.has(item.name))
      out.push({
        path: isRaw ? ['rawData', i, 'name'] : ['otherData', i - config.rawData.length, 'name'],
        problem: `"${item.name}" is defined twice`,
      });
    seen.add(item.name);
  });
  const known = new Set(config.rawData.map((r) => r.name));
  checkOtherData(config, known, out);
  checkFormData(config, out);
  checkLayout(config, known, out);
  checkMonitoring(config, out);
  return out;
}
