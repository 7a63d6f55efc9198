// Browser tests of the page (tests/browser), run against the real `cutline serve`.
//   CUTLINE_BIN      the binary to start (default ./build/cutline)
//   CUTLINE_WEB_DIR  serve the page from this folder (e.g. web) instead of the embedded copy
//   CUTLINE_PORT     port for the server (default 8765)
const os = require('os');
const path = require('path');
const { defineConfig } = require('@playwright/test');

const PORT = Number(process.env.CUTLINE_PORT || 8765);
// A second server shows a runtime's store (tests/browser/store.spec.js); the
// test's cluster run writes the store while the page watches.
const STORE_PORT = PORT + 1;
const STORE_FILE = path.join(os.tmpdir(), `cutline-browser-store-${STORE_PORT}.db`);
process.env.CUTLINE_STORE_PORT = String(STORE_PORT);
process.env.CUTLINE_STORE_FILE = STORE_FILE;
// A third server with the smallest lecture limits, whose refusals lecture.spec.js tests.
const LIMITS_PORT = PORT + 2;
process.env.CUTLINE_LIMITS_PORT = String(LIMITS_PORT);
const BIN = process.env.CUTLINE_BIN || './build/cutline';
const WEB_DIR = process.env.CUTLINE_WEB_DIR ? ` --web-dir ${process.env.CUTLINE_WEB_DIR}` : '';

module.exports = defineConfig({
  testDir: './tests/browser',
  outputDir: './test-results',
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    headless: true,
    viewport: { width: 1280, height: 800 },
    screenshot: 'only-on-failure',
    trace: 'off',
    acceptDownloads: true,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: [{
    command: `${BIN} serve --host 127.0.0.1 --port ${PORT}${WEB_DIR}`,
    url: `http://127.0.0.1:${PORT}/api/health`,
    reuseExistingServer: false,
    timeout: 30_000,
    stdout: 'ignore',
    stderr: 'pipe',
  }, {
    // The store does not exist yet: the server waits for a run to create it.
    command: `rm -f ${STORE_FILE} ${STORE_FILE}-wal ${STORE_FILE}-shm && ` +
      `${BIN} serve --host 127.0.0.1 --port ${STORE_PORT}${WEB_DIR} --store ${STORE_FILE}`,
    url: `http://127.0.0.1:${STORE_PORT}/api/health`,
    reuseExistingServer: false,
    timeout: 30_000,
    stdout: 'ignore',
    stderr: 'pipe',
  }, {
    command: `${BIN} serve --host 127.0.0.1 --port ${LIMITS_PORT}${WEB_DIR} --max-lectures 1 --max-students 1`,
    url: `http://127.0.0.1:${LIMITS_PORT}/api/health`,
    reuseExistingServer: false,
    timeout: 30_000,
    stdout: 'ignore',
    stderr: 'pipe',
  }],
});
