import { startTestServer } from './harness.ts';
const c0 = process.cpuUsage(); const t0 = performance.now();
const s = await startTestServer();
const c = process.cpuUsage(c0);
console.log(process.env.FLEET_TEST_MIGRATED_PGLITE ? 'from dump' : 'fresh', 'start cpu', Math.round((c.user + c.system) / 1000), 'wall', Math.round(performance.now() - t0));
await s.close();
process.exit(0);
