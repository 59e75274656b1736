import { createServer, type ServiceSelection } from './create-server.ts';
import { DEMO_ACCOUNTS } from './db/seed.ts';
import { EnvError, parseEnv } from './env.ts';
import { drainOnShutdown, SHUTDOWN_GRACE_MS } from './http/graceful-shutdown.ts';
import { listen } from './http/listen.ts';
import { startSimulatedDevices } from './service-comms/simulated-devices-child.ts';

function readServiceFlag(argv: string[]): ServiceSelection {
  const index = argv.indexOf('--service');
  if (index === -1) return 'all';
  const value = argv[index + 1];
  if (value === 'config' || value === 'monitoring') return value;
  throw new EnvError(`--service must be "config" or "monitoring", not "${value ?? ''}"`);
}

async function main(): Promise<void> {
  const env = parseEnv(process.env);
  // Whatever the server writes (embedded database, signing keys) is for its own user only.
  process.umask(0o077);
  const services = readServiceFlag(process.argv.slice(2));
  if (services !== 'all' && !env.DATABASE_URL) {
    throw new EnvError(
      `DATABASE_URL is required with --service ${services}: the embedded database (PGlite) serves one process only, so a split deployment needs a real PostgreSQL`,
    );
  }
  const server = await createServer({ env, services });
  const http = listen(server.app.fetch, { port: env.PORT }, env, () => {
    const where = `http://localhost:${env.PORT}`;
    const running = services === 'all' ? 'app, /config and /monitoring' : `${services} service`;
    console.log(`Fleet Manager listening on ${where}`);
    console.log(`Serving: ${running}`);
    console.log(
      `Database: ${env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${env.DATA_DIR}/pglite`}`,
    );
    if (server.seeded) console.log('Seeded the demo data into an empty database.');
    if (!server.demo) return;
    console.log('Demo sign-ins (local development only):');
    for (const account of DEMO_ACCOUNTS)
      console.log(`  ${account.role.padEnd(9)} ${account.email} / ${account.password}`);
  });
  // Devices connect to the configuration service over a WebSocket on the same port.
  if (services !== 'monitoring') server.ctx.comms.attach(http);
  const simulated =
    services !== 'monitoring' && env.SIMULATED_DEVICES && server.demo
      ? startSimulatedDevices(env.DATA_DIR, env.PORT)
      : undefined;
  const shutdown = drainOnShutdown(
    http,
    async () => {
      simulated?.kill('SIGTERM');
      await server.close();
    },
    SHUTDOWN_GRACE_MS,
    () => {
      server.ctx.monitoring.live.endStreams();
      server.ctx.monitoring.fleet.endStreams();
      // At once, beside the requests finishing: devices store what they sent, then go elsewhere.
      server
        .handOverDevices()
        .catch((error: unknown) => console.error('[service-comms] handing devices over failed:', error));
    },
  );
  const stop = (signal: NodeJS.Signals) => {
    console.log(`${signal}: no new connections; finishing the requests in flight, then closing the database`);
    shutdown().then(
      ({ inFlight, finished }) => {
        console.log(
          finished
            ? `Stopped: ${inFlight} request(s) in flight finished, database closed.`
            : `Stopped: requests still running after ${SHUTDOWN_GRACE_MS / 1000} s were cut off, database closed.`,
        );
        process.exit(0);
      },
      (error: unknown) => {
        console.error('Shutdown failed:', error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof EnvError ? error.message : error);
  process.exit(1);
});
