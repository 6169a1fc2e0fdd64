/**
 * Server CPU per read request (`npm run bench:read-cpu`): the app's process time (user and
 * system, from /proc/<pid>/stat) divided by the requests autocannon completed, for
 * GET /listings/recent and GET /listing/{id} with a real bearer token, beside the bare node:http
 * server given the same requests and answering the same bytes. CPU per request moves far less than req/s ratios when other
 * work shares the machine, so it is the figure to compare changes of the read path with.
 *
 * Environment: CPU_LISTINGS (2000), CPU_SECONDS per run (5), CPU_CONNECTIONS (16), CPU_PAIRS
 * rounds (1; medians are printed), CPU_ONLY=text (only the URLs containing it), DATABASE_URL for
 * PostgreSQL (else SQLite in a temporary directory), CPU_COMPARE=dir (a second checkout's server
 * measured in alternation with this one: an A/B of a change in one run; CPU_COMPARE_NODE_OPTIONS
 * gives that one its own Node options, e.g. a GC setting), CPU_PROF=dir for a V8
 * profile, CPU_PERF=file for a `perf record` of each measured server, CPU_TRACE_GC=1 to print each
 * app server's garbage collections (`--trace-gc`), CPU_NODE_ARGS for more Node flags of the app servers
 * (e.g. `--trace-deopt`; their output shows with CPU_TRACE_GC=1), CPU_REV=1 (start the compared
 * servers in the other order), CPU_MIXED=1 (a search mix before the reads), CPU_IDLE=seconds (each
 * server's CPU with no requests, per second, before the reads).
 *
 * Prints the figures and saves them to bench/results/read-cpu.md; BENCH_DOC=1 also puts them between
 * the read-cpu markers of docs/performance.md (lib/report.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { openDb } from '../../server/src/db/connection.js';
import { migrateToLatest } from '../../server/src/db/migrate.js';
import { TokenService } from '../../server/src/http/tokens.js';
import { acrossCampuses } from '../../server/src/db/campus-scope.js';
import { createOwnedPgDatabase } from '../lib/pg.js';
import { startAppServer, type AppServer } from '../lib/app-server.js';
import { startBareServer } from '../lib/bare.js';
import { syntheticListings } from '../lib/corpus.js';
import { repoRoot } from '../lib/paths.js';
import { commandLine, measuredOn, writeReport } from '../lib/report.js';
const LISTINGS = Number(process.env.CPU_LISTINGS ?? 2000);
const SECONDS = Number(process.env.CPU_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.CPU_CONNECTIONS ?? 16);
const PAIRS = Number(process.env.CPU_PAIRS ?? 1);
const JWT_SECRET = randomBytes(32).toString('hex');
const TICK_US = 1e6 / 100; // USER_HZ is 100 on Linux.

function cpuTicks(pid: number): { user: number; sys: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return { user: Number(fields[11]), sys: Number(fields[12]) };
}

/** CPU ticks of each thread of a process, by thread name (main, libuv workers, V8 helpers, ...). */
function threadTicks(pid: number): Map<string, { user: number; sys: number }> {
  const out = new Map<string, { user: number; sys: number }>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      const key = tid === String(pid) ? 'main' : name;
      const sum = out.get(key) ?? { user: 0, sys: 0 };
      sum.user += Number(fields[11]);
      sum.sys += Number(fields[12]);
      out.set(key, sum);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

function get(port: number, url: string, token: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>(
    (resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path: url, headers: { authorization: `Bearer ${token}` } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
          );
        })
        .on('error', reject);
    },
  );
}

type Measured = Awaited<ReturnType<typeof measure>>;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)]!;
}

