/**
 * Login latency while Redis (rate-limit counters) hangs: Redis is reached through a TCP proxy that
 * is frozen after one student signs up; then LOGINS logins run one after another and each one's
 * wall time is printed. Also the same with Redis gone (proxy closed), counting 5xx answers.
 *
 *   TEST_REDIS_URL=redis://127.0.0.1:6379 npx tsx bench/probes/login-redis-hung.ts
 */
import { performance } from 'node:perf_hooks';
import { createStudent, createTestApp } from '../../server/test/helper.js';
import { TcpProxy } from '../../server/test/tcp-proxy.js';

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const LOGINS = Number(process.env.LOGINS ?? 5);
/** Gives up on one login after this long (the old code waited up to ~31 s). */
const GIVE_UP_MS = 40_000;

async function run(mode: 'hung' | 'gone'): Promise<void> {
  const proxy = await TcpProxy.forUrl(redisUrl).start();
  const t = await createTestApp({ redis: true, env: { REDIS_URL: proxy.urlFor(redisUrl) } });
  try {
    const s = await createStudent(t);
    if (mode === 'hung') proxy.freeze();
    else await proxy.close();
    const times: number[] = [];
    const statuses: number[] = [];
    for (let i = 0; i < LOGINS; i += 1) {
      const started = performance.now();
      const res = await Promise.race([
        t.app.inject({
          method: 'POST',
          url: '/public/login',
          payload: { email: s.email, password: s.password },
        }),
        new Promise<{ statusCode: number }>((resolve) =>
          setTimeout(() => resolve({ statusCode: 0 }), GIVE_UP_MS),
        ),
      ]);
      times.push(performance.now() - started);
      statuses.push(res.statusCode);
    }
    const sorted = [...times].sort((a, b) => a - b);
    const ms = (v: number) => `${v.toFixed(0)} ms`;
    console.log(
      `Redis ${mode}: ${LOGINS} logins, median ${ms(sorted[Math.floor(sorted.length / 2)]!)}, max ${ms(sorted[sorted.length - 1]!)}; ` +
        `statuses ${statuses.join(' ')} (0 = no answer within ${GIVE_UP_MS / 1000} s)`,
    );
  } finally {
    proxy.thaw();
    await proxy.close();
    await t.close();
  }
}

await run('hung');
await run('gone');
process.exit(0);
