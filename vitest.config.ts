import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

// Three groups: framework-free code in Node, React views in jsdom, and the
// end-to-end suite (real server, real Chromium) one file at a time.
export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
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
            testTimeout: 120_000,
            hookTimeout: 300_000,
          },
        },
      ],
    },
  }),
);
