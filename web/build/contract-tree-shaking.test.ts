import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build, parseAst, type Plugin, type Rolldown } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import {
  contractTreeShaking,
  deferZodSwitch,
  markTopLevelCallsPure,
  type ProgramBody,
} from './contract-tree-shaking';

const mark = (code: string) => markTopLevelCallsPure(code, parseAst(code) as unknown as ProgramBody);

describe('marking top-level call initialisers pure', () => {
  it('wraps each top-level call initialiser, exported or not, in a pure IIFE', () => {
    const code = [
      "import { z } from 'zod';",
      'export const schema = z.object({ a: z.string() });',
      'const local = make(1), plain = 2, other = make(3);',
    ].join('\n');
    expect(mark(code)).toBe(
      [
        "import { z } from 'zod';",
        'export const schema = /* @__PURE__ */ (() => z.object({ a: z.string() }))();',
        'const local = /* @__PURE__ */ (() => make(1))(), plain = 2, other = /* @__PURE__ */ (() => make(3))();',
      ].join('\n'),
    );
  });

  it('leaves literals, nested declarations, bare calls and other code alone', () => {
    const code = [
      'export const LIMITS = { max: 5, min: make(0) };',
      'export const pick = () => make(1);',
      'export function f() { const inner = make(2); return inner; }',
      'make(3);',
      'export const chained = schema.optional;',
    ].join('\n');
    expect(mark(code)).toBeNull();
  });
});

/** The code of every chunk a small vite build of `root/main.ts` writes, joined. */
async function bundle(root: string, plugins: Plugin[]): Promise<string> {
  const result = (await build({
    root,
    configFile: false,
    logLevel: 'silent',
    plugins,
    build: { write: false, minify: false, rolldownOptions: { input: path.join(root, 'main.ts') } },
  })) as Rolldown.RolldownOutput;
  return result.output.map((file) => (file.type === 'chunk' ? file.code : '')).join('\n');
}

describe('the contract tree-shaking plugin in a build', () => {
  let root: string;
  const write = (file: string, lines: string[]) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), lines.join('\n'));
  };
  beforeAll(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'tree-shaking-'));
    // Each module builds a value with a side effect the bundler can see: kept unless marked pure.
    const effect = (fn: string) => [
      `function ${fn}(tag: string) {`,
      '  (globalThis as Record<string, unknown>).seen = tag;',
      '  return { tag };',
      '}',
    ];
    write('contract/src/schemas.ts', [
      ...effect('buildSchema'),
      "export const schema = buildSchema('SCHEMA_BUILT');",
      'export const LIMIT = 41;',
    ]);
    write('lib/tracking.ts', [...effect('track'), "export const tracked = track('OUTSIDE_KEPT');"]);
    write('main.ts', [
      "import './lib/tracking';",
      "import { LIMIT } from './contract/src/schemas';",
      'console.log(LIMIT);',
    ]);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('keeps an unused contract schema without the plugin', async () => {
    expect(await bundle(root, [])).toContain('SCHEMA_BUILT');
  });

  it('lets the bundler drop a contract schema the page does not use, and nothing else', async () => {
    const shaken = await bundle(root, [contractTreeShaking()]);
    expect(shaken).not.toContain('SCHEMA_BUILT');
    expect(shaken).toContain('console.log(41)');
    // Outside the contract a top-level call stays, side effect and all.
    expect(shaken).toContain('OUTSIDE_KEPT');
  });
});

describe("zod.ts's switch to the eval-free parser", () => {
  const ZOD_SOURCE = readFileSync(path.resolve(import.meta.dirname, '../../contract/src/zod.ts'), 'utf8');

  it('becomes ensureJitless(), run once, in the browser only', () => {
    const code = deferZodSwitch(ZOD_SOURCE);
    expect(code).not.toMatch(/^if \(/m);
    const calls: unknown[] = [];
    const run = (globals: object) =>
      new Function(
        'z',
        'globalThis',
        `${code.replace(/^import .*$/m, '').replace(/^export (\{ z \};)?/gm, '')}; ensureJitless(); ensureJitless();`,
      )({ config: (c: unknown) => calls.push(c) }, globals);
    run({});
    expect(calls).toEqual([]);
    run({ document: {} });
    expect(calls).toEqual([{ jitless: true }]);
  });

  it('refuses a zod.ts it does not recognise, rather than lose the switch', () => {
    expect(() => deferZodSwitch("import { z } from 'zod';\nz.config({});\nexport { z };")).toThrow(
      /zod\.ts changed/,
    );
  });

  it('is set before each schema is built, and a page that keeps no schema has neither', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'zod-switch-'));
    try {
      const write = (file: string, lines: string[]) => {
        mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
        writeFileSync(path.join(root, file), lines.join('\n'));
      };
      write('lib/fake-zod.ts', [
        'export const z = {',
        '  config(c: object) { (globalThis as Record<string, unknown>).SWITCHED = c; },',
        '  object(shape: object) { (globalThis as Record<string, unknown>).BUILT = shape; return shape; },',
        '};',
      ]);
      write('contract/src/zod.ts', [ZOD_SOURCE.replace(/from 'zod'/, "from '../../lib/fake-zod'")]);
      write('contract/src/deals.ts', [
        "import { z } from './zod.js';",
        "export const MESSAGES = { hello: 'HELLO_READ' };",
        'export const schema = z.object({ a: 1 });',
      ]);
      write('main.ts', ["import { MESSAGES } from './contract/src/deals';", 'console.log(MESSAGES.hello);']);
      const plugins = [contractTreeShaking()];
      const constantsOnly = await bundle(root, plugins);
      expect(constantsOnly).toContain('HELLO_READ');
      expect(constantsOnly).not.toContain('jitless');
      expect(constantsOnly).not.toContain('BUILT');

      write('main.ts', ["import { schema } from './contract/src/deals';", 'console.log(schema);']);
      const withSchema = await bundle(root, plugins);
      expect(withSchema).toContain('jitless: true');
      expect(withSchema).toMatch(/\(ensureJitless\(\), z\.object\(/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
