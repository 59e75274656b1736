// A fresh machine for the codec's C harness: no wasm2c on PATH. The finder's decisions on fake
// machines, then the real apt-get call against a stand-in apt-get (nothing is installed).
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WABT } from '../codec-hosts/c-toolchain.ts';
import { findTool, systemHost, type ToolFinderHost, ToolMissingError } from '../find-tool.ts';

const HINT =
  'No wasm2c for the codec’s C harness test: run `sudo apt-get install -y wabt`, then run the tests again.';

function machine(options: { executables: string[]; root?: boolean }) {
  const files = new Set(options.executables);
  const installs: (readonly string[])[] = [];
  const host: ToolFinderHost = {
    env: { PATH: '/usr/local/bin:/usr/bin:/bin' },
    isExecutable: (path) => files.has(path),
    isRoot: () => options.root ?? false,
    aptInstall: (packages) => {
      installs.push(packages);
      files.add('/usr/bin/wasm2c');
    },
    log: () => {},
  };
  return { host, installs };
}

const scratch = mkdtempSync(join(tmpdir(), 'find-tool-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('finding wasm2c for the C harness test', () => {
  it('uses wasm2c on PATH and installs nothing', () => {
    const { host, installs } = machine({ executables: ['/usr/bin/wasm2c', '/usr/bin/apt-get'], root: true });
    expect(findTool(WABT, host)).toBe('/usr/bin/wasm2c');
    expect(installs).toEqual([]);
  });

  it('stops with one line saying what to run when it is missing and this is not root', () => {
    const { host, installs } = machine({ executables: ['/usr/bin/apt-get'] });
    expect(() => findTool(WABT, host)).toThrow(new ToolMissingError(HINT));
    expect(installs).toEqual([]);
  });

  it("installs Debian's wabt as root", () => {
    const { host, installs } = machine({ executables: ['/usr/bin/apt-get'], root: true });
    expect(findTool(WABT, host)).toBe('/usr/bin/wasm2c');
    expect(installs).toEqual([['wabt']]);
  });

  it('runs apt-get update, then install -y wabt, non-interactively, with the PATH it was given', () => {
    const bin = join(scratch, 'bin');
    const log = join(scratch, 'apt.log');
    mkdirSync(bin);
    // A stand-in apt-get: records its arguments and "installs" a wasm2c into the same folder.
    writeFileSync(
      join(bin, 'apt-get'),
      [
        `#!${process.execPath}`,
        "const fs = require('node:fs');",
        `fs.appendFileSync(${JSON.stringify(log)}, process.env.DEBIAN_FRONTEND + ' ' + process.argv.slice(2).join(' ') + '\\n');`,
        `if (process.argv[2] === 'install') fs.writeFileSync(${JSON.stringify(join(bin, 'wasm2c'))}, '', { mode: 0o755 });`,
      ].join('\n'),
    );
    chmodSync(join(bin, 'apt-get'), 0o755);
    const host = { ...systemHost({ PATH: bin }), isRoot: () => true, log: () => {} };
    expect(existsSync(join(bin, 'wasm2c'))).toBe(false);
    expect(findTool(WABT, host)).toBe(join(bin, 'wasm2c'));
    expect(readFileSync(log, 'utf8')).toBe('noninteractive update -qq\nnoninteractive install -y -qq wabt\n');
  });
});
