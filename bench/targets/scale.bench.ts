/**
 * Scale benchmark (`npm run bench:scale`, features.md §F): the cluster an operator runs
 * (deploy/cluster.ts: N production processes behind nginx with deploy/nginx/campus-market.conf) on
 * PostgreSQL and Redis, at BENCH_SCALE_CAMPUSES (1,000) campuses and BENCH_SCALE_LISTINGS (2,000,000)
 * listings, the largest campus BENCH_SCALE_LARGEST (100,000). Everything goes through nginx, on
 * loopback. Measured, per search engine (BENCH_SCALE_ENGINES, `postgres,memory`):
 *
 *   - search + filters p95 for the largest campus (plain search, search with filters, filter counts),
 *     browse p95 (newest first, first and deeper pages), sequential after an untimed warm-up;
 *   - the top-10 of every benchmark query on both engines: agreement, and the typo queries found;
 *   - RSS of every app process after the reads; the same reads first on a small corpus of
 *     BENCH_SCALE_SMALL_LISTINGS (100,000) over as many campuses, with BENCH_SCALE_SMALL_ENGINES
 *     (postgres,memory) in BENCH_SCALE_PROCESSES each: RSS at 100k against 2M, and the engines'
 *     agreement where the memory engine starts in seconds;
 *   - with the postgres engine: chat at BENCH_SCALE_CHAT_RATE (1,000) msg/s over
 *     BENCH_SCALE_CHAT_CLIENTS (1,000) clients for BENCH_SCALE_CHAT_SECONDS (30) s, and
 *     BENCH_SCALE_UPLOADS (40) listing photo uploads (scale-uploads.ts).
 *
 * The memory engine keeps every listing in every process (1.8 GB RSS at 1M): it runs with
 * BENCH_SCALE_MEMORY_PROCESSES (1) processes. Environment also: BENCH_SCALE_PROCESSES (4),
 * BENCH_SCALE_ROUNDS (3), BENCH_SCALE_SEARCH_READER (1: search in PostgreSQL through SEARCH_DATABASE_URL;
 * 0: under row-level security), BENCH_DATABASE_URL / TEST_DATABASE_URL, BENCH_REDIS_URL / TEST_REDIS_URL.
 * Figures are printed and saved to bench/results/scale.md; BENCH_DOC=1 also writes them between the
 * scale markers of docs/performance.md. Never part of `npm test`.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildIfNeeded, startCluster, type Cluster } from '../../deploy/cluster.js';
import { BENCH_QUERIES } from '../lib/corpus.js';
import { createOwnedPgDatabase, searchReaderUrl } from '../lib/pg.js';
import { commandLine, measuredOn, reportMode, writeReport } from '../lib/report.js';
import { percentiles, type Percentiles } from './listings-report.js';
import { agent, filterParams, get } from './listings-queries.js';
import { seededRandom } from '../../server/test/random.js';
import { chatLoad, type ScaleChatResult } from './scale-chat.js';
import { loadScaleData, type ScaleData } from './scale-seed.js';
import { bucketForBench, uploadLoad, type UploadResult } from './scale-uploads.js';
import { engineSupported, scaleReport, type EngineRun } from './scale-report.js';
import { TokenService } from '../../server/src/http/tokens.js';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const CAMPUSES = num('BENCH_SCALE_CAMPUSES', 1000);
const LISTINGS = num('BENCH_SCALE_LISTINGS', 2_000_000);
const LARGEST = num('BENCH_SCALE_LARGEST', Math.round(LISTINGS / 20));
const SMALL_LISTINGS = num('BENCH_SCALE_SMALL_LISTINGS', 100_000);
const PROCESSES = num('BENCH_SCALE_PROCESSES', 4);
const MEMORY_PROCESSES = num('BENCH_SCALE_MEMORY_PROCESSES', 1);
const ROUNDS = num('BENCH_SCALE_ROUNDS', 3);
const CHAT_CLIENTS = Math.max(2, Math.floor(num('BENCH_SCALE_CHAT_CLIENTS', 1000) / 2) * 2);
const CHAT_RATE = num('BENCH_SCALE_CHAT_RATE', 1000);
const CHAT_SECONDS = num('BENCH_SCALE_CHAT_SECONDS', 30);
const UPLOADS = num('BENCH_SCALE_UPLOADS', 40);
/** Search in PostgreSQL through its reader (SEARCH_DATABASE_URL), as deploy/ runs it; 0: under row-level security. */
const SEARCH_READER = process.env.BENCH_SCALE_SEARCH_READER !== '0';
const ENGINES = (process.env.BENCH_SCALE_ENGINES ?? 'postgres,memory').split(',').map((e) => e.trim());
const SMALL_ENGINES = (process.env.BENCH_SCALE_SMALL_ENGINES ?? 'postgres,memory')
  .split(',')
  .map((e) => e.trim())
  .filter(Boolean);
