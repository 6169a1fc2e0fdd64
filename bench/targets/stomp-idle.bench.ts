/**
 * Idle chat connections (`npm run bench:idle`): N authenticated STOMP sessions (N distinct
 * students, so the per-student connection limits stay in place) held open against ONE server
 * process (the bundle `npm start` runs, lib/app-server.ts; NODE_ENV=production, SQLite), each subscribed to
 * its inbox queue as the web app's live link is, heart-beats 10 s both ways (the app's setting).
 * After connecting, the sessions stay idle for BENCH_IDLE_SECONDS; then every session must still
 * be connected and 200 of them, picked across the range, must get a RECEIPT for a new SUBSCRIBE
 * (the server still serves them). Reported: server RSS before, after connecting, after the idle
 * period (budget: 1 GiB), per connection, CPU used while idle, disconnects. The clients are the
 * stock @stomp/stompjs in this process. Prints the figures and saves them to bench/results/idle.md;
 * with BENCH_DOC=1 also between the idle markers of docs/performance.md (lib/report.ts).
 *
 * Environment: BENCH_IDLE_CLIENTS (10000), BENCH_IDLE_SECONDS (60), BENCH_IDLE_WRITE=0 to print only.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { STOMP_PATHS } from '@campus/contract';
import { Client } from '@stomp/stompjs';
import WebSocket from 'ws';
import { openDb } from '../../server/src/db/connection.js';
import { migrateToLatest } from '../../server/src/db/migrate.js';
import { TokenService } from '../../server/src/http/tokens.js';
import { startAppServer, type AppServer } from '../lib/app-server.js';
import { commandLine, measuredOn, reportMode, writeReport } from '../lib/report.js';
const CLIENTS = Number(process.env.BENCH_IDLE_CLIENTS ?? 10_000);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 60);
const BUDGET_MIB = 1024;
const JWT_SECRET = randomBytes(32).toString('hex');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (text: string) => process.stderr.write(`[bench:idle] ${text}\n`);

function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function seedStudents(dataDir: string): Promise<Array<{ id: number; email: string }>> {
  const db = openDb({ dataDir });
  await migrateToLatest(db);
  const users: Array<{ id: number; email: string }> = [];
  const now = Date.now();
  for (let start = 0; start < CLIENTS; start += 500) {
    // Campus 1: the default campus adopts it when the server starts (migration 015).
    const rows = Array.from({ length: Math.min(500, CLIENTS - start) }, (_, j) => ({
      campus_id: 1,
      email: `idle${start + j}@msu.edu`,
      first_name: `Idle${start + j}`,
      last_name: 'Student',
      password_hash: 'not-a-login',
      verified: 1,
      token_version: 0,
      created_at: now,
    }));
    users.push(...(await db.kysely.insertInto('users').values(rows).returning(['id', 'email']).execute()));
  }
  await db.close();
  return users;
}

function startServer(dataDir: string): Promise<AppServer> {
  return startAppServer({
    jwtSecret: JWT_SECRET,
    env: { WEB_DIST: '/nonexistent', DATA_DIR: dataDir },
    stdout: 'inherit',
  });
}

/**
 * Each student connects from its own loopback address (127.0.x.y), as students do from their own
 * phones: the server's per-IP limit on sockets that have not sent CONNECT yet (16) stays in place.
 */
function connect(port: number, token: string, index: number, onClose: () => void): Promise<Client> {
  const localAddress = `127.0.${Math.floor(index / 250) + 1}.${(index % 250) + 1}`;
  return new Promise((resolve, reject) => {
    let connected = false;
    const client = new Client({
      webSocketFactory: () =>
        new WebSocket(`ws://127.0.0.1:${port}${STOMP_PATHS.endpoint}`, ['v12.stomp'], { localAddress }),
      connectHeaders: { Authorization: `Bearer ${token}` },
      reconnectDelay: 0,
      heartbeatIncoming: 10_000,
      heartbeatOutgoing: 10_000,
      debug: () => {},
    });
    const timer = setTimeout(() => reject(new Error('connect timeout')), 60_000);
    client.onConnect = () => {
      connected = true;
      clearTimeout(timer);
      const receipt = `inbox-${randomBytes(4).toString('hex')}`;
      client.watchForReceipt(receipt, () => resolve(client));
      client.subscribe(STOMP_PATHS.inbox, () => {}, { receipt });
    };
    client.onStompError = (f) => {
      clearTimeout(timer);
      reject(new Error(f.headers['message']));
    };
    client.onWebSocketClose = (event: { code?: number; reason?: string }) => {
      if (connected) onClose();
      else {
        clearTimeout(timer);
        reject(new Error(`closed before CONNECTED (${event.code ?? ''} ${event.reason ?? ''})`));
      }
    };
    client.activate();
  });
}

