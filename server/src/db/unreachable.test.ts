import { ERROR_CODES, MESSAGES } from '@campus/contract';
import { afterEach, describe, expect, it } from 'vitest';
import {
  asStudent,
  createPgDatabase,
  createStudent,
  createTestApp,
  dialects,
  type TestApp,
} from '../../test/helper.js';
import { TcpProxy } from '../../test/tcp-proxy.js';

describe.runIf(dialects.includes('postgres'))('PostgreSQL unreachable or restarted', () => {
  let t: TestApp | undefined;
  let proxy: TcpProxy | undefined;
  let drop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await t?.close();
    await proxy?.close();
    await drop?.();
    t = proxy = drop = undefined;
  });

  /** An app whose every database connection goes through a proxy the test controls. */
  async function open() {
    const database = await createPgDatabase();
    drop = database.drop;
    proxy = await TcpProxy.forUrl(database.url).start();
    t = await createTestApp({ databaseUrl: proxy.urlFor(database.url), jobWorker: false });
    return { t, proxy, student: await createStudent(t) };
  }

  it('a read on a connection the server dropped is run again on a fresh one', async () => {
    const { t, proxy, student } = await open();
    for (let round = 0; round < 3; round += 1) {
      proxy.dropConnections();
      const res = await asStudent(t, student, { method: 'GET', url: '/notifications' });
      expect(res.statusCode, res.body).toBe(200);
    }
  });

  it('answers 503 with Retry-After and a message while the database cannot be reached', async () => {
    const { t, proxy, student } = await open();
    await proxy.close();
    const calls = [
      asStudent(t, student, { method: 'GET', url: '/notifications' }),
      asStudent(t, student, { method: 'GET', url: '/users/blocked' }),
      t.app.inject({
        method: 'POST',
        url: '/public/sign-up',
        payload: {
          firstName: 'No',
          lastName: 'Database',
          email: 'no-db@msu.edu',
          password: 'green-and-white-42',
        },
      }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.statusCode, res.body).toBe(503);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.json()).toEqual({ message: MESSAGES.serviceUnavailable, code: ERROR_CODES.unavailable });
    }
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);
  });
});