const PG_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const JWT_SECRET = randomBytes(32).toString('hex');

const log = (line: string) => process.stderr.write(`[bench:scale] ${line}\n`);

/** The superuser's URL for the scratch database the owner's URL names (the bulk load's connection). */
function adminUrlFor(ownerUrl: string): string {
  const url = new URL(ownerUrl);
  const base = new URL(PG_URL);
  url.username = base.username;
  url.password = base.password;
  return url.toString();
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** Plain search, search with filters and filter counts for every benchmark query, `rounds` times. */
function searchMix(seedValue: number, rounds: number): string[] {
  const rand = seededRandom(seedValue);
  const urls: string[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const q of BENCH_QUERIES) {
      urls.push(`/listings/search?query=${encodeURIComponent(q)}`);
      urls.push(`/listings/search?query=${encodeURIComponent(q)}&${filterParams(rand)}`);
      urls.push(`/listings/filters?${filterParams(rand)}`);
    }
  }
  return urls;
}

/** Newest first: the first page, and pages from random places (a browse cursor at a listing's id). */
function browseMix(ids: number[], count: number, seedValue: number): string[] {
  const rand = seededRandom(seedValue);
  return Array.from({ length: count }, (_, i) => {
    if (i % 3 === 0) return '/listings/recent?limit=20';
    const id = ids[Math.floor(rand() * ids.length)]!;
    const cursor = Buffer.from(JSON.stringify({ k: 'b', i: id })).toString('base64url');
    return `/listings/recent?limit=20&cursor=${cursor}`;
  });
}

/** Sequential requests; with `byKind`, each kind of request's own percentiles as well. */
async function timed(
  port: number,
  tokens: string[],
  urls: string[],
  byKind?: Map<string, number[]>,
): Promise<Percentiles> {
  const samples: number[] = [];
  for (const [i, url] of urls.entries()) {
    const res = await get(port, url, tokens[i % tokens.length]!);
    if (res.status !== 200) throw new Error(`${url} -> ${res.status} ${res.body.toString().slice(0, 200)}`);
    samples.push(res.ms);
    if (byKind) {
      const kind = url.startsWith('/listings/filters')
        ? 'filter counts'
        : url.includes('&')
          ? 'search with filters'
          : 'plain search';
      byKind.set(kind, [...(byKind.get(kind) ?? []), res.ms]);
    }
  }
  return percentiles(samples);
}

async function topTen(
  port: number,
  token: string,
): Promise<Map<string, Array<{ id: number; name: string }>>> {
  const out = new Map<string, Array<{ id: number; name: string }>>();
  for (const q of BENCH_QUERIES) {
    const res = await get(port, `/listings/search?query=${encodeURIComponent(q)}&limit=10`, token);
    const body = JSON.parse(res.body.toString()) as Array<{ id: number; name: string }>;
    out.set(
      q,
      body.map((l) => ({ id: l.id, name: l.name })),
    );
  }
  return out;
}

interface Scratch {
  ownerUrl: string;
  /** SEARCH_DATABASE_URL: the search reader's role on the same database (lib/pg.ts). */
  searchUrl: string;
  dataDir: string;
  data: ScaleData;
  browseIds: number[];
  cleanup(): Promise<void>;
}

