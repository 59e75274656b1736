import { describe, expect, it } from 'vitest';
import { toCsv } from '../../contracts/csv.ts';
import type { Device } from '../../contracts/devices.ts';
import { deviceColumns } from '../../src/components/devices/device-columns.tsx';

const device = (serial: string, firmwareVersion: string | null): Device => ({
  id: 1,
  modelId: 'HX-5000',
  serial,
  name: 'Roof',
  siteId: 5,
  siteName: 'Farm',
  installedAt: '2026-03-04T12:00:00.000Z',
  firmwareVersion,
});

describe("a device list's firmware column", () => {
  it('writes the version each device said to the CSV export, and nothing for one that has not said it', () => {
    const csv = toCsv(
      [device('HX5K-24-000001', '1.0.0+3'), device('HX5K-24-000002', null)],
      deviceColumns(() => 'Hybrid 5 kW'),
    );
    const [header, first, second] = csv.split('\r\n');
    expect(header?.split(',').at(-1)).toBe('"Firmware"');
    expect(first?.split(',').at(-1)).toBe('"1.0.0+3"');
    expect(second?.split(',').at(-1)).toBe('""');
  });
});
