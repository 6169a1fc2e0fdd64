/**
 * What an abusive client costs the server (`npm run bench:abuse`), for a before/after of the
 * hardening: runs the app of a checkout in its own process (abuse-costs-server.ts; SQLite,
 * NODE_ENV=production, a real SMTP capture, HTTP rate limits and the daily listing cap raised) and
 * measures
 *   - hotcache: resident memory of the server before and after 20,000 requests
 *     `GET /listings/recent?limit=100&junk=N` (100 listings stored, 8 keep-alive connections);
 *   - forgot: `POST /public/password/forgot` answer time, a verified address vs an
 *     unknown one, alternated, sequential;
 *   - stall: N STOMP sessions of one student subscribed to `/user/queue/chats` while
 *     another student sends them 30 messages (one every 100 ms, within the SEND limit); a separate
 *     process polls `/healthz` every 20 ms and reports its slowest answer.
 *
 * "Before" = the same script against a checkout of the seed commit:
 *   git worktree add /tmp/seed b8966b9 && cp -a node_modules /tmp/seed/
 *   BENCH_ROOT=/tmp/seed npm run bench:abuse
 * Environment: BENCH_ROOT (checkout to measure; default this one), BENCH_ONLY=hotcache,forgot,stall,
 * BENCH_REQUESTS (20000), BENCH_SESSIONS (9000), BENCH_MAX_SESSIONS (raise the per-student
 * session cap of the measured app, e.g. 9000, to time delivery to that many sessions).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { MailCapture, codeFrom } from '../../server/test/mail-capture.js';
import { repoRoot } from '../lib/paths.js';
import { startScript } from '../lib/processes.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const target = process.env.BENCH_ROOT ?? repoRoot;
const only = new Set((process.env.BENCH_ONLY ?? 'hotcache,forgot,stall').split(',').map((s) => s.trim()));
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20_000);
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 9_000);
const MESSAGES_SENT = 30;
const PASSWORD = 'green-and-white-42';

interface Server {
  child: ChildProcess;
  port: number;
  dataDir: string;
  stop(): Promise<void>;
}

/** The app with its limits raised (abuse-costs-server.ts), SQLite in a fresh DATA_DIR. */
async function startServer(smtpUrl: string): Promise<Server> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cm-bench-abuse-'));
  const server = await startScript(path.join(here, 'abuse-costs-server.ts'), {
    env: {
      BENCH_ROOT: target,
      NODE_ENV: 'production',
      SMTP_URL: smtpUrl,
      DATA_DIR: dataDir,
      JWT_SECRET: 'bench-secret-that-is-long-enough-0123456789',
      ALLOWED_EMAIL_DOMAINS: 'msu.edu',
      LOG_LEVEL: 'warn',
      // hotcache stores 100 listings of one student: the daily cap (20) raised like the rate limits.
      DAILY_LISTINGS_MAX: '1000',
      DATABASE_URL: '',
      REDIS_URL: '',
    },
  });
  return { ...server, dataDir };
}

async function stopServer(s: Server): Promise<void> {
  await s.stop();
  await rm(s.dataDir, { recursive: true, force: true });
}

/** Resident and peak resident memory of a process, MiB (Linux /proc). */
function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