async function scratch(total: number, largest: number): Promise<Scratch> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cm-bench-scale-'));
  const created = await createOwnedPgDatabase(PG_URL, 'cm_bench_scale');
  const adminUrl = adminUrlFor(created.url);
  const data = await loadScaleData({
    ownerUrl: created.url,
    adminUrl,
    dataDir,
    campusCount: CAMPUSES,
    total,
    largest,
    chatPairs: CHAT_CLIENTS / 2,
    log,
  });
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const ids = await admin.query<{ id: number }>(
    'select id from listings where campus_id = $1 and is_sold = 0 order by random() limit 500',
    [data.campuses[0]!.id],
  );
  await admin.end();
  return {
    ownerUrl: created.url,
    searchUrl: await searchReaderUrl(PG_URL, created.url),
    dataDir,
    data,
    browseIds: ids.rows.map((r) => r.id),
    async cleanup() {
      await created.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function cluster(s: Scratch, engine: string, processes: number, bucketEnv: Record<string, string>) {
  return startCluster({
    processes,
    dataDir: s.dataDir,
    nginxWorkers: 1,
    nginxServerExtra: 'add_header X-Upstream $upstream_addr always;',
    appOutput: 'ignore',
    readyTimeoutMs: 900_000,
    log,
    env: {
      NODE_ENV: 'production',
      SMTP_URL: 'smtp://127.0.0.1:9',
      LOG_LEVEL: 'warn',
      WEB_DIST: '/nonexistent',
      DATABASE_URL: s.ownerUrl,
      REDIS_URL,
      REDIS_PREFIX: `cm:bench-scale-${randomBytes(4).toString('hex')}:`,
      JWT_SECRET,
      CAMPUSES: s.data.campusesFile,
      SEARCH_ENGINE: engine,
      ...(engine === 'postgres' && SEARCH_READER ? { SEARCH_DATABASE_URL: s.searchUrl } : {}),
      ...bucketEnv,
    },
  });
}

/**
 * Checks that every process answers a search, asking each one directly (not through nginx): the
 * cluster waited for /readyz, which a process with the memory engine answers only once its index is
 * loaded, so this is the first search, not a wait for the index.
 */
async function searchable(c: Cluster, token: string, engine: string): Promise<void> {
  for (const app of c.apps) {
    const res = await get(app.port, '/listings/search?query=calculator', token);
    if (res.status !== 200) throw new Error(`${engine}: a first search on :${app.port} -> ${res.status}`);
  }
}

async function readsOn(c: Cluster, s: Scratch, tokens: string[], engine: string) {
  log(`${engine}: warm-up`);
  await timed(c.port, tokens, [...searchMix(1234, 1), ...browseMix(s.browseIds, 60, 5)]);
  log(`${engine}: measuring search and browse`);
  const kinds = new Map<string, number[]>();
  const search = await timed(c.port, tokens, searchMix(99, ROUNDS), kinds);
  log(
    `${engine}: p50/p95 by kind: ${[...kinds]
      .map(([k, v]) => `${k} ${percentiles(v).p50.toFixed(1)}/${percentiles(v).p95.toFixed(1)} ms`)
      .join('; ')}`,
  );
  const browse = await timed(c.port, tokens, browseMix(s.browseIds, BENCH_QUERIES.length * ROUNDS * 3, 77));
  const top = await topTen(c.port, tokens[0]!);
  if (process.env.BENCH_SCALE_PRINT_TOP === '1')
    for (const [q, l] of top)
      log(
        `${engine} top "${q}": ${l
          .slice(0, 3)
          .map((x) => x.name)
          .join(' | ')}`,
      );
  const rss = c.apps.map((a) => rssMb(a.child.pid!));
  log(
    `${engine}: search p95 ${search.p95.toFixed(2)} ms, browse p95 ${browse.p95.toFixed(2)} ms, RSS ${rss.map((r) => r.toFixed(0)).join(' / ')} MB`,
  );
  return { search, browse, top, rss };
}

async function main(): Promise<void> {
  buildIfNeeded({ web: false, log });
  const skipped: string[] = [];
  const engines = ENGINES.filter((e) => {
    if (engineSupported(e)) return true;
    skipped.push(`${e} engine (this checkout has no SEARCH_ENGINE=${e})`);
    return false;
  });
  const runs: EngineRun[] = [];
  const smallRuns: EngineRun[] = [];
  let smallLargest = 0;
  const smallEngines = SMALL_ENGINES.filter((e) => engines.includes(e) || engineSupported(e));
  let chat: ScaleChatResult | undefined;
  let uploads: UploadResult | undefined;
  const bucket = await bucketForBench(log);
  try {
    if (SMALL_LISTINGS > 0 && smallEngines.length > 0) {
      log(`loading the small corpus: ${SMALL_LISTINGS} listings`);
      const small = await scratch(SMALL_LISTINGS, Math.round((LARGEST * SMALL_LISTINGS) / LISTINGS));
      try {
        const tokens = await tokensFor(await small.data.sellers(small.data.campuses[0]!.id, 4));
        for (const engine of smallEngines) {
          const startedAt = performance.now();
          const c = await cluster(small, engine, PROCESSES, bucket.env);
          const startSeconds = (performance.now() - startedAt) / 1000;
          try {
            await searchable(c, tokens[0]!, `${engine} @ small`);
            const searchableSeconds = (performance.now() - startedAt) / 1000;
            const reads = await readsOn(c, small, tokens, `${engine} @ small`);
            smallRuns.push({ engine, processes: PROCESSES, startSeconds, searchableSeconds, ...reads });
          } finally {
            await c.stop();
          }
        }
        smallLargest = small.data.campuses[0]!.size;
      } finally {
        await small.cleanup();
      }
    }
    log(`loading ${LISTINGS} listings over ${CAMPUSES} campuses`);
    const big = await scratch(LISTINGS, LARGEST);
    try {
      const largest = big.data.campuses[0]!;
      const tokens = await tokensFor(await big.data.sellers(largest.id, 4));
      // Chat and uploads run on the cluster of the postgres engine (the scaled mode); without it, on
      // the first engine's, which then gets BENCH_SCALE_PROCESSES too.
      const clusterEngine = engines.includes('postgres') ? 'postgres' : engines[0];
      for (const engine of engines) {
        const processes = engine === clusterEngine ? PROCESSES : MEMORY_PROCESSES;
        log(`${engine}: starting ${processes} processes behind nginx`);
        const startedAt = performance.now();
        const c = await cluster(big, engine, processes, bucket.env);
        const startSeconds = (performance.now() - startedAt) / 1000;
        try {
          await searchable(c, tokens[0]!, engine);
          const searchableSeconds = (performance.now() - startedAt) / 1000;
          const reads = await readsOn(c, big, tokens, engine);
          if (engine === clusterEngine) {
            if (process.env.BENCH_SCALE_CHAT_DIRECT === '1') {
              // Baseline: the same load straight to the processes (buyer and seller on different ones).
              const direct = await chatLoad({
                portFor: (i) => c.apps[i % c.apps.length]!.port,
                jwtSecret: JWT_SECRET,
                pairs: big.data.chatPairs,
                rate: CHAT_RATE,
                seconds: CHAT_SECONDS,
                warmupSeconds: 3,
                log,
              });
              log(`chat without nginx: p50/p99 ${direct.p50}/${direct.p99} ms, lost ${direct.lost}`);
            }
            chat = await chatLoad({
              portFor: () => c.port,
              jwtSecret: JWT_SECRET,
              pairs: big.data.chatPairs,
              rate: CHAT_RATE,
              seconds: CHAT_SECONDS,
              warmupSeconds: 3,
              log,
            });
            log(`chat: p99 ${chat.p99} ms, lost ${chat.lost}`);
            // The second-largest campus posts: the largest one's answers stay as both engines saw them.
            const posters = await big.data.sellers(big.data.campuses[1]!.id, UPLOADS);
            uploads = await uploadLoad({ port: c.port, tokens: await tokensFor(posters), log });
            reads.rss = c.apps.map((a, i) => Math.max(reads.rss[i]!, rssMb(a.child.pid!)));
          }
          runs.push({ engine, processes, startSeconds, searchableSeconds, ...reads });
        } finally {
          await c.stop();
        }
      }
      agent.destroy();
      const report = scaleReport({
        command: measuredOn(commandLine('bench:scale', ['BENCH_', 'TEST_DATABASE_URL', 'TEST_REDIS_URL'])),
        campuses: CAMPUSES,
        listings: LISTINGS,
        largest: largest.size,
        medianCampus: [...big.data.campuses.map((c) => c.size)].sort((a, b) => a - b)[
          Math.floor(CAMPUSES / 2)
        ]!,
        smallestCampus: Math.min(...big.data.campuses.map((c) => c.size)),
        smallListings: SMALL_LISTINGS,
        loadSeconds: big.data.seconds,
        rounds: ROUNDS,
        runs,
        smallRuns,
        smallLargest,
        chat,
        uploads,
        storage: bucket.label,
        skipped,
      });
      writeReport('scale', report, { mode: reportMode() });
    } finally {
      await big.cleanup();
    }
  } finally {
    await bucket.stop();
  }
}

async function tokensFor(users: Array<{ id: number; email: string }>): Promise<string[]> {
  const tokens = new TokenService(JWT_SECRET, Date.now);
  return Promise.all(users.map((u) => tokens.issue({ userId: u.id, email: u.email, tokenVersion: 0 })));
}

await main();
