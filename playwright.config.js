// Browser tests of the page (tests/browser), run against the real `cutline serve`: each worker
// starts servers of its own (tests/browser/servers.js), so the two workers share nothing.
//   CUTLINE_BIN      the binary to start (default ./build/cutline)
//   CUTLINE_WEB_DIR  serve the page from this folder (e.g. web) instead of the embedded copy
//   CUTLINE_PORT     the first worker's first port (default 8765; each worker takes ten)
//   CUTLINE_BROWSER_WORKERS  how many workers (default 2, one per core of the machines it runs on)
const { defineConfig } = require('@playwright/test');

module.exports = defineConfig({
  testDir: './tests/browser',
  outputDir: './test-results',
  workers: Number(process.env.CUTLINE_BROWSER_WORKERS || 2),
  // A file's tests run in order in one worker (store.spec.js builds on its own earlier runs);
  // files are shared out between the workers.
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    headless: true,
    viewport: { width: 1280, height: 800 },
    screenshot: 'only-on-failure',
    trace: 'off',
    acceptDownloads: true,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium-headless-shell',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
});
