import type { DecodedDevice, DecodedModel } from './decode-device.ts';
import { changedRanges } from './encode-model.ts';
import type { PointValue } from './point-codec.ts';
import { type WriteRequest, writeRequests } from './write-requests.ts';

/** The requests that write one model's valid pending edits. */
export interface ModelWrites {
  model: DecodedModel;
  requests: WriteRequest[];
}

interface EditLike {
  model: number;
  path: string;
  value: PointValue;
  error: string | null;
}

/** The Modbus unit: the device address of the common model when it is set, else 1. */
export function unitOf(device: DecodedDevice): number {
  const da = device.models.find((m) => m.id === 1)?.points.find((p) => p.path === 'DA')?.value;
  return typeof da === 'number' && Number.isInteger(da) && da >= 1 && da <= 247 ? da : 1;
}

/** Write requests for every valid pending edit, model by model, in chain order. */
export function buildWrites(
  device: DecodedDevice,
  edits: Readonly<Record<string, EditLike>>,
  crc16: (bytes: Uint8Array) => number,
): ModelWrites[] {
  const byModel = new Map<number, Map<string, PointValue>>();
  for (const edit of Object.values(edits)) {
    if (edit.error !== null) continue;
    const values = byModel.get(edit.model) ?? new Map<string, PointValue>();
    values.set(edit.path, edit.value);
    byModel.set(edit.model, values);
  }
  const unit = unitOf(device);
  return [...byModel.entries()]
    .sort(([a], [b]) => a - b)
    .flatMap(([index, values]) => {
      const model = device.models[index];
      return model ? [{ model, requests: writeRequests(changedRanges(model, values), unit, crc16) }] : [];
    });
}
