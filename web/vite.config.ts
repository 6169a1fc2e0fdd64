import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { buildSync } from 'esbuild';
import { defineConfig, type Plugin, type Rolldown } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';

/**
 * Installable app (features.md §D): the web manifest and the service worker (web/src/pwa/sw.ts,
 * Workbox). The worker is registered by a few lines in main.tsx after the page has loaded, so no
 * registration code sits in front of the first render.
 */
const pwa = () =>
  VitePWA({
    strategies: 'injectManifest',
    srcDir: 'src/pwa',
    filename: 'sw.ts',
    injectRegister: false,
    // Only small files are precached; the app shell is cached by the worker itself (see sw.ts).
    injectManifest: { globPatterns: ['offline.html', 'favicon.svg', 'icons/*.png'] },
    manifest: {
      id: '/',
      name: 'Campus Market',
      short_name: 'Campus Market',
      description: 'Buy and sell with verified students on your campus.',
      start_url: '/dashboard',
      scope: '/',
      display: 'standalone',
      orientation: 'portrait',
      background_color: '#f4f6f5',
      theme_color: '#18453b',
      icons: [
        { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
        { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
        { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      ],
    },
    devOptions: { enabled: false },
  });

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

type Primitive = string | number | boolean;

/** The contract's exported values, evaluated once at build time (bundled with esbuild). */
function contractValues(): Record<string, unknown> {
  const entry = path.resolve(import.meta.dirname, '../contract/src/index.ts');
  const code = buildSync({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'cjs',
    platform: 'node',
  }).outputFiles[0]!.text;
  const module = { exports: {} as Record<string, unknown> };
  new Function('module', 'exports', 'require', code)(module, module.exports, createRequire(entry));
  return module.exports;
}

const IMPORT_FROM_CONTRACT = /import\s*\{([^}]*)\}\s*from\s*["']@campus\/contract["']/g;

/**
 * Build-only: replaces `MESSAGES.someText`, `LIMITS.listingNameMax`, … (a constant table of the
 * contract, read with a literal key) by the value itself, in every module that imports the table
 * from `@campus/contract`. Whole tables (the messages of every screen: ~7 KB) then stay out of the
 * JavaScript of a page that needs three of their strings; a module that still uses the table as a
 * whole (`MESSAGES[key]`, a message function) keeps importing it. Values are the contract's own.
 */
function inlineContractConstants(): Plugin {
  let values: Record<string, unknown> = {};
  const literal = (value: unknown): string | undefined => {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      return JSON.stringify(value as Primitive);
    return undefined;
  };
  return {
    name: 'campus:inline-contract-constants',
    apply: 'build',
    enforce: 'post',
    buildStart() {
      values = contractValues();
    },
    transform(code, id) {
      if (id.includes('node_modules') || !/\.[jt]sx?$/.test(id) || !code.includes('@campus/contract'))
        return null;
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
        const inlined = literal((values[table] as Record<string, unknown>)[key]);
        if (inlined === undefined) return whole;
        changed = true;
        return inlined;
      });
      return changed ? { code: out, map: null } : null;
    },
  };
}

/** Lazy page modules, by their file name (the names server/src/web/pageChunks.ts uses). */
const PAGE_MODULE = /[\\/](\w+Page)\.tsx$/;

/**
 * Build-only: emits `assets/boot-<hash>.js` (web/src/boot/boot.ts, bundled and minified) and loads
 * it `async` from index.html; on a server-rendered page it starts the app after the first screen.
 * Also writes `page-chunks.json`: each page module's chunk and imports beyond the entry, which the
 * server names in the HTML of that page (server/src/web/pageChunks.ts).
 */
function bootScript(): Plugin {
  const bootFile = path.resolve(import.meta.dirname, 'src/boot/boot.ts');
  return {
    name: 'campus:boot',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const html = bundle['index.html'];
        if (!html || html.type !== 'asset') return;
        const chunks = Object.values(bundle).filter((c): c is Rolldown.OutputChunk => c.type === 'chunk');
        const byFile = new Map(chunks.map((c) => [c.fileName, c]));
        const closure = (file: string, into: Set<string>) => {
          if (into.has(file)) return into;
          into.add(file);
          for (const dep of byFile.get(file)?.imports ?? []) closure(dep, into);
          return into;
        };
        // Already in index.html (entry + its static imports): not repeated.
        const initial = new Set<string>();
        for (const c of chunks) if (c.isEntry) closure(c.fileName, initial);
        const routeChunks: Record<string, string[]> = {};
        for (const c of chunks) {
          const page = c.facadeModuleId ? PAGE_MODULE.exec(c.facadeModuleId)?.[1] : undefined;
          if (!page || !c.isDynamicEntry) continue;
          routeChunks[page] = [...closure(c.fileName, new Set())]
            .filter((f) => !initial.has(f))
            .map((f) => `/${f}`);
        }
        const result = buildSync({
          entryPoints: [bootFile],
          bundle: true,
          minify: true,
          write: false,
          format: 'iife',
          target: 'es2022',
        });
        this.emitFile({ type: 'asset', fileName: 'page-chunks.json', source: JSON.stringify(routeChunks) });
        const ref = this.emitFile({ type: 'asset', name: 'boot.js', source: result.outputFiles[0]!.text });
        const file = this.getFileName(ref);
        html.source = String(html.source).replace(
          /(<script type="module")/,
          `<script async src="/${file}"></script>\n    $1`,
        );
      },
    },
  };
}

