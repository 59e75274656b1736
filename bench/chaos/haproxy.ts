import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findTool } from '../../tests/find-tool.ts';

/** Debian's HAProxy, installed with apt by root when it is missing (as the tests do for Chromium). */
const HAPROXY = {
  label: 'HAProxy',
  command: 'haproxy',
  packages: ['haproxy'],
  purpose: 'the telemetry fault run (npm run chaos:telemetry)',
};

/**
 * The balancer in front of the server processes, as a deployment would run it: HTTP mode (device
 * sockets are upgrades, then tunnels), the least-loaded process for each new connection, a TCP
 * check a second (a process that stopped listening is out within a second), and a connection
 * refused by a process that just went away tried again on another (`retries`, `redispatch`).
 * `X-Forwarded-For` gets the address HAProxy saw appended, so the servers trust one proxy more.
 *
 * Idle timeouts: a device socket is a tunnel, idle between readings and pings (15 s); 60 s is
 * well above that. A tunnel is never handed back for reuse, so the servers' HTTP keep-alive
 * timeout does not race HAProxy here (docs/api.md, "Behind a balancer", says what to set for HTTP).
 *
 * `maxconn` is what the run needs (a device is one client connection), not more: HAProxy wants two
 * file descriptors per connection and refuses to start when the process may not open that many
 * (`ulimit -n`; 20,000 on the CI machine, too few for a maxconn of 30,000).
 */
function config(port: number, servers: readonly number[], connections: number): string {
  return `global
  maxconn ${connections}

defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  timeout tunnel 1h
  timeout http-keep-alive 2s
  timeout http-request 10s
  retries 3
  option redispatch

frontend devices
  bind 127.0.0.1:${port}
  option forwardfor
  default_backend servers

backend servers
  balance leastconn
${servers.map((p, i) => `  server s${i + 1} 127.0.0.1:${p} check inter 1s fall 1 rise 2`).join('\n')}
`;
}

/**
 * HAProxy running in the foreground with that configuration, for `connections` clients at once;
 * `stop()` ends it. `failed` rejects, with what HAProxy said, if it exits before it is stopped
 * (it refused its configuration, or died): whoever waits on the balancer races it, so a run
 * never waits out its timeouts for connections that cannot come.
 */
export function startHaproxy(dir: string, port: number, servers: readonly number[], connections: number) {
  const binary = findTool(HAPROXY);
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(file, config(port, servers, connections));
  const child: ChildProcess = spawn(binary, ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  let stopping = false;
  const failed = new Promise<never>((_, reject) => {
    child.once('exit', (code) => {
      if (!stopping) reject(new Error(`HAProxy exited (${code}): ${output.trim()}`));
    });
  });
  // Observed by whoever races it; a rejection nobody awaits is not an unhandled one.
  failed.catch(() => {});
  return {
    child,
    failed,
    output: () => output,
    stop: () => {
      stopping = true;
      if (child.exitCode === null) child.kill('SIGTERM');
    },
  };
}
