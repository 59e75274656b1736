import { describe, expect, it } from 'vitest';
import {
  DeviceConfigError,
  loadDeviceConfig,
  requireDeviceConfig,
} from '../../src/device-config/load-config.ts';
import { sampleConfig } from './bundled-products.ts';

// biome-ignore lint/suspicious/noExplicitAny: tests break arbitrary parts of a JSON file.
type Json = Record<string, any>;

function messagesFor(change: (json: Json) => void): string[] {
  const json = sampleConfig() as Json;
  change(json);
  const result = loadDeviceConfig('hybrid5k-to-form.json', json);
  if (result.ok) throw new Error('expected the file to be rejected');
  return result.issues.map((i) => i.message);
}

describe('loading a device-configuration file', () => {
  it('accepts a valid file', () => {
    const result = loadDeviceConfig('x-to-form.json', sampleConfig());
    expect(result.ok).toBe(true);
  });

  it('names file, item and field for a descriptor past the 254-byte view', () => {
    const messages = messagesFor((json) => {
      json.rawData[0].buffer.position = 253;
    });
    expect(messages).toContain(
      'hybrid5k-to-form.json: rawData[0] "battVoltage" buffer.position: 253 + 2 bytes runs past the 254-byte view',
    );
  });

  it('rejects a field on the opcode byte, over the CRC, or over another field', () => {
    expect(
      messagesFor((json) => {
        json.rawData[1].buffer.position = 0;
      }),
    ).toContain(
      'hybrid5k-to-form.json: rawData[1] "mode" buffer.position: 0 is the opcode byte, fields start at 1',
    );
    expect(
      messagesFor((json) => {
        json.rawData[1].buffer.position = 253;
      })[0],
    ).toMatch(/overlaps the CRC/);
    expect(
      messagesFor((json) => {
        json.rawData[1].buffer.position = 2;
      }),
    ).toContain('hybrid5k-to-form.json: rawData[1] "mode" buffer: byte 2 is already used by "battVoltage"');
  });

  it('names an unknown processData type', () => {
    const messages = messagesFor((json) => {
      json.otherData[0].processData[0].type = 'xyz';
    });
    expect(messages[0]).toMatch(
      /^hybrid5k-to-form\.json: otherData\[0\] "modeText" processData\[0\]\.type: unknown processData type "xyz"/,
    );
  });

  it('names a layout column whose refData names nothing', () => {
    expect(
      messagesFor((json) => {
        json.layout.rows[0].cols[0].refData = 'ghost';
      }),
    ).toEqual([
      'hybrid5k-to-form.json: layout.rows[0].cols[0] "ghost" refData: "ghost" names no rawData or otherData item',
    ]);
  });

  it('names references to unknown or later items and a $ in the first step', () => {
    expect(
      messagesFor((json) => {
        json.otherData[0].processData[0].ref = 'nothing';
      })[0],
    ).toMatch(/otherData\[0\] "modeText" processData\[0\]: refers to "nothing"/);
    expect(
      messagesFor((json) => {
        json.otherData[0].processData[0].ref = '$';
      })[0],
    ).toMatch(/"\$" \(previous step\) cannot be used in the first step/);
  });

  it('names a bad width, a default that does not fit, and a duplicate name', () => {
    expect(
      messagesFor((json) => {
        json.rawData[0].buffer.length = 12;
      })[0],
    ).toBe('hybrid5k-to-form.json: rawData[0] "battVoltage" buffer.length: must be 8, 16 or 32');
    expect(
      messagesFor((json) => {
        json.rawData[1].value = 300;
      })[0],
    ).toBe(
      'hybrid5k-to-form.json: rawData[1] "mode" value: 300 does not fit an unsigned 8-bit field (0…255)',
    );
    expect(
      messagesFor((json) => {
        json.otherData[0].name = 'mode';
      })[0],
    ).toMatch(/"mode" is defined twice/);
  });

  it('names form fields that point nowhere, carry a broken pattern or min above max', () => {
    const obj = (json: Json) => json.formData[0].dataObjs[0];
    expect(
      messagesFor((json) => {
        obj(json).dataId = 'ghost';
      })[0],
    ).toMatch(
      /formData\[0\] "Battery" dataObjs\[0\] "ghost" dataId: "ghost" names no rawData or otherData item/,
    );
    expect(
      messagesFor((json) => {
        obj(json).rex = '([';
      })[1],
    ).toMatch(/rex: "\(\[" is not a valid regular expression/);
    expect(
      messagesFor((json) => {
        obj(json).min = 70;
      })[0],
    ).toMatch(/min: 70 is greater than max 60/);
  });

  it('names a min or max the field cannot hold, since the write would then refuse what the form accepts', () => {
    // battVoltage is an unsigned 16-bit field × 0.1: it holds 0 to 6553.5.
    expect(
      messagesFor((json) => {
        json.formData[0].dataObjs[0].max = 7000;
        json.formData[0].dataObjs[0].min = -1;
      }),
    ).toEqual([
      'hybrid5k-to-form.json: formData[0] "Battery" dataObjs[0] "battVoltage" min: -1 is below 0, the least "battVoltage" holds',
      'hybrid5k-to-form.json: formData[0] "Battery" dataObjs[0] "battVoltage" max: 7000 is above 6553.5, the most "battVoltage" holds',
    ]);
  });

  it('refuses a frame size too short for the data view, since no answer could be decoded', () => {
    const result = loadDeviceConfig('x-to-form.json', sampleConfig(), 100);
    expect(result.ok ? [] : result.issues.map((i) => i.message)).toEqual([
      'x-to-form.json: frames of 100 bytes (write.bufferSize) are shorter than the 254-byte data view the configuration is read through',
    ]);
  });

  it('names a text rule on a number field', () => {
    expect(
      messagesFor((json) => {
        json.formData[0].dataObjs[0].maxLength = 4;
      }),
    ).toEqual([
      'hybrid5k-to-form.json: formData[0] "Battery" dataObjs[0] "battVoltage" maxLength: applies to text fields only, and "battVoltage" is a number',
    ]);
  });

  it('refuses to make a derived value editable when it cannot be written back', () => {
    const messages = messagesFor((json) => {
      json.formData[0].dataObjs.push({ dataId: 'modeText', active: true });
    });
    expect(messages[0]).toMatch(
      /dataObjs\[1\] "modeText" active: "modeText" is derived and cannot be written back/,
    );
  });

  it('reports unknown fields and non-objects without throwing', () => {
    expect(
      messagesFor((json) => {
        json.rawData[0].colour = 'red';
      })[0],
    ).toMatch(/unknown field\(s\) "colour"/);
    const result = loadDeviceConfig('broken.json', 'not json at all');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues[0]?.message).toMatch(/^broken\.json: /);
  });

  it('requireDeviceConfig throws one error listing every problem', () => {
    const json = sampleConfig() as Json;
    json.rawData[0].buffer.position = 260;
    json.layout.rows[0].cols[0].refData = 'ghost';
    expect(() => requireDeviceConfig('a.json', json)).toThrow(DeviceConfigError);
    try {
      requireDeviceConfig('a.json', json);
    } catch (error) {
      expect((error as DeviceConfigError).issues).toHaveLength(2);
    }
  });
});
