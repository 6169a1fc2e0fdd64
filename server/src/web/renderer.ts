/**
 * Loads the web app's server renderer (web/dist-ssr/entry-server.js, built by `npm run build -w
 * web`) and turns its output into the page: the built index.html with the first screen's markup in
 * `#root` and the query state it was rendered from beside it.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PageRender, PageRenderInput } from '@campus/contract';
import type { PageChunks } from './pageChunks.js';

/** Same id as web/src/ssr/state.ts. */
const STATE_ID = 'cm-ssr-state';
const ROOT = '<div id="root"></div>';

export interface PageRenderer {
  /** The finished HTML of `url`, or null when the browser should render it (logged out, failure). */
  page(input: PageRenderInput): Promise<string | null>;
}

/** JSON inside `<script type="application/json">`: no `<` may close the element or open a comment. */
function scriptSafe(json: string): string {
  return json.replace(/</g, '\\u003c');
}

const ENTRY = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/;
const PRELOAD = /<link rel="modulepreload" crossorigin href="([^"]+)">\s*/g;
const BOOT = /<script async src="([^"]+)"><\/script>/;

/**
 * A rendered page paints from its HTML and CSS; its JavaScript only makes it interactive. So the
 * page does not load the app's scripts itself: their addresses go on the boot script's tag, and the
 * boot script starts them once the first screen (and its photo) is on the glass — on a slow link
 * the stylesheet and the photo come first, and the paint never waits for script evaluation. The
 * page's own chunks (`pageChunks`) join the entry's imports there. A shell without the expected
 * tags is served as it is (the scripts then load as usual).
 */
export function deferAppScripts(html: string, pageChunks: readonly string[] = []): string {
  const entry = ENTRY.exec(html)?.[1];
  const boot = BOOT.exec(html)?.[1];
  if (!entry || !boot) return html;
  const imports = [...[...html.matchAll(PRELOAD)].map((m) => m[1]!), ...pageChunks];
  return html
    .replace(ENTRY, '')
    .replace(PRELOAD, '')
    .replace(
      BOOT,
      () => `<script async src="${boot}" data-entry="${entry}" data-preload="${imports.join(' ')}"></script>`,
    );
}

/** The renderer for a web build, or null when the build has no server renderer. */
export async function loadRenderer(webDist: string, pageChunks: PageChunks): Promise<PageRenderer | null> {
  const entry = path.resolve(webDist, '../dist-ssr/entry-server.js');
  const indexFile = path.join(webDist, 'index.html');
  if (!existsSync(entry) || !existsSync(indexFile)) return null;
  const shell = readFileSync(indexFile, 'utf8');
  if (!shell.includes(ROOT)) return null;
  // One template per page: they differ only in the page's chunks on the boot script's tag.
  const templates = new Map<string, string>();
  const templateFor = (chunks: readonly string[]) => {
    const key = chunks.join(' ');
    let template = templates.get(key);
    if (template === undefined) {
      template = deferAppScripts(shell, chunks).replace('<html lang="en">', '<html lang="en" data-ssr="">');
      templates.set(key, template);
    }
    return template;
  };
  const { render } = (await import(pathToFileURL(entry).href)) as { render: PageRender };
  return {
    async page(input) {
      const out = await render(input);
      if (!out) return null;
      return templateFor(pageChunks(input.url)).replace(
        ROOT,
        // A function, so that `$&` or `$'` in a listing's text is not a replacement pattern.
        () =>
          `<div id="root">${out.html}</div><script type="application/json" id="${STATE_ID}">${scriptSafe(out.state)}</script>`,
      );
    },
  };
}
