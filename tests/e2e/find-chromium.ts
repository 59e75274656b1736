import { findTool, installHint, systemHost, type Tool, type ToolFinderHost } from '../find-tool.ts';

/**
 * Debian's Chromium headless shell, which the end-to-end tests and the browser benchmarks drive:
 * the same Chromium as the `chromium` package without its desktop browser, which took about a
 * fifth more CPU for the same end-to-end files.
 */
export const CHROMIUM: Tool = {
  label: 'Chromium',
  command: 'chromium-headless-shell',
  packages: ['chromium-headless-shell'],
  purpose: 'the end-to-end tests',
  pathVariable: 'CHROMIUM_PATH',
};

/** The one line to show when there is no browser and none can be installed here. */
export const INSTALL_HINT = installHint(CHROMIUM);

/**
 * The browser the end-to-end tests drive: `CHROMIUM_PATH` when set, else Debian's
 * `chromium-headless-shell` on PATH; when there is none, root installs it with apt, and anyone
 * else gets one line saying what to run.
 * @throws {ToolMissingError} when no browser is found or installed.
 * @example chromium.launch({ executablePath: findChromium() })
 */
export function findChromium(host: ToolFinderHost = systemHost()): string {
  return findTool(CHROMIUM, host);
}
