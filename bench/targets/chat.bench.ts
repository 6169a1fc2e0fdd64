/**
 * Chat benchmark (`npm run bench:chat`): N connected STOMP clients (the stock @stomp/stompjs) in
 * buyer/seller pairs, sending R messages/s in total for S seconds through the real server, which
 * runs as its own process as in production (lib/app-server.ts: the bundle, or BENCH_SERVER=source).
 *
 *   single: one server process, embedded SQLite, in-process fan-out.
 *   campuses: as single, the pairs spread over BENCH_CHAT_CAMPUSES campuses (features.md §E).
 *   redis:  two server processes sharing one PostgreSQL database and Redis; every pair has its
 *           buyer on process A and its seller on process B, so every delivery crosses Redis.
 *
 * Reported: delivery latency send -> peer's MESSAGE (p50/p95/p99/max), messages lost (sent, never
 * delivered to the peer), server memory per connection (RSS growth / connections).
 * Everything stays on loopback. Figures are printed and saved to bench/results/chat.md; with
 * BENCH_DOC=1 also between the chat markers of docs/performance.md (lib/report.ts).
 *
 * Environment: BENCH_CHAT_SECONDS (60), BENCH_CHAT_CLIENTS (2000), BENCH_CHAT_RATE (1000),
 * BENCH_CHAT_MODES (baseline,single,campuses,redis), BENCH_CHAT_CAMPUSES (100, the campuses mode), BENCH_DATABASE_URL or TEST_DATABASE_URL and BENCH_REDIS_URL or
 * TEST_REDIS_URL for the redis mode (skipped without them), BENCH_CHAT_WRITE=0 to print only,
 * BENCH_CHAT_CPU_PROF=dir for the servers' CPU profiles, BENCH_CHAT_NODE_ARGS for more node flags,
 * BENCH_CHAT_TRACE=file to write every measured message's latency to file.<mode>.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { Client, IMessage } from '@stomp/stompjs';
import { openDb } from '../../server/src/db/connection.js';
import { migrateToLatest } from '../../server/src/db/migrate.js';
import { TokenService } from '../../server/src/http/tokens.js';
import { acrossCampuses } from '../../server/src/db/campus-scope.js';
import { createOwnedPgDatabase } from '../lib/pg.js';
import { startAppServer } from '../lib/app-server.js';
import { benchCampuses, installCampuses } from '../lib/campuses.js';
import { startScript } from '../lib/processes.js';
import { reportMode, writeReport } from '../lib/report.js';
import { connectClient, inBatches, type Peer } from './chat-clients.js';
import { report, table, type Result } from './chat-report.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const SECONDS = Number(process.env.BENCH_CHAT_SECONDS ?? 60);
const CLIENTS = Math.max(2, Math.floor(Number(process.env.BENCH_CHAT_CLIENTS ?? 2000) / 2) * 2);
const RATE = Number(process.env.BENCH_CHAT_RATE ?? 1000);
const MODES = (process.env.BENCH_CHAT_MODES ?? 'baseline,single,campuses,redis')
  .split(',')
  .map((m) => m.trim());
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL;
const WARMUP_SECONDS = Math.min(5, Math.max(1, Math.round(SECONDS / 10)));
const JWT_SECRET = randomBytes(32).toString('hex');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function log(text: string): void {
  process.stderr.write(`[bench:chat] ${text}\n`);
}

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /VmRSS:\s+(\d+) kB/.exec(status);
  return m ? Number(m[1]) / 1024 : NaN;
}

/** CPU seconds (user + system) a process has used so far. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of stat (utime, stime), counted from after the command name; in clock ticks.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

interface Seeded {
  users: Array<{ id: number; email: string }>;
  listingOf: Map<number, number>;
  /** The CAMPUSES file the server starts with (campuses mode). */
  campusesFile?: string;
}

/**
 * Users (verified), one listing per seller; tokens are minted with the server's secret. With
 * `campuses` > 1 the pairs are dealt round the campuses (pair p on campus p mod N), each pair
 * within one campus, as students only ever chat within their own.
 */
