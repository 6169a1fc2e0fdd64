import { buildSync } from 'esbuild';
import type { Plugin, Rolldown } from 'vite';

/** Lazy page modules, by their file name (the names server/src/web/pageChunks.ts uses). */
const PAGE_MODULE = /[\\/](\w+Page)\.tsx$/;

/**
 * Each lazy page module's chunk and the chunks it imports, minus those index.html already loads
 * (the entry and its static imports), as absolute URLs: what the server adds to that page's HTML.
 */
export function pageChunks(chunks: Rolldown.OutputChunk[]): Record<string, string[]> {
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
  return routeChunks;
}

/**
 * Build-only: emits `assets/boot-<hash>.js` (`bootFile`, i.e. web/src/boot/boot.ts, bundled and
 * minified) and loads it `async` from index.html; on a server-rendered page it starts the app after
 * the first screen. Also writes `page-chunks.json` (see pageChunks), which the server names in the
 * HTML of each page (server/src/web/pageChunks.ts).
 */
export function bootScript(bootFile: string): Plugin {
  return {
    name: 'campus:boot',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const html = bundle['index.html'];
        if (!html || html.type !== 'asset') return;
        const chunks = Object.values(bundle).filter((c): c is Rolldown.OutputChunk => c.type === 'chunk');
        const routeChunks = pageChunks(chunks);
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
