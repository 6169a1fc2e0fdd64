/**
 * `npm run bench:web`: Lighthouse on every main page of the production build, as a phone on a slow
 * network would see it.
 *
 * - Builds the web app (skip with BENCH_SKIP_BUILD=1), seeds the demo data into a fresh DATA_DIR
 *   (`npm run seed:demo`), starts the real server (NODE_ENV=production) and waits until the photos'
 *   responsive variants exist (the seed queues them; the server's job worker makes them).
 * - Logs in as a demo student (POST /public/login); a second demo student writes to them about one
 *   of their listings over STOMP, so the inbox and a chat room have content.
 * - For each page, BENCH_RUNS (3) runs, each a true first visit: a fresh Chromium (/usr/bin/chromium
 *   or CHROME_PATH) with an empty profile, and before the navigation Lighthouse empties the HTTP
 *   cache and the origin's service workers, Cache Storage and IndexedDB (FIRST_VISIT below; the run
 *   fails if a service worker is still registered when it starts). The public pages (/ and /login)
 *   are visited as a visitor; the others logged in: the token is put in localStorage (and its
 *   cookie set) before any page script runs. localStorage and cookies are not cleared: they hold
 *   the login, not cached code.
 * - Lighthouse's default config: mobile form factor and screen, simulated Slow 4G and 4x CPU.
 * - Prints, per page, the median run (by performance score): performance, LCP, CLS, TBT, FCP,
 *   accessibility, best practices, and the JavaScript the visit downloaded (bytes on the wire,
 *   Brotli as the server sends it; requests).
 *
 * Prints the table and saves it to bench/results/web.md; BENCH_DOC=1 also puts it between the web
 * markers of docs/performance.md (lib/report.ts).
 *
 * BENCH_TRACES=dir keeps each run's trace with CPU samples (for finding what a long task runs).
 * BENCH_PAGES=/,/dashboard limits the pages; BENCH_PORT (3190) the port; BENCH_REPORTS=dir keeps
 * every run's full Lighthouse report (JSON) there.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@stomp/stompjs';
import Database from 'better-sqlite3';
import lighthouse, { type Flags } from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { WebSocket } from 'ws';
import { DEMO_PASSWORD } from '../../server/src/seed/data.js';
import { productionEnv, startAppServer, type AppServer } from '../lib/app-server.js';
import { repoRoot as ROOT } from '../lib/paths.js';
import { commandLine, measuredOn, writeReport } from '../lib/report.js';

const PORT = Number(process.env.BENCH_PORT ?? 3190);
const BASE = `http://localhost:${PORT}`;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const DOMAIN = 'msu.edu';
// Two demo students of the default campus: the demo seed deals its students round its campuses
// (server/src/seed/seed.ts), the first and third to the default one.
const ME = `maya.chen.demo@${DOMAIN}`;
const PEER = `priya.patel.demo@${DOMAIN}`;

/**
 * What Lighthouse clears before each navigation (Storage.clearDataForOrigin; it also empties the
 * HTTP cache). Its default leaves IndexedDB; named here so a first visit stays one even if that
 * default changes. Not local_storage or cookies: those carry the login of the logged-in pages.
 */
const FIRST_VISIT: Pick<Flags, 'disableStorageReset' | 'clearStorageTypes'> = {
  disableStorageReset: false,
  clearStorageTypes: ['file_systems', 'shader_cache', 'service_workers', 'cache_storage', 'indexeddb'],
};

const TARGETS = { performance: 98, lcpMs: 2000, cls: 0, accessibility: 100, bestPractices: 100 };

