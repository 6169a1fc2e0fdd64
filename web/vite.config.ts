import { createRequire } from 'node:module';
import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';
import { bootScript } from './build/boot-script';
import { contractTreeShaking } from './build/contract-tree-shaking';
import { evaluateModule, inlineContractConstants } from './build/inline-constants';
import { precompress } from './build/precompress';

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
const API_PATH_PATTERN = '^/(public|auth|users|listing|listings|api|uploads|healthz|dev)(/|\\?|$)';

const proxy = {
  [API_PATH_PATTERN]: { target: API_TARGET, changeOrigin: false },
  '/ws': { target: API_TARGET, ws: true, changeOrigin: false },
};

/** The shared contract, evaluated at build time for the constants pages read (see inline-constants.ts). */
const CONTRACT_ENTRY = path.resolve(import.meta.dirname, '../contract/src/index.ts');

/** The script that starts the app on a server-rendered page (see boot-script.ts). */
const BOOT_FILE = path.resolve(import.meta.dirname, 'src/boot/boot.ts');

function reactRouterBuild(file: string): string {
  const pkg = path.dirname(createRequire(import.meta.url).resolve('react-router/package.json'));
  return path.join(pkg, 'dist', 'production', file);
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
    inlineContractConstants(() => evaluateModule(CONTRACT_ENTRY)),
    ...(isSsrBuild ? [] : [pwa(), bootScript(BOOT_FILE), precompress()]),
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
      output: {
        codeSplitting: {
          groups: [
            // Zod (and contract/zod.ts, which configures it) is used by forms and some pages,
            // never by the first render: left to itself, the bundler merged it into the API
            // client's shared chunk, so every first visit downloaded ≈ 21 KB it never ran. The
            // contract keeps schemas apart from what every page reads (session.ts,
            // selling-rules.ts) so no first-render module imports this chunk.
            { name: 'zod', test: /[\\/](node_modules[\\/]zod[\\/]|contract[\\/]src[\\/]zod\.ts$)/ },
          ],
        },
      },
      treeshake: {
        // The contract's modules only declare constants, functions and (pure, see build/) schemas.
        // zod.ts's switch to Zod's eval-free parser runs from each schema as it is built
        // (build/contract-tree-shaking.ts), so zod.ts is side-effect free too: a page whose
        // modules read constants from a schema module (trust.ts, selling.ts…) evaluates no Zod.
        moduleSideEffects: [{ test: /[\\/]contract[\\/]src[\\/]/, sideEffects: false }],
      },
    },
  },
}));
