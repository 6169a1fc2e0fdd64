import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'server/src/**/*.test.ts',
      'contract/src/**/*.test.ts',
      'web/src/**/*.test.ts',
      'web/build/**/*.test.ts',
      'bench/**/*.test.ts',
    ],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // Two cores: more workers only fight over argon2 and the databases.
    maxWorkers: 2,
    fileParallelism: true,
    reporters: process.env.CI
      ? ['default', ['json', { outputFile: 'test-results/vitest.json' }]]
      : ['default'],
  },
});
