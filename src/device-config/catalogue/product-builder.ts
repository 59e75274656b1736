import type { DataObj, DeviceConfig, LayoutCol, OtherItem, RawItem } from '../config-schema.ts';
import type { MonitoringSection } from '../monitoring-schema.ts';
import { PASSWORD_ITEMS } from '../password.ts';
import type { ProcessStep } from '../process-step-schema.ts';
import { codesOfText } from '../text-codes.ts';

/** `u16le`, `s32be`, `u8`, `s8`: signedness, width and (for 16/32 bits) byte order. */
export type FieldSpec = `${'u' | 's'}8` | `${'u' | 's'}${16 | 32}${'le' | 'be'}`;

interface RawOptions {
  multiplier?: number;
  unit?: string;
  readOnly?: boolean;
}

/**
 * Lays out a product's configuration frame: rawData positions are handed out in order from byte 1,
 * so that a catalogue file reads as a list of named fields instead of byte arithmetic.
 */
export class ProductBuilder {
  private position = 1;
  private readonly config: DeviceConfig = { rawData: [], otherData: [], formData: [], layout: { rows: [] } };

  /** Adds a rawData item; `value` is the factory default in display units. */
  raw(name: string, spec: FieldSpec, value: number, options: RawOptions = {}): this {
    const length = Number(spec.slice(1, spec.length > 3 ? 3 : 2)) as 8 | 16 | 32;
    const multiplier = options.multiplier ?? 1;
    const item: RawItem = {
      name,
      value: Math.round(value / multiplier),
      buffer: {
        position: this.position,
        length,
        signed: spec.startsWith('s'),
        littleEndian: !spec.endsWith('be'),
      },
      multiplier,
      ...(options.readOnly ? { readOnly: true } : {}),
      ...(options.unit ? { unit: options.unit } : {}),
    };
    this.config.rawData.push(item);
    this.position += length / 8;
    return this;
  }

  /** Adds a live value: read-only, measured by the device. */
  live(name: string, spec: FieldSpec, value: number, multiplier = 1, unit?: string): this {
    return this.raw(name, spec, value, { multiplier, readOnly: true, ...(unit ? { unit } : {}) });
  }

  /** Adds `count` one-byte character items `prefix_00`… holding `text` as UTF-8, padded with 0. */
  text(prefix: string, count: number, text: string): this {
    const codes = codesOfText(text, true);
    for (let i = 0; i < count; i++) this.raw(`${prefix}_${String(i).padStart(2, '0')}`, 'u8', codes[i] ?? 0);
    return this;
  }

  /** Adds the 16 password items pass_00…pass_15. */
  password(text: string): this {
    for (const [i, name] of PASSWORD_ITEMS.entries()) this.raw(name, 'u8', text.charCodeAt(i) || 0);
    return this;
  }

  other(name: string, processData: ProcessStep[], unit?: string): this {
    const item: OtherItem = { name, processData, ...(unit ? { unit } : {}) };
    this.config.otherData.push(item);
    return this;
  }

  group(title: string, dataObjs: DataObj[], note?: string): this {
    this.config.formData.push({ title, dataObjs, ...(note ? { note } : {}) });
    return this;
  }

  row(...cols: LayoutCol[]): this {
    this.config.layout.rows.push({ cols });
    return this;
  }

  /** How the product's `Read live values` answer becomes telemetry (docs/device-config-format.md). */
  monitoring(section: MonitoringSection): this {
    this.config.monitoring = section;
    return this;
  }

  /** Names of items added with {@link text}. */
  static textRefs(prefix: string, count: number): string[] {
    return Array.from({ length: count }, (_, i) => `${prefix}_${String(i).padStart(2, '0')}`);
  }

  build(): DeviceConfig {
    return structuredClone(this.config);
  }
}

/** An editable field. */
export function field(dataId: string, rules: Omit<DataObj, 'dataId' | 'active'> = {}): DataObj {
  return { dataId, active: true, ...rules };
}

/** A field shown but not editable. */
export function shown(dataId: string, label?: string): DataObj {
  return { dataId, active: false, ...(label ? { label } : {}) };
}
