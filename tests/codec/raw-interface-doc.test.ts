// docs/codec.md's raw interface is what a host without the TypeScript face relies on: these checks
// hold its tables to the real build/codec.wasm, so the page cannot drift from the module.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CODEC_WASM_PATH } from '../../src/codec/load-node.ts';
import { type Export, wasmExports } from './wasm-sections.ts';

const doc = readFileSync(new URL('../../docs/codec.md', import.meta.url), 'utf8');
const errorsSource = readFileSync(new URL('../../assembly/errors.ts', import.meta.url), 'utf8');
const bytes = new Uint8Array(readFileSync(CODEC_WASM_PATH));
const module = new WebAssembly.Module(bytes);
const wasm = new WebAssembly.Instance(module, {}).exports as Record<string, () => number> & {
  memory: WebAssembly.Memory;
};

/** The text of the section under `heading`, up to the next heading of the same or a higher level. */
function section(text: string, heading: string): string {
  const start = text.indexOf(`${heading}\n`);
  if (start < 0) throw new Error(`docs/codec.md has no "${heading}"`);
  const level = heading.split(' ')[0] as string;
  const rest = text.slice(start + heading.length);
  const next = rest.search(new RegExp(`\\n#{1,${level.length}} `));
  return next < 0 ? rest : rest.slice(0, next);
}

/** The body rows of the Markdown tables in `text`, as trimmed cells. */
const rows = (text: string): string[][] =>
  text
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|\s*-/.test(line))
    .slice(1)
    .map((line) =>
      line
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim()),
    );

const raw = section(doc, '## The raw interface: any WebAssembly host');
const code = (cell: string | undefined) => /`([^`]+)`/.exec(cell ?? '')?.[1];

describe("docs/codec.md's raw interface", () => {
  it('lists every export of build/codec.wasm, with its parameter and result types', () => {
    const documented: Export[] = rows(section(raw, '### Exports')).map(([name, params, result]) => {
      if (code(result) === 'memory') return { name: code(name) ?? '', kind: 'memory' };
      const types = [...(params ?? '').matchAll(/`\w+: (\w+)`/g)].map((m) => m[1]);
      return {
        name: code(name) ?? '',
        kind: 'function',
        params: types as Extract<Export, { kind: 'function' }>['params'],
        results: result === '—' ? [] : [code(result) as 'i32'],
      };
    });
    const byName = (a: Export, b: Export) => a.name.localeCompare(b.name);
    expect(documented.sort(byName)).toEqual(wasmExports(bytes).sort(byName));
  });

  it('says truly that the module imports nothing and has two pages of memory', () => {
    expect(raw).toContain('the module has **no imports**');
    expect(WebAssembly.Module.imports(module)).toEqual([]);
    expect(raw).toContain('2 pages of 64 KiB');
    expect(wasm.memory.buffer.byteLength).toBe(2 * 65536);
  });

  it('gives the addresses and sizes the module reports for its static region', () => {
    const regions = Object.fromEntries(
      rows(section(raw, '### The static I/O region')).map(([name, address, size]) => [
        name,
        { address: Number(address), size },
      ]),
    );
    const maxFields = wasm.maxFields?.();
    expect(regions).toEqual({
      'I/O': { address: wasm.ioPointer?.(), size: `${wasm.ioSize?.()} bytes` },
      descriptors: { address: wasm.descriptorPointer?.(), size: `${maxFields} × u32` },
      values: { address: wasm.valuePointer?.(), size: `${maxFields} × f64` },
      // The CRC tables follow the values (assembly/layout.ts): sixteen tables of 256 u16 entries.
      'CRC tables': { address: (wasm.valuePointer?.() ?? 0) + 8 * (maxFields ?? 0), size: '8192 bytes' },
    });
  });

  it('lists every result code of assembly/errors.ts with its number', () => {
    const source = [...errorsSource.matchAll(/export const (E_\w+): i32 = (\d+);/g)].map((m) => [
      Number(m[2]),
      m[1],
    ]);
    const documented = rows(section(raw, '### Result codes')).map(([n, name]) => [Number(n), code(name)]);
    expect(documented).toEqual(source);
    expect(source.length).toBeGreaterThan(0);
  });
});
