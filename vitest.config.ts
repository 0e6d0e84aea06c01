import { defineConfig } from 'vitest/config';

/** Browser test files that time the page (a tap to the product on screen under 6× CPU throttling). */
const E2E_ALONE = ['tests/e2e/first-tap.test.ts'];

// One suite of API tests, run twice: on embedded PGlite and on the real PostgreSQL server.
export default defineConfig({
  test: {
    // Two workers even on a 2-core machine: API test files spend much of their time waiting on PostgreSQL or
    // on imports, the browser tests run two files at a time too, and the network lab and
    // the timed browser tests one file at a time, after the rest (fileParallelism: false). The
    // API files share each worker's modules (isolate: false): every file builds its own app and database, so
    // nothing carries over but the import, which was 90 s of the run.
    maxWorkers: 2,
    projects: [
      {
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node' },
      },
      {
        test: {
          name: 'api-pglite',
          include: ['tests/api/**/*.test.ts'],
          // *.pg.test.ts prove concurrency, which PGlite (one connection) cannot: PostgreSQL only.
          exclude: ['tests/api/**/*.pg.test.ts'],
          env: { TEST_DB: 'pglite' },
          isolate: false,
          globalSetup: ['tests/support/pglite-template.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'api-pg',
          include: ['tests/api/**/*.test.ts'],
          env: { TEST_DB: 'pg' },
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          // Real server processes against real PostgreSQL: two servers on one database, faults, shutdown. Each
          // file makes its own databases (the fault tests their own cluster), so they run beside other files.
          name: 'resilience',
          include: ['tests/resilience/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          // Calls between real networks: namespaces, symmetric NATs, our coturn relay, Chromium on each side.
          // Alone, after the rest: its media figures (concealment, time to the first frame after a network
          // switch) are about the network, not about a second test file competing for the two cores.
          name: 'netlab',
          include: ['tests/netlab/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          // Browser tests, two files at a time: each worker has its own production server and database
          // (support/global-setup.ts), so one server's files still run one after another.
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          exclude: E2E_ALONE,
          globalSetup: ['tests/e2e/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          // Browser tests that time the page under CPU throttling: alone, after the rest, so the figure is the
          // page's and not the other worker's.
          name: 'e2e-alone',
          include: E2E_ALONE,
          globalSetup: ['tests/e2e/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
