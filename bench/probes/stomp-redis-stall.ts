/**
 * RECEIPT delay of chat SENDs while Redis hangs.
 *
 *   PROBE_REDIS_URL=redis://127.0.0.1:6379 npx tsx bench/probes/stomp-redis-stall.ts
 *
 * Starts the real app (SQLite, test configuration) with REDIS_URL pointing at a TCP proxy in front
 * of the real Redis, signs up two students, opens one STOMP session and freezes the proxy (every
 * connection stays open, no byte moves: a hung Redis). Then sends one message a second for
 * PROBE_SECONDS (10) and prints each one's RECEIPT delay (or its refusal), thaws the proxy, and
 * prints the delays of the receipts that were still outstanding.
 */
import { CHAT_LIMIT_MESSAGES } from '@campus/contract';
import { createListing, listen } from '../../server/src/chat/testing.js';
import { createStudent, createTestApp } from '../../server/test/helper.js';
import { TcpProxy } from '../../server/test/tcp-proxy.js';
import WebSocket from 'ws';

const SECONDS = Number(process.env.PROBE_SECONDS ?? 10);
const redisUrl = process.env.PROBE_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

function frame(command: string, headers: Record<string, string>, body = ''): string {
  const lines = Object.entries(headers).map(([k, v]) => `${k}:${v}`);
  return `${command}\n${lines.join('\n')}\n\n${body}\0`;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const proxy = TcpProxy.forUrl(redisUrl);
  const host = (await proxy.start()).address;
  const t = await createTestApp({ env: { REDIS_URL: `redis://${host}` } });
  const buyer = await createStudent(t);
  const seller = await createStudent(t);
  const listingId = await createListing(t, seller.id);
  const url = await listen(t.app);

  const ws = new WebSocket(url, ['v12.stomp']);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const sentAt = new Map<string, number>();
  const outcome = new Map<string, string>();
  ws.on('message', (data: Buffer) => {
    const text = data.toString();
    const receipt = /receipt-id:(\S+)/.exec(text)?.[1];
    if (text.startsWith('RECEIPT') && receipt && sentAt.has(receipt)) {
      outcome.set(receipt, `RECEIPT after ${Date.now() - sentAt.get(receipt)!} ms`);
    }
    const refused = /"receiptId":"([^"]+)"/.exec(text)?.[1];
    if (text.startsWith('MESSAGE') && refused) {
      const why = text.includes(CHAT_LIMIT_MESSAGES.sendRateLimited) ? 'refused: too fast' : 'refused';
      outcome.set(refused, `${why} after ${Date.now() - sentAt.get(refused)!} ms`);
    }
  });
  ws.send(
    frame('CONNECT', {
      'accept-version': '1.2',
      Authorization: `Bearer ${buyer.token}`,
      'heart-beat': '0,0',
    }),
  );
  ws.send(frame('SUBSCRIBE', { id: 'e', destination: '/user/queue/errors' }));
  await sleep(300);

  proxy.freeze();
  console.log(`Redis frozen; sending one message a second for ${SECONDS} s`);
  const destination = `/app/chat.send/${buyer.id}/${seller.id}`;
  for (let i = 0; i < SECONDS; i++) {
    const id = `m${i}`;
    t.clock.advance(1_000); // the app's clock follows real time for the SEND rate limit
    sentAt.set(id, Date.now());
    ws.send(
      frame('SEND', { destination, receipt: id }, JSON.stringify({ content: `message ${i}`, listingId })),
    );
    await sleep(1_000);
  }
  const whileHung = [...sentAt.keys()].map((id) => `${id}: ${outcome.get(id) ?? 'no answer yet'}`);
  console.log('while Redis hangs (1 s after each send):');
  for (const line of whileHung) console.log(`  ${line}`);

  proxy.thaw();
  const deadline = Date.now() + 60_000;
  while (outcome.size < sentAt.size && Date.now() < deadline) await sleep(100);
  console.log('after Redis answers again:');
  for (const id of sentAt.keys()) console.log(`  ${id}: ${outcome.get(id) ?? 'never answered (60 s)'}`);
  ws.terminate();
  await t.close();
  await proxy.close();
}

await main();