async function measure(child: ChildProcess, port: number, url: string, token?: string) {
  const headers = token ? { authorization: `Bearer ${token}` } : {};
  const target = `http://127.0.0.1:${port}${url}`;
  await autocannon({ url: target, connections: CONNECTIONS, duration: 1, headers });
  const before = cpuTicks(child.pid!);
  const threadsBefore = threadTicks(child.pid!);
  // CPU_PERF=file: a `perf record` of the server while it is measured (run with
  // NODE_OPTIONS=--perf-basic-prof for JavaScript names).
  const perf = process.env.CPU_PERF
    ? spawn(
        'perf',
        [
          'record',
          '-F',
          '2999',
          '-g',
          '-p',
          String(child.pid),
          '-o',
          `${process.env.CPU_PERF}.${child.pid}`,
          '--',
          'sleep',
          String(SECONDS - 1),
        ],
        { stdio: 'ignore' },
      )
    : undefined;
  const clientBefore = process.cpuUsage();
  const run = await autocannon({ url: target, connections: CONNECTIONS, duration: SECONDS, headers });
  const client = process.cpuUsage(clientBefore);
  const after = cpuTicks(child.pid!);
  const threadsAfter = threadTicks(child.pid!);
  if (perf && perf.exitCode === null) await new Promise((r) => perf.once('exit', r));
  if (run.non2xx > 0) throw new Error(`${url}: ${run.non2xx} non-2xx`);
  const n = run.requests.total;
  const threads = [...threadsAfter]
    .map(([name, t]) => {
      const b = threadsBefore.get(name) ?? { user: 0, sys: 0 };
      return { name, us: ((t.user - b.user + t.sys - b.sys) * TICK_US) / n };
    })
    .filter((t) => t.us >= 0.05)
    .sort((x, y) => y.us - x.us)
    .map((t) => `${t.name} ${t.us.toFixed(1)}`)
    .join(', ');
  return {
    threads,
    rps: run.requests.average,
    // The client's (autocannon's, in this process) CPU per request: a server that answers in bursts
    // costs the client less per answer than one answering one at a time.
    clientUs: (client.user + client.system) / n,
    userUs: ((after.user - before.user) * TICK_US) / n,
    sysUs: ((after.sys - before.sys) * TICK_US) / n,
  };
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cm-read-cpu-'));
  let databaseUrl = process.env.DATABASE_URL;
  let dropDb: (() => Promise<void>) | undefined;
  if (databaseUrl) {
    const scratch = await createOwnedPgDatabase(databaseUrl, 'cm_read_cpu');
    databaseUrl = scratch.url;
    dropDb = scratch.drop;
  }
  const stoppers: Array<() => Promise<void>> = [];
  const rows: string[] = [];
  try {
    const db = openDb({ databaseUrl, dataDir });
    await migrateToLatest(db);
    const now = Date.now();
    const users = await db.kysely
      .insertInto('users')
      .values(
        // Campus 1: the default campus adopts it when the server starts (migration 015).
        Array.from({ length: 50 }, (_, i) => ({
          campus_id: 1,
          email: `cpu${i}@msu.edu`,
          first_name: `Cpu${i}`,
          last_name: 'Seller',
          password_hash: 'x',
          verified: 1,
          token_version: 0,
          created_at: now,
        })),
      )
      .returning(['id', 'email'])
      .execute();
    const docs = syntheticListings(LISTINGS);
    for (let i = 0; i < docs.length; i += 500) {
      await db.kysely
        .insertInto('listings')
        .values(
          docs.slice(i, i + 500).map((d, j) => ({
            campus_id: 1,
            seller_id: users[(i + j) % users.length]!.id,
            name: d.name,
            description: d.description,
            category: d.category,
            price_cents: d.priceCents,
            image_key: null,
            thumb_key: null,
            is_sold: 0,
            condition: null,
            course_code: null,
            created_at: now - (docs.length - i - j) * 30_000,
            updated_at: now,
          })),
        )
        .execute();
    }
    const some = await db.kysely
      .selectFrom('listings')
      .select('id')
      .orderBy('id', 'desc')
      .limit(1)
      .offset(50)
      .executeTakeFirstOrThrow();
    await db.close();
    const token = await new TokenService(JWT_SECRET, Date.now).issue({
      userId: users[0]!.id,
      email: users[0]!.email,
      tokenVersion: 0,
    });
    // The app under test, and with CPU_COMPARE=dir a second checkout's server on the same database
    // (e.g. `git worktree add /tmp/before HEAD~1`): the two alternate, CPU_PAIRS rounds each.
    const roots = [repoRoot, ...(process.env.CPU_COMPARE ? [path.resolve(process.env.CPU_COMPARE)] : [])];
    const apps: Array<{ name: string; child: ChildProcess; port: number }> = [];
    for (const [i, cwd] of process.env.CPU_REV ? [...roots.entries()].reverse() : roots.entries()) {
      const server: AppServer = await startAppServer({
        jwtSecret: JWT_SECRET,
        cwd,
        env: {
          DATA_DIR: dataDir,
          ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
          ...(i === 1 && process.env.CPU_COMPARE_NODE_OPTIONS
            ? { NODE_OPTIONS: process.env.CPU_COMPARE_NODE_OPTIONS }
            : {}),
        },
        nodeArgs: [
          ...(process.env.CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.CPU_PROF}`] : []),
          ...(process.env.CPU_TRACE_GC ? ['--trace-gc'] : []),
          ...(process.env.CPU_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
        ],
        stdout: process.env.CPU_TRACE_GC ? 'inherit' : 'ignore',
      });
      stoppers.push(server.stop);
      apps.push({ name: i === 0 ? 'app' : 'compare', child: server.child, port: server.port });
    }
    // A server answers /healthz before its search index is built (listings/index.ts builds it in the
    // background): one search waits for the build, so no measured round overlaps with it.
    for (const a of apps) {
      const first = await get(a.port, '/listings/search?query=lamp', token);
      const hits = first.status === 200 ? (JSON.parse(first.body.toString()) as unknown[]).length : 0;
      if (hits === 0) throw new Error(`${a.name}: the first search answered ${first.status} with no listing`);
    }
    // CPU_MIXED=1: every server first answers a mix of searches and filtered browsing (as a campus
    // does all day) before the hot reads are measured, so the reads run in a warmed, mixed process.
    if (process.env.CPU_MIXED)
      for (const a of apps)
        for (const q of [
          'query=lamp',
          'query=calculus%20book&sort=price_asc',
          'query=bike&priceMax=50',
          'query=chair&categories=FURNITURE',
        ])
          await autocannon({
            url: `http://127.0.0.1:${a.port}/listings/search?${q}`,
            connections: 4,
            duration: 2,
            headers: { authorization: `Bearer ${token}` },
          });
    // CPU_IDLE=seconds: each server's CPU with no requests at all, per second, before the reads.
    // Whatever a process does in the background is charged to every request measured after it.
    if (process.env.CPU_IDLE)
      for (const a of apps) {
        const perSecond: string[] = [];
        for (let s = 0; s < Number(process.env.CPU_IDLE); s += 1) {
          const before = cpuTicks(a.child.pid!);
          await new Promise((r) => setTimeout(r, 1000));
          const after = cpuTicks(a.child.pid!);
          perSecond.push(String(((after.user - before.user + after.sys - before.sys) * TICK_US) / 1000));
        }
        console.log(`  ${a.name} idle: ms CPU per second ${perSecond.join(' ')}`);
      }
    const only = process.env.CPU_ONLY;
    const urls = ['/listings/recent', `/listing/${some.id}`].filter((u) => !only || u.includes(only));
    const f = (x: number) => x.toFixed(1);
    for (const url of urls) {
      const sample = await get(apps.find((a) => a.name === 'app')!.port, url, token);
      // The same status, headers and bytes from a bare node:http server (lib/bare.ts).
      const bare = await startBareServer(sample, dataDir);
      stoppers.push(bare.stop);
      const servers = [...apps, { name: 'bare', child: bare.child, port: bare.port }];
      const runs = new Map<string, Measured[]>(servers.map((s) => [s.name, []]));
      for (let round = 0; round < PAIRS; round += 1) {
        // Alternate the order so a quieter or busier moment of the machine hits every side alike.
        const order = round % 2 === 0 ? servers : [...servers].reverse();
        // The same request for every side: the bare server gets the student's token header too.
        for (const s of order) runs.get(s.name)!.push(await measure(s.child, s.port, url, token));
      }
      await bare.stop();
      const bareRps = median(runs.get('bare')!.map((m) => m.rps));
      console.log(
        `${url} (${sample.body.length} B), ${PAIRS} round(s), medians; load ${os.loadavg()[0]!.toFixed(1)}`,
      );
      const endpoint = `\`${url.replace(/\d+$/, '{id}')}\` (${sample.body.length} B)`;
      for (const s of servers) {
        const m = runs.get(s.name)!;
        const rps = median(m.map((x) => x.rps));
        console.log(
          `  ${s.name.padEnd(7)} ${rps.toFixed(0).padStart(6)} req/s (ratio to bare ${(rps / bareRps).toFixed(2)}), ${f(median(m.map((x) => x.userUs)))} µs user + ${f(median(m.map((x) => x.sysUs)))} µs sys, client ${f(median(m.map((x) => x.clientUs)))} µs; by thread: ${m[m.length - 1]!.threads}; CPU µs per round ${m.map((x) => f(x.userUs + x.sysUs)).join(', ')}`,
        );
        rows.push(
          `| ${endpoint} | ${s.name} | ${rps.toFixed(0)} | ${(rps / bareRps).toFixed(2)} | ${f(median(m.map((x) => x.userUs)))} + ${f(median(m.map((x) => x.sysUs)))} | ${m.map((x) => f(x.userUs + x.sysUs)).join(', ')} | ${f(median(m.map((x) => x.clientUs)))} |`,
        );
      }
    }
    writeReport(
      'read-cpu',
      [
        measuredOn(commandLine('bench:read-cpu', ['CPU_', 'DATABASE_URL', 'BENCH_SERVER'])),
        `${LISTINGS.toLocaleString('en-US')} listings on ${databaseUrl ? 'PostgreSQL' : 'SQLite'}; autocannon, ${CONNECTIONS} connections, ${SECONDS} s per run, ${PAIRS} round(s), medians; CPU from /proc (all threads).`,
        '',
        '| endpoint | server | req/s | ratio to bare | server CPU per request, user + sys (µs) | CPU per round (µs) | client CPU per request (µs) |',
        '|---|---|---|---|---|---|---|',
        ...rows,
      ].join('\n'),
    );
  } finally {
    await Promise.all(stoppers.map((stop) => stop()));
    await dropDb?.();
    await rm(dataDir, { recursive: true, force: true });
  }
}

// Seeded as the database's owner across campuses: row-level security holds the owner too.
await acrossCampuses(main);
