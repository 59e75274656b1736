import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserServer, chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { freePort } from '../free-port.ts';
import { CHROMIUM_ARGS } from './chromium-args.ts';
import { findChromium } from './find-chromium.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the real server under test answers, e.g. `http://localhost:41234`. */
    baseUrl: string;
    /** The Chromium binary the tests drive (see find-chromium.ts). */
    chromiumPath: string;
    /** Where the one Chromium started for the run takes connections (browser.ts, launchChromium). */
    chromiumEndpoint: string;
    /**
     * A file the server under test writes its output to (the mail it would send included, codes
     * shown, see TEST_SERVER_ENV); empty when the suite runs against `E2E_BASE_URL`.
     */
    serverLogPath: string;
  }
}

const ROOT = new URL('../..', import.meta.url).pathname;
const LISTENING = /Fleet Manager listening on (http:\/\/\S+)/;
const START_TIMEOUT_MS = 120_000;

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce(
    (newest, name) => Math.max(newest, newestMtime(join(path, name))),
    stat.mtimeMs,
  );
}

/** Builds the app unless `dist/` is newer than everything it is built from. */
function buildAppIfStale(): Promise<void> {
  const built = join(ROOT, 'dist/index.html');
  const sources = [
    'src',
    'public',
    'contracts',
    'machines',
    'build',
    'index.html',
    'vite.config.ts',
    'package.json',
  ].map((p) => join(ROOT, p));
  if (
    existsSync(built) &&
    statSync(built).mtimeMs >= Math.max(...sources.filter(existsSync).map(newestMtime))
  ) {
    return Promise.resolve();
  }
  const build = spawn(
    process.execPath,
    [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: ROOT,
      // Vitest runs with NODE_ENV=test, which would give a development build of React.
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: 'inherit',
    },
  );
  return new Promise((resolve, reject) => {
    build.once('error', reject);
    build.once('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`The app's build failed (${code ?? signal})`)),
    );
  });
}

/**
 * The server under test is configured for tests, explicitly: every test signs in, so the
 * sign-in limits are far above what the suite spends (the per-account default of 10 in 15
 * minutes would let one run pass and the next fail against the same server). The limits
 * themselves are checked by tests/server/sign-in-rate-limit.test.ts. A maps key is configured, as
 * in a deployment with the address control: the Content-Security-Policy then names the maps
 * origins, which the tests answer with a fake Places API or refuse (no internet here). Mail goes to
 * the log with its codes (development only), where a test reads the link a new user is sent.
 * Silence raises alarms after an hour, not 15 minutes: the demo's silent devices are alarmed at
 * seed time either way, and devices the tests install are not alarmed while the suite runs, so
 * the counts a test compares across screens hold still.
 */
export const TEST_SERVER_ENV = {
  ACCESS_TOKEN_TTL: '900',
  MAPS_API_KEY: 'test-maps-key',
  MAIL_LOG_CODES: '1',
  LOGIN_LIMIT_PER_ACCOUNT: '10000',
  LOGIN_LIMIT_PER_ADDRESS: '100000',
  ALARM_OFFLINE_AFTER_S: '3600',
} as const;

/** Starts `server/main.ts` and resolves with its URL once it prints the listening line. */
function startServer(
  port: number,
  dataDir: string,
  logPath: string,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...TEST_SERVER_ENV, PORT: String(port), DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = createWriteStream(logPath);
  child.stdout?.pipe(log);
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(`no listening line within ${START_TIMEOUT_MS} ms`), START_TIMEOUT_MS);
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill('SIGTERM');
      reject(new Error(`The server under test did not start: ${why}\n${output}`));
    };
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = LISTENING.exec(output);
      if (!match?.[1]) return;
      clearTimeout(timer);
      // The server prints localhost; the browser should use the port we gave it on 127.0.0.1 too.
      resolve({ child, url: match[1].replace(/\/$/, '') });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code, signal) => fail(`exited with ${code ?? signal}`));
  });
}

/** The one Chromium the run's files connect to (browser.ts, launchChromium). */
async function startBrowser(project: TestProject, executablePath: string): Promise<BrowserServer> {
  const browser = await chromium.launchServer({ executablePath, headless: true, args: CHROMIUM_ARGS });
  project.provide('chromiumEndpoint', browser.wsEndpoint());
  return browser;
}

/**
 * Finds a browser, builds the app, starts the real server on a free port with a throwaway data
 * folder. With `E2E_BASE_URL` set, the suite runs against that server instead (started with
 * TEST_SERVER_ENV's settings), e.g. to run it twice in a row against one server.
 */
export default async function setup(project: TestProject) {
  if (!existsSync(join(ROOT, 'server/main.ts')))
    throw new Error('server/main.ts is missing: nothing to test against');
  const chromiumPath = findChromium();
  project.provide('chromiumPath', chromiumPath);
  const external = process.env.E2E_BASE_URL?.trim().replace(/\/$/, '');
  if (external) {
    project.provide('baseUrl', external);
    project.provide('serverLogPath', '');
    const browser = await startBrowser(project, chromiumPath);
    return () => browser.close();
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'fleet-e2e-'));
  const logPath = join(dataDir, 'server.log');
  project.provide('serverLogPath', logPath);
  // The build, the server's start (seeding its demo) and Chromium's launch side by side: the
  // server reads the built files only when a test asks for them.
  const [built, started, launched] = await Promise.allSettled([
    buildAppIfStale(),
    freePort().then((port) => startServer(port, dataDir, logPath)),
    startBrowser(project, chromiumPath),
  ]);
  if (built.status === 'rejected' || started.status === 'rejected' || launched.status === 'rejected') {
    if (started.status === 'fulfilled') started.value.child.kill('SIGTERM');
    if (launched.status === 'fulfilled') await launched.value.close();
    rmSync(dataDir, { recursive: true, force: true });
    throw [built, started, launched].find((result) => result.status === 'rejected')?.reason;
  }
  const { child, url } = started.value;
  const browser = launched.value;
  child.removeAllListeners('exit');
  project.provide('baseUrl', url);
  return async () => {
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
    });
    rmSync(dataDir, { recursive: true, force: true });
    await browser.close();
  };
}
