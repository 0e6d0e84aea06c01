import { defineConfig } from 'vitest/config';

// One suite of API tests, run twice: on embedded PGlite and on the real PostgreSQL server.
export default defineConfig({
  test: {
    // Two workers even on a 2-core machine: API test files spend much of their time waiting on PostgreSQL or
    // on imports, and the e2e and resilience projects stay one file at a time (fileParallelism: false). The
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
          // Real server processes against real PostgreSQL: two servers on one database, faults, shutdown.
          name: 'resilience',
          include: ['tests/resilience/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          // Calls between real networks: namespaces, symmetric NATs, our coturn relay, Chromium on each side.
          name: 'netlab',
          include: ['tests/netlab/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/e2e/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
