import { availableParallelism } from 'node:os';
import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

// The groups: framework-free code in Node, React views in jsdom (dom, and dom-alone for the few
// that need a page of their own), and the end-to-end suite (real server, real Chromium) one file at
// a time. `npm test` runs the end-to-end group beside the others (tests/run-suite.ts).

/**
 * Views tested against what a module keeps for the whole life of a page (the start-up's deferred
 * work, once hurried, stays hurried): each of these files gets a page and modules of its own.
 */
const PAGE_OF_THEIR_OWN = ['tests/app/toasts-wait.test.tsx', 'tests/app/when-idle.test.ts'];

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      // A worker per core, not vitest's one fewer: on 2 cores that would be one file at a time,
      // and most files spend much of their time waiting on sockets, a child process or PGlite.
      maxWorkers: availableParallelism(),
      // `expect.poll` waits for a state the app or server reaches by itself; its default of 1 s is
      // shorter than a busy machine may take to get there (as testing-library's is, dom-setup.ts).
      expect: { poll: { timeout: 10_000 } },
      // After the usual report, where the time went by group (tests/reporters/group-times.ts).
      reporters: ['default', './tests/reporters/group-times.ts'],
      projects: [
        {
          extends: true,
          test: {
            name: 'node',
            environment: 'node',
            include: ['tests/**/*.test.ts'],
            exclude: ['tests/e2e/**', 'tests/app/**'],
            globalSetup: ['tests/server/migrated-database.ts'],
            // A worker's files share one module graph instead of each importing the whole server
            // again (that import was most of the group's time). Nothing here keeps state between
            // files at module level: every server, database and clock is made per test, and no
            // file mocks a module, stubs a global it does not restore or sets the environment.
            isolate: false,
            testTimeout: 30_000,
            hookTimeout: 120_000,
          },
        },
        {
          extends: true,
          test: {
            name: 'dom',
            environment: 'jsdom',
            include: ['tests/app/**/*.test.{ts,tsx}'],
            exclude: PAGE_OF_THEIR_OWN,
            globalSetup: ['tests/server/migrated-database.ts'],
            // As in the node group, a worker's files share one module graph and one page: each
            // file imported React, Mantine, the app and PGlite again (compiling PGlite's WebAssembly
            // each time), about a third of the group's time. Each file leaves the page as it found
            // it (tests/app/each-file.ts).
            isolate: false,
            setupFiles: ['tests/app/each-file.ts'],
            testTimeout: 30_000,
          },
        },
        {
          extends: true,
          test: {
            name: 'dom-alone',
            environment: 'jsdom',
            include: PAGE_OF_THEIR_OWN,
            testTimeout: 30_000,
          },
        },
        {
          extends: true,
          test: {
            name: 'e2e',
            environment: 'node',
            include: ['tests/e2e/**/*.test.ts'],
            globalSetup: ['tests/e2e/global-setup.ts'],
            fileParallelism: false,
            // The files run one after another in one worker: sharing its module graph spares each
            // file importing Playwright and the helpers again (about 1.7 s a file). The helpers keep
            // no state of one file for the next (the one cached value, service-calls.ts's app
            // config, is the one server's); each file connects and closes its own browser.
            isolate: false,
            testTimeout: 120_000,
            hookTimeout: 300_000,
          },
        },
      ],
    },
  }),
);
