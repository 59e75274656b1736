import { fileURLToPath } from 'node:url';
import { createServer, createServerModuleRunner } from 'vite';

/**
 * `npm run test:paths [-- --coverage] [-- --html <folder>] [-- --model <name>]`: see
 * `paths/cli.ts`. The models' drivers run the app's own modules (which import assets and folders
 * the Vite way, as the tests do under vitest), so the command runs through Vite's module runner.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const server = await createServer({
  root,
  configFile: false,
  logLevel: 'error',
  appType: 'custom',
  server: { middlewareMode: true, hmr: false, ws: false },
  optimizeDeps: { noDiscovery: true, include: [] },
});
const runner = createServerModuleRunner(server.environments.ssr, { hmr: false });
try {
  await runner.import(fileURLToPath(new URL('./paths/cli.ts', import.meta.url)));
} finally {
  await runner.close();
  await server.close();
}