interface Run {
  performance: number;
  accessibility: number;
  bestPractices: number;
  lcp: number;
  fcp: number;
  tbt: number;
  cls: number;
  jsBytes: number;
  jsRequests: number;
  /** Audits of accessibility and best practices that failed, and the LCP element: what to fix. */
  findings: string[];
  /** Lighthouse's own failure (e.g. NO_NAVSTART), when the run measured nothing. */
  runtimeError?: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): void {
  const r = spawnSync(cmd, args, { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status})`);
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 300_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check().catch(() => false)) return;
    await sleep(500);
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function api<T>(pathname: string, init: RequestInit & { token?: string } = {}): Promise<T> {
  const headers = new Headers(init.headers);
  if (init.token) headers.set('Authorization', `Bearer ${init.token}`);
  if (init.body) headers.set('Content-Type', 'application/json');
  const res = await fetch(`${BASE}${pathname}`, { ...init, headers });
  if (!res.ok) throw new Error(`${pathname}: ${res.status} ${await res.text()}`);
  const type = res.headers.get('content-type') ?? '';
  return (type.includes('json') ? await res.json() : await res.text()) as T;
}

const login = (email: string) =>
  api<string>('/public/login', { method: 'POST', body: JSON.stringify({ email, password: DEMO_PASSWORD }) });

/** The peer asks about one of my listings: three messages over STOMP, as the web app sends them. */
async function startChat(peerToken: string, myId: number, peerId: number, listingId: number): Promise<void> {
  const client = new Client({
    webSocketFactory: () => new WebSocket(`ws://localhost:${PORT}/ws`, ['v12.stomp']),
    connectHeaders: { Authorization: `Bearer ${peerToken}` },
    reconnectDelay: 0,
    debug: () => {},
  });
  await new Promise<void>((resolve, reject) => {
    client.onConnect = () => resolve();
    client.onStompError = (f) => reject(new Error(f.headers['message']));
    client.activate();
  });
  for (const content of [
    'Hi! Is this still available?',
    'I could pick it up tomorrow after class.',
    'Would $5 less work?',
  ]) {
    await new Promise<void>((resolve) => {
      const receipt = `r-${Math.random()}`;
      client.watchForReceipt(receipt, () => resolve());
      client.publish({
        destination: `/app/chat.send/${peerId}/${myId}`,
        body: JSON.stringify({ content, listingId }),
        headers: { receipt },
      });
    });
  }
  await client.deactivate();
}

async function measure(url: string, token: string | null): Promise<Run> {
  const browser = await puppeteer.launch({
    executablePath: CHROME,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
  try {
    const page = await browser.newPage();
    if (token) {
      // As after a login in the web app: the token in localStorage and its cookie, which lets the
      // server render the page's first screen.
      await browser.setCookie({ name: 'cm_token', value: token, domain: 'localhost', path: '/' });
      await page.evaluateOnNewDocument((t: string) => {
        (
          globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }
        ).localStorage.setItem('token', t);
      }, token);
    }
    // A fresh profile has no service worker; checked, because a warm one would answer the page's
    // scripts from its cache and the run would measure a repeat visit.
    const cdp = await page.createCDPSession();
    await cdp.send('ServiceWorker.enable');
    const registered = await new Promise<number>((resolve) => {
      cdp.once('ServiceWorker.workerRegistrationUpdated', (e: { registrations: unknown[] }) =>
        resolve(e.registrations.length),
      );
      setTimeout(() => resolve(0), 500);
    });
    await cdp.detach();
    if (registered > 0) throw new Error(`${url}: a service worker is registered before the first visit`);
    const result = await lighthouse(
      url,
      {
        logLevel: 'error',
        output: 'json',
        onlyCategories: ['performance', 'accessibility', 'best-practices'],
        ...FIRST_VISIT,
      },
      // BENCH_TRACES: the trace with the CPU profiler's samples too, to see which code a long task ran.
      process.env.BENCH_TRACES
        ? {
            extends: 'lighthouse:default',
            settings: { additionalTraceCategories: 'disabled-by-default-v8.cpu_profiler' },
          }
        : undefined,
      page,
    );
    const lhr = result?.lhr;
    if (process.env.BENCH_TRACES && result) {
      mkdirSync(process.env.BENCH_TRACES, { recursive: true });
      const name = `${new URL(url).pathname.replace(/[^a-z0-9]+/gi, '_') || '_'}-${Date.now()}.trace.json`;
      writeFileSync(path.join(process.env.BENCH_TRACES, name), JSON.stringify(result.artifacts.Trace));
    }
    if (!lhr) throw new Error(`no Lighthouse result for ${url}`);
    if (process.env.BENCH_REPORTS) {
      mkdirSync(process.env.BENCH_REPORTS, { recursive: true });
      const name = `${new URL(url).pathname.replace(/[^a-z0-9]+/gi, '_') || '_'}-${Date.now()}.json`;
      writeFileSync(path.join(process.env.BENCH_REPORTS, name), JSON.stringify(lhr));
    }
    const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const numeric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
    const requests =
      (lhr.audits['network-requests']?.details as { items?: Array<Record<string, unknown>> } | undefined)
        ?.items ?? [];
    const scripts = requests.filter((r) => r.resourceType === 'Script');
    const findings: string[] = [];
    for (const category of ['accessibility', 'best-practices']) {
      for (const ref of lhr.categories[category]?.auditRefs ?? []) {
        const audit = lhr.audits[ref.id];
        if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1)
          findings.push(`${category}: ${ref.id}`);
      }
    }
    const lcpItems = (
      lhr.audits['largest-contentful-paint-element']?.details as
        { items?: Array<{ items?: Array<{ node?: { snippet?: string } }> }> } | undefined
    )?.items;
    const lcpNode = lcpItems?.[0]?.items?.[0]?.node?.snippet;
    if (lcpNode) findings.push(`LCP element: ${lcpNode.slice(0, 140)}`);
    return {
      findings,
      runtimeError: lhr.runtimeError?.code,
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      lcp: numeric('largest-contentful-paint'),
      fcp: numeric('first-contentful-paint'),
      tbt: numeric('total-blocking-time'),
      cls: numeric('cumulative-layout-shift'),
      jsBytes: scripts.reduce((n, r) => n + Number(r.transferSize ?? 0), 0),
      jsRequests: scripts.length,
    };
  } finally {
    await browser.close();
  }
}

