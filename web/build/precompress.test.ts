import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { build } from 'vite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { precompress, precompressDir } from './precompress';

/** Text that compresses well: a few hundred repeated lines. */
const text = (line: string) => `${line}\n`.repeat(300);

describe('precompressing the build output', () => {
  let dir: string;
  const file = (name: string) => path.join(dir, name);
  const write = (name: string, data: string | Buffer) => {
    mkdirSync(path.dirname(file(name)), { recursive: true });
    writeFileSync(file(name), data);
  };
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'precompress-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes .br and .gz beside every compressible file, in subfolders too, holding the same bytes', () => {
    const sources: Record<string, string> = {
      'index.html': text('<p>Campus Market</p>'),
      'assets/app.js': text('console.log("campus");'),
      'assets/deep/style.css': text('.a { color: red; }'),
      'icon.svg': text('<path d="M0 0h24v24H0z"/>'),
      'page-chunks.json': JSON.stringify({ AboutPage: Array(200).fill('/assets/AboutPage.js') }),
    };
    for (const [name, data] of Object.entries(sources)) write(name, data);
    precompressDir(dir);
    for (const [name, data] of Object.entries(sources)) {
      expect(gunzipSync(readFileSync(file(`${name}.gz`))).toString(), name).toBe(data);
      expect(brotliDecompressSync(readFileSync(file(`${name}.br`))).toString(), name).toBe(data);
      expect(readFileSync(file(`${name}.br`)).length, name).toBeLessThan(data.length);
    }
  });

  it('writes no copy of a file compression would not shrink, nor of other file types', () => {
    write('tiny.js', 'x');
    write('photo.png', text('not really a picture'));
    write('robots.txt', text('User-agent: *'));
    precompressDir(dir);
    expect(readdirSync(dir).sort()).toEqual(['photo.png', 'robots.txt', 'tiny.js']);
  });

  it('runs over the output folder once a build has written it', async () => {
    write(
      'src/index.html',
      `<!doctype html>\n<script type="module" src="./main.ts"></script>\n${text('<p>Hi</p>')}`,
    );
    write(
      'src/main.ts',
      `export const lines = ${JSON.stringify(text('campus market'))};\nconsole.log(lines);\n`,
    );
    await build({
      root: file('src'),
      configFile: false,
      logLevel: 'silent',
      plugins: [precompress()],
      build: { outDir: file('out'), emptyOutDir: true, modulePreload: { polyfill: false } },
    });
    const assets = readdirSync(file('out/assets'));
    const js = assets.find((name) => name.endsWith('.js'))!;
    expect(assets).toEqual(expect.arrayContaining([`${js}.br`, `${js}.gz`]));
    expect(existsSync(file('out/index.html.gz'))).toBe(true);
    expect(existsSync(file('out/index.html.br'))).toBe(true);
  });
});
