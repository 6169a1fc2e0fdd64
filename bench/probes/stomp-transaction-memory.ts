/**
 * Server memory a client can park in one never-committed STOMP transaction.
 *
 *   npx tsx bench/probes/stomp-transaction-memory.ts            (PROBE_MB=60 by default)
 *
 * Starts the real app (SQLite, test configuration) in a child process, signs up one student,
 * opens one STOMP session, BEGINs a transaction and SENDs PROBE_MB megabytes of 60 KB SEND frames
 * in it without COMMIT (a RECEIPT every 50 frames as flow control), then prints the server's RSS,
 * heap and external memory after a full GC, before and after, and whether the server closed the
 * session. The child is stopped at the end.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';

const MB = 1024 * 1024;
const FRAME_BODY = 60 * 1024;

interface Ready {
  type: 'ready';
  url: string;
  token: string;
  buyerId: number;
  sellerId: number;
}
interface Memory {
  type: 'memory';
  rss: number;
  heapUsed: number;
  external: number;
}
type ChildMessage = Ready | Memory;

async function serve(): Promise<void> {
  const { createStudent, createTestApp } = await import('../../server/test/helper.js');
  const { listen } = await import('../../server/src/chat/testing.js');
  const t = await createTestApp();
  const buyer = await createStudent(t);
  const seller = await createStudent(t);
  const url = await listen(t.app);
  const gc = (globalThis as { gc?: () => void }).gc;
  process.on('message', (msg: string) => {
    if (msg === 'measure') {
      gc?.();
      gc?.();
      const m = process.memoryUsage();
      process.send!({ type: 'memory', rss: m.rss, heapUsed: m.heapUsed, external: m.external });
    } else if (msg === 'stop') {
      void t.close().then(() => process.exit(0));
    }
  });
  process.send!({ type: 'ready', url, token: buyer.token, buyerId: buyer.id, sellerId: seller.id });
}

function next(child: ChildProcess): Promise<ChildMessage> {
  return new Promise((resolve) => child.once('message', (m) => resolve(m as ChildMessage)));
}

async function measure(child: ChildProcess): Promise<Memory> {
  child.send('measure');
  return (await next(child)) as Memory;
}

function frame(command: string, headers: Record<string, string>, body = ''): string {
  const lines = Object.entries(headers).map(([k, v]) => `${k}:${v}`);
  return `${command}\n${lines.join('\n')}\n\n${body}\0`;
}

async function main(): Promise<void> {
  const totalMb = Number(process.env.PROBE_MB ?? 60);
  const child = fork(fileURLToPath(import.meta.url), ['serve'], {
    execArgv: [...process.execArgv, '--expose-gc'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const ready = (await next(child)) as Ready;
  const before = await measure(child);

  const ws = new WebSocket(ready.url, ['v12.stomp']);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  let closed = false;
  let errorMessage = '';
  const receipts: string[] = [];
  let wake: (() => void) | null = null;
  ws.on('message', (data: Buffer) => {
    const text = data.toString();
    const id = /receipt-id:(\S+)/.exec(text)?.[1];
    if (text.startsWith('RECEIPT') && id) receipts.push(id);
    if (text.startsWith('ERROR')) errorMessage = /message:([^\n]*)/.exec(text)?.[1] ?? 'ERROR';
    wake?.();
  });
  ws.on('close', () => {
    closed = true;
    wake?.();
  });
  const waitFor = async (check: () => boolean) => {
    while (!check()) await new Promise<void>((r) => (wake = r));
  };

  ws.send(
    frame('CONNECT', {
      'accept-version': '1.2',
      Authorization: `Bearer ${ready.token}`,
      'heart-beat': '0,0',
    }),
  );
  ws.send(frame('BEGIN', { transaction: 'tx', receipt: 'begin' }));
  await waitFor(() => receipts.includes('begin') || closed);

  const destination = `/app/chat.send/${ready.buyerId}/${ready.sellerId}`;
  const body = JSON.stringify({ content: 'x'.repeat(FRAME_BODY - 40), listingId: 1 });
  const frames = Math.ceil((totalMb * MB) / body.length);
  let sent = 0;
  for (let i = 0; i < frames && !closed; i++) {
    const last = i % 50 === 49 || i === frames - 1;
    ws.send(frame('SEND', { destination, transaction: 'tx', ...(last ? { receipt: `r${i}` } : {}) }, body));
    sent += body.length;
    if (last) await waitFor(() => receipts.includes(`r${i}`) || closed);
  }
  const after = await measure(child);
  const mib = (n: number) => `${(n / MB).toFixed(1)} MiB`;
  const delta = (k: keyof Omit<Memory, 'type'>) =>
    `${mib(after[k] - before[k])} (${mib(before[k])} -> ${mib(after[k])})`;
  console.log(`sent in one uncommitted transaction: ${mib(sent)}`);
  console.log(`session: ${closed ? `closed by the server (ERROR "${errorMessage}")` : 'still open'}`);
  console.log(`server RSS delta:      ${delta('rss')}`);
  console.log(`server heapUsed delta: ${delta('heapUsed')}`);
  console.log(`server external delta: ${delta('external')}`);
  ws.terminate();
  child.send('stop');
  await new Promise((r) => child.once('exit', r));
}

if (process.argv[2] === 'serve') await serve();
else await main();