function median(runs: Run[]): Run {
  const sorted = [...runs].sort((a, b) => a.performance - b.performance || b.lcp - a.lcp);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function main(): Promise<void> {
  const env = { ...process.env };
  if (!process.env.BENCH_SKIP_BUILD) run('npm', ['run', 'build', '-w', 'web'], env);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cm-bench-web-'));
  // The browser's origin is localhost (the token cookie and the CSP name it); SQLite, whatever
  // database this shell points at, so the demo seed and the server share DATA_DIR's database.
  const jwtSecret = 'bench-web-secret-0123456789-0123456789';
  const appEnv = { DATA_DIR: dataDir, ALLOWED_EMAIL_DOMAINS: DOMAIN };
  const unset = ['DATABASE_URL', 'REDIS_URL'];
  const seedEnv: NodeJS.ProcessEnv = {
    ...env,
    ...appEnv,
    ...productionEnv({ jwtSecret, port: PORT, host: 'localhost' }),
  };
  for (const name of unset) delete seedEnv[name];
  run('npx', ['tsx', 'server/src/seed/demo.ts'], seedEnv);
  let server: AppServer | null = null;
  // Also on an abrupt exit: no server left holding the port.
  process.on('exit', () => server?.child.kill('SIGTERM'));
  try {
    server = await startAppServer({
      jwtSecret,
      port: PORT,
      host: 'localhost',
      env: appEnv,
      unset,
      stdout: 'inherit',
      timeoutMs: 300_000,
    });
    // The demo photos' AVIF/WebP variants are made by the server's job worker; measure once they exist.
    const db = new Database(path.join(dataDir, 'market.db'), { readonly: true, fileMustExist: true });
    const started = Date.now();
    await waitFor(
      async () =>
        (
          db
            .prepare(`select count(*) as n from jobs where type like 'media.%' and failed_at is null`)
            .get() as {
            n: number;
          }
        ).n === 0,
      'the photo variants',
      600_000,
    );
    db.close();
    console.log(`Photo variants ready after ${((Date.now() - started) / 1000).toFixed(0)} s.`);

    const token = await login(ME);
    const peerToken = await login(PEER);
    const me = await api<{ id: number }>(`/users/info?email=${encodeURIComponent(ME)}`, { token });
    const peer = await api<{ id: number }>(`/users/info?email=${encodeURIComponent(PEER)}`, {
      token: peerToken,
    });
    const mine = await api<Array<{ id: number; imageUrl: string | null }>>('/listings/self', { token });
    const listing = mine.find((l) => l.imageUrl) ?? mine[0];
    if (!listing) throw new Error('the demo student has no listing');
    await startChat(peerToken, me.id, peer.id, listing.id);
    const rooms = await api<Array<{ roomKey: string }>>('/api/chats', { token });
    const room = rooms[0];
    if (!room) throw new Error('no chat room');

    const pages: Array<[string, boolean]> = [
      ['/', false],
      ['/login', false],
      ['/dashboard', true],
      ['/all_listings', true],
      [`/single_listing/${listing.id}`, true],
      ['/inbox', true],
      ['/addlisting', true],
      [`/chat/${room.roomKey}`, true],
    ];
    const only = process.env.BENCH_PAGES?.split(',');
    const rows: Array<[string, Run, Run[]]> = [];
    for (const [page, loggedIn] of pages) {
      if (only && !only.some((p) => page === p || page.startsWith(`${p}/`))) continue;
      const runs: Run[] = [];
      for (let i = 0; i < RUNS; i += 1) {
        // Lighthouse sometimes fails to record the trace (NO_NAVSTART): such a run measured nothing,
        // so it is run again (at most twice) instead of counting as a zero.
        let run = await measure(`${BASE}${page}`, loggedIn ? token : null);
        for (let retry = 0; retry < 2 && run.runtimeError; retry += 1) {
          console.log(`${page}: ${run.runtimeError}; running it again`);
          run = await measure(`${BASE}${page}`, loggedIn ? token : null);
        }
        runs.push(run);
      }
      const m = median(runs);
      rows.push([page, m, runs]);
      console.log(
        `${page}: performance ${runs.map((r) => r.performance).join(' / ')}, LCP ${runs.map((r) => (r.lcp / 1000).toFixed(2)).join(' / ')} s`,
      );
    }

    const report = [
      measuredOn(commandLine('bench:web', ['BENCH_', 'CHROME_PATH'])),
      `Lighthouse 12 (mobile preset: Slow 4G, 4x CPU, simulated), median of ${RUNS} runs by performance, each a first visit (no HTTP cache, Cache Storage or service worker); / and /login as a visitor, the others logged in.`,
      '',
      '| page | performance | LCP | CLS | TBT | FCP | accessibility | best practices | JS downloaded (requests) |',
      '|---|---|---|---|---|---|---|---|---|',
    ];
    let met = true;
    for (const [page, m] of rows) {
      const ok =
        m.performance >= TARGETS.performance &&
        m.lcp <= TARGETS.lcpMs &&
        m.cls <= TARGETS.cls &&
        m.accessibility >= TARGETS.accessibility &&
        m.bestPractices >= TARGETS.bestPractices;
      met &&= ok;
      report.push(
        `| \`${page.replace(/\/\d+$/, '/:id').replace(/\/chat\/.+$/, '/chat/:room')}\` | ${m.performance} | ${(m.lcp / 1000).toFixed(2)} s | ${m.cls.toFixed(3)} | ${Math.round(m.tbt)} ms | ${(m.fcp / 1000).toFixed(2)} s | ${m.accessibility} | ${m.bestPractices} | ${(m.jsBytes / 1000).toFixed(1)} KB (${m.jsRequests}) |`,
      );
    }
    const findings = rows.flatMap(([page, m]) => m.findings.map((finding) => `- ${page}: ${finding}`));
    report.push(
      ...(findings.length ? ['', ...findings] : []),
      '',
      `Targets: performance ≥ ${TARGETS.performance}, LCP ≤ ${TARGETS.lcpMs / 1000} s, CLS ${TARGETS.cls}, accessibility ${TARGETS.accessibility}, best practices ${TARGETS.bestPractices}: ${met ? 'met on every page' : 'NOT met on every page'}.`,
    );
    writeReport('web', report.join('\n'));
  } finally {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