function request(
  port: number,
  method: string,
  url: string,
  body?: unknown,
  token?: string,
): Promise<{ status: number; text: string; ms: number }> {
  const started = process.hrtime.bigint();
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: url,
        agent,
        headers: {
          ...(payload ? { 'content-type': 'application/json' } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text, ms: Number(process.hrtime.bigint() - started) / 1e6 }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Signs up, verifies with the e-mailed code and logs in, as a student would. */
async function student(
  port: number,
  mail: MailCapture,
  name: string,
): Promise<{ id: number; token: string; email: string }> {
  const email = `${name}-${randomBytes(3).toString('hex')}@msu.edu`;
  const before = mail.count(email);
  const up = await request(port, 'POST', '/public/sign-up', {
    firstName: name,
    lastName: 'Bench',
    email,
    password: PASSWORD,
  });
  if (up.status !== 201) throw new Error(`sign-up ${up.status} ${up.text}`);
  const code = codeFrom(await mail.waitFor(email, before, 20_000));
  const verify = await request(port, 'POST', '/public/verify', { email, token: code });
  if (verify.status !== 200) throw new Error(`verify ${verify.status} ${verify.text}`);
  const login = await request(port, 'POST', '/public/login', { email, password: PASSWORD });
  if (login.status !== 200) throw new Error(`login ${login.status} ${login.text}`);
  const info = await request(
    port,
    'GET',
    `/users/info?email=${encodeURIComponent(email)}`,
    undefined,
    login.text,
  );
  return { id: (JSON.parse(info.text) as { id: number }).id, token: login.text, email };
}

const fmt = (n: number) => n.toFixed(1);
function pct(samples: number[], p: number): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}

async function hotcache(s: Server, mail: MailCapture): Promise<string> {
  const alice = await student(s.port, mail, 'hot');
  for (let i = 0; i < 100; i += 1) {
    const res = await request(
      s.port,
      'POST',
      '/listing',
      {
        name: `Bench lamp ${i}`,
        category: 'ELECTRONICS',
        description: 'A desk lamp, barely used, warm light.',
        price: '12.50',
      },
      alice.token,
    );
    if (res.status !== 201) throw new Error(`create ${res.status} ${res.text}`);
  }
  for (let i = 0; i < 200; i += 1)
    await request(s.port, 'GET', '/listings/recent?limit=100', undefined, alice.token);
  const before = memory(s.child.pid as number);
  let next = 0;
  let bytes = 0;
  const worker = async () => {
    while (next < REQUESTS) {
      const n = next++;
      const res = await request(
        s.port,
        'GET',
        `/listings/recent?limit=100&junk=${n}`,
        undefined,
        alice.token,
      );
      if (res.status !== 200) throw new Error(`recent ${res.status}`);
      bytes = res.text.length;
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: 8 }, worker));
  const seconds = (Date.now() - started) / 1000;
  const after = memory(s.child.pid as number);
  return `hotcache: ${REQUESTS} requests (${bytes} B bodies) in ${fmt(seconds)} s; RSS ${fmt(before.rss)} → ${fmt(after.rss)} MiB (growth ${fmt(after.rss - before.rss)} MiB), peak RSS ${fmt(after.peak)} MiB`;
}

async function forgot(s: Server, mail: MailCapture): Promise<string> {
  const known = await student(s.port, mail, 'forgot');
  const knownMs: number[] = [];
  const unknownMs: number[] = [];
  const statuses = new Set<string>();
  for (let i = 0; i < 40; i += 1) {
    const unknown = `nobody-${randomBytes(4).toString('hex')}@msu.edu`;
    for (const [email, into] of [
      [known.email, knownMs],
      [unknown, unknownMs],
    ] as const) {
      const res = await request(s.port, 'POST', '/public/password/forgot', { email });
      statuses.add(`${email === known.email ? 'known' : 'unknown'} ${res.status} ${res.text}`);
      into.push(res.ms);
    }
  }
  const line = (label: string, xs: number[]) =>
    `${label} p50 ${fmt(pct(xs, 50))} ms / p90 ${fmt(pct(xs, 90))} ms / max ${fmt(Math.max(...xs))} ms`;
  return `forgot (40 each, alternated): ${line('known', knownMs)}; ${line('unknown', unknownMs)}; answers: ${[...statuses].join(' | ')}`;
}

/** Raw STOMP over ws: CONNECT, SUBSCRIBE /user/queue/chats, count MESSAGE frames. */
function openSession(port: number, token: string, onMessage: () => void): Promise<WebSocket | null> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, ['v12.stomp']);
    let connected = false;
    ws.on('open', () =>
      ws.send(`CONNECT\naccept-version:1.2\nhost:bench\nauthorization:Bearer ${token}\nheart-beat:0,0\n\n\0`),
    );
    ws.on('message', (data: Buffer) => {
      const text = data.toString();
      if (!connected) {
        if (text.startsWith('CONNECTED')) {
          connected = true;
          ws.send('SUBSCRIBE\nid:0\ndestination:/user/queue/chats\n\n\0');
          resolve(ws);
        } else {
          ws.close();
          resolve(null);
        }
        return;
      }
      // Several frames may arrive in one WebSocket message.
      let at = text.indexOf('MESSAGE\n');
      while (at !== -1) {
        onMessage();
        at = text.indexOf('MESSAGE\n', at + 1);
      }
    });
    ws.on('error', () => resolve(null));
    ws.on('close', () => {
      if (!connected) resolve(null);
    });
  });
}

