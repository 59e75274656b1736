import setup from './migrated-database.ts';
const c0 = process.cpuUsage();
await setup();
const c = process.cpuUsage(c0);
console.log('setup cpu', Math.round((c.user + c.system) / 1000), process.env.FLEET_TEST_MIGRATED_PGLITE);
process.exit(0);
