/**
 * How long an offer accept takes to answer while Redis hangs (deals/tx.ts publishes after the
 * commit). A TCP proxy in front of Redis is frozen after set-up; each accept is timed until its
 * answer, or counted as unanswered after PROBE_BOUND_MS (default 20 s).
 *
 *   TEST_REDIS_URL=redis://127.0.0.1:6379 npx tsx bench/probes/deal-redis-stall.ts
 *   (TEST_DATABASE_URL=postgres://… as well for PostgreSQL; PROBE_ROUNDS, default 5)
 */
import { createStudent, createTestApp } from '../../server/test/helper.js';
import { createListing } from '../../server/src/chat/testing.js';
import { call, offer } from '../../server/src/deals/testing.js';
import { TcpProxy } from '../../server/test/tcp-proxy.js';

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const rounds = Number(process.env.PROBE_ROUNDS ?? 5);
const boundMs = Number(process.env.PROBE_BOUND_MS ?? 20_000);
const dialect = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

const proxy = await TcpProxy.forUrl(redisUrl).start();
const t = await createTestApp({ dialect, jobWorker: false, env: { REDIS_URL: proxy.urlFor(redisUrl) } });
const seller = await createStudent(t, { firstName: 'Maya' });
const buyer = await createStudent(t, { firstName: 'Ben' });
const offers: number[] = [];
for (let i = 0; i < rounds; i++) {
  offers.push((await offer(t, buyer, await createListing(t, seller.id), 10)).id);
}
proxy.freeze();
const delays: number[] = [];
let unanswered = 0;
for (const id of offers) {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const answer = await Promise.race([
    call(t, seller, 'POST', `/offers/${id}/accept`).then((r) => r.statusCode),
    new Promise<'hung'>((resolve) => {
      timer = setTimeout(() => resolve('hung'), boundMs);
    }),
  ]);
  clearTimeout(timer);
  if (answer === 'hung') unanswered++;
  else delays.push(performance.now() - started);
}
delays.sort((a, b) => a - b);
const p50 = delays.length ? delays[Math.floor(delays.length / 2)]!.toFixed(1) : '-';
console.log(
  `${dialect}: ${rounds} accepts with Redis frozen — answered ${delays.length} (p50 ${p50} ms, max ${
    delays.length ? delays[delays.length - 1]!.toFixed(1) : '-'
  } ms), unanswered after ${boundMs} ms: ${unanswered}`,
);
await proxy.close();
await t.close();
process.exit(0);
