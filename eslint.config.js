import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Server modules talk through each other's front door (docs/architecture.md): a file in
 * server/src/<a>/ may import another module's `index.js` and the shared infrastructure folders,
 * never another module's inner files. Files at server/src/ itself (app.ts, the one place that
 * wires modules, context.ts, config.ts, events.ts, main.ts) and test files are outside the rule.
 */
const SHARED_FOLDERS = ['http', 'db', 'jobs'];
const FRONT_DOOR_MESSAGE =
  "Import another server module through its index.js only (its front door); see docs/architecture.md, 'Server modules'.";

/** The no-restricted-imports pattern for a file `depth` folders below server/src/. */
function crossModulePattern(depth) {
  const up = '\\.\\./'.repeat(depth);
  const shared = `(?!(?:${SHARED_FOLDERS.join('|')})/)`;
  return { regex: `^${up}${shared}[\\w-]+/(?!index\\.js$)`, message: FRONT_DOOR_MESSAGE };
}

const TEST_FILES = ['server/src/**/*.test.ts', 'server/src/**/testing.ts'];

const frontDoorRules = [
  ...[1, 2].map((depth) => ({
    files: [`server/src/${'*/'.repeat(depth)}*.ts`],
    ignores: TEST_FILES,
    rules: { 'no-restricted-imports': ['error', { patterns: [crossModulePattern(depth)] }] },
  })),
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/dist-ssr/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      'e2e/artifacts/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  ...frontDoorRules,
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
);
