import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build, type Rolldown } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootScript } from './boot-script';

/**
 * A small app: the entry loads a shared module statically and two lazy pages plus a lazy helper;
 * both pages import one widget, which ends up in a chunk of its own.
 */
const APP: Record<string, string> = {
  'index.html':
    '<!doctype html>\n<html>\n  <body>\n    <script type="module" src="/main.ts"></script>\n  </body>\n</html>\n',
  'main.ts': [
    "import { shared } from './shared';",
    'console.log(shared);',
    'const routes: Record<string, () => Promise<unknown>> = {',
    "  about: () => import('./pages/AboutPage'),",
    "  help: () => import('./pages/HelpPage'),",
    "  helper: () => import('./lazy-helper'),",
    '};',
    'void routes[location.pathname.slice(1)]?.();',
  ].join('\n'),
  'shared.ts': "export const shared = 'SHARED';",
  'widget.ts': 'export const widget = (name: string) => `WIDGET ${name}`;',
  'lazy-helper.ts': "export const help = 'HELPER';",
  'pages/AboutPage.tsx':
    "import { shared } from '../shared';\nimport { widget } from '../widget';\nexport default widget('about' + shared);",
  'pages/HelpPage.tsx': "import { widget } from '../widget';\nexport default widget('help');",
  'boot/boot.ts': "(window as unknown as Record<string, boolean>).booted = true;\nconsole.log('BOOTED');",
};

describe('the boot script plugin in a build', () => {
  let root: string;
  let files: Map<string, Rolldown.OutputAsset | Rolldown.OutputChunk>;
  const text = (name: string) => {
    const file = files.get(name);
    if (!file) throw new Error(`${name} not in the build`);
    return file.type === 'asset' ? String(file.source) : file.code;
  };
  const named = (prefix: string) => [...files.keys()].filter((f) => f.startsWith(`assets/${prefix}-`));

  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'boot-script-'));
    for (const [file, source] of Object.entries(APP)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), source);
    }
    const result = (await build({
      root,
      configFile: false,
      logLevel: 'silent',
      plugins: [bootScript(path.join(root, 'boot/boot.ts'))],
      build: { write: false, modulePreload: { polyfill: false } },
    })) as Rolldown.RolldownOutput;
    files = new Map(result.output.map((file) => [file.fileName, file]));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('emits the boot script, bundled and minified, and loads it async before the app', () => {
    const [boot] = named('boot');
    expect(boot).toMatch(/^assets\/boot-[\w-]+\.js$/);
    expect(text(boot!)).toContain('BOOTED');
    expect(text(boot!)).not.toContain('\n  ');
    expect(text('index.html')).toMatch(
      new RegExp(
        `<script async src="/${boot}"></script>\\n    <script type="module"[^>]*src="/assets/index-`,
      ),
    );
  });

  it("lists each lazy page's chunks beyond those index.html loads, and nothing else", () => {
    const [about] = named('AboutPage');
    const [help] = named('HelpPage');
    const [widget] = named('widget');
    expect(JSON.parse(text('page-chunks.json'))).toEqual({
      AboutPage: [`/${about}`, `/${widget}`],
      HelpPage: [`/${help}`, `/${widget}`],
    });
  });
});
