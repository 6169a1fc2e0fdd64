import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

/** Target of the dev-server proxy: the Fastify server of the `server` workspace. */
const API_TARGET = 'http://localhost:3000';

/**
 * API paths proxied in development. Regular expressions (keys starting with ^) so that e.g.
 * `/listing` does not swallow a page route and `/dev` does not match `/devtools`.
 */
const API_PATH_PATTERN = '^/(public|users|listing|listings|api|uploads|healthz|dev)(/|\\?|$)';

const proxy = {
  [API_PATH_PATTERN]: { target: API_TARGET, changeOrigin: false },
  '/ws': { target: API_TARGET, ws: true, changeOrigin: false },
};

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

/**
 * Build-only: wraps every top-level `const x = call(…)` of the shared contract (its Zod schemas)
 * in a pure-annotated IIFE. Semantics are unchanged, but the bundler may now drop schemas a chunk
 * does not use, so importing MESSAGES/TIMINGS does not drag Zod into the initial JS
 * (design §6: initial JS < 150 KB gzipped). Pages that do use a schema still get it.
 */
function contractTreeShaking(): Plugin {
  return {
    name: 'campus:contract-tree-shaking',
    apply: 'build',
    enforce: 'post',
    transform(code, id) {
      if (!CONTRACT_FILE.test(id)) return null;
      const program = this.parse(code) as unknown as { body: TopLevelNode[] };
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
      for (const span of spans.sort((a, b) => b.start - a.start)) {
        out = `${out.slice(0, span.start)}/* @__PURE__ */ (() => ${out.slice(span.start, span.end)})()${out.slice(span.end)}`;
      }
      return { code: out, map: null };
    },
  };
}

const COMPRESSIBLE = /\.(js|css|html|svg|json)$/;

/**
 * Build-only: writes `file.br` and `file.gz` beside every compressible file of the output (at least
 * 1 KB), at maximum quality, so that the server can send them as they are (e.g. `@fastify/static`
 * with `preCompressed: true`) instead of compressing on each request. Without compression the
 * initial JS + CSS is ~3x larger on the wire, which dominates mobile Lighthouse FCP/LCP.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'campus:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((name) => {
          const file = path.join(dir, name);
          return statSync(file).isDirectory() ? walk(file) : [file];
        });
      for (const file of walk(outDir)) {
        if (!COMPRESSIBLE.test(file)) continue;
        const data = readFileSync(file);
        if (data.length < 1024) continue;
        writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(data, {
            params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: data.length },
          }),
        );
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), contractTreeShaking(), precompress()],
  server: { port: 5173, proxy },
  preview: { port: 4173, proxy },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    rolldownOptions: {
      treeshake: {
        // The contract's modules only declare constants, functions and (pure, see above) schemas.
        moduleSideEffects: [{ test: /[\\/]contract[\\/]src[\\/]/, sideEffects: false }],
      },
    },
  },
});
