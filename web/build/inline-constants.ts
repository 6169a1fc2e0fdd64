import { createRequire } from 'node:module';
import { buildSync } from 'esbuild';
import type { Plugin } from 'vite';

/** The exported values of a module, by export name. */
export type ModuleValues = Record<string, unknown>;

/** The exports of `entry` (the contract's index), bundled with esbuild and evaluated once at build time. */
export function evaluateModule(entry: string): ModuleValues {
  const code = buildSync({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'cjs',
    platform: 'node',
  }).outputFiles[0]!.text;
  const module = { exports: {} as ModuleValues };
  new Function('module', 'exports', 'require', code)(module, module.exports, createRequire(entry));
  return module.exports;
}

const IMPORT_FROM_CONTRACT = /import\s*\{([^}]*)\}\s*from\s*["']@campus\/contract["']/g;

const literal = (value: unknown): string | undefined => {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return JSON.stringify(value);
  return undefined;
};

/**
 * Replaces `TABLE.key` by the literal value of `values[TABLE][key]` in `code`, for every constant
 * table `code` imports from `@campus/contract` under its own name. A table is a plain object with
 * an upper-case name (not a schema, array or function); only string, number and boolean entries
 * are inlined. Unknown keys, computed access (`TABLE[key]`), calls (`TABLE.fn()`) and tables
 * imported under another name are left alone. Returns null when nothing changed.
 */
export function inlineConstants(code: string, values: ModuleValues): string | null {
  const tables = new Set<string>();
  for (const m of code.matchAll(IMPORT_FROM_CONTRACT)) {
    for (const spec of m[1]!.split(',')) {
      const name = spec.trim();
      // Plain objects only (not schemas, arrays or functions), imported under their own name.
      const value = values[name];
      if (/^[A-Z][A-Z0-9_]*$/.test(name) && value && Object.getPrototypeOf(value) === Object.prototype)
        tables.add(name);
    }
  }
  if (tables.size === 0) return null;
  const access = new RegExp(
    `(?<![\\w$.])(${[...tables].join('|')})\\.([A-Za-z_$][\\w$]*)(?![\\w$]|\\s*\\()`,
    'g',
  );
  let changed = false;
  const out = code.replace(access, (whole, table: string, key: string) => {
    const inlined = literal((values[table] as ModuleValues)[key]);
    if (inlined === undefined) return whole;
    changed = true;
    return inlined;
  });
  return changed ? out : null;
}

/**
 * Build-only: replaces `MESSAGES.someText`, `LIMITS.listingNameMax`, … (a constant table of the
 * contract, read with a literal key) by the value itself, in every module that imports the table
 * from `@campus/contract`. Whole tables (the messages of every screen: ~7 KB) then stay out of the
 * JavaScript of a page that needs three of their strings; a module that still uses the table as a
 * whole (`MESSAGES[key]`, a message function) keeps importing it. Values are the contract's own:
 * `loadValues` evaluates the contract at the start of each build.
 */
export function inlineContractConstants(loadValues: () => ModuleValues): Plugin {
  let values: ModuleValues = {};
  return {
    name: 'campus:inline-contract-constants',
    apply: 'build',
    enforce: 'post',
    buildStart() {
      values = loadValues();
    },
    transform(code, id) {
      if (id.includes('node_modules') || !/\.[jt]sx?$/.test(id) || !code.includes('@campus/contract'))
        return null;
      const out = inlineConstants(code, values);
      return out === null ? null : { code: out, map: null };
    },
  };
}
