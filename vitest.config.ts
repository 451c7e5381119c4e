import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Unit and API tests (the browser suite runs under Playwright, see pwa/playwright.config.ts).
export default defineConfig({
  test: {
    include: ['db/src/**/*.test.ts', 'api/src/**/*.test.ts', 'scripts/**/*.test.ts', 'pwa/src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: on a 2-core machine one file at a time,
    // while most API suites wait on sockets (servers, PostgreSQL, SMTP). Two workers there took the
    // suite on both databases from 449 to 297 s (CHANGELOG, session 8).
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
