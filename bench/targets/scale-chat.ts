/**
 * The scale benchmark's chat load (scale.bench.ts): buyer/seller pairs, every client a stock
 * @stomp/stompjs session through nginx from its own loopback address, sending `rate` messages/s in
 * total for `seconds`; latency is send → the peer's MESSAGE, as in bench:chat (chat.bench.ts). The
 * process nginx chose for each socket is read from the diagnostic X-Upstream header of the 101, so the
 * report can say how many pairs crossed processes (through Redis).
 */
import type { IMessage } from '@stomp/stompjs';
import { Client } from '@stomp/stompjs';
import WebSocket from 'ws';
import { TokenService } from '../../server/src/http/tokens.js';
import { inBatches } from './chat-clients.js';

export interface ChatPair {
  buyer: { id: number; email: string };
  seller: { id: number; email: string };
  listingId: number;
}

export interface ScaleChatResult {
  clients: number;
  rate: number;
  achievedRate: number;
  seconds: number;
  sent: number;
  delivered: number;
  lost: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  crossProcessShare: number;
  disconnects: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function connect(port: number, token: string, index: number): Promise<{ client: Client; upstream: string }> {
  const localAddress = `127.${Math.floor(index / 62500) + 1}.${Math.floor(index / 250) % 250}.${(index % 250) + 1}`;
  let upstream = '';
  return new Promise((resolve, reject) => {
    const client = new Client({
      webSocketFactory: () => {
        const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, ['v12.stomp', 'v11.stomp', 'v10.stomp'], {
          localAddress,
        });
        ws.on('upgrade', (res) => (upstream = String(res.headers['x-upstream'] ?? `127.0.0.1:${port}`)));
        return ws;
      },
      connectHeaders: { Authorization: `Bearer ${token}` },
      reconnectDelay: 0,
      heartbeatIncoming: 10_000,
      heartbeatOutgoing: 10_000,
      debug: () => {},
    });
    const timer = setTimeout(() => reject(new Error('connect timeout')), 30_000);
    client.onConnect = () => {
      clearTimeout(timer);
      resolve({ client, upstream });
    };
    client.onStompError = (f) => {
      clearTimeout(timer);
      reject(new Error(f.headers['message']));
    };
    client.onWebSocketError = () => {
      clearTimeout(timer);
      reject(new Error('websocket error'));
    };
    client.activate();
  });
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export async function chatLoad(options: {
  /** Where client i connects: nginx's port for every client, or (a baseline) the processes' own. */
  portFor: (client: number) => number;
  jwtSecret: string;
  pairs: ChatPair[];
  rate: number;
  seconds: number;
  warmupSeconds: number;
  log: (line: string) => void;
}): Promise<ScaleChatResult> {
  const tokens = new TokenService(options.jwtSecret, Date.now);
  const clients: Client[] = [];
  let stopping = false;
  let disconnects = 0;
  try {
    const sessions = await inBatches(options.pairs.length * 2, 50, async (i) => {
      const pair = options.pairs[Math.floor(i / 2)]!;
      const user = i % 2 === 0 ? pair.buyer : pair.seller;
      const token = await tokens.issue({ userId: user.id, email: user.email, tokenVersion: 0 });
      const s = await connect(options.portFor(i), token, i);
      clients.push(s.client);
      s.client.onWebSocketClose = () => {
        if (!stopping) disconnects++;
      };
      return { ...s, userId: user.id };
    });
    const crossing = options.pairs.filter(
      (_, p) => sessions[2 * p]!.upstream !== sessions[2 * p + 1]!.upstream,
    );
    options.log(
      `chat: ${sessions.length} clients connected through nginx; ${crossing.length} of ${options.pairs.length} pairs on two processes`,
    );
    const sentAt = new Map<number, number>();
    const latencies: number[] = [];
    let delivered = 0;
    const onPeer = (m: IMessage, self: number) => {
      const msg = JSON.parse(m.body) as { senderId: number; content: string };
      if (msg.senderId === self) return;
      const seq = Number(msg.content);
      const t0 = sentAt.get(seq);
      if (t0 === undefined) return;
      sentAt.delete(seq);
      if (seq >= 0) {
        latencies.push(performance.now() - t0);
        delivered++;
      }
    };
    await inBatches(options.pairs.length, 50, async (p) => {
      const pair = options.pairs[p]!;
      const room =
        pair.buyer.id < pair.seller.id
          ? `${pair.buyer.id}:${pair.seller.id}`
          : `${pair.seller.id}:${pair.buyer.id}`;
      await Promise.all(
        [sessions[2 * p]!, sessions[2 * p + 1]!].map(
          (s) =>
            new Promise<void>((resolve) => {
              const receipt = `sub-${s.userId}`;
              s.client.watchForReceipt(receipt, () => resolve());
              s.client.subscribe(`/user/queue/chat/${room}`, (m) => onPeer(m, s.userId), { receipt });
            }),
        ),
      );
    });
    const send = (seq: number, n: number) => {
      const p = n % options.pairs.length;
      const pair = options.pairs[p]!;
      const from = Math.floor(n / options.pairs.length) % 2 === 0 ? sessions[2 * p]! : sessions[2 * p + 1]!;
      sentAt.set(seq, performance.now());
      if (!from.client.connected) return;
      from.client.publish({
        destination: `/app/chat.send/${pair.buyer.id}/${pair.seller.id}`,
        body: JSON.stringify({ content: String(seq), listingId: pair.listingId }),
      });
    };
    const drive = async (seconds: number, counted: boolean) => {
      let sent = 0;
      const start = performance.now();
      const total = Math.round(seconds * options.rate);
      while (sent < total) {
        const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * options.rate));
        for (; sent < due; sent++) send(counted ? sent : -(sent + 1), sent);
        await sleep(5);
      }
      return { sent, seconds: (performance.now() - start) / 1000 };
    };
    options.log(`chat: warm-up ${options.warmupSeconds} s`);
    await drive(options.warmupSeconds, false);
    await sleep(1_000);
    options.log(`chat: measuring ${options.seconds} s at ${options.rate} msg/s`);
    const run = await drive(options.seconds, true);
    let last = Date.now();
    let seen = delivered;
    while (delivered < run.sent && Date.now() - last < 10_000) {
      await sleep(100);
      if (delivered !== seen) {
        seen = delivered;
        last = Date.now();
      }
    }
    const sorted = latencies.sort((a, b) => a - b);
    const round = (x: number) => Math.round(x * 100) / 100;
    return {
      clients: sessions.length,
      rate: options.rate,
      achievedRate: Math.round(run.sent / run.seconds),
      seconds: options.seconds,
      sent: run.sent,
      delivered,
      lost: run.sent - delivered,
      p50: round(percentile(sorted, 50)),
      p95: round(percentile(sorted, 95)),
      p99: round(percentile(sorted, 99)),
      max: round(sorted.at(-1) ?? NaN),
      crossProcessShare: crossing.length / options.pairs.length,
      disconnects,
    };
  } finally {
    stopping = true;
    await Promise.all(clients.map((c) => c.deactivate({ force: true }).catch(() => undefined)));
  }
}
