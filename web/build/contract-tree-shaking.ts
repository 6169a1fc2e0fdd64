import type { Plugin } from 'vite';

/** A module of the shared contract (its source files; the contract ships as TypeScript). */
const CONTRACT_FILE = /[\\/]contract[\\/]src[\\/][^\\/]+\.ts$/;

/** The contract's one Zod (contract/src/zod.ts), which switches Zod to its eval-free parser. */
const ZOD_FILE = /[\\/]contract[\\/]src[\\/]zod\.ts$/;

/** zod.ts's switch, as compiled: `if ('document' in globalThis) z.config({ jitless: true });`. */
const ZOD_SWITCH = /^if \((["'])document\1 in globalThis\) (z\.config\(\{ jitless: true \}\));$/m;

/** A contract module's import of that Zod, as compiled. */
const ZOD_IMPORT = /^import \{ z \} from (["'])\.\/zod\.js\1;$/m;

/**
 * zod.ts with its switch turned into `ensureJitless()`, which each schema of the contract calls
 * just before it is built (see `markTopLevelCallsPure`'s `before`). The switch then goes wherever a
 * schema goes and nowhere else: zod.ts can be side-effect free for the bundler, and a module that
 * imports it but keeps no schema (trust.ts read for TRUST_MESSAGES by a profile page) no longer
 * makes a page evaluate all of Zod. Throws when zod.ts no longer reads as expected, so a change
 * there cannot silently lose the switch (and the CSP with it).
 */
export function deferZodSwitch(code: string): string {
  if (!ZOD_SWITCH.test(code)) {
    throw new Error(
      'contract/src/zod.ts changed: update deferZodSwitch (web/build/contract-tree-shaking.ts)',
    );
  }
  return code.replace(
    ZOD_SWITCH,
    (_line, quote: string, call: string) =>
      `let jitless = false;\nexport function ensureJitless() {\n  if (jitless) return;\n  jitless = true;\n  if (${quote}document${quote} in globalThis) ${call};\n}`,
  );
}

interface Span {
  type: string;
  start: number;
  end: number;
}
interface Declarator {
  init?: Span | null;
}
interface TopLevelNode extends Span {
  declaration?: (Span & { declarations?: Declarator[] }) | null;
  declarations?: Declarator[];
}
/** The part of an ESTree program this rewrite reads: top-level statements and their offsets. */
export interface ProgramBody {
  body: TopLevelNode[];
}

/**
 * Wraps the initialiser of every top-level `const x = call(…)` (exported or not) of `code` in a
 * pure-annotated IIFE; everything else, nested declarations included, is left as it is. Returns
 * null when there is nothing to wrap, so the caller can keep the module untouched.
 */
export function markTopLevelCallsPure(code: string, program: ProgramBody, before = ''): string | null {
  const spans: Span[] = [];
  for (const node of program.body) {
    const declaration = node.type === 'ExportNamedDeclaration' ? node.declaration : node;
    if (declaration?.type !== 'VariableDeclaration') continue;
    for (const declarator of declaration.declarations ?? []) {
      if (declarator.init?.type === 'CallExpression') spans.push(declarator.init);
    }
  }
  if (spans.length === 0) return null;
  let out = code;
  // Back to front, so the offsets of the spans still to rewrite stay valid.
  for (const span of spans.sort((a, b) => b.start - a.start)) {
    const init = before ? `(${before}, ${out.slice(span.start, span.end)})` : out.slice(span.start, span.end);
    out = `${out.slice(0, span.start)}/* @__PURE__ */ (() => ${init})()${out.slice(span.end)}`;
  }
  return out;
}

/**
 * Build-only: wraps every top-level `const x = call(…)` of the shared contract (its Zod schemas)
 * in a pure-annotated IIFE. Semantics are unchanged, but the bundler may now drop schemas a chunk
 * does not use, so importing MESSAGES/TIMINGS does not drag Zod into the initial JS
 * (design §6: initial JS < 150 KB gzipped). Pages that do use a schema still get it.
 */
export function contractTreeShaking(): Plugin {
  return {
    name: 'campus:contract-tree-shaking',
    apply: 'build',
    enforce: 'post',
    transform(code, id) {
      if (!CONTRACT_FILE.test(id)) return null;
      if (ZOD_FILE.test(id)) return { code: deferZodSwitch(code), map: null };
      // A module building schemas with the contract's Zod sets its switch before each of them.
      const usesZod = ZOD_IMPORT.test(code);
      const source = usesZod
        ? code.replace(ZOD_IMPORT, 'import { z, ensureJitless } from $1./zod.js$1;')
        : code;
      const program = this.parse(source) as unknown as ProgramBody;
      const out = markTopLevelCallsPure(source, program, usesZod ? 'ensureJitless()' : '');
      return out === null ? null : { code: out, map: null };
    },
  };
}
