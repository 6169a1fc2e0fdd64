import type { Plugin } from 'vite';

/** A module of the shared contract (its source files; the contract ships as TypeScript). */
const CONTRACT_FILE = /[\\/]contract[\\/]src[\\/][^\\/]+\.ts$/;

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
export function markTopLevelCallsPure(code: string, program: ProgramBody): string | null {
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
    out = `${out.slice(0, span.start)}/* @__PURE__ */ (() => ${out.slice(span.start, span.end)})()${out.slice(span.end)}`;
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
      const out = markTopLevelCallsPure(code, this.parse(code) as unknown as ProgramBody);
      return out === null ? null : { code: out, map: null };
    },
  };
}
