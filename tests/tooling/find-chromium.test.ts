import { describe, expect, it } from 'vitest';
import { findChromium, INSTALL_HINT } from '../e2e/find-chromium.ts';
import { type ToolFinderHost, ToolMissingError } from '../find-tool.ts';

/** A machine with the given executables; apt-get "installs" the headless shell into /usr/bin when asked. */
function machine(options: {
  executables: string[];
  env?: ToolFinderHost['env'];
  root?: boolean;
  aptFails?: boolean;
}) {
  const files = new Set(options.executables);
  const calls = { installs: 0, logs: [] as string[] };
  const host: ToolFinderHost = {
    env: options.env ?? { PATH: '/usr/local/bin:/usr/bin:/bin' },
    isExecutable: (path) => files.has(path),
    isRoot: () => options.root ?? false,
    aptInstall: (packages) => {
      calls.installs += 1;
      expect(packages).toEqual(['chromium-headless-shell']);
      if (options.aptFails) throw new Error('E: Unable to locate package chromium-headless-shell');
      files.add('/usr/bin/chromium-headless-shell');
    },
    log: (line) => calls.logs.push(line),
  };
  return { host, calls };
}

describe('finding a browser for the end-to-end tests', () => {
  it('uses CHROMIUM_PATH first, even when chromium is on PATH', () => {
    const { host } = machine({
      executables: ['/opt/chrome/chrome', '/usr/bin/chromium-headless-shell'],
      env: { CHROMIUM_PATH: '/opt/chrome/chrome', PATH: '/usr/bin' },
    });
    expect(findChromium(host)).toBe('/opt/chrome/chrome');
  });

  it('says so when CHROMIUM_PATH names no executable, instead of trying something else', () => {
    const { host, calls } = machine({
      executables: ['/usr/bin/chromium-headless-shell'],
      env: { CHROMIUM_PATH: '/nowhere/chrome', PATH: '/usr/bin' },
      root: true,
    });
    expect(() => findChromium(host)).toThrow(
      /CHROMIUM_PATH is \/nowhere\/chrome, which is not an executable/,
    );
    expect(calls.installs).toBe(0);
  });

  it("finds Debian's chromium-headless-shell on PATH, in PATH order", () => {
    const { host } = machine({
      executables: ['/usr/local/bin/chromium-headless-shell', '/usr/bin/chromium-headless-shell'],
      env: { PATH: '/usr/local/bin:/usr/bin' },
    });
    expect(findChromium(host)).toBe('/usr/local/bin/chromium-headless-shell');
  });

  it('stops with one line saying what to run when there is no browser and it is not root', () => {
    const { host, calls } = machine({ executables: ['/usr/bin/apt-get'], env: { PATH: '/usr/bin' } });
    let error: unknown;
    try {
      findChromium(host);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ToolMissingError);
    expect((error as Error).message).toBe(INSTALL_HINT);
    expect(INSTALL_HINT).not.toContain('\n');
    expect(INSTALL_HINT).toContain('apt-get install -y chromium-headless-shell');
    expect(calls.installs).toBe(0);
  });

  it('stops with the same line as root when apt-get is not there', () => {
    const { host, calls } = machine({ executables: [], env: { PATH: '/usr/bin' }, root: true });
    expect(() => findChromium(host)).toThrow(INSTALL_HINT);
    expect(calls.installs).toBe(0);
  });

  it('installs chromium-headless-shell with apt as root and uses it', () => {
    const { host, calls } = machine({
      executables: ['/usr/bin/apt-get'],
      env: { PATH: '/usr/bin' },
      root: true,
    });
    expect(findChromium(host)).toBe('/usr/bin/chromium-headless-shell');
    expect(calls.installs).toBe(1);
    expect(calls.logs.join('\n')).toMatch(/installing Debian.s chromium-headless-shell/);
  });

  it('names the apt failure beside what to run when the install fails', () => {
    const { host } = machine({
      executables: ['/usr/bin/apt-get'],
      env: { PATH: '/usr/bin' },
      root: true,
      aptFails: true,
    });
    expect(() => findChromium(host)).toThrow(
      /apt-get install -y chromium-headless-shell.*Unable to locate package chromium-headless-shell/,
    );
  });
});
