// The real `cutline serve` processes the browser tests talk to, one set per Playwright worker, so
// that two workers never share a server, a lecture or a store. A worker's ports follow from its
// parallel index (which a restarted worker inherits): CUTLINE_PORT (default 8765) + 10 * index,
// then +0 the page's server, +1 a store's server, +2 a server with the smallest lecture limits.
//   CUTLINE_BIN      the binary to start (default ./build/cutline)
//   CUTLINE_WEB_DIR  serve the page from this folder (e.g. web) instead of the embedded copy
const { spawn } = require('child_process');
const os = require('os');
const path = require('path');
const fs = require('fs');

const BIN = process.env.CUTLINE_BIN || './build/cutline';
const BASE_PORT = Number(process.env.CUTLINE_PORT || 8765);

// The index of the worker this module runs in (0 outside a worker, e.g. in the config).
function workerIndex() {
  return Number(process.env.TEST_PARALLEL_INDEX || 0);
}

function ports(index = workerIndex()) {
  const main = BASE_PORT + 10 * index;
  return { main, store: main + 1, limits: main + 2 };
}

// The store file a worker's store server watches (it does not exist until a run creates it).
function storeFile(index = workerIndex()) {
  return path.join(os.tmpdir(), `cutline-browser-store-${ports(index).store}.db`);
}

// Starts `cutline serve --port PORT ...args` and resolves once /api/health answers. It fails
// with the server's own words if the process exits first, and after `timeoutMs` otherwise.
async function startServer(port, args = [], { timeoutMs = 30_000 } = {}) {
  const webDir = process.env.CUTLINE_WEB_DIR ? ['--web-dir', process.env.CUTLINE_WEB_DIR] : [];
  const argv = ['serve', '--host', '127.0.0.1', '--port', String(port), ...webDir, ...args];
  const child = spawn(BIN, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ended = await Promise.race([exited, new Promise((r) => setTimeout(r, 100, null))]);
    if (ended) {
      throw new Error(`${BIN} ${argv.join(' ')} exited (${ended.signal || ended.code}) before it ` +
        `answered /api/health: ${stderr.trim()}`);
    }
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${BIN} ${argv.join(' ')} did not answer /api/health within ${timeoutMs} ms`);
    }
  }
  return {
    url,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

// A store server over a fresh (absent) store file: the server waits for a run to create it.
async function startStoreServer(index = workerIndex()) {
  const file = storeFile(index);
  for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
  const server = await startServer(ports(index).store, ['--store', file]);
  return { ...server, file };
}

// Playwright fixtures for these servers, one set per worker: the page's server (always, and the
// tests' baseURL), the lecture-limits server and the store server (each when a test asks).
const serverFixtures = {
  mainServer: [async ({}, use) => {
    const server = await startServer(ports().main);
    await use(server);
    await server.stop();
  }, { scope: 'worker', auto: true, timeout: 60_000 }],
  limitsServer: [async ({}, use) => {
    const server = await startServer(ports().limits, ['--max-lectures', '1', '--max-students', '1']);
    await use(server);
    await server.stop();
  }, { scope: 'worker', timeout: 60_000 }],
  storeServer: [async ({}, use) => {
    const server = await startStoreServer();
    await use(server);
    await server.stop();
  }, { scope: 'worker', timeout: 60_000 }],
  baseURL: async ({ mainServer }, use) => {
    await use(mainServer.url);
  },
};

module.exports = { BIN, ports, storeFile, startServer, startStoreServer, serverFixtures };