async function seed(options: { databaseUrl?: string; dataDir: string; campuses: number }): Promise<Seeded> {
  const db = openDb(options);
  await migrateToLatest(db);
  const now = Date.now();
  // Campus 1 alone is the placeholder the default campus adopts when the server starts.
  let campuses = [{ id: 1, domain: 'msu.edu' }];
  let campusesFile: string | undefined;
  if (options.campuses > 1) {
    const installed = await installCampuses(db, options.dataDir, benchCampuses(options.campuses));
    campusesFile = installed.file;
    campuses = installed.campuses.map((c) => ({ id: c.id, domain: c.emailDomains[0] as string }));
  }
  const campusOf = (i: number) => campuses[Math.floor(i / 2) % campuses.length]!;
  const users: Seeded['users'] = [];
  const campusOfUser = new Map<number, number>();
  for (let start = 0; start < CLIENTS; start += 200) {
    const rows = [];
    for (let i = start; i < Math.min(CLIENTS, start + 200); i++) {
      rows.push({
        campus_id: campusOf(i).id,
        email: `bench${i}@${campusOf(i).domain}`,
        first_name: `Bench${i}`,
        last_name: 'Student',
        password_hash: 'not-a-login',
        verified: 1,
        token_version: 0,
        created_at: now,
      });
    }
    const inserted = await db.kysely
      .insertInto('users')
      .values(rows)
      .returning(['id', 'email', 'campus_id'])
      .execute();
    for (const u of inserted) campusOfUser.set(u.id, Number(u.campus_id));
    users.push(...inserted.map((u) => ({ id: u.id, email: u.email })));
  }
  const listingOf = new Map<number, number>();
  for (let p = 0; p < users.length; p += 2) {
    const seller = users[p + 1]!;
    const row = await db.kysely
      .insertInto('listings')
      .values({
        campus_id: campusOfUser.get(seller.id)!,
        seller_id: seller.id,
        name: `Bench item ${p / 2}`,
        description: 'For the chat benchmark',
        category: 'OTHER',
        price_cents: 1000,
        image_key: null,
        thumb_key: null,
        is_sold: 0,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    listingOf.set(seller.id, row.id);
  }
  await db.close();
  return { users, listingOf, campusesFile };
}

interface ServerProcess {
  child: ChildProcess;
  port: number;
  stop(): Promise<void>;
}

/** Baseline: a bare relay (chat-relay.ts) in its own process, with the servers' Node flags. */
function startRelay(): Promise<ServerProcess> {
  return startScript(path.join(here, 'chat-relay.ts'), { nodeArgs: serverNodeArgs(), env: { PORT: '0' } });
}

/** The app: one server process, as production runs it (lib/app-server.ts). */
function startServer(env: Record<string, string>): Promise<ServerProcess> {
  return startAppServer({
    jwtSecret: JWT_SECRET,
    env: { WEB_DIST: '/nonexistent', ...env },
    nodeArgs: serverNodeArgs(),
    stdout: 'inherit',
  });
}

/** BENCH_CHAT_CPU_PROF=dir: CPU profiles; BENCH_CHAT_NODE_ARGS: more flags (e.g. --trace-gc to see pauses). */
function serverNodeArgs(): string[] {
  const profile = process.env.BENCH_CHAT_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CHAT_CPU_PROF}`]
    : [];
  return [...profile, ...(process.env.BENCH_CHAT_NODE_ARGS?.split(' ').filter(Boolean) ?? [])];
}

/**
 * campuses: one process as `single`, its pairs spread over BENCH_CHAT_CAMPUSES campuses (100):
 * the campus checks on every frame must leave the latency where one campus has it.
 */
type Mode = 'baseline' | 'single' | 'redis' | 'campuses';
const CAMPUSES = Number(process.env.BENCH_CHAT_CAMPUSES ?? 100);

async function run(mode: Mode): Promise<Result> {
  const dataDirs: string[] = [];
  const mkDir = async () => {
    const d = await mkdtemp(path.join(os.tmpdir(), 'cm-bench-chat-'));
    await mkdir(path.join(d, 'uploads'), { recursive: true });
    dataDirs.push(d);
    return d;
  };
  let dropDb: (() => Promise<void>) | undefined;
  let databaseUrl: string | undefined;
  if (mode === 'redis') {
    const scratch = await createOwnedPgDatabase(DATABASE_URL!, 'cm_bench');
    databaseUrl = scratch.url;
    dropDb = scratch.drop;
  }
  const firstDir = await mkDir();
  log(`${mode}: seeding ${CLIENTS} students`);
  // Seeded as the database's owner across campuses: row-level security holds the owner too.
  const seeded = await acrossCampuses(() =>
    seed({ databaseUrl, dataDir: firstDir, campuses: mode === 'campuses' ? CAMPUSES : 1 }),
  );
  const servers: ServerProcess[] = [];
  const clients: Client[] = [];
  let disconnects = 0;
  let stopping = false;
  try {
    const env = (dataDir: string): Record<string, string> => ({
      DATA_DIR: dataDir,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...(mode === 'redis' && REDIS_URL ? { REDIS_URL } : {}),
      ...(seeded.campusesFile ? { CAMPUSES: seeded.campusesFile } : {}),
    });
    servers.push(mode === 'baseline' ? await startRelay() : await startServer(env(firstDir)));
    if (mode === 'redis') servers.push(await startServer(env(await mkDir())));
    const serverA = servers[0]!;
    const serverB = servers[servers.length - 1]!;
    await sleep(1_000);
    const rssBefore = servers.map((s) => rssMiB(s.child.pid!));

    const tokens = new TokenService(JWT_SECRET, Date.now);
    log(`${mode}: connecting ${CLIENTS} clients`);
    const peers: Peer[] = await inBatches(seeded.users.length, 100, async (i) => {
      const user = seeded.users[i]!;
      const token = await tokens.issue({ userId: user.id, email: user.email, tokenVersion: 0 });
      // Buyers (even) on A, sellers (odd) on B.
      const client = await connectClient(i % 2 === 0 ? serverA.port : serverB.port, token, i);
      clients.push(client);
      client.onWebSocketClose = () => {
        if (!stopping) disconnects++;
      };
      return { client, userId: user.id };
    });

    // Every message carries its sequence number; the peer's MESSAGE closes the measurement.
    const sentAt = new Map<number, number>();
    const latencies: number[] = [];
    // BENCH_CHAT_TRACE=file: one line per measured message (wall clock ms, sent at ms, latency ms), to
    // see whether a tail is spread over the run or one stall of the machine.
    const trace = process.env.BENCH_CHAT_TRACE ? ([] as string[]) : null;
    const traceOrigin = performance.now();
    let delivered = 0;
    let errors = 0;
    const onPeerMessage = (m: IMessage, self: number) => {
      const msg = JSON.parse(m.body) as { senderId: number; content: string };
      if (msg.senderId === self) return;
      const seq = Number(msg.content);
      const t0 = sentAt.get(seq);
      if (t0 === undefined) return;
      sentAt.delete(seq);
      if (seq >= 0) {
        const latency = performance.now() - t0;
        latencies.push(latency);
        trace?.push(`${Date.now()} ${(t0 - traceOrigin).toFixed(1)} ${latency.toFixed(2)}`);
        delivered++;
      }
    };
    await inBatches(peers.length / 2, 100, async (p) => {
      const buyer = peers[2 * p]!;
      const seller = peers[2 * p + 1]!;
      const room =
        buyer.userId < seller.userId
          ? `${buyer.userId}:${seller.userId}`
          : `${seller.userId}:${buyer.userId}`;
      await Promise.all(
        [buyer, seller].map(
          (peer) =>
            new Promise<void>((resolve) => {
              const receipt = `sub-${peer.userId}`;
              peer.client.watchForReceipt(receipt, () => resolve());
              peer.client.subscribe(`/user/queue/chat/${room}`, (m) => onPeerMessage(m, peer.userId), {
                receipt,
              });
            }),
        ),
      );
    });
    await sleep(2_000);
    const rssAfter = servers.map((s) => rssMiB(s.child.pid!));
    const rssGrowth = rssAfter.reduce((a, b) => a + b, 0) - rssBefore.reduce((a, b) => a + b, 0);
    log(
      `${mode}: ${CLIENTS} clients connected and subscribed; RSS ${rssBefore.map((x) => x.toFixed(0)).join('+')} -> ${rssAfter.map((x) => x.toFixed(0)).join('+')} MiB`,
    );

    const send = (seq: number, pairIndex: number, fromSeller: boolean) => {
      const buyer = peers[2 * pairIndex]!;
      const seller = peers[2 * pairIndex + 1]!;
      const from = fromSeller ? seller : buyer;
      const listingId = seeded.listingOf.get(seller.userId)!;
      sentAt.set(seq, performance.now());
      if (!from.client.connected) {
        errors++;
        return;
      }
      from.client.publish({
        destination: `/app/chat.send/${buyer.userId}/${seller.userId}`,
        body: JSON.stringify({ content: String(seq), listingId }),
      });
    };

    // Paced sender: at every tick, send whatever the schedule says is due.
    const pairs = peers.length / 2;
    const loop = monitorEventLoopDelay({ resolution: 5 });
    const drive = async (seconds: number, seqBase: number, countIt: boolean): Promise<number> => {
      let sent = 0;
      const start = performance.now();
      const total = Math.round(seconds * RATE);
      while (sent < total) {
        const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * RATE));
        for (; sent < due; sent++) {
          const seq = countIt ? seqBase + sent : -(seqBase + sent + 1);
          send(seq, sent % pairs, Math.floor(sent / pairs) % 2 === 1);
        }
        await sleep(5);
      }
      return sent;
    };
    log(`${mode}: warm-up ${WARMUP_SECONDS} s`);
    await drive(WARMUP_SECONDS, 0, false);
    await sleep(1_000);
    log(`${mode}: measuring ${SECONDS} s at ${RATE} msg/s`);
    loop.enable();
    const cpuBefore = servers.map((sv) => cpuSeconds(sv.child.pid!));
    const loadBefore = os.loadavg()[0] ?? 0;
    const started = performance.now();
    const sent = await drive(SECONDS, 0, true);
    const sendSeconds = (performance.now() - started) / 1000;
    const loadAfter = os.loadavg()[0] ?? 0;
    // Drain: wait for the last deliveries while they keep coming (a late message is slow, not lost).
    let lastProgress = Date.now();
    let seen = delivered;
    while (delivered < sent && Date.now() - lastProgress < 10_000) {
      await sleep(100);
      if (delivered !== seen) {
        seen = delivered;
        lastProgress = Date.now();
      }
    }
    loop.disable();
    if (trace) writeFileSync(`${process.env.BENCH_CHAT_TRACE}.${mode}`, trace.join('\n') + '\n');
    const cpuUsed = servers.reduce((sum, sv, i) => sum + cpuSeconds(sv.child.pid!) - cpuBefore[i]!, 0);
    const sorted = latencies.sort((a, b) => a - b);
    const round = (x: number) => Math.round(x * 100) / 100;
    return {
      mode,
      processes: servers.length,
      database: mode === 'baseline' ? 'none' : databaseUrl ? 'PostgreSQL' : 'SQLite',
      clients: CLIENTS,
      rate: RATE,
      seconds: SECONDS,
      sent,
      delivered,
      lost: sent - delivered,
      errors,
      disconnects,
      p50: round(percentile(sorted, 50)),
      p95: round(percentile(sorted, 95)),
      p99: round(percentile(sorted, 99)),
      max: round(sorted.at(-1) ?? NaN),
      achievedRate: Math.round(sent / sendSeconds),
      rssPerConnectionKiB: Math.round((rssGrowth * 1024) / CLIENTS),
      rssBeforeMiB: Math.round(rssBefore.reduce((a, b) => a + b, 0)),
      rssAfterMiB: Math.round(rssAfter.reduce((a, b) => a + b, 0)),
      benchLoopP99: round(loop.percentile(99) / 1e6),
      serverCpuMsPerMessage: round((cpuUsed * 1000) / Math.max(1, delivered)),
      serverCpuPercent: Math.round((cpuUsed / sendSeconds) * 100),
      loadAverage: round(Math.max(loadBefore, loadAfter)),
    };
  } finally {
    stopping = true;
    await Promise.all(clients.map((c) => c.deactivate({ force: true }).catch(() => undefined)));
    for (const s of servers) await s.stop();
    await dropDb?.();
    for (const d of dataDirs) await rm(d, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const results: Result[] = [];
  const skipped: string[] = [];
  for (const mode of MODES) {
    if (mode !== 'baseline' && mode !== 'single' && mode !== 'redis' && mode !== 'campuses')
      throw new Error(`unknown mode ${mode}`);
    if (mode === 'redis' && (!DATABASE_URL || !REDIS_URL)) {
      skipped.push(
        'two processes (set BENCH_DATABASE_URL/TEST_DATABASE_URL and BENCH_REDIS_URL/TEST_REDIS_URL)',
      );
      continue;
    }
    const r = await run(mode);
    results.push(r);
    log(JSON.stringify(r));
  }
  // BENCH_CHAT_WRITE=0: printed only.
  if (results.length > 0)
    writeReport('chat', report(results, skipped, { clients: CLIENTS, warmupSeconds: WARMUP_SECONDS }), {
      mode: reportMode('BENCH_CHAT_WRITE'),
    });
  else console.log(table(results));
  const single = results.find((r) => r.mode === 'single');
  if (results.some((r) => r.lost > 0) || (single && single.p99 >= 50)) process.exitCode = 1;
}

await main();