function receiptWithin(client: Client, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const receipt = `probe-${randomBytes(4).toString('hex')}`;
    const timer = setTimeout(() => resolve(false), ms);
    client.watchForReceipt(receipt, () => {
      clearTimeout(timer);
      resolve(true);
    });
    client.subscribe(STOMP_PATHS.errors, () => {}, { receipt });
  });
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cm-bench-idle-'));
await mkdir(path.join(dataDir, 'uploads'), { recursive: true });
let server: AppServer | undefined;
const clients: Client[] = [];
let stopping = false;
try {
  log(`seeding ${CLIENTS} students`);
  const users = await seedStudents(dataDir);
  server = await startServer(dataDir);
  const pid = server.child.pid!;
  await sleep(2_000);
  const rssBefore = rssMiB(pid);
  const tokens = new TokenService(JWT_SECRET, Date.now);
  let disconnects = 0;
  const started = performance.now();
  for (let i = 0; i < users.length; i += 100) {
    const batch = users.slice(i, i + 100).map(async (u, j) => {
      const token = await tokens.issue({ userId: u.id, email: u.email, tokenVersion: 0 });
      clients.push(
        await connect(server!.port, token, i + j, () => {
          if (!stopping) disconnects += 1;
        }),
      );
    });
    await Promise.all(batch);
    if ((i / 100) % 10 === 9) log(`${clients.length} connected, server RSS ${rssMiB(pid).toFixed(0)} MiB`);
  }
  const connectSeconds = (performance.now() - started) / 1000;
  const rssConnected = rssMiB(pid);
  log(`${clients.length} connected and subscribed in ${connectSeconds.toFixed(1)} s; idle ${IDLE_SECONDS} s`);
  const cpuBefore = cpuSeconds(pid);
  const loadBefore = os.loadavg()[0] ?? 0;
  await sleep(IDLE_SECONDS * 1000);
  const idleCpu = cpuSeconds(pid) - cpuBefore;
  const rssIdle = rssMiB(pid);
  const still = clients.filter((c) => c.connected).length;
  const probes = Array.from({ length: 200 }, (_, k) => clients[Math.floor((k * clients.length) / 200)]!);
  const answered = (await Promise.all(probes.map((c) => receiptWithin(c, 30_000)))).filter(Boolean).length;
  const load = [loadBefore, os.loadavg()[0] ?? 0].map((l) => l.toFixed(1)).join(' → ');
  const peak = Math.max(rssConnected, rssIdle);
  const met = still === CLIENTS && answered === probes.length && peak <= BUDGET_MIB;
  const row = `| ${CLIENTS} | ${connectSeconds.toFixed(1)} s | ${still} | ${disconnects} | ${answered}/${probes.length} | ${rssBefore.toFixed(0)} MiB | ${rssConnected.toFixed(0)} MiB | ${rssIdle.toFixed(0)} MiB | ${(((peak - rssBefore) * 1024) / CLIENTS).toFixed(1)} KiB | ${((idleCpu / IDLE_SECONDS) * 100).toFixed(1)} % | ${load} |`;
  const text = [
    measuredOn(commandLine('bench:idle', ['BENCH_IDLE_', 'BENCH_SERVER'])),
    `${CLIENTS} distinct students, each one authenticated STOMP session from its own loopback address (stock \`@stomp/stompjs\` in the benchmark process,`,
    'heart-beats 10 s both ways) subscribed to its inbox queue, held against one server process (SQLite), then idle for',
    `${IDLE_SECONDS} s; afterwards 200 sessions spread over the range must each get a RECEIPT for a new SUBSCRIBE.`,
    '',
    '| sessions | connect time | still connected | disconnects | probes answered | server RSS before | after connecting | after idle | RSS per session | server CPU while idle | load avg (1 min) |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    row,
    '',
    `Target: ${CLIENTS.toLocaleString('en-US')} idle authenticated sessions in one process within 1 GiB RSS: ${met ? '**met**' : '**not met**'} (peak ${peak.toFixed(0)} MiB).`,
    '',
  ].join('\n');
  writeReport('idle', text, { mode: reportMode('BENCH_IDLE_WRITE') });
  process.exitCode = met ? 0 : 1;
} finally {
  stopping = true;
  await Promise.all(clients.map((c) => c.deactivate({ force: true }).catch(() => undefined)));
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
}
