/**
 * The cluster as an operator runs it (features.md §F): two app processes — the production bundle,
 * NODE_ENV=production, SEARCH_ENGINE=postgres — on one PostgreSQL database, Redis and a bucket
 * (s3rver), behind nginx with
 * deploy/nginx/campus-market.conf (rendered for loopback ports by deploy/nginx-config.ts). Everything
 * a student does here goes through nginx.
 *
 * Which process a WebSocket reached: the test adds one diagnostic header to nginx's server block
 * (`X-Upstream: $upstream_addr` on every answer, the 101 included); the shipped file is otherwise
 * unchanged. Skipped without TEST_DATABASE_URL, TEST_REDIS_URL or nginx (CI has all three).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CHAT_LIMITS, roomIdFor, type Listing } from '@campus/contract';
import { Client, type IMessage } from '@stomp/stompjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createOwnedPgDatabase, searchReaderUrl } from '../bench/lib/pg.js';
import { acrossCampuses } from '../server/src/db/campus-scope.js';
import { openDb } from '../server/src/db/connection.js';
import { migrateToLatest } from '../server/src/db/migrate.js';
import { TokenService } from '../server/src/http/tokens.js';
import { makeJpeg } from '../server/src/listings/testing.js';
import { S3TestServer } from '../server/test/s3-server.js';
import { buildIfNeeded, nginxBinary, startCluster, type Cluster } from './cluster.js';

const DATABASE = process.env.TEST_DATABASE_URL;
const REDIS = process.env.TEST_REDIS_URL;
const enabled = DATABASE !== undefined && REDIS !== undefined && nginxBinary() !== null;
const JWT_SECRET = randomBytes(32).toString('hex');

interface Seeded {
  id: number;
  token: string;
}

/** A STOMP session through nginx, with the upstream nginx picked for its WebSocket. */
async function connectThroughNginx(
  url: string,
  token: string,
): Promise<{ client: Client; upstream: string }> {
  let upstream = '';
  const client = new Client({
    webSocketFactory: () => {
      const ws = new WebSocket(`${url.replace('http:', 'ws:')}/ws`, ['v12.stomp', 'v11.stomp', 'v10.stomp']);
      ws.on('upgrade', (res) => (upstream = String(res.headers['x-upstream'] ?? '')));
      return ws;
    },
    connectHeaders: { Authorization: `Bearer ${token}` },
    reconnectDelay: 0,
    heartbeatIncoming: 10_000,
    heartbeatOutgoing: 10_000,
    debug: () => {},
  });
  await new Promise<void>((resolve, reject) => {
    client.onConnect = () => resolve();
    client.onStompError = (f) => reject(new Error(f.headers['message']));
    client.onWebSocketError = () => reject(new Error('websocket error'));
    client.activate();
  });
  return { client, upstream };
}

/** Subscribes with a receipt; resolves once the server has the subscription. */
async function inbox(client: Client, destination: string): Promise<{ next(): Promise<IMessage> }> {
  const queue: IMessage[] = [];
  const waiting: Array<(m: IMessage) => void> = [];
  const receipt = `r-${randomBytes(4).toString('hex')}`;
  const subscribed = new Promise<void>((resolve) => client.watchForReceipt(receipt, () => resolve()));
  client.subscribe(
    destination,
    (m) => {
      const w = waiting.shift();
      if (w) w(m);
      else queue.push(m);
    },
    { receipt },
  );
  await subscribed;
  return {
    next: () => {
      const m = queue.shift();
      if (m) return Promise.resolve(m);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`nothing on ${destination} within 10 s`)), 10_000);
        waiting.push((msg) => {
          clearTimeout(timer);
          resolve(msg);
        });
      });
    },
  };
}

