import { defineConfig } from 'vitest/config';

// Unit and API tests (the browser suite runs under Playwright, see pwa/playwright.config.ts).
export default defineConfig({
  test: {
    include: ['db/src/**/*.test.ts', 'api/src/**/*.test.ts', 'scripts/**/*.test.ts', 'pwa/src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
