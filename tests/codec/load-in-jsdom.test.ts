// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { loadCodec } from '../../src/codec/load-node.ts';
import { ascii } from './implementations.ts';

describe('the Node loader under a jsdom test environment', () => {
  it('instantiates the Wasm module that app tests use', async () => {
    expect(typeof window).toBe('object');
    const codec = await loadCodec();
    expect(codec.crc16(ascii('123456789'))).toBe(0x4b37);
  });

  it('hands every caller the same instance', async () => {
    expect(await loadCodec()).toBe(await loadCodec());
  });
});
