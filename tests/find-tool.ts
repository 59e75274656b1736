import { execFileSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * A program some tests need from Debian (Chromium, wabt's wasm2c, gcc): a fresh CI machine has
 * none of them, so the tests' set-up finds each one or installs it with apt.
 */
export interface Tool {
  /** Name in messages: "Chromium". */
  label: string;
  /** The command looked up on PATH. */
  command: string;
  /** The Debian packages that provide it. */
  packages: readonly string[];
  /** What needs it, for the messages: "the end-to-end tests". */
  purpose: string;
  /** An environment variable that names the binary instead of PATH (checked first). */
  pathVariable?: string;
}

/** What the finder may look at and do; the real machine by default, fakes in its tests. */
export interface ToolFinderHost {
  env: Readonly<Record<string, string | undefined>>;
  isExecutable(path: string): boolean;
  /** Root may install packages without asking anyone. */
  isRoot(): boolean;
  /** Installs Debian packages with apt; throws when apt fails. */
  aptInstall(packages: readonly string[]): void;
  log(line: string): void;
}

/** Thrown when a tool is not found and cannot be installed; its message is the one line to act on. */
export class ToolMissingError extends Error {
  override name = 'ToolMissingError';
  constructor(message: string) {
    super(message);
    // The one line is the whole report: a stack trace would only bury what to run.
    this.stack = message;
  }
}

/** The one line to show when a tool is missing and cannot be installed here. */
export function installHint(tool: Tool): string {
  const instead = tool.pathVariable ? ` (or set ${tool.pathVariable} to a ${tool.label} binary)` : '';
  return `No ${tool.label} for ${tool.purpose}: run \`sudo apt-get install -y ${tool.packages.join(' ')}\`${instead}, then run the tests again.`;
}

const isExecutableFile = (path: string) => {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/** This machine, with `env` for PATH (apt-get included) and the tool variables. */
export function systemHost(env: NodeJS.ProcessEnv = process.env): ToolFinderHost {
  return {
    env,
    isExecutable: isExecutableFile,
    isRoot: () => process.getuid?.() === 0,
    aptInstall: (packages) => {
      const aptEnv = { ...env, DEBIAN_FRONTEND: 'noninteractive' };
      execFileSync('apt-get', ['update', '-qq'], { env: aptEnv, stdio: 'inherit' });
      execFileSync('apt-get', ['install', '-y', '-qq', ...packages], { env: aptEnv, stdio: 'inherit' });
    },
    log: (line) => console.log(line),
  };
}

/** `name` on PATH, as a shell would find it. */
function onPath(host: ToolFinderHost, name: string): string | undefined {
  for (const dir of (host.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const candidate = join(dir, name);
    if (host.isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/**
 * The tool's binary: its `pathVariable` when set, else its command on PATH; when there is none,
 * root installs its Debian packages with apt, and anyone else gets one line saying what to run.
 * @throws {ToolMissingError} when the tool is not found or installed.
 * @example execFileSync(findTool(WABT), ['build/codec.wasm', '-o', 'codec.c'])
 */
export function findTool(tool: Tool, host: ToolFinderHost = systemHost()): string {
  const configured = tool.pathVariable ? host.env[tool.pathVariable]?.trim() : undefined;
  if (configured) {
    if (host.isExecutable(configured)) return configured;
    throw new ToolMissingError(
      `${tool.pathVariable} is ${configured}, which is not an executable file: point it at a ${tool.label} binary or unset it.`,
    );
  }
  const found = onPath(host, tool.command);
  if (found) return found;
  const hint = installHint(tool);
  if (!host.isRoot() || !onPath(host, 'apt-get')) throw new ToolMissingError(hint);
  host.log(
    `No ${tool.label} found: installing Debian’s ${tool.packages.join(' ')} with apt-get for ${tool.purpose}…`,
  );
  try {
    host.aptInstall(tool.packages);
  } catch (error) {
    throw new ToolMissingError(
      `${hint} (apt-get failed: ${error instanceof Error ? error.message : String(error)})`,
    );
  }
  const installed = onPath(host, tool.command);
  if (!installed) throw new ToolMissingError(hint);
  return installed;
}
