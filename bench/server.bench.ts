// Load test of the services: site list page 0 and page 2,000, device list, site details and
// sign-in, against a bare JSON endpoint of the same framework. The server runs in a child
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
      { name: 'site-list-page-0', path: '/config/fleet/site-list/2/0', auth: true },
      { name: 'site-list-page-2000', path: '/config/fleet/site-list/2/2000', auth: true },
      { name: 'device-list', path: '/config/fleet/device-list/2/0', auth: true },
      { name: 'site-details', path: '/config/fleet/sites/5', auth: true },
      {
        name: 'sign-in',
        method: 'POST',
        path: '/config/auth/v2/login',
        body: JSON.stringify({ main_email: 'installer@solarpros.example', password: 'Installer#2026' }),
      },
    ];
    const results: Record<string, { rps: number; p50: number; p99: number; errors: number }> = {};
    for (const scenario of scenarios) {
      const check = await fetch(`${base}${scenario.path}`, {
        method: scenario.method ?? 'GET',
        headers: headers(scenario.auth ?? false),
        body: scenario.body,
      });
      if (!check.ok) throw new Error(`${scenario.name}: ${check.status} ${await check.text()}`);
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
        p50: run.latency.p50,
        p99: run.latency.p99,
        errors: run.errors + run.non2xx,
      };
      console.log(
        `${scenario.name.padEnd(20)} ${run.requests.average.toFixed(0).padStart(7)} req/s  p50 ${run.latency.p50} ms  p99 ${run.latency.p99} ms  errors ${run.errors + run.non2xx}`,
      );
    }
    const bare = results.bare;
    const lines: { name: string; value: number; unit: string }[] = [];
    for (const [name, r] of Object.entries(results)) {
      lines.push({ name: `${name}.rps`, value: Math.round(r.rps), unit: 'req/s' });
      lines.push({ name: `${name}.p50`, value: r.p50, unit: 'ms' });
      lines.push({ name: `${name}.p99`, value: r.p99, unit: 'ms' });
      if (bare && name !== 'bare') {
        lines.push({
          name: `${name}.rps-vs-bare`,
          value: Number((r.rps / bare.rps).toFixed(3)),
          unit: 'ratio',
        });
      }
    }
    const page0 = results['site-list-page-0'];
    const page2000 = results['site-list-page-2000'];
    if (page0 && page2000) {
      const ratio = page2000.p50 / Math.max(page0.p50, 0.001);
      lines.push({
        name: 'site-list.page-2000-vs-page-0.p50',
        value: Number(ratio.toFixed(3)),
        unit: 'ratio',
      });
    }
    for (const line of lines) console.log(JSON.stringify(line));
  } finally {
    target.stop();
  }
}

await main();