/** A separate process, so the clients' own work never delays the probe. */
function startProbe(port: number): ChildProcess {
  const code = `
    const http = require('node:http');
    let max = 0, n = 0, stop = false;
    const tick = () => {
      if (stop) return;
      const t = process.hrtime.bigint();
      http.get({ host: '127.0.0.1', port: ${port}, path: '/healthz' }, (res) => {
        res.resume();
        res.on('end', () => { const ms = Number(process.hrtime.bigint() - t) / 1e6; n++; if (ms > max) max = ms; setTimeout(tick, 20); });
      }).on('error', () => setTimeout(tick, 20));
    };
    tick();
    process.on('message', () => { stop = true; process.send({ max, n }); process.exit(0); });
  `;
  return spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}

async function stall(s: Server, mail: MailCapture): Promise<string> {
  const buyer = await student(s.port, mail, 'many');
  const seller = await student(s.port, mail, 'sender');
  const created = await request(
    s.port,
    'POST',
    '/listing',
    { name: 'Bench desk', category: 'LIFESTYLE', description: 'Solid desk, pick up on campus.', price: '40' },
    seller.token,
  );
  if (created.status !== 201) throw new Error(`create ${created.status} ${created.text}`);
  const mine = JSON.parse(
    (await request(s.port, 'GET', '/listings/self?limit=1', undefined, seller.token)).text,
  ) as Array<{ id: number }>;
  const listingId = mine[0]?.id as number;

  let received = 0;
  const sockets: WebSocket[] = [];
  let refused = 0;
  const openStarted = Date.now();
  for (let i = 0; i < SESSIONS; i += 8) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(8, SESSIONS - i) }, () =>
        openSession(s.port, buyer.token, () => (received += 1)),
      ),
    );
    for (const ws of batch) {
      if (ws) sockets.push(ws);
      else refused += 1;
    }
  }
  const openSeconds = (Date.now() - openStarted) / 1000;
  const rssOpen = memory(s.child.pid as number).rss;

  const sender = await openSession(s.port, seller.token, () => {});
  if (!sender) throw new Error('sender could not connect');
  const probe = startProbe(s.port);
  await new Promise((r) => setTimeout(r, 500));
  const sendStarted = Date.now();
  for (let i = 0; i < MESSAGES_SENT; i += 1) {
    const body = JSON.stringify({ content: `Message ${i} for every tab`, listingId });
    sender.send(
      `SEND\ndestination:/app/chat.send/${buyer.id}/${seller.id}\ncontent-type:application/json\n\n${body}\0`,
    );
    await new Promise((r) => setTimeout(r, 100));
  }
  const expected = sockets.length * MESSAGES_SENT;
  const deadline = Date.now() + 180_000;
  while (received < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const deliverSeconds = (Date.now() - sendStarted) / 1000;
  const probeResult = await new Promise<{ max: number; n: number }>((resolve) => {
    probe.once('message', (m) => resolve(m as { max: number; n: number }));
    probe.send('stop');
  });
  for (const ws of [...sockets, sender]) ws.terminate();
  return `stall: ${SESSIONS} CONNECTs of one student → ${sockets.length} open, ${refused} refused (opened in ${fmt(openSeconds)} s, server RSS ${fmt(rssOpen)} MiB); ${MESSAGES_SENT} messages sent 100 ms apart → ${received}/${expected} MESSAGE frames in ${fmt(deliverSeconds)} s; /healthz slowest ${fmt(probeResult.max)} ms over ${probeResult.n} probes`;
}

const mail = new MailCapture();
const smtpUrl = await mail.start();
const lines: string[] = [
  `target ${target}; load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ')}`,
];
for (const [name, run] of [
  ['hotcache', hotcache],
  ['forgot', forgot],
  ['stall', stall],
] as const) {
  if (!only.has(name)) continue;
  const server = await startServer(smtpUrl);
  try {
    const line = await run(server, mail);
    console.log(line);
    lines.push(line);
  } finally {
    await stopServer(server);
  }
}
lines.push(
  `load average at the end ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ')}`,
);
console.log(lines.join('\n'));
await mail.stop();
agent.destroy();