function reactRouterBuild(file: string): string {
  const pkg = path.dirname(createRequire(import.meta.url).resolve('react-router/package.json'));
  return path.join(pkg, 'dist', 'production', file);
}

const COMPRESSIBLE = /\.(js|css|html|svg|json)$/;

/**
 * Build-only: writes `file.br` and `file.gz` beside every compressible file of the output (when
 * smaller), at maximum quality, so that the server can send them as they are (e.g. `@fastify/static`
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
        // Small chunks too (a page needs a dozen of them): only where compressing saves bytes.
        const gz = gzipSync(data, { level: 9 });
        const br = brotliCompressSync(data, {
          params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: data.length },
        });
        if (gz.length < data.length) writeFileSync(`${file}.gz`, gz);
        if (br.length < data.length) writeFileSync(`${file}.br`, br);
      }
    },
  };
}

/**
 * `vite build --ssr src/ssr/entry-server.tsx --outDir dist-ssr` builds the server renderer
 * (server/src/web/ loads it): the same app without the browser-only build steps (service worker,
 * boot script, precompressed copies). The contract is TypeScript source, so it is bundled in.
 */
export default defineConfig(({ mode, isSsrBuild }) => ({
  plugins: [
    react(),
    tailwindcss(),
    contractTreeShaking(),
    inlineContractConstants(),
    ...(isSsrBuild ? [] : [pwa(), bootScript(), precompress()]),
  ],
  ssr: { noExternal: ['@campus/contract'] },
  resolve: {
    // React Router's package exports resolve to its development build everywhere; its production
    // build is the same code with the development warnings switched off (dropped by the minifier).
    alias:
      mode === 'production'
        ? [
            { find: /^react-router$/, replacement: reactRouterBuild('index.mjs') },
            { find: /^react-router\/dom$/, replacement: reactRouterBuild('dom-export.mjs') },
          ]
        : [],
  },
  server: { port: 5173, proxy },
  preview: { port: 4173, proxy },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The server renderer needs no copy of public/ (the browser build has it).
    copyPublicDir: !isSsrBuild,
    target: 'es2022',
    sourcemap: false,
    // Every browser the app supports knows <link rel="modulepreload">: no polyfill in the entry.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      treeshake: {
        // The contract's modules only declare constants, functions and (pure, see above) schemas —
        // except zod.ts, which switches Zod to its eval-free parser before any schema exists.
        moduleSideEffects: [
          { test: /[\\/]contract[\\/]src[\\/]zod\.ts$/, sideEffects: true },
          { test: /[\\/]contract[\\/]src[\\/]/, sideEffects: false },
        ],
      },
    },
  },
}));