describe.skipIf(!enabled)('a cluster of two processes behind nginx (deploy/)', () => {
  let cluster: Cluster;
  let dataDir: string;
  let dropDb: () => Promise<void>;
  let bucket: S3TestServer;
  let buyer: Seeded;
  let seller: Seeded;
  let listingId: number;
  const open: Client[] = [];

  beforeAll(async () => {
    buildIfNeeded({ web: false, log: () => {} });
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'cm-cluster-test-'));
    // Production refuses a superuser connection (row-level security would not hold it): the
    // processes connect as the database's owner, an ordinary role, as deploy/README.md says.
    const database = await createOwnedPgDatabase(DATABASE!, 'cm_cluster');
    dropDb = database.drop;
    const db = openDb({ dataDir, databaseUrl: database.url });
    await migrateToLatest(db);
    const tokens = new TokenService(JWT_SECRET, Date.now);
    const now = Date.now();
    // Two verified students of the default campus (campus 1, which the MSU campus adopts at start).
    const users = await acrossCampuses(() =>
      db.kysely
        .insertInto('users')
        .values(
          ['buyer', 'seller'].map((who) => ({
            campus_id: 1,
            email: `${who}-${randomBytes(3).toString('hex')}@msu.edu`,
            first_name: who === 'buyer' ? 'Ann' : 'Ben',
            last_name: 'Student',
            password_hash: 'not-a-login',
            verified: 1,
            verified_at: now,
            token_version: 0,
            created_at: now,
          })),
        )
        .returning(['id', 'email'])
        .execute(),
    );
    await db.close();
    // The search reader an operator creates (docs/operations.md, "Search in PostgreSQL").
    const searchUrl = await searchReaderUrl(DATABASE!, database.url);
    const [b, s] = await Promise.all(
      users.map(async (u) => ({
        id: u.id,
        token: await tokens.issue({ userId: u.id, email: u.email, tokenVersion: 0 }),
      })),
    );
    buyer = b!;
    seller = s!;
    bucket = await S3TestServer.start();
    cluster = await startCluster({
      processes: 2,
      dataDir,
      env: {
        NODE_ENV: 'production',
        DATABASE_URL: database.url,
        REDIS_URL: REDIS!,
        REDIS_PREFIX: `cm:cluster-test-${randomBytes(4).toString('hex')}:`,
        JWT_SECRET,
        SMTP_URL: 'smtp://127.0.0.1:9',
        LOG_LEVEL: 'warn',
        WEB_DIST: '/nonexistent',
        // Scaled mode as features.md §F has it: search in PostgreSQL, photos in the bucket.
        SEARCH_ENGINE: 'postgres',
        SEARCH_DATABASE_URL: searchUrl,
        ...bucket.env,
      },
      nginxServerExtra: 'add_header X-Upstream $upstream_addr always;',
      appOutput: 'ignore',
    });
  });

  afterAll(async () => {
    for (const c of open) await c.deactivate().catch(() => undefined);
    await cluster?.stop();
    await bucket?.close();
    await dropDb?.();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const api = (student: Seeded, url: string, init: RequestInit = {}) =>
    fetch(`${cluster.url}${url}`, {
      ...init,
      headers: { authorization: `Bearer ${student.token}`, ...(init.headers ?? {}) },
    });

  it('passes /healthz and /readyz through to the processes', async () => {
    const ready = await fetch(`${cluster.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', database: 'postgres' });
    expect((await fetch(`${cluster.url}/healthz`)).status).toBe(200);
  });

  it('posts a listing with a photo through nginx into the bucket, and the other process shows it', async () => {
    const form = new FormData();
    form.set('name', 'Graphing calculator');
    form.set('category', 'ELECTRONICS');
    form.set('description', 'TI-84 Plus, works great, batteries included.');
    form.set('price', '45.50');
    form.set('image', new Blob([await makeJpeg(800, 600)], { type: 'image/jpeg' }), 'photo.jpg');
    const posted = await api(seller, '/listing', { method: 'POST', body: form });
    expect(posted.status).toBe(201);

    // Every process answers the same (nginx spreads the reads: ask each process once at least).
    const seen = new Set<string>();
    let listing: Listing | undefined;
    for (let i = 0; i < 6; i++) {
      const res = await api(buyer, '/listings/recent?limit=5');
      seen.add(res.headers.get('x-upstream') ?? '');
      const [first] = (await res.json()) as Listing[];
      expect(first).toMatchObject({ name: 'Graphing calculator', price: 45.5 });
      listing ??= first;
    }
    expect(seen.size).toBe(2);
    listingId = listing!.id;
    // Search (in PostgreSQL) finds it through nginx, typo and all.
    const found = await api(buyer, '/listings/search?query=calculater');
    expect(found.status).toBe(200);
    expect(((await found.json()) as Listing[]).map((l) => l.id)).toContain(listingId);
    // The photo and its variants are in the bucket under the campus, served from PHOTO_BASE_URL.
    expect(listing!.imageUrl?.startsWith(`${bucket.publicBaseUrl}/msu/photos/`)).toBe(true);
    expect((await bucket.keys('msu/photos/')).length).toBeGreaterThan(1);
    const photo = await fetch(listing!.imageUrl!);
    expect(photo.status).toBe(200);
    expect(photo.headers.get('content-type')).toBe('image/jpeg');
    expect((await photo.arrayBuffer()).byteLength).toBeGreaterThan(1000);
  });

  it('delivers chat between two students whose sockets nginx gave to different processes', async () => {
    const room = roomIdFor(buyer.id, seller.id);
    const a = await connectThroughNginx(cluster.url, buyer.token);
    open.push(a.client);
    // least_conn sends the next socket to the other process; a few tries make the test independent of it.
    let b = await connectThroughNginx(cluster.url, seller.token);
    open.push(b.client);
    for (let tries = 0; b.upstream === a.upstream && tries < 10; tries++) {
      b = await connectThroughNginx(cluster.url, seller.token);
      open.push(b.client);
    }
    const appAddresses = cluster.apps.map((app) => `127.0.0.1:${app.port}`);
    expect(appAddresses).toContain(a.upstream);
    expect(appAddresses).toContain(b.upstream);
    expect(a.upstream).not.toBe(b.upstream);

    const atBuyer = await inbox(a.client, `/user/queue/chat/${room}`);
    const atSeller = await inbox(b.client, `/user/queue/chat/${room}`);
    const sendTo = `/app/chat.send/${buyer.id}/${seller.id}`;
    a.client.publish({
      destination: sendTo,
      body: JSON.stringify({ content: 'Is it still there?', listingId }),
    });
    expect(JSON.parse((await atSeller.next()).body)).toMatchObject({
      content: 'Is it still there?',
      senderId: buyer.id,
      roomId: room,
    });
    b.client.publish({
      destination: sendTo,
      body: JSON.stringify({ content: 'Yes, library at 5?', listingId }),
    });
    // The buyer's own message first (every session of the room gets it), then the seller's.
    const mine = JSON.parse((await atBuyer.next()).body) as { senderId: number };
    expect(mine.senderId).toBe(buyer.id);
    expect(JSON.parse((await atBuyer.next()).body)).toMatchObject({
      content: 'Yes, library at 5?',
      senderId: seller.id,
    });

    // The history through nginx, whichever process answers.
    const history = await api(buyer, `/api/chats/${room}`);
    expect(history.status).toBe(200);
    expect(((await history.json()) as Array<{ content: string }>).map((m) => m.content)).toEqual([
      'Is it still there?',
      'Yes, library at 5?',
    ]);
  });

  it('counts sockets waiting for CONNECT per student address, not per nginx', async () => {
    // Sockets that upgrade and then say nothing (as after a restart, before each client's CONNECT),
    // each from the loopback address its "phone" has: more than twice a process's cap, so however
    // nginx spreads them one process holds more than the cap of sockets that all came from nginx.
    const upgrade = (localAddress: string) =>
      new Promise<{ status: number; ws: WebSocket }>((resolve) => {
        const ws = new WebSocket(`${cluster.url.replace('http:', 'ws:')}/ws`, ['v12.stomp'], {
          localAddress,
        });
        ws.once('open', () => resolve({ status: 101, ws }));
        ws.once('unexpected-response', (_req, res) => resolve({ status: res.statusCode ?? 0, ws }));
        ws.once('error', () => undefined);
      });
    const cap = CHAT_LIMITS.maxPendingSocketsPerIp;
    const many = [];
    for (let i = 0; i < cap * 2 + 4; i++) many.push(await upgrade(`127.0.9.${i + 1}`));
    expect(many.map((r) => r.status)).toEqual(many.map(() => 101));
    // One address still has its cap (here too, more than twice it).
    const one = [];
    for (let i = 0; i < cap * 2 + 4; i++) one.push(await upgrade('127.0.10.1'));
    expect(one.filter((r) => r.status === 429).length).toBeGreaterThan(0);
    for (const r of [...many, ...one]) r.ws.terminate();
  });

  it('stops every process it started', async () => {
    const children = [cluster.nginx, ...cluster.apps.map((a) => a.child)];
    await cluster.stop();
    for (const child of children) expect(child.exitCode !== null || child.signalCode !== null).toBe(true);
    await expect(fetch(`${cluster.url}/healthz`)).rejects.toThrow();
  });
});
