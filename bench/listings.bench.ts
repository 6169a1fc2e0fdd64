/**
 * Listings benchmark (`npm run bench`): seeds 100,000 listings, then through the real server
 * (its own process: `node --import tsx server/src/main.ts`, as in production) measures
 *   - search latency p50/p95/p99 (mixed queries, without and with category/price filters),
 *   - filter latency p50/p95/p99 (GET /listings/filters, bucket and category mixes),
 *   - requests/second of GET /listings/recent and GET /listing/{id} with a real bearer token,
 *     against a bare node:http server answering the same bytes, side by side, as a ratio;
 * on SQLite and on PostgreSQL (BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the local
 * postgres://postgres@127.0.0.1:5432/test when reachable). Loopback only.
 *
 * Environment: BENCH_LISTINGS (100000), BENCH_SECONDS per autocannon run (10),
 * BENCH_CONNECTIONS (16), BENCH_ROUNDS of the latency query mix (5), BENCH_DIALECTS
 * (sqlite,postgres), BENCH_WRITE=0 to leave docs/performance.md alone.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PRICE_BUCKETS, bucketsToRange, type Category, CATEGORIES } from '@campus/contract';
import autocannon from 'autocannon';
import pg from 'pg';
import { openDb, type Db } from '../server/src/db/connection.js';
import { migrateToLatest } from '../server/src/db/migrate.js';
import { TokenService } from '../server/src/http/tokens.js';
import { seededRandom } from '../server/test/random.js';
import { BENCH_QUERIES, syntheticListings } from './corpus.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DIALECTS = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',').map((d) => d.trim());
const PG_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';
const JWT_SECRET = randomBytes(32).toString('hex');
const SELLERS = 50;

interface Percentiles {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

interface Throughput {
  path: string;
  app: number;
  bare: number;
  ratio: number;
  appP99: number;
  bareP99: number;
  bytes: number;
}

interface DialectResult {
  dialect: string;
  seedSeconds: number;
  indexSeconds: number;
  searchPlain: Percentiles;
  searchFiltered: Percentiles;
  filters: Percentiles;
  throughput: Throughput[];
  rssMb: number;
}

function percentiles(samples: number[]): Percentiles {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] ?? 0;
  return { n: s.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: s[s.length - 1] ?? 0 };
}

const fmt = (ms: number) => ms.toFixed(2);

async function seed(db: Db): Promise<{ tokens: string[]; someId: number }> {
  const k = db.kysely;
  const now = Date.now();
  const users = Array.from({ length: SELLERS }, (_, i) => ({
    email: `bench${i}@msu.edu`,
    first_name: `Bench${i}`,
    last_name: 'Seller',
    password_hash: 'x',
    verified: 1,
    token_version: 0,
    created_at: now,
  }));
  const inserted = await k.insertInto('users').values(users).returning(['id', 'email']).execute();
  const docs = syntheticListings(LISTINGS);
  const rand = seededRandom(7);
  const batch = db.dialect === 'sqlite' ? 500 : 1000;
  await k.transaction().execute(async (trx) => {
    for (let i = 0; i < docs.length; i += batch) {
      const rows = docs.slice(i, i + batch).map((d, j) => {
        const n = i + j;
        // Spread over the past ~35 days, oldest first; ~10 % sold.
        const at = now - (docs.length - n) * 30_000;
        return {
          seller_id: inserted[n % inserted.length]?.id ?? 1,
          name: d.name,
          description: d.description,
          category: d.category,
          price_cents: d.priceCents,
          image_key: null,
          thumb_key: null,
          is_sold: rand() < 0.1 ? 1 : 0,
          created_at: at,
          updated_at: at,
        };
      });
      await trx.insertInto('listings').values(rows).execute();
    }
  });
  if (db.dialect === 'postgres') await (await import('kysely')).sql`analyze`.execute(k);
  const tokens = new TokenService(JWT_SECRET, Date.now);
  const some = await k
    .selectFrom('listings')
    .select('id')
    .where('is_sold', '=', 0)
    .orderBy('id', 'desc')
    .limit(1)
    .offset(50)
    .executeTakeFirstOrThrow();
  return {
    tokens: await Promise.all(
      inserted.slice(0, 4).map((u) => tokens.issue({ userId: u.id, email: u.email, tokenVersion: 0 })),
    ),
    someId: some.id,
  };
}

function waitForListening(child: ChildProcess, pattern: RegExp): Promise<number> {
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = pattern.exec(out);
      if (m) {
        child.stdout?.off('data', onData);
        resolve(Number(m[1]));
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (d: Buffer) => process.stderr.write(d));
    child.once('exit', (code) => reject(new Error(`server exited early (${code}): ${out}`)));
  });
}

async function startApp(env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: root,
    // Request logging off (warn): the figures are about the app, not about writing logs to a pipe.
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      JWT_SECRET,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  for (let i = 0; i < 600; i += 1) {
    if (exited) throw new Error('the app server exited during start-up');
    const ok = await new Promise<boolean>((resolve) => {
      http
        .get({ host: '127.0.0.1', port, path: '/healthz' }, (res) => {
          res.resume();
          resolve(res.statusCode === 200);
        })
        .on('error', () => resolve(false));
    });
    if (ok) return { child, port };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the app server did not start');
}

async function startBare(captureFile: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/bare-server.ts'], {
    cwd: root,
    env: { ...process.env, BARE_RESPONSE: captureFile, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const port = await waitForListening(child, /listening (\d+)/);
  return { child, port };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function get(
  port: number,
  url: string,
  token: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(
      { host: '127.0.0.1', port, path: url, agent, headers: { authorization: `Bearer ${token}` } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
            ms: performance.now() - started,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function latency(port: number, token: string, urls: string[]): Promise<Percentiles> {
  const samples: number[] = [];
  for (const url of urls) {
    const res = await get(port, url, token);
    if (res.status !== 200) throw new Error(`${url} -> ${res.status} ${res.body.toString().slice(0, 200)}`);
    samples.push(res.ms);
  }
  return percentiles(samples);
}

function filterParams(rand: () => number): string {
  const p = new URLSearchParams();
  const nCats = Math.floor(rand() * 3);
  for (let i = 0; i < nCats; i += 1)
    p.append('categories', CATEGORIES[Math.floor(rand() * CATEGORIES.length)] as Category);
  const buckets = PRICE_BUCKETS.filter(() => rand() < 0.35).map((b) => b.id);
  const range = bucketsToRange(buckets);
  if (range.priceMin !== undefined) p.set('priceMin', String(range.priceMin));
  if (range.priceMax !== undefined) p.set('priceMax', String(range.priceMax));
  if (p.toString() === '') p.append('categories', 'BOOKS');
  return p.toString();
}

async function cannon(port: number, url: string, token?: string): Promise<autocannon.Result> {
  return autocannon({
    url: `http://127.0.0.1:${port}${url}`,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
}

async function throughput(appPort: number, token: string, url: string, workDir: string): Promise<Throughput> {
  const sample = await get(appPort, url, token);
  if (sample.status !== 200) throw new Error(`${url} -> ${sample.status}`);
  // The same bytes: status, body and every header the app sent (security headers included), except
  // the per-response ones node:http writes itself (date, connection, keep-alive) and the request id.
  const skip = ['date', 'connection', 'keep-alive', 'x-request-id'];
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(sample.headers))
    if (!skip.includes(k) && typeof v === 'string') headers[k] = v;
  const captureFile = path.join(workDir, `capture-${randomBytes(4).toString('hex')}.json`);
  writeFileSync(
    captureFile,
    JSON.stringify({ status: sample.status, headers, body: sample.body.toString('base64') }),
  );
  const bare = await startBare(captureFile);
  try {
    // Warm both, then measure alternately: app, bare.
    await autocannon({
      url: `http://127.0.0.1:${appPort}${url}`,
      connections: CONNECTIONS,
      duration: 2,
      headers: { authorization: `Bearer ${token}` },
    });
    const appRun = await cannon(appPort, url, token);
    const bareRun = await cannon(bare.port, url);
    if (appRun.non2xx > 0) throw new Error(`${url}: ${appRun.non2xx} non-2xx answers from the app`);
    return {
      path: url,
      app: appRun.requests.average,
      bare: bareRun.requests.average,
      ratio: appRun.requests.average / bareRun.requests.average,
      appP99: appRun.latency.p99,
      bareP99: bareRun.latency.p99,
      bytes: sample.body.length,
    };
  } finally {
    await stop(bare.child);
  }
}

async function runDialect(dialect: string): Promise<DialectResult | string> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cm-bench-listings-'));
  let databaseUrl: string | undefined;
  let dropDb: (() => Promise<void>) | undefined;
  if (dialect === 'postgres') {
    const name = `cm_bench_listings_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    try {
      await admin.connect();
    } catch (err) {
      return `PostgreSQL not reachable at ${PG_URL} (${(err as Error).message})`;
    }
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const u = new URL(PG_URL);
    u.pathname = `/${name}`;
    databaseUrl = u.toString();
    dropDb = async () => {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  }
  let app: { child: ChildProcess; port: number } | undefined;
  try {
    const db = openDb({ databaseUrl, dataDir });
    await migrateToLatest(db);
    let t = performance.now();
    const { tokens, someId } = await seed(db);
    const seedSeconds = (performance.now() - t) / 1000;
    await db.close();
    console.log(`[${dialect}] seeded ${LISTINGS} listings in ${seedSeconds.toFixed(1)} s`);

    app = await startApp({ DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
    const token = tokens[0] as string;
    t = performance.now();
    await get(app.port, '/listings/search?query=warm', token);
    const indexSeconds = (performance.now() - t) / 1000;
    console.log(`[${dialect}] search index ready after ${indexSeconds.toFixed(2)} s more`);

    const rand = seededRandom(99);
    const plain: string[] = [];
    const filtered: string[] = [];
    const filtersOnly: string[] = [];
    for (let r = 0; r < ROUNDS; r += 1) {
      for (const q of BENCH_QUERIES) {
        plain.push(`/listings/search?query=${encodeURIComponent(q)}`);
        filtered.push(`/listings/search?query=${encodeURIComponent(q)}&${filterParams(rand)}`);
        filtersOnly.push(`/listings/filters?${filterParams(rand)}`);
      }
    }
    // One untimed pass to warm the JIT over every request shape (a long-running server has seen
    // them all): plain searches, searches with filters drawn from another seed than the timed
    // ones, filters alone. Without the filtered searches the first timed ones paid V8's
    // re-optimisation of the search loop (tens of ms each), which no warm server does.
    const warmRand = seededRandom(1234);
    const warmFiltered = BENCH_QUERIES.map(
      (q) => `/listings/search?query=${encodeURIComponent(q)}&${filterParams(warmRand)}`,
    );
    await latency(app.port, token, [
      ...plain.slice(0, BENCH_QUERIES.length),
      ...warmFiltered,
      ...warmFiltered,
      ...filtersOnly.slice(0, 30),
    ]);
    const searchPlain = await latency(app.port, token, plain);
    const searchFiltered = await latency(app.port, token, filtered);
    const filters = await latency(app.port, token, filtersOnly);
    console.log(
      `[${dialect}] search p50/p95/p99 ${fmt(searchPlain.p50)}/${fmt(searchPlain.p95)}/${fmt(searchPlain.p99)} ms; with filters ${fmt(searchFiltered.p50)}/${fmt(searchFiltered.p95)}/${fmt(searchFiltered.p99)} ms; filters alone ${fmt(filters.p50)}/${fmt(filters.p95)}/${fmt(filters.p99)} ms`,
    );

    const results: Throughput[] = [];
    for (const url of ['/listings/recent', `/listing/${someId}`]) {
      const r = await throughput(app.port, token, url, dataDir);
      results.push(r);
      console.log(
        `[${dialect}] ${url}: app ${r.app.toFixed(0)} req/s, bare node:http ${r.bare.toFixed(0)} req/s, ratio ${r.ratio.toFixed(2)}`,
      );
    }
    const rssMb =
      Number(readFileSync(`/proc/${app.child.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)?.[1] ?? 0) / 1024;
    return {
      dialect,
      seedSeconds,
      indexSeconds,
      searchPlain,
      searchFiltered,
      filters,
      throughput: results,
      rssMb,
    };
  } finally {
    if (app) await stop(app.child);
    await dropDb?.();
    await rm(dataDir, { recursive: true, force: true });
  }
}

function section(results: DialectResult[], skipped: string[]): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const lines = [
    '## Listings',
    '',
    `Measured by \`npm run bench\` (bench/listings.bench.ts) on ${new Date().toISOString().slice(0, 10)}: ${os.cpus().length} × ${cpu}, Node ${process.version}.`,
    `${LISTINGS.toLocaleString('en-US')} synthetic listings (bench/corpus.ts, ~10 % sold), the real server in its own process`,
    `(\`node --import tsx server/src/main.ts\`, NODE_ENV=production), requests over loopback with a real bearer token.`,
    `Latency: sequential requests, ${ROUNDS} rounds of ${BENCH_QUERIES.length} mixed queries (exact words, typos, multi-word,`,
    'category words), measured at the client (includes HTTP, auth, JSON), after one untimed warm-up pass over every request',
    'shape (plain, filtered with other random filters, filters alone). Throughput: autocannon,',
    `${CONNECTIONS} connections, ${SECONDS} s per run, the app and a bare node:http server answering the same bytes run one after the other.`,
    '',
    '| database | search p50 / p95 / p99 (ms) | search + filters p50 / p95 / p99 (ms) | filters alone p50 / p95 / p99 (ms) | seed | index build | server RSS |',
    '|---|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.dialect} | ${fmt(r.searchPlain.p50)} / ${fmt(r.searchPlain.p95)} / ${fmt(r.searchPlain.p99)} | ${fmt(r.searchFiltered.p50)} / ${fmt(r.searchFiltered.p95)} / ${fmt(r.searchFiltered.p99)} | ${fmt(r.filters.p50)} / ${fmt(r.filters.p95)} / ${fmt(r.filters.p99)} | ${r.seedSeconds.toFixed(1)} s | ${r.indexSeconds.toFixed(1)} s | ${r.rssMb.toFixed(0)} MB |`,
    ),
    '',
    '| database | endpoint | app req/s | bare node:http req/s | ratio | app p99 (ms) | bare p99 (ms) | body bytes |',
    '|---|---|---|---|---|---|---|---|',
    ...results.flatMap((r) =>
      r.throughput.map(
        (x) =>
          `| ${r.dialect} | \`${x.path.replace(/\d+$/, '{id}')}\` | ${x.app.toFixed(0)} | ${x.bare.toFixed(0)} | ${x.ratio.toFixed(2)} | ${x.appP99} | ${x.bareP99} | ${x.bytes} |`,
      ),
    ),
    '',
    `Machine load average when the run ended: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')} (1 / 5 / 15 min; other processes share the 2 cores).`,
    '"index build" is the wait from the server answering /healthz to the first search answering; on SQLite the',
    'index is built before /healthz answers (synchronous reads), so the column understates it there (≈ 1.5–2.5 s at 100k).',
    '',
    'Targets (design §6): search and filters p95 < 20 ms; read endpoints ≥ 0.5 × bare node:http.',
    ...(skipped.length ? ['', `Skipped: ${skipped.join('; ')}.`] : []),
    '',
    'Reproduce: `npm run bench` (shorter: `BENCH_SECONDS=3 BENCH_ROUNDS=2 npm run bench`; one database: `BENCH_DIALECTS=sqlite`).',
    '',
  ];
  return lines.join('\n');
}

/** Replaces (or appends) the "## Listings" section of docs/performance.md, leaving others alone. */
function writeSection(text: string): void {
  const file = path.join(root, 'docs', 'performance.md');
  let doc = '';
  try {
    doc = readFileSync(file, 'utf8');
  } catch {
    doc =
      "# Performance\n\nFigures measured on this project's machines; each section names the command that produced it.\n\n";
  }
  const start = doc.indexOf('## Listings');
  if (start === -1) {
    doc = `${doc.replace(/\n*$/, '\n\n')}${text}`;
  } else {
    const rest = doc.slice(start + 1);
    const next = rest.search(/\n## /);
    doc = doc.slice(0, start) + text + (next === -1 ? '' : rest.slice(next + 1));
  }
  writeFileSync(file, doc);
}

const results: DialectResult[] = [];
const skipped: string[] = [];
for (const dialect of DIALECTS) {
  const r = await runDialect(dialect);
  if (typeof r === 'string') {
    console.log(`[${dialect}] skipped: ${r}`);
    skipped.push(`${dialect}: ${r}`);
  } else results.push(r);
}
agent.destroy();
const text = section(results, skipped);
console.log(`\n${text}`);
if (process.env.BENCH_WRITE !== '0' && results.length > 0) writeSection(text);
