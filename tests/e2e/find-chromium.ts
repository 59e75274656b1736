import { execFileSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** What the finder may look at and do; the real machine by default, fakes in its tests. */
export interface ChromiumFinderHost {
  env: { CHROMIUM_PATH?: string; PATH?: string };
  isExecutable(path: string): boolean;
  /** Root may install packages without asking anyone. */
  isRoot(): boolean;
  /** Installs Debian's `chromium` with apt; throws when apt fails. */
  aptInstallChromium(): void;
  log(line: string): void;
}

/** The one line to show when there is no browser and none can be installed here. */
export const INSTALL_HINT =
  'No Chromium for the end-to-end tests: run `sudo apt-get install -y chromium` (or set CHROMIUM_PATH to a Chromium binary), then run the tests again.';

/** Thrown when no browser is found and none could be installed; its message is INSTALL_HINT or names the bad CHROMIUM_PATH. */
export class ChromiumMissingError extends Error {
  override name = 'ChromiumMissingError';
  constructor(message: string) {
    super(message);
    // The one line is the whole report: a stack trace would only bury what to run.
    this.stack = message;
  }
}

const isExecutableFile = (path: string) => {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

export const realHost: ChromiumFinderHost = {
  env: process.env,
  isExecutable: isExecutableFile,
  isRoot: () => process.getuid?.() === 0,
  aptInstallChromium: () => {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { env, stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { env, stdio: 'inherit' });
  },
  log: (line) => console.log(line),
};

/** `chromium` on PATH, as a shell would find it. */
function onPath(host: ChromiumFinderHost, name: string): string | undefined {
  for (const dir of (host.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const candidate = join(dir, name);
    if (host.isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/**
 * The browser the end-to-end tests drive: `CHROMIUM_PATH` when set, else Debian's `chromium` on
 * PATH; when there is none, root installs Debian's `chromium` with apt, and anyone else gets
 * one line saying what to run.
 * @throws {ChromiumMissingError} when no browser is found or installed.
 * @example chromium.launch({ executablePath: findChromium() })
 */
export function findChromium(host: ChromiumFinderHost = realHost): string {
  const configured = host.env.CHROMIUM_PATH?.trim();
  if (configured) {
    if (host.isExecutable(configured)) return configured;
    throw new ChromiumMissingError(
      `CHROMIUM_PATH is ${configured}, which is not an executable file: point it at a Chromium binary or unset it.`,
    );
  }
  const found = onPath(host, 'chromium');
  if (found) return found;
  if (!host.isRoot() || !onPath(host, 'apt-get')) throw new ChromiumMissingError(INSTALL_HINT);
  host.log('No Chromium found: installing Debian’s chromium with apt-get for the end-to-end tests…');
  try {
    host.aptInstallChromium();
  } catch (error) {
    throw new ChromiumMissingError(
      `${INSTALL_HINT} (apt-get failed: ${error instanceof Error ? error.message : String(error)})`,
    );
  }
  const installed = onPath(host, 'chromium');
  if (!installed) throw new ChromiumMissingError(INSTALL_HINT);
  return installed;
}
