import { defineConfig } from 'vitest/config';

// Every time bound in the suite is a fixed figure: a test's timeout is how long to wait before calling it stuck,
// set for a 2-core machine under the whole suite's load; a bound on the product's speed is a figure a broken
// product fails and a slow machine passes; a product timer's bound is the timer plus a fixed slack. Nothing is
// scaled by a measured machine speed.

// One suite of API tests, run twice: on embedded PGlite and on the real PostgreSQL server.
export default defineConfig({
  test: {
    // Two workers even on a 2-core machine: API test files spend much of their time waiting on PostgreSQL or
    // on imports. The browser tests and the network lab run one file at a time, after the rest
    // (fileParallelism: false). The API files share each worker's modules (isolate: false): every file builds
    // its own app and database, so nothing carries over but the import, which was 90 s of the run.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
          // A stuck-test limit, not a speed bound: the PDF tests lay out fonts for seconds on a loaded machine.
          testTimeout: 30_000,
        },
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
          testTimeout: 150_000,
          hookTimeout: 150_000,
        },
      },
      {
        test: {
          name: 'api-pg',
          include: ['tests/api/**/*.test.ts'],
          env: { TEST_DB: 'pg' },
          isolate: false,
          // Each file's database is a copy of one migrated template (tests/support/pg-template.ts).
          globalSetup: ['tests/support/pg-template.ts'],
          testTimeout: 150_000,
          hookTimeout: 150_000,
        },
      },
      {
        test: {
          // Real server processes against real PostgreSQL: two servers on one database, faults, shutdown. Each
          // file makes its own databases (the fault tests their own cluster), so they run beside other files.
          name: 'resilience',
          include: ['tests/resilience/**/*.test.ts'],
          testTimeout: 300_000,
          hookTimeout: 420_000,
        },
      },
      {
        test: {
          // Calls between real networks: namespaces, symmetric NATs, our coturn relay, Chromium on each side.
          // Alone, after the rest: its media figures (concealment, time to the first frame after a network
          // switch) are about the network, not about a second test file competing for the two cores.
          name: 'netlab',
          include: ['tests/netlab/**/*.test.ts'],
          testTimeout: 300_000,
          hookTimeout: 420_000,
          fileParallelism: false,
          // After every file of the groups before it has finished (groupOrder), not merely after the parallel ones.
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          // Browser tests, one file at a time, after the rest: one file's browser, production server and
          // worker already keep both cores of a 2-core machine busy (88% of them, measured), so a second file
          // beside it only made both slower. On such a machine six files took 196 s one at a time and
          // 211 s two at a time, and only the latter timed out (a test past its 66 s while its CPU went to the
          // other file). It also lets the files that time the page (first-tap.test.ts: a tap to the product
          // under 6× CPU throttling) time the page, not a neighbour.
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/e2e/support/global-setup.ts'],
          // The files share the worker's modules (playwright's client, axe, the support files): every file opens
          // its own contexts and closes them, and no support module keeps state between files.
          isolate: false,
          testTimeout: 150_000,
          hookTimeout: 300_000,
          fileParallelism: false,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
