import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Server tests that build no app and open no database (pure functions, the STOMP server on a bare
 * HTTP server, Fastify hooks with a stub context). A server test not listed here runs in `app`, so
 * a new file is never skipped: list it here only once it needs neither createTestApp nor a database.
 */
const SERVER_UNIT_TESTS = [
  'server/src/chat/message-kinds.test.ts',
  'server/src/chat/stomp/frame.test.ts',
  'server/src/chat/stomp/limits.test.ts',
  'server/src/chat/stomp/server-bad-frames.test.ts',
  'server/src/chat/stomp/server-connect.test.ts',
  'server/src/chat/stomp/server-frames.test.ts',
  'server/src/chat/stomp/server-heart-beats.test.ts',
  'server/src/http/auth.test.ts',
  'server/src/http/params.test.ts',
  'server/src/http/request-logger.test.ts',
  'server/src/listings/search/fuse-score.test.ts',
  'server/src/listings/search/piece-verify.test.ts',
  'server/src/listings/search/search-index.test.ts',
];

/**
 * Two projects, both run by `vitest run` (npm run test:unit): `unit` needs no app, database or
 * Redis and finishes in seconds (`npx vitest run --project unit`); `app` is every test that builds
 * the app through server/test/helper.ts or opens a database.
 */
export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // Two cores: more workers only fight over argon2 and the databases.
    maxWorkers: 2,
    fileParallelism: true,
    reporters: process.env.CI
      ? ['default', ['json', { outputFile: 'test-results/vitest.json' }]]
      : ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            'contract/src/**/*.test.ts',
            'web/src/**/*.test.ts',
            'web/build/**/*.test.ts',
            'bench/**/*.test.ts',
            ...SERVER_UNIT_TESTS,
          ],
        },
      },
      {
        extends: true,
        test: {
          name: 'app',
          // deploy/: the nginx cluster (two server processes behind nginx, PostgreSQL + Redis).
          include: ['server/src/**/*.test.ts', 'deploy/**/*.test.ts'],
          // Migrates the template databases every test app copies, once per run.
          globalSetup: ['server/test/global-setup.ts'],
          // Each test file builds its own apps on its own databases and keeps no state in modules,
          // so a worker imports the server once and runs file after file on it; importing the
          // whole app anew for every file was the largest single cost of the suite.
          isolate: false,
          exclude: [...configDefaults.exclude, ...SERVER_UNIT_TESTS],
        },
      },
    ],
  },
});
