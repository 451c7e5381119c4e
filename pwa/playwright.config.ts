// Browser end-to-end suite: Debian's Chromium (no downloaded browser) against the real server,
// started on a fresh database with the demo company (see e2e/support/e2e-server.ts).
import { defineConfig, devices } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = process.env.BASE_URL ?? `http://localhost:${port}`;
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export default defineConfig({
  testDir: './e2e',
  outputDir: './e2e/artifacts/results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL,
    screenshot: 'only-on-failure',
    // Recording a trace of every test took about a third of the suite's time on the 2-core machines
    // (24.4 to 16.7 minutes, CHANGELOG session 23); E2E_TRACE=1 keeps one for each failed test.
    trace: process.env.E2E_TRACE === '1' ? 'retain-on-failure' : 'off',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], viewport: { width: 1440, height: 900 }, channel: undefined } }],
  webServer: process.env.BASE_URL
    ? undefined
    : {
        command: 'npm run build && node --import tsx pwa/e2e/support/e2e-server.ts',
        cwd: '..',
        url: `${baseURL}/api/health`,
        timeout: 240_000,
        reuseExistingServer: !process.env.CI,
        stdout: 'pipe',
        stderr: 'pipe',
      },
});
