import { defineConfig, devices } from '@playwright/test';
import { BASE_URL, SERVERS, appPort } from './support/ports.js';

export default defineConfig({
  testDir: './tests',
  outputDir: './artifacts/results',
  timeout: 180_000,
  expect: { timeout: 10_000 },
  // Spec files run side by side, each worker against its own server (support/ports.ts).
  fullyParallel: false,
  workers: SERVERS,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list'], ['json', { outputFile: 'artifacts/report.json' }]] : [['list']],
  use: {
    baseURL: BASE_URL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: Array.from({ length: SERVERS }, (_, server) => ({
    command: 'npx tsx support/serve.ts',
    env: { E2E_SERVER: String(server) },
    url: `http://127.0.0.1:${appPort(server)}/healthz`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'pipe' as const,
    stderr: 'pipe' as const,
  })),
});
