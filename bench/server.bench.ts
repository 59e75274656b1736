// Load test of the services: site list page 0 and page 2,000, device list page 0 and 2,000, site
// details and sign-in, against a bare JSON endpoint of the same framework; then the four list
// calls again with the page cache off (every page read from the database). The server runs in a child
// process on DATABASE_URL (a real PostgreSQL) or PGlite; autocannon drives it from this one.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

function startTarget(): Promise<{ port: number; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/server-target.ts'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: process.env,
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const port = /^READY (\d+)$/.exec(line)?.[1];
      if (port) resolve({ port: Number(port), stop: () => child.kill('SIGTERM') });
    });
  });
}

interface Scenario {
  name: string;
  method?: 'GET' | 'POST';
  path: string;
  body?: string;
  auth?: boolean;
  /** Called once to change the server's set-up, not measured. */
  switch?: boolean;
}

async function main(): Promise<void> {
  const target = await startTarget();
  const base = `http://127.0.0.1:${target.port}`;
  try {
    const login = await fetch(`${base}/config/auth/v2/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'api-key': process.env.API_KEY ?? 'dev-api-key' },
      body: JSON.stringify({ main_email: 'installer@solarpros.example', password: 'Installer#2026' }),
    });
    const { access_token } = (await login.json()) as { access_token: string };
    const headers = (auth: boolean) => ({
      'content-type': 'application/json',
      'api-key': process.env.API_KEY ?? 'dev-api-key',
      ...(auth ? { authorization: `Bearer ${access_token}` } : {}),
    });
    const scenarios: Scenario[] = [
      { name: 'bare', path: '/bench/bare' },
      { name: 'bare-in-app', path: '/bench/bare-in-app' },
      { name: 'site-list-page-0', path: '/config/fleet/site-list/2/0', auth: true },
      { name: 'site-list-page-2000', path: '/config/fleet/site-list/2/2000', auth: true },
      { name: 'device-list', path: '/config/fleet/device-list/2/0', auth: true },
      { name: 'device-list-page-2000', path: '/config/fleet/device-list/2/2000', auth: true },
      { name: 'site-details', path: '/config/fleet/sites/5', auth: true },
      {
        name: 'sign-in',
        method: 'POST',
        path: '/config/auth/v2/login',
        body: JSON.stringify({ main_email: 'installer@solarpros.example', password: 'Installer#2026' }),
      },
      { name: 'page-cache-off', method: 'POST', path: '/bench/page-cache/off', switch: true },
      { name: 'nocache-site-list-page-0', path: '/config/fleet/site-list/2/0', auth: true },
      { name: 'nocache-site-list-page-2000', path: '/config/fleet/site-list/2/2000', auth: true },
      { name: 'nocache-device-list', path: '/config/fleet/device-list/2/0', auth: true },
      { name: 'nocache-device-list-page-2000', path: '/config/fleet/device-list/2/2000', auth: true },
    ];
    const results: Record<string, { rps: number; mean: number; p50: number; p99: number; errors: number }> =
      {};
    for (const scenario of scenarios) {
      const check = await fetch(`${base}${scenario.path}`, {
        method: scenario.method ?? 'GET',
        headers: headers(scenario.auth ?? false),
        body: scenario.body,
      });
      if (!check.ok) throw new Error(`${scenario.name}: ${check.status} ${await check.text()}`);
      if (scenario.switch) continue;
      // A short untimed run first, so every scenario is measured with a warm JIT and pool.
      await autocannon({
        url: `${base}${scenario.path}`,
        method: scenario.method ?? 'GET',
        headers: headers(scenario.auth ?? false),
        body: scenario.body,
        connections: CONNECTIONS,
        duration: scenario.name === 'sign-in' ? 1 : 2,
      });
      const run = await autocannon({
        url: `${base}${scenario.path}`,
        method: scenario.method ?? 'GET',
        headers: headers(scenario.auth ?? false),
        body: scenario.body,
        connections: CONNECTIONS,
        duration: DURATION,
      });
      results[scenario.name] = {
        rps: run.requests.average,
        mean: run.latency.average,
        p50: run.latency.p50,
        p99: run.latency.p99,
        errors: run.errors + run.non2xx,
      };
      console.log(
        `${scenario.name.padEnd(30)} ${run.requests.average.toFixed(0).padStart(7)} req/s  mean ${run.latency.average.toFixed(2)} ms  p50 ${run.latency.p50} ms  p99 ${run.latency.p99} ms  errors ${run.errors + run.non2xx}`,
      );
    }
    const bare = results.bare;
    const bareInApp = results['bare-in-app'];
    const lines: { name: string; value: number; unit: string }[] = [];
    for (const [name, r] of Object.entries(results)) {
      lines.push({ name: `${name}.rps`, value: Math.round(r.rps), unit: 'req/s' });
      lines.push({ name: `${name}.mean`, value: Number(r.mean.toFixed(3)), unit: 'ms' });
      lines.push({ name: `${name}.p50`, value: r.p50, unit: 'ms' });
      lines.push({ name: `${name}.p99`, value: r.p99, unit: 'ms' });
      if (bare && !name.startsWith('bare')) {
        lines.push({
          name: `${name}.rps-vs-bare`,
          value: Number((r.rps / bare.rps).toFixed(3)),
          unit: 'ratio',
        });
      }
      if (bareInApp && !name.startsWith('bare')) {
        lines.push({
          name: `${name}.rps-vs-bare-in-app`,
          value: Number((r.rps / bareInApp.rps).toFixed(3)),
          unit: 'ratio',
        });
      }
    }
    // Depth: page 2,000 against page 0 by mean latency (p50 is whole milliseconds, often 0).
    for (const [deep, shallow] of [
      ['site-list-page-2000', 'site-list-page-0'],
      ['device-list-page-2000', 'device-list'],
      ['nocache-site-list-page-2000', 'nocache-site-list-page-0'],
      ['nocache-device-list-page-2000', 'nocache-device-list'],
    ] as const) {
      const a = results[deep];
      const b = results[shallow];
      if (a && b)
        lines.push({
          name: `${deep}-vs-page-0.mean`,
          value: Number((a.mean / Math.max(b.mean, 0.001)).toFixed(3)),
          unit: 'ratio',
        });
    }
    for (const line of lines) console.log(JSON.stringify(line));
  } finally {
    target.stop();
  }
}

await main();
