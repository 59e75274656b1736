import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { filesUnder } from './src/prerender/files-under.ts';
import { prerenderPages } from './src/prerender/prerender-plugin.ts';
import {
  classesTheAppCanSet,
  keepUsedMantineRules,
  MANTINE_CLASS,
} from './src/prerender/used-mantine-rules.ts';

const COMPRESSIBLE = /\.(js|mjs|css|html|json|svg|txt|wasm|webmanifest)$/;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * Writes `file.br` (brotli, best quality) and `file.gz` (gzip -9) beside every compressible file
 * of the build, once, so the server negotiates instead of compressing per request. A copy that
 * would not be smaller is not written. Runs last, after the service worker is generated. The
 * files are compressed side by side on libuv's threads: brotli's best quality is about half of a
 * build's time (13.5 s of 26 for 5.4 MB on one thread).
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'fleet:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const files = filesUnder(outDir).filter((f) => COMPRESSIBLE.test(f));
        await Promise.all(
          files.map(async (file) => {
            const source = await readFile(file);
            const copies = {
              br: await brotli(source, {
                params: {
                  [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                  [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
                },
              }),
              gz: await gzipped(source, { level: 9 }),
            };
            for (const [suffix, copy] of Object.entries(copies)) {
              if (copy.length < source.length) await writeFile(`${file}.${suffix}`, copy);
            }
          }),
        );
      },
    },
  };
}

/**
 * Mantine's whole sheet (`src/styles/mantine-all.css`) without the rules of the components the
 * app never uses: about 40% of it goes (248 KB → 144 KB before compression), which the open
 * screens and the signed-in shell download and apply. What the app can use is read from its
 * sources at build (every `@mantine/core` import, followed through Mantine's modules), so the
 * sheet's file name hashes what it holds. The build fails if its code names a class whose rule
 * was dropped.
 */
function keepUsedMantine(): Plugin {
  const SHEET = '/src/styles/mantine-all.css';
  let used: Set<string> | undefined;
  const dropped = new Set<string>();
  return {
    name: 'fleet:keep-used-mantine',
    apply: 'build',
    transform(code, id) {
      if (id.split('?')[0]?.endsWith(SHEET) !== true) return;
      used ??= classesTheAppCanSet(
        join(import.meta.dirname, 'src'),
        join(import.meta.dirname, 'node_modules/@mantine'),
      );
      for (const name of code.match(MANTINE_CLASS) ?? []) if (!used.has(name)) dropped.add(name);
      return { code: keepUsedMantineRules(code, used), map: null };
    },
    generateBundle(_options, bundle) {
      for (const file of Object.values(bundle)) {
        if (file.type !== 'chunk') continue;
        const lost = [...new Set(file.code.match(MANTINE_CLASS) ?? [])].filter((name) => dropped.has(name));
        if (lost.length > 0)
          this.error(`${file.fileName} sets ${lost.join(', ')}, whose rules ${SHEET} dropped`);
      }
    },
  };
}

/**
 * Lets the browser fetch what the first screen needs while the entry script downloads, instead
 * of one round trip after another: the app's code, which the entry imports once the page has
 * been painted (`src/app/start-app.tsx`), the login route's chunk and their imports
 * (modulepreload), and `/app-config.json`, which the app reads before its first render (a
 * preload matching the app's own `fetch`: same URL, CORS mode, same-origin credentials).
 * The scripts at low priority: they are needed after the first paint, not for it, and the
 * browser (and Lighthouse's model of it) would otherwise treat them as holding the paint up.
 */
function preloadSignIn(): Plugin {
  const FIRST_MODULES = ['/src/app/start-app.tsx', '/src/routes/login.tsx'];
  return {
    name: 'fleet:preload-sign-in',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle ?? {};
        const chunks = Object.values(bundle).filter((file) => file.type === 'chunk');
        const first = chunks.filter((chunk) =>
          chunk.moduleIds.some((id) => FIRST_MODULES.some((module) => id.endsWith(module))),
        );
        const files = new Set<string>();
        const visit = (fileName: string) => {
          if (files.has(fileName)) return;
          files.add(fileName);
          const chunk = bundle[fileName];
          if (chunk?.type === 'chunk') for (const next of chunk.imports) visit(next);
        };
        for (const chunk of first) visit(chunk.fileName);
        const tags = [...files]
          .filter((file) => !html.includes(`/${file}"`))
          .map((file) => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, fetchpriority: 'low', href: `/${file}` },
            injectTo: 'head' as const,
          }));
        return {
          html,
          tags: [
            {
              tag: 'link',
              attrs: { rel: 'preload', href: '/app-config.json', as: 'fetch', crossorigin: 'anonymous' },
              injectTo: 'head-prepend',
            },
            ...tags,
          ],
        };
      },
    },
  };
}

// The router plugin must come before the React plugin so that route files are
// split and transformed before JSX is compiled. The build's prerendering bundles the app with
// these same two, so route code is split alike there.
const appPlugins = () => [
  tanstackRouter({
    target: 'react',
    routesDirectory: 'src/routes',
    generatedRouteTree: 'src/route-tree.gen.ts',
    autoCodeSplitting: true,
    // Loaders in chunks of their own too: a route file's loader pulls in its feature's API calls
    // and contracts (zod), which the sign-in screen must not load. What stays in the route tree
    // (path, guard, validateSearch) imports only small modules.
    codeSplittingOptions: {
      // The sign-in screen is the first thing a phone loads: it stays in the entry chunk, so
      // its components arrive in one file rather than a dozen small ones.
      splitBehavior: ({ routeId }) => (routeId === '/login' ? [] : undefined),
      defaultBehavior: [
        ['loader'],
        ['component'],
        ['pendingComponent'],
        ['errorComponent'],
        ['notFoundComponent'],
      ],
    },
  }),
  react(),
];

export default defineConfig({
  plugins: [
    ...appPlugins(),
    keepUsedMantine(),
    VitePWA({
      // Our own worker (src/service-worker/sw.ts): it answers each path with its prerendered page.
      strategies: 'injectManifest',
      srcDir: 'src/service-worker',
      filename: 'sw.ts',
      // A new version waits until the person chooses "Reload to update" (src/app-status/).
      registerType: 'prompt',
      injectRegister: false,
      manifest: false,
      injectManifest: {
        // The pages, every chunk, the codec and the bundled devices lists and forms from public/.
        globPatterns: ['**/*.{js,css,html,json,wasm,svg,png,ico}'],
        // Except the API reference's viewer (about 0.35 MB brotli): only those who open `/api`
        // download it, when they do, rather than every phone on install.
        globIgnores: ['**/swagger-ui*'],
      },
    }),
    preloadSignIn(),
    // After the files are written and before the service worker lists them (closeBundle).
    prerenderPages({ plugins: appPlugins }),
    precompress(),
  ],
  // No source maps in the build: they are not shipped, and the server refuses *.map anyway.
  build: {
    outDir: 'dist',
    sourcemap: false,
    modulePreload: { polyfill: false },
    // The codec's WebAssembly stays a file of its own: the Content-Security-Policy lets the page
    // fetch only from its own origin, so a `data:` URL would be refused (and it caches apart).
    assetsInlineLimit: (file) => (file.endsWith('.wasm') ? false : undefined),
  },
  server: {
    // In development the services run on the server process (npm start); the
    // app asks them through the same paths it uses in production.
    proxy: {
      '/config': 'http://localhost:8080',
      '/monitoring': 'http://localhost:8080',
      '/app-config.json': 'http://localhost:8080',
    },
  },
});
